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

from ragkit.text._dates import date_forms
from ragkit.text._numerals import NUMERAL_START, numeral_spans, numeral_value
from ragkit.text._stopwords import FUNCTION_WORDS
from ragkit.text._times import time_forms
from ragkit.text._units import measure_at

_NUMBER = re.compile(r"(?:(?<=(?<![A-Za-z\d])[vV])(?=\d+\.\d)|(?<![A-Za-z\d.,]))\d+(?:[.,]\d+)*")
"""Digits not glued to a letter ("K10" is a name), but for a version's "v": "v2.9.1" is 2.9.1, as "version 2.9.1" is
("V8", with no dot, is a name)."""
_CODE = re.compile(r"(?<![A-Za-z\d])[A-Za-z][A-Za-z\d]*(?:-[A-Za-z\d]+)+")
"""A code of a letter, then hyphenated parts: "HM-1", "CB-3", "K2307-03", "INC-2023-014". Its digits are no
number."""
_DATE = re.compile(r"(?:19|20)\d\d\.(?:0?[1-9]|1[0-2])\.(?:0?[1-9]|[12]\d|3[01])"
                   r"|(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:19|20)\d\d")
"""A date written with dots ("2024.03.18", "18.03.2024"): three numbers, as "2024-03-18", "2024/03/18" and "2024년 3월
18일" are, not one."""
_AFTER = re.compile(r"\s*([A-Za-z]+|\S)")
"""What follows a number: an English word, or one other character ("개", "片", the "-" of "three-hour")."""


def number_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the numbers of ``text``, in order: digits, and numerals that count something
    (``_numerals``: Chinese, Japanese or Korean ones before a counter, English number words)."""
    blanked = _CODE.sub(lambda m: " " * len(m.group()), text)
    return sorted([span for m in _NUMBER.finditer(blanked) for span in _parts(m)] + numeral_spans(text))


def _parts(number: re.Match[str]) -> list[tuple[int, int]]:
    """The span of a number as read, or of each of a dotted date's three numbers."""
    if not _DATE.fullmatch(number.group()):
        return [number.span()]
    start, spans = number.start(), []
    for piece in number.group().split("."):
        spans.append((start, start + len(piece)))
        start += len(piece) + 1
    return spans


def number_value(number: str) -> str:
    """The comparable form of a number as written: NFKC digits, no thousands separators; numerals as digits ("两"
    → "2", "十二" → "12", "二〇二三" → "2023", "열두" → "12", "twenty-five" → "25")."""
    if (value := numeral_value(number)) is not None:
        return str(value)
    return unicodedata.normalize("NFKC", number).replace(",", "")


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
    """The values of ``text`` as (start, end, value): its whole dates (``date_forms``), its clock times
    (``time_forms``) outside them, then its quantities outside both."""
    found: list[tuple[int, int, object]] = [(f.start, f.end, ("date", f.day)) for f in date_forms(text)]
    for start, end, value in [(f.start, f.end, ("time", f.minute)) for f in time_forms(text)] + \
            [_measured(text, f) for f in number_forms(text)]:
        if not any(a < end and start < b for a, b, _ in found):
            found.append((start, end, value))
    return sorted(found, key=lambda f: f[0])


def _measured(text: str, form: NumberForm) -> tuple[int, int, object]:
    """A quantity as (start, end, value): with its unit when one follows (``measure_at``: "3 km" is a length of
    3,000 m), else the number alone."""
    if (unit := measure_at(text, form.end, form.value)) is not None:
        end, family, value = unit
        return form.start, end, (family, value)
    return form.start, form.end, form.value


def in_digits(text: str) -> str:
    """``text`` with each numeral that counts something written in digits: "열두 명" → "12 명", "两片" → "2片",
    "eight weeks" → "8 weeks"."""
    out, end = "", 0
    for a, b in sorted(numeral_spans(text)):
        out, end = out + text[end:a] + number_value(text[a:b]), b
    return out + text[end:]


def as_written_in(passage: str, claim: str) -> str:
    """``claim`` with each number and clock time written as ``passage`` writes the same value: "1.2 million
    euros" against a passage's "1,200,000 euros", "300,000盒" against "30万盒", "14,600,000,000원" against "146억 원",
    "17時30分" against "午後5時30分", "3 km" against "3,000 metres" (``ragkit.text._units``). Values never change,
    only their form. The claim engine's small judge read a
    right claim in another form as unclear or wrong, in every language (bench/README.md, session 43: 12 right
    claims with numbers scored 0.02-0.35, 4 with 24-hour times 0.00-0.22), and its cloze, given the passage's form
    as its option, contradicted the claim's."""
    forms = _forms(passage)
    written: dict[object, list[tuple[str, str]]] = {}
    for a, b, value in forms:  # a numeral is written so only before its own counter: "서른 개", not "세회" for "3회"
        counter = counter_after(passage, b) if NUMERAL_START.match(passage, a) else ""
        written.setdefault(value, []).append((passage[a:b], counter))
    own = {passage[a:b] for a, b, _ in forms}
    out, end = "", 0
    for a, b, value in _forms(claim):
        after = counter_after(claim, b)
        target = next((form for form, counter in written.get(value, []) if after.startswith(counter)), None)
        if target is not None and claim[a:b] not in own:
            out, end = out + claim[end:a] + target, b
    return out + claim[end:]


_UNIT_SIGNS = frozenset("%‰℃℉°")
_MULTIPLIER = re.compile(r"\s*[十百千万萬亿億兆천백만억조]+")
"""A multiplier after digits, part of the amount ("3.6亿元", "5만 명"): what the amount counts follows it."""


def unit_after(text: str, end: int) -> str:
    """What a number that ends at ``end`` counts, when the text says so for certain: the family of a unit of
    measure ("length" of "3 km" or "300米", "duration" of "40분" or "1.5시간"; ``ragkit.text._units``), a Chinese,
    Japanese or Korean counter ("号", "명", "円"; not a particle, "的", "で") or a unit sign ("%", "℃"); else "". An
    English word after a number may be anything ("in 2023 the company's sales", "sales in 2022 were …")."""
    if (multiplier := _MULTIPLIER.match(text, end)) is not None:
        end = multiplier.end()
    if (measure := measure_at(text, end, Decimal(1))) is not None:
        return measure[1]
    unit = counter_after(text, end)
    counts = unit.isalpha() and not unit.isascii() and unit not in FUNCTION_WORDS
    return unit if counts or unit in _UNIT_SIGNS else ""


def counter_after(text: str, end: int) -> str:
    """What follows a number that ends at ``end``: its counter or unit, a CJK character ("개" of "서른 개", "片" of
    "两片") or a lower-cased English word ("weeks" of "eight weeks"), else the next character ("-" of "three-hour");
    "" at the end."""
    found = _AFTER.match(text, end)
    return found.group(1).lower() if found else ""


def quantities(text: str) -> list[tuple[str, str]]:
    """Each number of ``text`` (its ``number_value``) with what counts it (``counter_after``): a word or a CJK
    character ("kg", "명", "天"), or "%"; "" for none or a mark ("-" of "three-hour"). "10 kg" and "10天" are other
    quantities than "10年"."""
    out = []
    for a, b in number_spans(text):
        unit = counter_after(text, b)
        out.append((number_value(text[a:b]), unit if unit.isalpha() or unit == "%" else ""))
    return out

