"""A bound turned round (``against_bound``), in the four languages; the claim engine asks the judge nothing."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._bounds import against_bound, bound_at
from ragkit.testing import ScriptedJudge

RULES = ("The Kestrel K10 carries up to 10 kg. Orders ship within 48 hours. The plant employs more than 500 people. "
         "Visitors must be at least 16 years old.")


@pytest.mark.parametrize(("text", "number", "bound"), [
    ("carries up to 10 kg", "10", "upper"),
    ("no more than 2 guests", "2", "upper"),
    ("paid in 14 days or less", "14", "upper"),
    ("16 or more years old", "16", "lower"),
    ("单笔订单不超过20件", "20", "upper"),
    ("最多能承载10公斤", "10", "upper"),  # a short verb between
    ("工厂有500多名员工", "500", "lower"),
    ("5만 원 이상", "5", "lower"),  # a unit of two words between
    ("30개 이하", "30", "upper"),
    ("500人未満", "500", "upper"),
    ("少なくとも10kg", "10", "lower"),
    ("opened in 2019", "2019", None),
])
def test_the_words_around_a_number_say_how_it_is_bounded(text: str, number: str, bound: str | None) -> None:
    start = text.index(number)
    assert bound_at(text, start, start + len(number)) == bound


@pytest.mark.parametrize(("claim", "against"), [
    ("The Kestrel K10 carries at least 10 kg.", True),
    ("The Kestrel K10 carries a maximum of 10 kg.", False),  # the same way round: the judge's
    ("Orders ship after more than 48 hours.", True),
    ("The plant has fewer than 500 employees.", True),
    ("The plant has 500 employees.", False),  # no bound in the claim
    ("Visitors must be under 16 years old.", True),
])
def test_a_bound_turned_round_is_against_the_passage(claim: str, against: bool) -> None:
    assert against_bound(RULES, claim) is against


def test_a_value_the_passage_states_both_ways_or_unbounded_is_the_judges() -> None:
    assert not against_bound("It carries up to 10 kg, and at least 10 kg per hand.", "It carries at least 10 kg.")
    assert not against_bound("The arm carries 10 kg. Its gripper holds up to 10 kg.", "The arm carries over 10 kg.")


async def test_the_engine_contradicts_a_bound_turned_round_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(RULES, ["The Kestrel K10 carries at least 10 kg."])
    assert verdict.label == "contradicted" and judge.calls == []
