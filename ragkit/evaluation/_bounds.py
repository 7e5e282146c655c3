"""A bound turned round: "carries at least 10 kg" against "carries up to 10 kg".

The number cloze (``_values``) checks a claim's numbers, and the value is the same; the small judge reads the rest
by its topic: on 10 such flips in four languages it called 5 entailed (support 0.59–0.84; bench/README.md, session
45). The words around a number say which way it bounds the quantity: an upper bound ("up to", "within", "fewer
than", "最多", "以内", "不到", "까지", "이하", "미만", "まで", "未満") or a lower one ("at least", "more than", "over",
"至少", "以上", "超过", "多", "이상", "넘", "少なくとも", "を超える"). A claim that bounds a value one way, where the
passage bounds the same value only the other way, is contradicted without a call. A value the passage states
without a bound, or with both, is left to the judge.
"""

from __future__ import annotations

import re
from typing import Literal

from ragkit.text import number_spans, number_value

Bound = Literal["upper", "lower"]

_BEFORE: list[tuple[Bound, str]] = [  # words right before a number, longest first where one holds another
    ("upper", r"(?:no|not)\s+more\s+than|(?:no|not)\s+later\s+than|up\s+to|at\s+most|within|fewer\s+than|"
              r"less\s+than|under|below|maximum(?:\s+of)?|max\.?|"
              r"最多|最大|不超过|不到|少于|低于|최대|最大で?|最高"),
    ("lower", r"(?:no|not)\s+(?:less|fewer)\s+than|no\s+earlier\s+than|at\s+least|more\s+than|over|above|"
              r"minimum(?:\s+of)?|min\.?|至少|超过|多于|高于|不少于|최소|少なくとも|最低"),
]
_AFTER: list[tuple[Bound, str]] = [  # words right after a number and its unit
    ("upper", r"or\s+(?:less|fewer|under)|以内|以下|之内|内|까지|이내|이하|미만|まで|以内|以下|未満"),
    ("lower", r"or\s+more|or\s+over|以上|之后|多|이상|초과|넘|以上|を?超え|超"),
]
_ZH_BEFORE: list[tuple[Bound, str]] = [("upper", "最多|最大|不超过|不到|少于|低于"),
                                       ("lower", "至少|超过|多于|高于|不少于")]
"""Chinese bounds may stand a short verb away from their number ("最多能承载10公斤", "最大负载为10公斤")."""
_BEFORE_RE = [(b, re.compile(rf"(?:{words})\s*$", re.IGNORECASE)) for b, words in _BEFORE] + \
    [(b, re.compile(rf"(?:{words})[\u4e00-\u9fff]{{0,3}}$")) for b, words in _ZH_BEFORE]
_AFTER_RE = [(b, re.compile(rf"^\s*(?:[^\W\d_]{{1,6}}?\s*){{0,2}}?(?:{words})", re.IGNORECASE))
             for b, words in _AFTER]
"""The bound after a number may follow a unit of one or two words ("10 kg or more", "5만 원 이상")."""
_BEFORE_WINDOW = 24
_AFTER_WINDOW = 14


def bound_at(text: str, start: int, end: int) -> Bound | None:
    """Which way the words around the number at ``start:end`` bound it, or None."""
    before = text[max(0, start - _BEFORE_WINDOW) : start]
    for bound, pattern in _BEFORE_RE:
        if pattern.search(before):
            return bound
    after = text[end : end + _AFTER_WINDOW]
    for bound, pattern in _AFTER_RE:
        if pattern.search(after):
            return bound
    return None


def bounds(text: str) -> dict[str, set[Bound | None]]:
    """Each number of ``text`` (``number_value``) → the bounds it is stated with (None: without one)."""
    out: dict[str, set[Bound | None]] = {}
    for start, end in number_spans(text):
        out.setdefault(number_value(text[start:end]), set()).add(bound_at(text, start, end))
    return out


def against_bound(passage: str, claim: str) -> bool:
    """Whether ``claim`` bounds a value one way where ``passage`` states that value only bounded the other way."""
    stated = bounds(passage)
    for value, claimed in bounds(claim).items():
        given = stated.get(value)
        if not given or None in given or len(given) != 1:
            continue
        (theirs,) = given
        if any(b is not None and b != theirs for b in claimed) and theirs not in claimed:
            return True
    return False
