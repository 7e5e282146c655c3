"""Numbers written in words: Chinese and Japanese numerals (两, 十二, 三千二百), native Korean ones (세, 열두, 스무) and
English number words (eight, twenty-five, three hundred), read where they count something.

Each script's numerals also spell ordinary words ("一般", "十分", "세계", "Three Rivers"), so a numeral counts as a
number only where a counter follows it (Chinese, Japanese, Korean) or a lower-case word does (English), and
"one", 一 and 한 only where they are no article (bench/README.md, session 47).
"""

from __future__ import annotations

import re

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
           "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_COUNTED = ("片|粒|剂|錠|次|回|遍|天|日|年|个月|か月|ヶ月|カ月|月|周|週間|週|小时|時間|分钟|分|秒|岁|歳|元|円|块|倍|"
            "米|公里|千米|キロ|克|公斤|千克|吨|亩|升|毫升|人|名|位|台|辆|件|箱|盒|瓶|袋|包|层|階|条|家|所|座|个|"
            "種類|种|款|项|本|冊|枚|杯|つ|万|萬|亿|億")
_CJK_NUMERAL = re.compile(f"(?<![{''.join(_DIGITS)}{''.join(_UNITS)}第上下同每])(?![百千])"
                          f"[{''.join(_DIGITS)}{''.join(_UNITS)}]+(?=(?:{_COUNTED}))")
"""A number in Chinese or Japanese numerals, counted by the word after it: "两片", "每日三次", "十二个月", "八万元",
"三千二百人". A numeral with no counter after it is a word ("一般", "十分", "四川", "星期三"); an ordinal (第三) and
"the last, next, same, every one" (上一年, 下一次, 同一天, 每一盒) are no amount; a lone 百 or 千 starts no number
("百度")."""
_ARTICLE = re.compile("一(?:个|种|家|位|所|座|款|项|名|つ|天|日|年|月|周|週|小时|時間|回|次|遍)")
""""一个", "一家", "一种" are "a", "an" as often as "one"; "一天", "一年" are "a day", "a year" ("一天三次", three
times a day; "食堂一天大约提供600份午餐", 600 lunches a day), and "一回", "一次" "each time" ("一回九十分の授業",
90-minute classes): no number."""


_ONCE = re.compile("[日天周週月年]一[回次遍]")
""""每日一次", "一日一回", "週一回": once a day, a week; a number."""
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


_EN_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine".split())}
_EN_TEENS = {w: i + 10 for i, w in enumerate(
    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_EN_TENS = {w: (i + 2) * 10 for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_EN_SMALL = (f"(?:{'|'.join(_EN_TENS)})(?:-(?:{'|'.join(_EN_UNITS)}))?|{'|'.join(_EN_TEENS)}|"
             f"{'|'.join(_EN_UNITS)}")
_EN_NUMERAL = re.compile(f"(?<![\\w-])(?:{_EN_SMALL})(?:\\s+hundred(?:\\s+(?:and\\s+)?(?:{_EN_SMALL}))?)?"
                         f"(?=(?:\\s+|-)(?!(?:thirds?|fourths?|fifths?|halves|quarters?|of|or|to)\\b)[a-z])",
                         re.IGNORECASE)
"""English number words before a lower-case word: "eight weeks", "twenty-five staff", "three-hour classes", "three
hundred pounds". Not: a fraction ("two-thirds"), "two of the", "two or three", "one to two" (a range the digits
give better), a capitalised word inside a sentence ("the Three Rivers plant"), and "one" alone ("one of", "no
one", "one day")."""


def numeral_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the numerals of ``text`` that count something: Chinese, Japanese and Korean ones before a
    counter, English number words before a word."""
    cjk = [m.span() for m in _CJK_NUMERAL.finditer(text)
           if (not _ARTICLE.match(text, m.start()) or _ONCE.match(text, max(m.start() - 1, 0)))
           and not (m.group() == "十" and text.startswith("分", m.end()) and not text.startswith("分钟", m.end()))]
    # 十分 is "very", "enough"; 十分钟 ten minutes
    korean = [m.span() for m in _KO_NUMERAL.finditer(text) if not _KO_ARTICLE.match(text, m.start())]
    return cjk + korean + [m.span() for m in _EN_NUMERAL.finditer(text) if _counts(text, m.start(), m.group())]


def _counts(text: str, at: int, word: str) -> bool:
    """Whether an English number word counts: lower case, or capitalised at a sentence's start; "one" only before
    "hundred"."""
    if word.lower() in ("one", "zero"):
        return False
    return word[0].islower() or not text[:at].strip() or text[:at].rstrip()[-1] in ".!?:;\n"


NUMERAL_START = re.compile(f"[{''.join(_DIGITS)}{''.join(_UNITS)}]|{_KO_NUMERAL_WORD.pattern}|[A-Za-z]")


def numeral_value(numeral: str) -> int | None:
    """The value of a numeral (``numeral_spans``), or None for any other text: "三千二百" → 3200, "열두" → 12,
    "twenty-five" → 25, "three hundred and ten" → 310."""
    if numeral and all(ch in _DIGITS or ch in _UNITS for ch in numeral):
        return _chinese_value(numeral)
    if _KO_NUMERAL_WORD.fullmatch(numeral):
        tens = next((w for w in _KO_TENS if numeral.startswith(w)), "")
        return _KO_TENS.get(tens, 0) + _KO_UNITS.get(numeral[len(tens):], 0)
    words = re.split(r"[\s-]+", numeral.lower())
    if not words or not all(w in _EN_UNITS or w in _EN_TEENS or w in _EN_TENS or w in ("hundred", "and")
                            for w in words):
        return None
    total = 0
    for w in words:
        if w == "hundred":
            total *= 100
        elif w != "and":
            total += _EN_UNITS.get(w, 0) + _EN_TEENS.get(w, 0) + _EN_TENS.get(w, 0)
    return total


def _chinese_value(numeral: str) -> int:
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
