"""Numbers standing on their own in any script: the values a claim or an answer states.

A number is a run of digits (full-width ones included), with thousands separators or a decimal part: "1996",
"1,000,000", "3.5", "１９９６". The digits of a code or a model name are no number: "HM-1", "K2307-03", "K10",
"W300". ``number_value`` is the form two numbers are compared in (NFKC, separators dropped), so that "1,000" in
an answer is the "1000" of a passage.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from ragkit.text._times import time_forms
from ragkit.text._units import measure_at

_NUMBER = re.compile(r"(?<![A-Za-z\d.,])\d+(?:[.,]\d+)*")
_CODE = re.compile(r"(?<![A-Za-z\d])[A-Za-z][A-Za-z\d]*(?:-[A-Za-z\d]+)+")
"""A code of a letter, then hyphenated parts: "HM-1", "CB-3", "K2307-03", "INC-2023-014". Its digits are no
number."""


_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
           "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_COUNTED = ("片|粒|剂|錠|次|回|遍|天|日|年|个月|か月|ヶ月|カ月|月|周|週間|週|小时|時間|分钟|秒|岁|歳|元|円|块|倍|"
            "米|公里|千米|キロ|克|公斤|千克|吨|亩|升|毫升|人|名|位|台|辆|件|箱|盒|瓶|袋|包|层|階|条|家|所|座|个|"
            "種類|种|款|项|本|冊|枚|杯|つ|万|萬|亿|億")
_CJK_NUMERAL = re.compile(f"(?<![{''.join(_DIGITS)}{''.join(_UNITS)}第上下同每])(?![百千])"
                          f"[{''.join(_DIGITS)}{''.join(_UNITS)}]+(?=(?:{_COUNTED}))")
"""A number in Chinese or Japanese numerals, counted by the word after it: "两片", "每日三次", "十二个月", "八万元",
"三千二百人". A numeral with no counter after it is a word ("一般", "十分", "四川", "星期三"); an ordinal (第三) and
"the last, next, same, every one" (上一年, 下一次, 同一天, 每一盒) are no amount; a lone 百 or 千 starts no number
("百度")."""
_ARTICLE = re.compile("一(?:个|种|家|位|所|座|款|项|名|つ|天|日|年|月|周|週|小时|時間)")
""""一个", "一家", "一种" are "a", "an" as often as "one", and "一天", "一年" are "a day", "a year" ("一天三次", three
times a day; "食堂一天大约提供600份午餐", 600 lunches a day): no number."""


_KO_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70, "여든": 80,
            "아흔": 90}
_KO_UNITS = {"하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3, "석": 3, "넷": 4, "네": 4, "넉": 4, "다섯": 5,
             "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_KO_COUNTED = ("번|개|명|알|살|권|대|잔|장|곳|가지|달|주|시간|마리|병|벌|그릇|사람|군데|차례|자루|켤레|채|척|정|"
               "봉지|상자")
_KO_PARTICLES = "이다|입니다|이며|이고|으로|까지|부터|동안|밖에|씩|이|가|을|를|은|는|에|의|도|만|과|와|로|뿐|쯤"
_KO_NUMERAL_WORD = re.compile(f"(?:{'|'.join(_KO_TENS)})(?:{'|'.join(_KO_UNITS)})?|(?:{'|'.join(_KO_UNITS)})")
_KO_NUMERAL = re.compile(f"(?<![가-힣])(?:{_KO_NUMERAL_WORD.pattern})"
                         f"(?=\\s?(?:{_KO_COUNTED})(?:{_KO_PARTICLES}){{0,2}}(?![가-힣]))")
"""A number in native Korean numerals, counted by the word after it: "세 번", "두 알씩", "열두 살", "스무 명",
"서른 개". Not one: a word that only starts like a numeral ("세계", "두 주요 제품": 주요 is no counter and particle),
"한 번에" ("at a time", "per dose"), and 한 before a period ("한 달", "a month")."""
_KO_ARTICLE = re.compile(r"한\s?(?:번에|달|주|해)")


def _numeral_spans(text: str) -> list[tuple[int, int]]:
    """The spans of Chinese, Japanese and Korean numerals before a counter."""
    cjk = [m.span() for m in _CJK_NUMERAL.finditer(text) if not _ARTICLE.match(text, m.start())
           and not (m.group() == "十" and text.startswith("分", m.end()))]  # 十分, "very", "enough"
    return cjk + [m.span() for m in _KO_NUMERAL.finditer(text) if not _KO_ARTICLE.match(text, m.start())]


def number_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the numbers of ``text``, in order: digits, and Chinese, Japanese or Korean
    numerals before a counter."""
    blanked = _CODE.sub(lambda m: " " * len(m.group()), text)
    return sorted([m.span() for m in _NUMBER.finditer(blanked)] + _numeral_spans(text))


def number_value(number: str) -> str:
    """The comparable form of a number as written: NFKC digits, no thousands separators; Chinese, Japanese or
    Korean numerals as digits ("两" → "2", "十二" → "12", "二〇二三" → "2023", "열두" → "12")."""
    if number and all(ch in _DIGITS or ch in _UNITS for ch in number):
        return str(_numeral_value(number))
    if _KO_NUMERAL_WORD.fullmatch(number):
        return str(_korean_value(number))
    return unicodedata.normalize("NFKC", number).replace(",", "")


def _korean_value(numeral: str) -> int:
    """"열두" → 12, "스무" → 20, "세" → 3."""
    tens = next((w for w in _KO_TENS if numeral.startswith(w)), "")
    return _KO_TENS.get(tens, 0) + _KO_UNITS.get(numeral[len(tens):], 0)


def _numeral_value(numeral: str) -> int:
    """"三千二百" → 3200, "十二" → 12, "一百零五" → 105; a run of digits alone is read digit by digit: "二〇二三" →
    2023."""
    if not any(ch in _UNITS for ch in numeral):
        return int("".join(str(_DIGITS[ch]) for ch in numeral))
    total = digit = 0
    for ch in numeral:
        if ch in _UNITS:
            total, digit = total + (digit or 1) * _UNITS[ch], 0
        else:
            digit = _DIGITS[ch]
    return total + digit


def numbers(text: str) -> list[str]:
    """The numbers of ``text`` in ``number_value`` form, in order, each once."""
    return list(dict.fromkeys(number_value(text[a:b]) for a, b in number_spans(text)))


_SCALE_WORDS = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12, "bn": 9}
_LATIN_SCALE = re.compile(r"\s?(thousand|million|billion|trillion|bn)\b", re.IGNORECASE)
_CJK_SCALES = {"千": 3, "천": 3, "百万": 6, "백만": 6, "千万": 7, "천만": 7, "万": 4, "萬": 4, "만": 4,
               "亿": 8, "億": 8, "억": 8, "兆": 12, "조": 12}
_ORDINAL = {"제", "第"}
_QUANTITY = re.compile(r"\d+(?:\.\d+)?")
_CJK_SCALE = re.compile(" ?(" + "|".join(sorted(_CJK_SCALES, key=len, reverse=True)) + ")")


@dataclass(frozen=True)
class NumberForm:
    """A number as written, with its scale words ("1.2 million", "1亿2000万", "150만"), and the value it means."""

    start: int
    end: int
    value: Decimal


def _scaled(text: str, end: int) -> tuple[int, int]:
    """The power of ten that the scale words right after ``end`` give, and where they end."""
    if m := _LATIN_SCALE.match(text, end):
        return _SCALE_WORDS[m.group(1).lower()], m.end()
    power = 0
    while m := _CJK_SCALE.match(text, end):  # "2천만": 천 then 만
        power, end = power + _CJK_SCALES[m.group(1)], m.end()
    return power, end


def number_forms(text: str) -> list[NumberForm]:
    """The quantities of ``text`` (``number_spans``, versions left out) with the scale words that follow them, in
    order. A CJK amount in parts is one form: "1亿2000万" is 120,000,000, "1억 2천만" too; a part joins the one
    before it only when it is smaller."""
    forms: list[NumberForm] = []
    for a, b in number_spans(text):
        if not _QUANTITY.fullmatch(number_value(text[a:b])):
            continue  # a version or a dotted code, "3.2.1", is no quantity
        power, end = _scaled(text, b) if text[a - 1 : a] not in _ORDINAL else (0, b)  # 제3조 is article 3
        value = Decimal(number_value(text[a:b])).scaleb(power)
        last = forms[-1] if forms else None
        joins = last is not None and power and text[last.end:a].strip() == "" and value < last.value
        if joins and last is not None and _CJK_SCALE.match(text, b):
            forms[-1] = NumberForm(last.start, end, last.value + value)
        else:
            forms.append(NumberForm(a, end, value))
    return forms


def _forms(text: str) -> list[tuple[int, int, object]]:
    """The values of ``text`` as (start, end, value): its clock times (``time_forms``), then its quantities outside
    them."""
    times = [(f.start, f.end, ("time", f.minute)) for f in time_forms(text)]
    numbers_ = [_measured(text, f) for f in number_forms(text)
                if not any(a < f.end and f.start < b for a, b, _ in times)]
    return sorted([*times, *numbers_], key=lambda f: f[0])


def _measured(text: str, form: NumberForm) -> tuple[int, int, object]:
    """A quantity as (start, end, value): with its unit when one follows (``measure_at``: "3 km" is a length of
    3,000 m), else the number alone."""
    if (unit := measure_at(text, form.end, form.value)) is not None:
        end, family, value = unit
        return form.start, end, (family, value)
    return form.start, form.end, form.value


def as_written_in(passage: str, claim: str) -> str:
    """``claim`` with each number and clock time written as ``passage`` writes the same value: "1.2 million
    euros" against a passage's "1,200,000 euros", "300,000盒" against "30万盒", "14,600,000,000원" against "146억 원",
    "17時30分" against "午後5時30分", "3 km" against "3,000 metres" (``ragkit.text._units``). Values never change,
    only their form. The claim engine's small judge read a
    right claim in another form as unclear or wrong, in every language (bench/README.md, session 43: 12 right
    claims with numbers scored 0.02-0.35, 4 with 24-hour times 0.00-0.22), and its cloze, given the passage's form
    as its option, contradicted the claim's."""
    forms = _forms(passage)
    written: dict[object, str] = {}
    for a, b, value in forms:
        written.setdefault(value, passage[a:b])
    own = {passage[a:b] for a, b, _ in forms}
    out, end = "", 0
    for a, b, value in _forms(claim):
        text = claim[a:b]
        if (target := written.get(value)) is not None and text not in own:
            out, end = out + claim[end:a] + target, b
    return out + claim[end:]
