"""A value counted over another period (``_periods``), in the four languages; the claim engine asks the judge nothing
about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._periods import against_period, period_at
from ragkit.testing import ScriptedJudge

RATES = ("The Leeds plant ships 400 orders a day. Staff get 25 days of leave per year. The subscription costs 12 "
         "pounds a month. The bakery sells 300 loaves a day and 1,800 a week.")


@pytest.mark.parametrize(("text", "number", "period"), [
    ("ships 400 orders a day", "400", "day"),
    ("25 days of leave per year", "25", "year"),  # "days" is the value's unit, not its period
    ("costs 12 pounds monthly", "12", "month"),
    ("利兹工厂每天发货400单", "400", "day"),
    ("会员每月缴纳40元", "40", "month"),
    ("창고는 매주 12000개를 처리한다", "12000", "week"),
    ("社員は年間25日の休暇を取得する", "25", "year"),
    ("リーズ工場は1日に400件を出荷する", "1", None),  # the period's own number
    ("opened in 2019", "2019", None),
])
def test_the_words_around_a_number_say_what_period_it_is_counted_over(text: str, number: str,
                                                                     period: str | None) -> None:
    start = text.index(number)
    assert period_at(text, start, start + len(number)) == period


@pytest.mark.parametrize(("claim", "against"), [
    ("The Leeds plant ships 400 orders a week.", True),
    ("The Leeds plant ships 400 orders daily.", False),
    ("Staff get 25 days of leave a month.", True),
    ("Staff get 25 days of annual leave.", False),
    ("The bakery sells 1,800 loaves a week.", False),
    ("The bakery sells 300 loaves a week.", True),
    ("The Leeds plant ships 400 orders.", False),  # no period: the judge's
])
def test_a_value_counted_over_another_period_is_against_the_passage(claim: str, against: bool) -> None:
    assert against_period(RATES, claim) is against


def test_a_value_counted_over_another_period_in_chinese_korean_and_japanese() -> None:
    assert against_period("利兹工厂每天发货400单。", "利兹工厂每周发货400单。")
    assert not against_period("利兹工厂每天发货400单。", "利兹工厂一天发货400单。")
    assert against_period("직원은 1년에 25일의 휴가를 받는다.", "직원은 한 달에 25일의 휴가를 받는다.")
    assert against_period("購読料は月額1200円である。", "購読料は年額1200円である。")


async def test_the_engine_contradicts_it_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(RATES, ["The Leeds plant ships 400 orders a week."])
    assert verdict.label == "contradicted" and judge.calls == []
