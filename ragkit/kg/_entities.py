"""Entity names to normalised keys, so that variants of one entity become one graph node.

The key is deterministic per name (no clustering), which keeps it cheap and incremental: Unicode NFKC, case
folded, punctuation and possessives removed, and conservative variant rules: a leading article ("the Acme
Group"), leading honorifics ("Dr. Jane Smith") and trailing legal forms ("Acme Robotics Ltd", "青岚茶业有限公司")
are dropped when a name remains. Names that differ otherwise ("Jane" vs "Jane Smith") stay apart on purpose:
merging them would need context a key cannot see.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from ragkit.kg._graph import EntityMention, EntityNode
from ragkit.text import BRACKETS, CJK_CHAR

ENTITY_TYPES = ("person", "organization", "product", "place", "event", "work", "other")

_ARTICLES = frozenset("the a an le la les l der die das el los las il lo gli de het een".split())
_HONORIFICS = frozenset(
    "mr mrs ms miss mx dr prof professor sir dame madam mme mlle m herr frau sr sra srta dott ing ceo cto cfo coo"
    .split()
)
_LEGAL = frozenset(
    "ltd limited inc incorporated plc llc llp gmbh ag sa sas sarl bv nv srl spa pty corp corporation co kg oy ab as"
    .split()
)
_CJK_LEGAL = ("股份有限公司", "有限责任公司", "有限公司", "株式会社", "주식회사")
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_CJK_SPLIT = re.compile(f"({CJK_CHAR.pattern})")


def _folded(text: str) -> str:
    """``text`` as keys compare it: NFKC, case folded, apostrophes unified, possessive 's dropped."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'").replace("`", "'")
    return re.sub(r"(?<=\w)'s\b", "", text)


@lru_cache(maxsize=1 << 16)
def entity_key(name: str) -> str:
    """The normalised key of an entity name ("" when nothing is left).

    Examples:
        >>> entity_key("Dr. Jane Smith")
        'jane smith'
        >>> entity_key("The Acme Robotics Ltd.")
        'acme robotics'
        >>> entity_key("Acme's")
        'acme'
    """
    text = _folded(name)
    for suffix in _CJK_LEGAL:
        if text.endswith(suffix) and len(text) > len(suffix) + 1:
            text = text[: -len(suffix)]
    tokens = _TOKEN.findall(text)
    if len(tokens) > 1 and tokens[0] in _ARTICLES:
        tokens = tokens[1:]
    while len(tokens) > 1 and tokens[0] in _HONORIFICS:
        tokens = tokens[1:]
    while len(tokens) > 1 and tokens[-1] in _LEGAL:
        tokens = tokens[:-1]
    return " ".join(tokens)


_TRIMMED = " \t\"'“”‘’`*#|-–—:;,."


def clean_name(name: str) -> str:
    """A surface form tidied for display: whitespace collapsed, stray quotes and punctuation trimmed, and the part
    of a bracket the name opens and never closes left out (``unclosed``)."""
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    name = unclosed(name.strip(_TRIMMED) or name).strip(_TRIMMED) or name.strip()
    if len(name) > 2 and name[0] + name[-1] in BRACKETS and name.count(name[0]) == 1:
        name = name[1:-1].strip()  # "(Eindhoven)"; a bracket that closes one inside stays: "Robot Vision (Eindhoven)"
    first, _, rest = name.partition(" ")
    return rest if rest and first.lower() in ("the", "a", "an") else name


def unclosed(name: str) -> str:
    """``name`` up to a bracket it opens and never closes, or after one it closes and never opened: the tagger's
    span ended inside the bracket. spaCy's English model, reading a line of names with their Chinese forms or an
    address in brackets, gave "Xuancheng Ren(任宣丞" of "Xuancheng Ren（任宣丞）" and "BYVoid(byvoid.kcp@gmail.com" of
    "BYVoid(byvoid.kcp@gmail.com) 所開發", and these became the topics of questions. The other side is kept when the
    cut leaves no letter ("(Eindhoven" gives "Eindhoven")."""
    for pair in BRACKETS:
        left, right = pair[0], pair[1]
        opened, closed = name.count(left), name.count(right)
        if opened > closed:
            at = name.rfind(left)
            before, after = name[:at], name[at + 1:]
        elif closed > opened:
            at = name.find(right)
            after, before = name[:at], name[at + 1:]
        else:
            continue
        name = (before if any(ch.isalpha() for ch in before) else after).strip()
    return name


def usable(mention: EntityMention) -> bool:
    """Whether an extracted mention is worth a node: it has letters, is not too long or too short."""
    name = mention.name.strip()
    letters = sum(ch.isalpha() for ch in name)
    return 0 < len(name) <= 80 and letters >= (1 if any(ord(ch) > 0x2E80 for ch in name) else 2)


def build_entity(key: str, mentions: Iterable[EntityMention]) -> EntityNode:
    """One entity node from all mentions of ``key``: the commonest surface form and type, the others as aliases."""
    mentions = list(mentions)
    names = Counter(clean_name(m.name) for m in mentions)
    types = Counter(m.type for m in mentions if m.type != "other") or Counter(m.type for m in mentions)
    name = max(names, key=lambda n: (names[n], n[:1].isupper(), -len(n), n))
    kind = max(types, key=lambda t: (types[t], t)) if types else "other"
    aliases = sorted(n for n in names if n != name)[:20]
    return EntityNode(id=key, name=name, type=kind, aliases=aliases)


@lru_cache(maxsize=4096)
def _searchable(text: str) -> tuple[str, str]:
    """``text`` as entity keys see it: its tokens space-padded (word-bounded search), and without spaces (CJK)."""
    tokens = _TOKEN.findall(_CJK_SPLIT.sub(r" \1 ", _folded(text)))  # "k10的规格": a Latin name ends at CJK text
    return f" {' '.join(tokens)} ", "".join(tokens)


def mentioned_in(name: str, text: str) -> bool:
    """Whether ``text`` mentions ``name``: its key's words in a row, or, for a name in a CJK script (no spaces
    between words), its key as a substring.

    Examples:
        >>> mentioned_in("Dr. Jane Smith", "Jane Smith's team met.")
        True
        >>> mentioned_in("Ann", "Anna met Joanne.")
        False
        >>> mentioned_in("诺德面粉公司", "面粉由诺德面粉公司供应。")
        True
    """
    key = entity_key(name)
    if not key:
        return False
    words, joined = _searchable(text)
    if CJK_CHAR.search(key):
        return key.replace(" ", "") in joined
    return f" {key} " in words
