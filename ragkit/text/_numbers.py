"""Numbers standing on their own in any script: the values a claim or an answer states.

A number is a run of digits (full-width ones included), with thousands separators or a decimal part: "1996",
"1,000,000", "3.5", "１９９６". The digits of a code or a model name are no number: "HM-1", "K2307-03", "K10",
"W300". ``number_value`` is the form two numbers are compared in (NFKC, separators dropped), so that "1,000" in
an answer is the "1000" of a passage.
"""

from __future__ import annotations

import re
import unicodedata

_NUMBER = re.compile(r"(?<![A-Za-z\d.,])\d+(?:[.,]\d+)*")
_CODE = re.compile(r"(?<![A-Za-z\d])[A-Za-z][A-Za-z\d]*(?:-[A-Za-z\d]+)+")
"""A code of a letter, then hyphenated parts: "HM-1", "CB-3", "K2307-03", "INC-2023-014". Its digits are no
number."""


def number_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the numbers of ``text``, in order."""
    blanked = _CODE.sub(lambda m: " " * len(m.group()), text)
    return [m.span() for m in _NUMBER.finditer(blanked)]


def number_value(number: str) -> str:
    """The comparable form of a number as written: NFKC digits, no thousands separators."""
    return unicodedata.normalize("NFKC", number).replace(",", "")


def numbers(text: str) -> list[str]:
    """The numbers of ``text`` in ``number_value`` form, in order, each once."""
    return list(dict.fromkeys(number_value(text[a:b]) for a, b in number_spans(text)))
