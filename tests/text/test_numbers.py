"""Numbers standing on their own, in any script: the values claims and answers state."""

from __future__ import annotations

import pytest

from ragkit.text import number_spans, number_value, numbers


@pytest.mark.parametrize(("text", "expected"), [
    ("HS-5は1996年に発売", ["1996"]),
    ("K2307-03からK2307-21まで", []),
    ("1,000,000 won and 3.5 kg", ["1000000", "3.5"]),
    ("１９９６年", ["1996"]),
    ("W300 costs 40 dollars", ["40"]),
    ("第3章、INC-2023-014", ["3"]),
    ("근속 5년이 되는 해에 100만 원", ["5", "100"]),
])
def test_numbers_are_found_and_codes_are_not(text: str, expected: list[str]) -> None:
    assert numbers(text) == expected


def test_each_value_once_in_order() -> None:
    assert numbers("1996, then 2004, then 1,996 again") == ["1996", "2004"]


def test_spans_point_at_the_number_as_written() -> None:
    text = "Opened in 1,996 rooms"
    ((a, b),) = number_spans(text)
    assert text[a:b] == "1,996" and number_value(text[a:b]) == "1996"
