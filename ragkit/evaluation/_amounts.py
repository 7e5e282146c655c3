"""A claim of several amounts, one of them not the passage's: "초급반은 일주일에 두 번 열리고, 정원은 스무 명이며,
수업은 세 시간씩 진행됩니다" against "일주일에 세 번 …, 정원은 열두 명 …, 두 시간씩".

The number cloze leaves a claim of more than ``MAX_BLANKS`` numbers to the check (the small judge's choices for three
blanks contradicted right claims), and the check reads such a claim by its words: it called the claim above entailed
(bench/README.md, session 47). Each amount is read with its counter, the word after it ("번", "명", "weeks"): an amount
whose counter the passage also counts, but never with that value, is another value for the same kind of thing, and
the claim, which states it as one fact with the others, is contradicted.
"""

from __future__ import annotations

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import holds, read, readings
from ragkit.evaluation._values import MAX_BLANKS
from ragkit.text import FUNCTION_WORDS, number_spans, numbers, quantities


def counted(text: str) -> dict[str, set[str]]:
    """The values ``text`` gives each counter: {"번": {"3"}, "명": {"12"}, "week": {"8"}}."""
    out: dict[str, set[str]] = {}
    for value, unit in quantities(text):
        if counter := _counter(unit):
            out.setdefault(counter, set()).add(value)
    return out


def _counter(unit: str) -> str:
    """A number's counter (``quantities``), an English one without its plural "s"; a function word or a sign is
    none ("in 2019 the …", "%")."""
    if unit in FUNCTION_WORDS or not unit.isalpha():
        return ""
    return unit[:-1] if unit.isascii() and len(unit) > 3 and unit.endswith("s") else unit


def amount_differs(passage: str, claim: str, asked: str = "") -> bool:
    """Whether ``claim``, stating more than ``MAX_BLANKS`` numbers, gives one of them with a counter that the passage
    counts only with other values. A value the question ``asked`` states is the question's, not the claim's ("in
    2023" asked of a passage that never writes the year)."""
    if len(numbers(claim)) <= MAX_BLANKS or not _same_topic(passage, claim, asked):
        return False
    given, asked_values = counted(passage), set(numbers(asked))
    return any(counter in given and not values & (given[counter] | asked_values)
               for counter, values in counted(claim).items())


_PER = frozenset({"주", "매", "週", "毎", "每", "周", "week", "weekly", "per", "each", "every"})
"""Words that say how often, not what of: "주 3회", "週3回", "twice a week"."""


def _same_topic(passage: str, claim: str, asked: str) -> bool:
    """Whether the passage, or the question ``asked`` both answer, holds every word the claim says before its first
    amount, its topic: "標準の勤務時間は午前8時30分から…" is about other hours than a passage that gives only 熊本工場's
    shifts, and their times are no other values of its own."""
    spans = number_spans(claim)
    language = rule_language(passage, claim)
    topic = [w for w in read(claim[: spans[0][0]], language).words if w not in _PER] if spans else []
    known = [w for _, reading, _ in readings(passage, language) for w in reading.words] + read(asked, language).words
    return holds(known, topic) if topic else True
