"""Which numbers a passage states together: a year and the amount of that year.

A claim of a year and an amount ("2023年禾丰食品的销售额约3.6亿元") is right where one clause of the passage states
both, or where they stand side by side in a sentence with the claim's words between them (``stated_together``); the
value cloze cannot overrule such a claim. It is wrong where the passage states the amount with another year only
(``bound_to_another_year``): the small judge, asked to fill "[0]年禾丰食品的销售额约[1]亿元", put the company's
founding year in the year's blank on one llama.cpp build and the amount on another (bench/README.md, sessions 43
and 63), so the cloze cannot be relied on to tell.
"""

from __future__ import annotations

import datetime
import re
from functools import lru_cache

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import read
from ragkit.text import (
    FUNCTION_WORDS,
    counter_after,
    date_forms,
    has_word,
    month_forms,
    number_spans,
    number_value,
    numbers,
    search_terms,
    split_sentences,
    unit_after,
)

_CLAUSE_END = re.compile(r"(?<!\d)[.,]|[.,](?!\d)|[，、;；。!?！？\n]|(?<=[고며])\s")
"""Where a clause ends: punctuation (not the point or comma of 52.3, 1,200) or a Korean connective ending
("…원이고 직원은", "…창업했으며 2023년"), which joins clauses without a comma."""
_OPENING_CHARS = 4


def stated_together(claim: str, passage: str) -> bool:
    """Whether the claim's two or more numbers are the numbers of one clause of the passage, and that clause has no
    other: "2023年营业收入约1.2亿元" in "…于2009年创立，2023年营业收入约1.2亿元，…". Such a claim states the values as
    the passage binds them, and the cloze cannot overrule them: asked about a year and an amount, the small judge
    filled the year's blank with the amount, in every language (bench/README.md, session 43)."""
    own = set(numbers(claim))
    if len(own) < 2:
        return False
    return any(set(numbers(clause)) == own for clause in clauses(passage)) or _adjacent(claim, passage)


def dates_together(claim: str, passage: str) -> set[str]:
    """The claim's dates and months of a year, as it writes them, when a sentence of the passage gives each of them
    with the claim's other numbers (one at least): the same month of the same year (the same day where the claim
    gives one), no other month, and no number but the claim's besides its date; else none. "Kss 4.0 Python was
    released in December 2022" against "- December 19, 2022 Released Kss 4.0 Python." in a list of releases: the
    value cloze blanks the date apart from the version, and the small judge filled its blank with the list's first
    date (session 67). Such a claim states its values as the passage binds them, and the cloze cannot overrule them
    (``stated_together`` reads numbers alone, and splits "December 19, 2022" at its comma)."""
    written: list[tuple[str, int, int, datetime.date | None]] = [
        (claim[f.start:f.end], f.day.year, f.day.month, f.day) for f in date_forms(claim)]
    written += [(claim[m.start:m.end], m.year, m.month, None) for m in month_forms(claim)]
    out: set[str] = set()
    for text, year, month, day in written:
        others = set(numbers(claim)) - set(numbers(text))
        # no other number, nothing to bind the date to: "the K2 shipped on 2021-06-14", the K1's date, is no release
        # of the K2's that its sentence gives
        # one month in the sentence, besides its dates exactly the claim's other numbers: "4.0 in December 2022 and
        # 5.0 later" binds December 2022 to neither
        if others and any(seen == {(year, month)} and rest == others and (day is None or day in days)
                          for seen, rest, days in _dated_sentences(passage)):
            out.add(text)
    return out if written and len(out) == len(written) else set()


@lru_cache(maxsize=256)
def _dated_sentences(passage: str) -> tuple[tuple[frozenset[tuple[int, int]], frozenset[str],
                                                  frozenset[datetime.date]], ...]:
    """Per sentence of the passage: the months (year, month) it writes, its numbers besides those of its dates, and
    its whole dates. Read once per passage: every claim with a date checked against it asks."""
    out = []
    for sentence in split_sentences(passage):
        days, months = date_forms(sentence), month_forms(sentence)
        dated = {n for f in days for n in numbers(sentence[f.start:f.end])}
        dated |= {n for m in months for n in numbers(sentence[m.start:m.end])}
        seen = frozenset({(f.day.year, f.day.month) for f in days} | {(m.year, m.month) for m in months})
        out.append((seen, frozenset(set(numbers(sentence)) - dated), frozenset(f.day for f in days)))
    return tuple(out)


def _adjacent(claim: str, passage: str) -> bool:
    """Whether the claim's two numbers stand next to each other in a sentence of the passage, in its order, with
    words between them that the claim mostly shares: "2023년 매출은 약 212억 원" in "2023년 매출은 약 212억 원으로
    2022년의 187억 원보다". In "from 47.9 million in 2022 to 52.3 million in 2023", 2022 and 52.3 are next to each
    other, but "to" is not what the claim "in 2022 revenue was 52.3 million" says between them."""
    spans = number_spans(claim)
    if len(spans) != 2:
        return False
    (a, b), (c, d) = spans
    first, second = number_value(claim[a:b]), number_value(claim[c:d])
    return any(_beside(sentence, first, second, claim[b:c]) for sentence in split_sentences(passage))


def _beside(text: str, first: str, second: str, between: str) -> bool:
    """Whether ``first`` stands right before ``second`` in ``text`` with words between them that ``between`` mostly
    shares."""
    wanted = set(search_terms(between))
    found = [(number_value(text[x:y]), x, y) for x, y in number_spans(text)]
    for (v, _, y), (w, x, _) in zip(found, found[1:], strict=False):
        theirs = set(search_terms(text[y:x]))
        if (v, w) == (first, second) and theirs and 2 * len(theirs & wanted) >= len(theirs):
            return True
    return False


@lru_cache(maxsize=256)
def clauses(passage: str) -> tuple[str, ...]:
    """The passage's clauses; one that is only a number and a word or two ("2023年，", "In 2023,") opens the next.
    Read once per passage: every claim checked against it asks."""
    out: list[str] = []
    opening = ""
    for clause in _CLAUSE_END.split(passage):
        if numbers(clause) and len(re.sub(r"[\d\s.,]", "", clause)) <= _OPENING_CHARS:
            opening += clause + " "
            continue
        out.append(opening + clause)
        opening = ""
    return tuple(out)


_YEAR_BEFORE = re.compile(r"\b(?:in|since|until|from|during|fiscal|FY|year)\s+$", re.IGNORECASE)
"""What stands before a year written alone ("in 2023", "FY 2023"): an English number may count anything after it
("2000 employees", "in 2000 stores"), so a year is read by the word before it and the function word after it."""
_RANGE = re.compile(r"\s*(?:年度?|년도?)?\s*(?:[-–—~～]|至|到|から|부터|\b(?:to|through|until|and)\b)\s*")
"""What joins two years into one span: "2019–2023", "2019年至2023年", "2019년부터 2023년", "between 2018 and 2022"."""


def bound_to_another_year(passage: str, claim: str, asked: str = "") -> bool:
    """Whether ``claim`` states, in one clause, a year and an amount that the passage states only with another year:
    "2005年禾丰食品的销售额约3.6亿元" against "禾丰食品于2005年在成都创立。2023年，公司销售额约3.6亿元". Every clause
    of the passage that states the amount binds it to another year: the one year it states, or the year that stands
    right before (after) the amount with the claim's words between them. A claim that takes words from the passage's
    clauses of its year, beyond those of the question ``asked`` and of the amount's clause ("2005年创立的禾丰食品
    销售额约3.6亿元"), may join two facts, and is left to the judge."""
    pair = _year_and_amount(claim)
    if pair is None or stated_together(claim, passage):
        return False
    year, amount, counter, between, year_first = pair
    holding = [c for c in clauses(passage) if _states(c, amount, counter)]
    if not holding or not all(_bound_elsewhere(c, year, amount, between, year_first) for c in holding):
        return False
    language = rule_language(passage, claim)
    known = [w for text in [*holding, asked] for w in read(text, language).words]
    extra = [w for w in read(claim, language).words if not has_word(known, w) and not any(ch.isdigit() for ch in w)]
    of_year = [w for c in clauses(passage) if year in numbers(c) for w in read(c, language).words]
    return not any(has_word(of_year, w) for w in extra)


def _year_and_amount(claim: str) -> tuple[str, str, str, str, bool] | None:
    """The year and the amount of a claim that states exactly one of each in one clause, with the amount's counter,
    the words between them, and whether the year comes first; None for any other claim."""
    spans = number_spans(claim)
    if len(spans) != 2 or not any(len(numbers(c)) == 2 for c in clauses(claim)):
        return None
    years = [year_at(claim, a, b) for a, b in spans]
    if years.count(True) != 1:
        return None
    (ya, yb), (xa, xb) = spans if years[0] else spans[::-1]
    between = claim[spans[0][1]:spans[1][0]]
    return number_value(claim[ya:yb]), number_value(claim[xa:xb]), counter_after(claim, xb), between, years[0]


def year_at(text: str, start: int, end: int) -> bool:
    """Whether the number at ``start:end`` is a year: four digits, 1800–2100, with 年 or 년 after it or, written
    alone, a word of time before it and no counter after it."""
    digits = text[start:end]
    if not (len(digits) == 4 and digits.isdigit() and 1800 <= int(digits) <= 2100):
        return False
    if unit_after(text, end) in ("年", "년"):
        return True
    after = counter_after(text, end)
    alone = after in FUNCTION_WORDS or not after.isalpha()
    return alone and _YEAR_BEFORE.search(text[:start]) is not None


def _states(clause: str, amount: str, counter: str) -> bool:
    """Whether ``clause`` states ``amount`` counted by ``counter``."""
    return any(number_value(clause[a:b]) == amount and counter_after(clause, b) == counter
               for a, b in number_spans(clause))


def _bound_elsewhere(clause: str, year: str, amount: str, between: str, year_first: bool) -> bool:
    """Whether ``clause`` binds ``amount`` to a year other than ``year``: the one year it states, or the year beside
    the amount with the claim's words ``between``, where the clause's own mention of ``year`` is no range with it."""
    found = [(number_value(clause[a:b]), a, b) for a, b in number_spans(clause) if year_at(clause, a, b)]
    years = {v for v, _, _ in found}
    if len(years) == 1 and year not in years:
        return True
    for other in years - {year}:
        pair = (other, amount) if year_first else (amount, other)
        if _beside(clause, *pair, between) and not _ranged(clause, found, year, other):
            return True
    return False


def _ranged(clause: str, found: list[tuple[str, int, int]], year: str, other: str) -> bool:
    """Whether ``year`` and ``other`` stand in ``clause`` as the two ends of one span of years."""
    ends = [(v, a, b) for v, a, b in found if v in (year, other)]
    return any(v != w and _RANGE.fullmatch(clause[b:x]) is not None
               for (v, _, b), (w, x, _) in zip(ends, ends[1:], strict=False))
