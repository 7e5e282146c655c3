"""A fact of one thing said of its sibling: "Kelby Island is served by the Osprey ferry" against "The Marlin ferry
serves Kelby Island … The Osprey ferry serves Tarn Island and carries bicycles".

The small judge checks a claim by its topic, and a passage that describes two things of one kind side by side
(two islands, two warehouses, two branches) speaks of the claim's topic either way: on 12 such swaps in four
languages it called 7 entailed (bench/README.md, session 44). The passage's own words settle it without a call.

Siblings are names that share a head word and differ in the word before it: "Kelby Island" and "Tarn Island",
"城东仓库" and "城西仓库", "대전 연구소" and "광주 연구소", "札幌支店" and "福岡支店". A claim that names one of them
and uses a word that the passage writes only in sentences naming a sibling, never in one naming the claim's own
thing, says of it what the passage says of the sibling (``said_of_sibling``). A sentence that names neither ("It
leaves from Pier 4") does not count against the claim: it may speak of either.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from ragkit.text import (
    FUNCTION_WORDS,
    HIRAGANA,
    chinese_tagged,
    cjk_language,
    is_noun,
    morphemes,
    normalise,
    search_terms,
    split_sentences,
    tokens,
)

_LATIN_PAIR = re.compile(r"\b(?=([A-Z][A-Za-z0-9'’-]*)\s+([A-Za-z][A-Za-z-]+))")  # overlapping: "The Porto plant"
_MODEL_CODE = re.compile(r"(?<![A-Za-z0-9])([A-Z]{1,5})-?\d[A-Za-z0-9-]*(?![A-Za-z0-9])")
"""A model code: capitals, then a digit ("CB-3", "K10", "HS-8"), also between CJK characters ("旧款CB-2还")."""
_HIRAGANA = re.compile(f"[{HIRAGANA}]+")
_CLAUSE_END = re.compile(r"[;；]")
_PROPER_ZH = frozenset({"nr", "ns", "nt", "nz"})
"""jieba's flags of a person's, a place's, an organisation's and another proper name."""


@dataclass(frozen=True)
class Name:
    """A name as its two parts: the word that tells it from its siblings, and the head word they share."""

    modifier: str
    head: str


def _pairs(text: str) -> set[Name]:
    """Every (modifier, head) pair of ``text`` that could be a name: a capitalised word and the word after it; a
    model code and its series' letters ("CB-3" of "CB"; its siblings "CB-2", "CB-10"); in
    Chinese, Japanese and Korean, a proper noun and the noun after it, as the tagger reads them ("城东" "仓库",
    "札幌" "支店", "대전" "연구소"). A common word before a noun ("部分岚山", "提供白茶") is no name's part."""
    out = {Name(m.lower(), h.lower()) for m, h in _LATIN_PAIR.findall(text)
           if m.lower() not in FUNCTION_WORDS and h.lower() not in FUNCTION_WORDS}
    out |= {Name(m.group().lower(), m.group(1).lower()) for m in _MODEL_CODE.finditer(text)}
    language = cjk_language(text)
    if language == "zh":
        tagged = chinese_tagged(text)
        out |= {Name(a, b) for (a, ta), (b, tb) in zip(tagged, tagged[1:], strict=False)
                if ta in _PROPER_ZH and tb.startswith("n") and len(a) >= 2}
    elif language in ("ja", "ko"):
        parsed = morphemes(text, language) or []
        out |= {Name(a, b) for (a, fa, _), (b, fb, _) in zip(parsed, parsed[1:], strict=False)
                if _proper(fa, language) and _noun(fb, language)}
    return out


def _proper(features: list[str], language: str) -> bool:
    return features[:2] == ["名詞", "固有名詞"] if language == "ja" else features[0] == "NNP"


def _noun(features: list[str], language: str) -> bool:
    return is_noun(features, language, korean=("NNG", "NNP"), skip=("接尾",))


def siblings(passage: str) -> dict[str, set[str]]:
    """Head word → the modifiers it takes in ``passage``, for the heads that take two or more."""
    by_head: dict[str, set[str]] = defaultdict(set)
    for name in _pairs(passage):
        by_head[name.head].add(name.modifier)
    return {head: mods for head, mods in by_head.items() if len(mods) >= 2}


def _after(text: str, name: str) -> set[str]:
    """The words ``text`` writes right after ``name``: "scanner" after "k1" in "the Kestrel K1 scanner". Written after
    the claim's own name and a sibling's, it is the kind of thing both are, no fact of the sibling: the split wrote
    the question's "scanner" into "The Kestrel K2 scanner was released on 2023-02-09", a passage wrote "the Kestrel
    K1 scanner shipped …", and the reference was called neutral (bench/README.md, session 60)."""
    return set(re.findall(rf"(?<![\w-]){re.escape(name)}\s+([^\W\d_][\w-]*)", text.lower()))


@lru_cache(maxsize=64)
def _read(passage: str) -> tuple[dict[str, set[str]], list[str], list[set[str]], dict[str, set[str]]]:
    """The passage's sibling families, its clauses (normalised, as names are compared), each clause's terms, and
    the words it writes right after each sibling (``_after``): read once for all the claims checked against it
    (tagging a long passage takes tens of milliseconds)."""
    family = siblings(passage)
    clauses = [c for s in split_sentences(passage) for c in _CLAUSE_END.split(s) if c.strip()]
    after = {m: _after(passage, m) for mods in family.values() for m in mods}
    return family, [normalise(c) for c in clauses], [set(search_terms(c)) for c in clauses], after


def said_of_sibling(passage: str, claim: str) -> str | None:
    """The word of ``claim`` that ``passage`` writes only of a sibling of the thing the claim names (see the
    module docstring), or None."""
    family, clauses, terms, after = _read(passage)
    if not family:
        return None
    named = [n for n in _pairs(claim) if n.modifier in family.get(n.head, ())]
    if not named:
        return None
    # Japanese by its words, not by character pairs, which cross into endings ("売し" of "発売しました"), and no run
    # of hiragana (endings and particles: "まし")
    found = tokens(claim) if cjk_language(claim) == "ja" else search_terms(claim)
    words = {t for t in found if len(t) >= 2 and t not in FUNCTION_WORDS and not _HIRAGANA.fullmatch(t)}
    for name in named:
        others = family[name.head] - {n.modifier for n in named}
        # the claim may name a sibling beside its own thing ("Kelby Island is 3 km from Tarn"): that is no fact
        # of the sibling said of it
        parts = (name.modifier, name.head, *others)
        own = {*parts} | {t for part in parts for t in search_terms(part)} | \
            (_after(claim, name.modifier) & {w for o in others for w in after[o]})
        for word in sorted(words - own):
            where = [c for c, ts in zip(clauses, terms, strict=True) if word in ts]
            if where and all(name.modifier not in c and any(o in c for o in others) for c in where):
                return word
    return None
