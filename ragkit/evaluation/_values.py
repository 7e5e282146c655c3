"""A claim's numbers checked by choice, not by verification.

Asked whether a passage supports "the HS-5 came out in 2004", the embedded 1.5B judge reads a passage that names
the HS-5 and says 2004 somewhere (of another product, on the next list line) as support: it checks the topic,
not which value belongs to which fact. Asked to fill the blank of "the HS-5 came out in [0]" from the passage's
own numbers, it picks the right year with near certainty (bench/README.md, "Values checked by choice"). So a
claim that states a number, and that the check found the passage to speak about, is asked again as a cloze:

- each number of the claim (of a claim that states one or two) is blanked, and the judge chooses the passage's
  value for each blank among the numbers of the passage, the claim's own number (written another way in the
  passage, "five" for "5", it can still be chosen) and "none" (the passage does not give the fact);
- one call per group of claims, all blanks of the group together.

The two answers are read together. Whether the passage speaks of the fact at all, ``m``, is the larger of the
check's P(supported) + P(contradicted) and the cloze's 1 - P(none): the cloze finding the fact's slot is good
evidence, its "none" is not (in Korean it often abstains on a fact the passage states). Whether the value is the
passage's, ``q``, is the cloze's P(the claim's number | a number chosen) as far as the cloze chose a number
(1 - P(none)), and the check's P(supported | spoken of) for the rest: on the validity cases the check was sure
(0.97) of a wrong year that the cloze rejected, so the check's certainty must not outvote the cloze. The claim
is then entailed with probability ``m · q``, contradicted with ``m · (1 - q)`` and not mentioned with ``1 - m``;
a claim with several numbers takes its weakest.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ragkit.evaluation._verdicts import Label, Verdict
from ragkit.evaluation._versions import same_version
from ragkit.llm import Prompt, numbered_labels
from ragkit.text import (
    date_forms,
    date_of,
    month_forms,
    number_spans,
    number_value,
    numbers,
    unit_after,
    year_and_month,
)

NONE = "none"
MAX_BLANKS = 2
"""Most numbers a claim may state to be asked (an atomic claim rarely states more; see ``blanked``)."""
MAX_OPTIONS = 64
"""A passage's numbers offered for a blank, in order of appearance (the claims' own numbers always are)."""


def mark(k: int) -> str:
    """How blank number ``k`` stands in a statement (``MARK`` finds it)."""
    return f"[{k}]"


MARK = re.compile(r"\[(\d+)\]")


class ClozeInput(BaseModel):
    question: str
    passage: str
    statements: str


class ClozeAloneInput(BaseModel):
    """A cloze with no question to read the passage by (an answer's claims against the retrieved contexts)."""

    passage: str
    statements: str


_CLOZE_INSTRUCTION = """\
Each statement has numbered blanks: [0], [1], and so on. For each blank number, choose the value that the passage \
gives for that blank, from the values allowed. Choose "none" when the passage does not state that fact.{asked} Use \
only the passage; ignore what you know."""
_ASKED = " Read the passage together with its question."


def cloze_prompt(n: int, options: Sequence[str], *, asked: bool = True) -> Prompt[Any, Any]:
    """The cloze prompt for ``n`` blanks, each filled with one of ``options``; without ``asked``, for a passage
    read by no question (``ClozeAloneInput``), with no question section. Shown one that read "(none)", the 1.5B
    judge took that word for its answer: on validity's zh-version-model it filled "pycorrector [0] 版本新增了
    MacBERT 纠错模型" with "none" (p = 1.0) for the right answer and the wrong one alike, so faithfulness let the
    wrong one's 1.1.2, the passage's value of another fact, through on the check's 0.87; with no question section
    it chose 1.0.4 (bench/README.md, session 61)."""
    values = enum.Enum("Value", [(f"v{i}", v) for i, v in enumerate(options)], type=str)  # type: ignore[misc]
    return Prompt(
        name="claims.values",
        instruction=_CLOZE_INSTRUCTION.format(asked=_ASKED if asked else ""),
        input=ClozeInput if asked else ClozeAloneInput,
        output=numbered_labels(f"Values{n}", n, values, prefix="c", optional=True, bare_labels=True),
        max_tokens=16 + 14 * n,
    )


@dataclass(frozen=True)
class Blank:
    """One number of one claim, blanked."""

    claim: int
    """Index of the claim in its group."""
    value: str
    """The blanked number, in ``number_value`` form."""
    unit: str = ""
    """What counts it in the claim (``unit_after``): "℃" of "高约8℃", "kg", "명"; "" for nothing."""
    date: bool = False
    """Whether it is a whole date, as written ("2024.09.02")."""


def blanked(claims: Sequence[str], ask: Sequence[bool], stated: Sequence[str],
            asked: str = "") -> tuple[list[str], list[Blank]]:
    """The claims marked in ``ask`` with their numbers replaced by numbered blanks, and the blanks in number
    order. The numbers the question ``asked`` states stay (they say what is asked about, "the 青禾7号", "in 2019",
    not what a claim answers). All blanks of a claim stand in one statement: asked one blank at a time with the
    others in view, the small judge filled the second with the first's value ("2019年[1]月" → 2019).

    A claim is blanked only when the passage states a number it does not (``stated``: the passage's
    ``numbers``): with nothing to choose instead, the
    cloze can only repeat the claim's own number or abstain, which tells nothing (a reference "12 kg" checked
    against an answer "12 kg"). A claim stating more than ``MAX_BLANKS`` numbers is left to the check: it is
    several facts the split did not take apart, and on the labelled test sets the judge's choices for three or
    more blanks contradicted right claims ("2023년 말 기준 직원은 약 85명, 2023년 매출은 약 146억 원").

    A value the claim states twice is one blank at both places. Given "清明（[2]月[3]日）" and a passage saying
    "清明（4月4日）", the small judge filled [2] with 4 and [3] with 28, another of the options, as if no option
    could be chosen twice, and so contradicted a claim the passage states word for word."""
    given = _given(asked)
    statements: list[str] = []
    holes: list[Blank] = []
    for i, (claim, wanted) in enumerate(zip(claims, ask, strict=True)):
        chosen = [blank for blank in _blankable(claim) if _when(blank[2]) not in given]
        own = {value for _, _, value, _ in chosen}
        if not wanted or not chosen or len(chosen) > MAX_BLANKS or set(stated) <= own:
            continue
        text, end = "", 0
        marks: dict[str, int] = {}
        for a, b, value, date in chosen:
            if value not in marks:  # a value stated twice is one blank: "清明（[2]月[2]日）"
                marks[value] = len(holes)
                holes.append(Blank(i, value, "" if date else unit_after(claim, b), date))  # a date counts nothing
            text += claim[end:a] + mark(marks[value])
            end = b
        statements.append(text + claim[end:])
    return statements, holes


def _given(asked: str) -> set[object]:
    """What the question states: its numbers, and the day of each whole date and the year and month of each month
    of a year it writes, however written (``_when``). The question's "in March 2023" says what is asked about."""
    days: list[object] = [f.day for f in date_forms(asked)]
    return {*numbers(asked), *days, *((f.year, f.month) for f in month_forms(asked))}


def _when(value: str) -> object:
    """A blank's value as ``_given`` holds it: a whole date's day, a month of a year's (year, month), else itself."""
    return date_of(value) or year_and_month(value) or value


def _date_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a whole date or a month of a year: each is one value, not its numbers."""
    return [(f.start, f.end) for f in date_forms(text)] + [(f.start, f.end) for f in month_forms(text)]


def _blankable(claim: str) -> list[tuple[int, int, str, bool]]:
    """The claim's values to blank as (start, end, value, whether a date): its numbers, but a whole date as one
    ("2024.09.02", "April 15, 2019"), and a month of a year as one ("February 2023", "2023年2月", "2023년 3월"). As
    three numbers a date is more blanks than a claim may have, so a date that ``as_written_in`` wrote as the passage
    writes another thing's date was left to the check, which called it the claim's (bench/README.md, session 59).
    As a year alone, "July [0]" against a passage's "2023.02.14" was confirmed by the date's year, and as a year and
    a month, the month's blank was filled with another number (session 61)."""
    dates = _date_spans(claim)
    out: list[tuple[int, int, str, bool]] = []
    for a, b in number_spans(claim):
        date = next(((x, y) for x, y in dates if x <= a and b <= y), None)
        if date is None:
            out.append((a, b, number_value(claim[a:b]), False))
        elif not out or out[-1][:2] != date:
            out.append((*date, claim[date[0]:date[1]], True))
    return out


def stated_values(passage: str) -> list[str]:
    """The passage's values a blank may take, in order: each whole date and each month of a year as written, and its
    other ``numbers``. A date's parts are no options of their own: offered "2023" beside "2023. 3. 2", the small judge
    filled the blank of "2023년 9월" with the year, which tells nothing of the month, and the parts of a date are
    read from the whole date when it is picked for a year's blank (``as_kind``; bench/README.md, session 61)."""
    spans = _date_spans(passage)
    found = [(a, number_value(passage[a:b])) for a, b in number_spans(passage)
             if not any(x <= a and b <= y for x, y in spans)]
    found += [(a, passage[a:b]) for a, b in spans]
    return list(dict.fromkeys(value for _, value in sorted(found, key=lambda f: f[0])))


def dates_by_text(passage: str) -> dict[str, set[int]]:
    """The passage's whole dates as written, each with its year, month and day, and its months of a year, each
    with its year and month."""
    out = {passage[f.start:f.end]: {f.day.year, f.day.month, f.day.day} for f in date_forms(passage)}
    return out | {passage[f.start:f.end]: {f.year, f.month} for f in month_forms(passage)}


def _version(value: str, dates: dict[str, set[int]]) -> bool:
    """Whether a value reads as a version: two dots or more ("2.0.3"), and no date ("2024.03.18")."""
    return value.count(".") >= 2 and value not in dates


def as_kind(distribution: dict[str, float], hole: Blank, dates: dict[str, set[int]]) -> dict[str, float]:
    """The cloze's ``distribution`` for ``hole`` with each pick of a whole date of the passage (``dates``:
    ``dates_by_text``) read for what it says of the blank: for a year, a month or a day, the date's own
    ("2022.10.15" for the year of "in [0]" is 2022); for a version or any value not a whole number, nothing, as a
    version for a date is. Offered a whole date beside "2.0.3", the small judge filled "Patch [0] fixed the leak"
    with the date (bench/README.md, session 59), and "한빛 분석기 [0]" (2.1) too (session 61), and so contradicted
    right claims."""
    out: dict[str, float] = {}
    for pick, p in distribution.items():
        read = _read(pick, hole, dates)
        out[read] = out.get(read, 0.0) + p
    return out


def _read(pick: str, hole: Blank, dates: dict[str, set[int]]) -> str:
    """What the cloze's ``pick`` for ``hole`` says its value is (``as_kind``)."""
    if pick in (NONE, hole.value):
        return pick
    if same_version(pick, hole.value):  # "3.9" for "3.9.0"
        return hole.value
    if hole.date:
        return _read_date(pick, hole, dates)
    if pick not in dates:
        return pick
    if not hole.value.isdigit() or hole.unit not in _DATE_UNITS:  # a version, an amount, a count: another kind
        return NONE
    return hole.value if int(hole.value) in dates[pick] else pick


_DATE_UNITS = frozenset(["", *"年月日년월일"])
"""What may count a year, a month or a day: nothing ("in 2023"), or 年, 月, 日 and 년, 월, 일."""


def _read_date(pick: str, hole: Blank, dates: dict[str, set[int]]) -> str:
    """What a pick for the blank of a date or of a month of a year says: a version, nothing; a value of another year
    and month, another value. One of the same month confirms a claim that gives no day ("February 2023" for the
    passage's "2023.02.14"), and the same day confirms a whole date; a month of the passage tells nothing of a
    claim's day, nor a plain number ("2023") of a claim's month."""
    if _version(pick, dates):
        return NONE
    own, picked, day = year_and_month(hole.value), year_and_month(pick), date_of(hole.value)
    if own is None or picked is None:  # a plain number: another value for a whole date, nothing for a month
        return pick if day is not None or own is None else NONE
    if own != picked:
        return pick
    if day is None:  # the claim gives a month of a year, and the pick is of that month
        return hole.value
    theirs = date_of(pick)
    if theirs is None:  # the passage gives that month, not the claim's day
        return NONE
    return hole.value if theirs == day else pick


def misread(hole: Blank, pick: str, placed: Set[str]) -> bool:
    """Whether the cloze's ``pick`` for ``hole`` tells nothing about the claim: another number, or "none", for a
    value that the passage binds as the claim says (``placed``: ``placements``, ``stated_together``). Tried, not
    kept: setting aside a number of another kind in a claim of two blanks (an amount in a year's blank). Wrong
    answers that such picks had contradicted then scored as right (bench/README.md, session 43)."""
    return pick != hole.value and hole.value in placed


_PEOPLE = frozenset("名人位명인")
"""Counters of people, one for another: "12名员工" counts what a table's "12人" does."""


def alike(unit: str, other: str) -> bool:
    """Whether two numbers' units may count the same thing: one is missing, one begins the other ("kg", "kgs";
    "employee", "employees"), or both count people."""
    return not unit or not other or unit.startswith(other) or other.startswith(unit) or \
        unit in _PEOPLE and other in _PEOPLE


def units_by_value(passage: str) -> dict[str, set[str]]:
    """What the passage counts each of its numbers with (``unit_after``): {"2": {"号"}, "2023": {"年"}, "3": {"次"}}."""
    out: dict[str, set[str]] = {}
    for a, b in number_spans(passage):
        out.setdefault(number_value(passage[a:b]), set()).add(unit_after(passage, b))
    return out


_YEARS = frozenset({"年", "년"})


def as_counted(distribution: dict[str, float], hole: Blank, units: dict[str, set[str]]) -> dict[str, float]:
    """The cloze's ``distribution`` for ``hole``, with picks that cannot be the blank's value taken for "none"
    (``units``: ``units_by_value``):
    - every other number, when the passage counts none of its numbers as the blank is counted: it has no value of
      that kind. Asked to fill "高约[1]℃" from a passage with no temperature, the small judge picked "2" (of
      "2号烘干机") or "3" (of "三次"), and so contradicted a claim the passage only leaves unsaid;
    - a year (four digits the passage writes only with 年 or 년) for a blank counted otherwise: a year counts no
      dryers. Given "[0]号烘干机", it picked "2023" (of "2023年5月") over the passage's "2号烘干机".
    A pick of another kind stays where the passage has values of the blank's kind: given "[0]年" and a passage of
    years and amounts, the judge's amount in the year's blank contradicted wrong years (bench/README.md, sessions 43
    and 56)."""
    if not hole.unit:
        return distribution
    if not any(alike(hole.unit, u) for found in units.values() for u in found):
        impossible = {pick for pick in distribution if pick != hole.value}
    elif hole.unit in _YEARS:
        return distribution
    else:
        impossible = {pick for pick in distribution
                      if pick != hole.value and len(pick) == 4 and pick in units and units[pick] <= _YEARS}
    if not impossible:
        return distribution
    out = {pick: p for pick, p in distribution.items() if pick not in impossible}
    out[NONE] = out.get(NONE, 0.0) + sum(distribution[pick] for pick in impossible)
    return out


def options(stated: Sequence[str], holes: Sequence[Blank]) -> list[str]:
    """The values a blank can take: the passage's numbers ``stated`` (the first ``MAX_OPTIONS``), the claims' own,
    "none". A claim's own date is no option where the passage writes dates: those are read in every form they are
    written in, so the passage's own form of the claim's date is offered and read as it (``as_kind``), and the
    claim's form only lured the small judge: it filled "새 열람실은 [0]에 열었다" with the claim's "2023년 9월" against
    a passage of 2023. 3. 2 (bench/README.md, session 61)."""
    dated = any(year_and_month(v) is not None for v in stated)
    own = [h.value for h in holes if not (h.date and dated)]
    return list(dict.fromkeys([*stated[:MAX_OPTIONS], *own, NONE]))


def speaks_of(distribution: dict[str, float]) -> float:
    """The check's probability that the passage speaks of the claim's fact (supports or contradicts it)."""
    return distribution.get("supported", 0.0) + distribution.get("contradicted", 0.0)


def combined(check: dict[str, float], chosen: Sequence[dict[str, float]], values: Sequence[str]) -> Verdict:
    """The verdict on a claim from the check's label distribution and the cloze's distribution for each of its
    blanks (``values`` are the blanked numbers); a claim with several numbers takes its weakest."""
    spoken = speaks_of(check)
    own = check.get("supported", 0.0) / spoken if spoken > 1e-6 else 0.0
    best: tuple[float, float] | None = None
    for dist, value in zip(chosen, values, strict=True):
        given = 1.0 - dist.get(NONE, 0.0)
        picked = dist.get(value, 0.0) / given if given > 1e-6 else 0.0
        m, q = max(spoken, given), given * picked + (1.0 - given) * own
        if best is None or m * q < best[0] * best[1]:
            best = (m, q)
    m, q = best if best is not None else (spoken, own)
    probs: dict[Label, float] = {"entailed": m * q, "contradicted": m * (1 - q), "neutral": 1 - m}
    label = max(probs, key=lambda k: probs[k])
    return Verdict(label=label, p=probs["entailed"])
