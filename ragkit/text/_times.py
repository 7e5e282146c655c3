"""Clock times as written, in any of the four languages, and the minute of the day each means.

A work rule says "午後5時30分" and an answer "17時30分"; a handbook "9 am to 5:30 pm" and an answer "09:00 to 17:30".
The same time in another form reads to a small judge as another time. A time with a morning or afternoon word
(am / pm, 午前 / 午後, 오전 / 오후, 上午 / 下午) is read on the 12-hour clock; one without, on the 24-hour clock, so
"6시" is 6:00 and never 18:00: a form this module cannot be sure of is never made equal to another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_AFTER = {"pm", "p.m.", "午後", "오후", "下午", "晚上"}
_BEFORE = {"am", "a.m.", "午前", "오전", "上午", "早上"}
_ENGLISH = re.compile(r"(?<![\d:.])(\d{1,2})(?:[:.](\d{2}))?\s?(am|pm|a\.m\.|p\.m\.)(?![A-Za-z])", re.IGNORECASE)
_CLOCK = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?![\d:])")
_CJK = re.compile(r"(?:(午前|午後|오전|오후|上午|下午|早上|晚上)\s?)?(\d{1,2})\s?(?:時|시|点|點)(?!間|간)"
                  r"(?:\s?(\d{1,2})\s?(?:分|분)|\s?(半|반))?")  # 時間 and 시간 are hours, not a time of day


@dataclass(frozen=True)
class TimeForm:
    """A clock time as written ("午後5時30分", "5:30 pm", "17:30") and the minute of the day it means."""

    start: int
    end: int
    minute: int


def _minute(hour: int, minute: int, marker: str | None) -> int | None:
    marker = (marker or "").lower()
    if marker in _AFTER and hour < 12:
        hour += 12
    elif marker in _BEFORE and hour == 12:
        hour = 0
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def time_forms(text: str) -> list[TimeForm]:
    """The clock times of ``text``, in order: English "9 am", "5:30 pm", "17:30"; "午後5時30分", "8時半", "오후 6시",
    "下午6点" (full-width digits too). A span is read once, by the first pattern that takes it."""
    found: list[TimeForm] = []
    taken: list[tuple[int, int]] = []
    for pattern in (_ENGLISH, _CJK, _CLOCK):
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            if pattern is _ENGLISH:
                value = _minute(int(m.group(1)), int(m.group(2) or 0), m.group(3))
            elif pattern is _CJK:
                value = _minute(int(m.group(2)), 30 if m.group(4) else int(m.group(3) or 0), m.group(1))
            else:
                value = _minute(int(m.group(1)), int(m.group(2)), None)
            if value is not None:
                found.append(TimeForm(m.start(), m.end(), value))
                taken.append((m.start(), m.end()))
    return sorted(found, key=lambda f: f.start)
