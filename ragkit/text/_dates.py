"""Calendar dates as written, in any of the four languages, and the day each means.

A release note says "2024.03.18" and an answer "2024년 3월 18일" or "March 18, 2024". Blanked for the value cloze,
"March [0], [1]" against the passage's "2024.03.18", the small judge filled the blanks by position, the year's with
"03" (bench/README.md, session 59), and so contradicted a right claim. Only whole dates are read (year, month and
day), in forms that cannot be misread: year first with "-", "/" or "." ("2024-03-18", "2024. 3. 18."), day first with
dots ("18.03.2024"; a slashed "03/04/2024" is a day or a month first by country, and is left alone), 年月日 or 년월일,
and English month names ("March 18, 2024", "18 March 2024").
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

_MONTHS = {name: k for k, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
     ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
     ("december", "dec")], start=1) for name in names}
_MONTH = r"(?P<name>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR, _M, _D = r"(?P<y>(?:19|20)\d\d)", r"(?P<m>\d{1,2})", r"(?P<d>\d{1,2})"
_PATTERNS = [
    re.compile(rf"(?<![A-Za-z\d.-]){_YEAR}(?P<sep>-|/|\.\s?){_M}(?P=sep){_D}(?![\d]|-\d)"),
    re.compile(rf"(?<![A-Za-z\d.-]){_D}\.{_M}\.{_YEAR}(?![\d])"),
    re.compile(rf"{_YEAR}\s?[年년]\s?{_M}\s?[月월]\s?{_D}\s?[日일]"),
    re.compile(rf"\b{_MONTH}\s{_D}(?:st|nd|rd|th)?,?\s{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_D}(?:st|nd|rd|th)?\s(?:of\s)?{_MONTH}\s{_YEAR}\b", re.IGNORECASE),
]


@dataclass(frozen=True)
class DateForm:
    """A whole date as written and the day it means."""

    start: int
    end: int
    day: datetime.date


def _day(match: re.Match[str]) -> datetime.date | None:
    """The day a match names, or None where it names none ("2024.13.40")."""
    groups = match.groupdict()
    month = _MONTHS[groups["name"].lower()] if groups.get("name") else int(groups["m"])
    try:
        return datetime.date(int(groups["y"]), month, int(groups["d"]))
    except ValueError:
        return None


def date_forms(text: str) -> list[DateForm]:
    """The whole dates of ``text``, in order; a span is read once, by the first pattern that takes it."""
    found: list[DateForm] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(f.start < m.end() and m.start() < f.end for f in found):
                continue
            if (day := _day(m)) is not None:
                found.append(DateForm(m.start(), m.end(), day))
    return sorted(found, key=lambda f: f.start)


@dataclass(frozen=True)
class MonthForm:
    """A month of a year as written, with no day ("February 2023", "2023年2月", "2023년 3월")."""

    start: int
    end: int
    year: int
    month: int


_NAMED = r"(?P<name>" + "|".join(sorted((m.capitalize() for m in _MONTHS), key=len, reverse=True)) + r")\.?"
"""A month's name as a month-and-year writes it, capitalised: "it may 2023" names no month."""
_MONTH_PATTERNS = [
    re.compile(rf"\b{_NAMED}\s(?:of\s)?{_YEAR}\b"),
    re.compile(rf"{_YEAR}\s?[年년]\s?{_M}\s?[月월](?!\s?\d)"),
]


def month_forms(text: str) -> list[MonthForm]:
    """The months of a year that ``text`` writes with no day, in order; none inside a whole date."""
    taken = [(f.start, f.end) for f in date_forms(text)]
    found: list[MonthForm] = []
    for pattern in _MONTH_PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            groups = m.groupdict()
            month = _MONTHS[groups["name"].lower()] if groups.get("name") else int(groups["m"])
            if 1 <= month <= 12:
                found.append(MonthForm(m.start(), m.end(), int(groups["y"]), month))
                taken.append((m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)


def date_of(value: str) -> datetime.date | None:
    """The day ``value`` names when it is written as one whole date, and nothing else, else None."""
    days = date_forms(value)
    return days[0].day if len(days) == 1 and (days[0].start, days[0].end) == (0, len(value)) else None


def year_and_month(value: str) -> tuple[int, int] | None:
    """The year and month a value written as one whole date or one month of a year names, else None."""
    if (day := date_of(value)) is not None:
        return day.year, day.month
    months = month_forms(value)
    if len(months) == 1 and (months[0].start, months[0].end) == (0, len(value)):
        return months[0].year, months[0].month
    return None
