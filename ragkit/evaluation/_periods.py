"""A value per another period: "The Leeds plant ships 400 orders a week" against "… 400 orders a day".

The number cloze (``_values``) checks a claim's numbers, and the number is the same; the small judge reads the rest by
its topic: on 11 such claims in four languages it called 5 entailed (0.52–0.99; bench/README.md, session 46). The
words around a number say the period it is counted over: a day ("a day", "daily", 每天, 하루에, 1日に), a week, a
month ("a month", 每月, 한 달에, 月額) or a year ("per year", "annual", 每年, 연간, 年間). A claim that counts a value
over one period, where the passage counts the same value only over another, is contradicted without a call.
"""

from __future__ import annotations

import re

from ragkit.text import number_spans, number_value

_EVERY = r"\b(?:a|per|each|every)\s+"
_PERIODS = {
    "day": _EVERY + r"day\b|\bdaily\b|每天|每日|一天|日均|하루에?|매일|일일|1日に|1日あたり|毎日|日あたり",
    "week": _EVERY + r"week\b|\bweekly\b|每周|每星期|一周|周均|일주일에|매주|주당|한\s*주에|週に|毎週|週あたり",
    "month": _EVERY + r"month\b|\bmonthly\b|每月|每个月|月均|一个月|한\s*달에|매달|매월|月に|毎月|月額|月あたり",
    "year": _EVERY + r"year\b|\bper\s+annum\b|\bannual(?:ly)?\b|\byearly\b|每年|年均|一年|1년에|매년|연간|"
            r"年に|毎年|年間|年額",
}
_PATTERNS = {period: re.compile(words, re.IGNORECASE) for period, words in _PERIODS.items()}
_BEFORE = 10
_AFTER = 26
"""How far from a number its period may stand: right before it ("每天发货400单", "年間25日"), or after its unit and
noun ("400 orders a day", "25 days of leave per year")."""


def period_at(text: str, start: int, end: int) -> str | None:
    """The period the words nearest the number at ``start:end`` count it over, or None."""
    best: tuple[int, str] | None = None
    for period, pattern in _PATTERNS.items():
        for found in pattern.finditer(text, max(0, start - _BEFORE), min(len(text), end + _AFTER)):
            if found.end() <= start:
                distance = start - found.end()
            elif found.start() >= end:
                distance = found.start() - end
            else:
                continue  # the period's own number ("1年に"), not a period of this one
            if best is None or distance < best[0]:
                best = (distance, period)
    return best[1] if best else None


def periods(text: str) -> dict[str, set[str | None]]:
    """Each number of ``text`` → the periods it is counted over (None: over none)."""
    out: dict[str, set[str | None]] = {}
    for start, end in number_spans(text):
        out.setdefault(number_value(text[start:end]), set()).add(period_at(text, start, end))
    return out


def against_period(passage: str, claim: str) -> bool:
    """Whether ``claim`` counts a value over one period where ``passage`` counts that value only over another."""
    stated = periods(passage)
    for value, claimed in periods(claim).items():
        given = stated.get(value)
        if not given or None in given:
            continue
        if any(p is not None and p not in given for p in claimed) and not claimed & given:
            return True
    return False
