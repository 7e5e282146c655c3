"""Measures: a number with its unit, read as one quantity in the unit's base ("3 km" and "3,000 metres" are both
3,000 m; "2 hours" and "120分钟" are both 7,200 s), so that an answer may state a value in another unit than its
passage.

Only units whose reading is plain are read: lengths, masses, volumes and durations, in the words and signs of the
four languages. A single letter is no unit ("€3m" is three million, "5G" a network), nor is a sign that also
names a date or a clock time ("10일" is a day of the month as often as ten days; "5時30分" is a time, and clock
times are read before measures).
"""

from __future__ import annotations

import re
from decimal import Decimal

_LENGTH = {"mm": "0.001", "cm": "0.01", "km": "1000", "millimetre": "0.001", "millimeter": "0.001",
           "centimetre": "0.01", "centimeter": "0.01", "metre": "1", "meter": "1", "kilometre": "1000",
           "kilometer": "1000", "毫米": "0.001", "厘米": "0.01", "公分": "0.01", "米": "1", "公里": "1000",
           "千米": "1000", "밀리미터": "0.001", "센티미터": "0.01", "미터": "1", "킬로미터": "1000",
           "ミリメートル": "0.001", "センチメートル": "0.01", "センチ": "0.01", "メートル": "1", "キロメートル": "1000"}
_MASS = {"mg": "0.001", "kg": "1000", "gram": "1", "gramme": "1", "kilogram": "1000", "kilogramme": "1000",
         "tonne": "1000000", "毫克": "0.001", "克": "1", "千克": "1000", "公斤": "1000", "吨": "1000000",
         "그램": "1", "킬로그램": "1000", "톤": "1000000", "グラム": "1", "キログラム": "1000", "トン": "1000000"}
_VOLUME = {"ml": "0.001", "millilitre": "0.001", "milliliter": "0.001", "litre": "1", "liter": "1",
           "毫升": "0.001", "升": "1", "밀리리터": "0.001", "리터": "1", "ミリリットル": "0.001", "リットル": "1"}
_DURATION = {"second": "1", "sec": "1", "minute": "60", "min": "60", "hour": "3600", "hr": "3600", "day": "86400",
             "week": "604800", "秒": "1", "秒钟": "1", "分钟": "60", "小时": "3600", "个小时": "3600", "天": "86400",
             "초": "1", "분": "60", "시간": "3600", "分間": "60", "時間": "3600", "日間": "86400"}
_UNITS = {unit: (family, Decimal(factor)) for family, table in
          (("length", _LENGTH), ("mass", _MASS), ("volume", _VOLUME), ("duration", _DURATION))
          for unit, factor in table.items()}
_UNIT = re.compile(r" ?(" + "|".join(sorted(map(re.escape, _UNITS), key=len, reverse=True)) + r")((?:e?s)?)",
                   re.IGNORECASE)


def measure_at(text: str, end: int, value: Decimal) -> tuple[int, str, Decimal] | None:
    """The unit right after a quantity that ends at ``end``: (where the unit ends, its family, the quantity in the
    family's base), or None. A Latin unit must end its word ("3 km", "3 kilometres", not "3 kmh"), and a square or
    cubic one is another quantity ("3 km²")."""
    m = _UNIT.match(text, end)
    if m is None:
        return None
    unit = m.group(1).lower()
    after = text[m.end() : m.end() + 1]
    if (unit.isascii() and after.isalpha()) or after in ("²", "³"):  # "3 kmh"; "3 km²" is an area
        return None
    family, factor = _UNITS[unit]
    return m.end(), family, (value * factor).normalize()
