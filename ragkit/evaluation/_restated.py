"""A clause of the passage said again with one of its values changed: "v2.1.0 までは Python 3.7 でも動作します"
against "v1.8.3 までは Python 3.7 でも動作します", "사용자 사전 기능은 v1.4.0에서 추가되었습니다" against "v1.3.2에서
사용자 사전 기능이 추가되었습니다", "4호 매장을 열었다" against "2018년에 2호 매장을 열었다".

The small judge checks such a claim by its topic, which is the clause's own, and the value cloze that reads its
numbers again does not always choose the clause's value: on the native llama.cpp build the version and year probes
kept three such wrong claims entailed (bench/README.md, sessions 62 and 63).

Every word of the claim stands in one clause of the passage, the clause states all the claim's numbers but one, and
in that one's place it states another value of the same kind (the same count of numbers, or a number counted as the
claim's is: 호, 年, 원). No clause with the claim's words states the claim's value, so the claim is contradicted
without a call. Values are compared as the passage writes them (``as_written_in`` has run: "90분" against "1.5시간" is
one value), and versions by their parts ("2.0.0" is "2.0"). A claim that negates, that bounds its value otherwise
than the clause does, or that rounds it near the clause's value ("about 360 million" against "358 million") is left
to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ragkit.evaluation._bounds import Bound, bound_at
from ragkit.evaluation._claim_text import goes_on, rule_language
from ragkit.evaluation._polarity import Reading, read
from ragkit.evaluation._together import clauses, year_at
from ragkit.evaluation._versions import same_version
from ragkit.text import has_word, number_spans, number_value, unit_after

_ROUNDED = re.compile(
    r"\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|circa|c\.)\s*$|"
    r"(?:约|大约|近|将近|差不多|약|대략|거의|約|およそ|ほぼ)\s*$", re.IGNORECASE)
"""Words before a number that round it: the value may differ from the passage's and still be right."""
_ROUNDED_AFTER = re.compile(r"^\s*\S{0,3}?\s*(?:左右|上下|余|多|가량|정도|쯤|前後|ほど|程度|ish)")
_NEAR = 0.1
"""How far a rounded value may stand from the passage's ("about 360 million" for 358 million)."""
_MIN_WORDS = 2
"""A claim of fewer words names too little to be one clause's."""

Value = tuple[str, str, Bound | None]
"""A number as compared here, with its kind and its bound: ("2", "호", None), ("2018", "year", None), ("1.8.3", "",
"upper") of "v1.8.3 までは"."""


def other_value(passage: str, claim: str) -> bool:
    """Whether ``claim`` is a clause of ``passage`` with one of its values changed, and no clause of the passage with
    the claim's words states the claim's value. The question's words do not count for the clause's: with them, a
    clause about another thing held a right claim's words ("MacBERT纠错模型是在v1.0.4版本加入的" against "1.1.2 版本加入
    了 ChatGLM 微调" and a question naming MacBERT纠错模型)."""
    own = _values(claim)
    language = rule_language(passage, claim)
    reading = read(claim, language)
    words = _words(reading)
    if not own or len(words) < _MIN_WORDS or reading.scopes or goes_on(claim):  # "It costs 5 euros": of what?
        return False
    rounded, changed = _rounded(claim), False
    for held, theirs in _read_clauses(passage, language):
        if not all(has_word(held, w) for w in words):
            continue
        missing = [v for v in own if not any(_same(v, t) for t in theirs)]
        if not missing:
            return False  # a clause with the claim's words states its values
        if len(missing) == 1 and _in_its_place(missing[0], own, theirs):
            changed = changed or not (rounded and _near(missing[0], theirs))
    return changed


@lru_cache(maxsize=64)
def _read_clauses(passage: str, language: str) -> tuple[tuple[tuple[str, ...], tuple[Value, ...]], ...]:
    """Each clause of the passage as compared here, its words and its values: read once per passage (with MeCab, in
    Japanese and Korean), not again for every claim."""
    return tuple((tuple(_words(read(c, language))), tuple(_values(c))) for c in clauses(passage))


def _in_its_place(value: Value, own: list[Value], theirs: Sequence[Value]) -> bool:
    """Whether the clause's values ``theirs`` hold another value where the claim states ``value``: the claim's other
    values and one more, or a value of the same kind that the claim does not state."""
    unmatched = [t for t in theirs if not any(_same(o, t) for o in own)]
    if len(theirs) == len(own):
        return len(unmatched) == 1 and unmatched[0][2] == value[2]
    return bool(value[1]) and any(t[1:] == value[1:] for t in unmatched)


def _values(text: str) -> list[Value]:
    """``text``'s numbers, each with its kind ("year" for a year, else what counts it: ``unit_after``, or "") and
    the way it is bounded: a value bounded otherwise than the passage's ("at most 12 kg" for "up to 10 kg") may
    still be true, one bounded alike ("v2.1.0 までは" for "v1.8.3 までは") is another value in its place."""
    return [(number_value(text[a:b]), "year" if year_at(text, a, b) else unit_after(text, b), bound_at(text, a, b))
            for a, b in number_spans(text)]


def _same(a: Value, b: Value) -> bool:
    return a[0] == b[0] or same_version(a[0], b[0])


def _words(reading: Reading) -> list[str]:
    """A reading's words without its numbers: the words a clause must hold."""
    return [w for w in reading.words if not any(ch.isdigit() for ch in w)]


def _rounded(claim: str) -> bool:
    """Whether the claim rounds one of its numbers ("约2.4亿元", "about 360 million")."""
    return any(_ROUNDED.search(claim[:a]) or _ROUNDED_AFTER.match(claim[b:]) for a, b in number_spans(claim))


def _near(value: Value, theirs: Sequence[Value]) -> bool:
    """Whether a value of the clause is within a tenth of ``value``, which a rounded claim may say it is."""
    try:
        own = float(value[0])
        return any(abs(float(t[0]) - own) <= _NEAR * max(abs(own), abs(float(t[0]))) for t in theirs)
    except ValueError:
        return False
