"""Measures: a number with its unit, read in the unit's base, so that a claim in another unit is written as the
passage writes the same quantity."""

from __future__ import annotations

import pytest

from ragkit.text import as_written_in


@pytest.mark.parametrize(("passage", "claim", "written"), [
    ("The trail is 3,000 metres long.", "The trail is 3 km long.", "The trail is 3,000 metres long."),
    ("The crossing takes 2 hours.", "The crossing takes 120 minutes.", "The crossing takes 2 hours."),
    ("The box weighs 2 kg.", "The box weighs 2,000 grams.", "The box weighs 2 kg."),
    ("每袋净重500克。", "每袋净重0.5公斤。", "每袋净重500克。"),
    ("渡轮航程约1.5小时。", "渡轮航程约90分钟。", "渡轮航程约1.5小时。"),
    ("한 병은 1.5리터이다.", "한 병은 1500밀리리터이다.", "한 병은 1.5리터이다."),
    ("配送には48時間かかる。", "配送には2日間かかる。", "配送には48時間かかる。"),
    # another quantity, another family, or a unit that is no unit: left as written
    ("The trail is 3,000 metres long.", "The trail is 4 km long.", "The trail is 4 km long."),
    ("The trail is 3,000 metres long.", "The trail takes 3 hours.", "The trail takes 3 hours."),
    ("Revenue was €3m.", "Revenue was €3 million.", "Revenue was €3 million."),  # "m" is no unit
    ("It is 3 km away.", "It is 3 kmh.", "It is 3 kmh."),
    ("The trail is 3,000 metres long.", "The park covers 3 km².", "The park covers 3 km²."),  # an area
    ("오후 6시 30분에 닫는다.", "18시 30분에 닫는다.", "오후 6시 30분에 닫는다."),  # a clock time, not 30 minutes
])
def test_a_measure_in_another_unit_is_written_as_the_passage_writes_it(passage, claim, written):
    assert as_written_in(passage, claim) == written
