"""An amount of two things together, said of one of them (``_totals.total_of_part``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._settled import settled
from ragkit.evaluation._totals import total_of_part

WAREHOUSES = ("The company runs two warehouses, the Kettering warehouse and the Ashby warehouse, with about 300,000 "
              "square feet of floor space together. The Ashby warehouse opened in 2012.")
CAFES = ("Harbour Lights employs 120 people across its Quayside café and Abbey café combined. The Abbey café has 45 "
         "seats.")
GARDENS = "公司拥有两处自有茶园：西湖区的龙坞茶园和安吉县的安吉白茶基地，合计约500亩。"
STORES = "北仑仓和南湖仓共可存放8000吨茶叶，其中南湖仓可存放3000吨。"
PLANTS_KO = "로스팅 공장과 포장 공장에는 모두 합쳐 85명이 일합니다. 포장 공장은 강서구에 있습니다."
PLANTS_JA = "本社工場と熊本工場の従業員は合わせて約320名である。"


@pytest.mark.parametrize(("passage", "claim", "flagged"), [
    (WAREHOUSES, "The Ashby warehouse has about 300,000 square feet of floor space.", True),
    (WAREHOUSES, "The two warehouses have about 300,000 square feet of floor space.", False),  # names neither
    (WAREHOUSES, "The Kettering and Ashby warehouses have 300,000 square feet.", False),  # names both
    (CAFES, "The Abbey café employs 120 people.", True),
    (CAFES, "The Abbey café has 45 seats.", False),  # a value the passage gives of the one café
    (GARDENS, "安吉白茶基地面积约500亩。", True),
    (GARDENS, "两处茶园合计约500亩。", False),
    (STORES, "南湖仓可存放8000吨茶叶。", True),
    (STORES, "南湖仓可存放3000吨茶叶。", False),  # 其中: the total's word belongs to 8000, the nearer number
    (PLANTS_KO, "포장 공장에는 85명이 일합니다.", True),
    (PLANTS_KO, "로스팅 공장과 포장 공장에는 85명이 일합니다.", False),
    (PLANTS_JA, "熊本工場の従業員は約320名である。", True),
    (PLANTS_JA, "本社工場と熊本工場の従業員は約320名である。", False),
    # a claim that adds up itself is left to the judge: the split gives one such claim per thing of a right answer
    (PLANTS_JA, "熊本工場の従業員は合わせて約320名である。", False),
])
def test_a_total_said_of_one_of_its_things(passage: str, claim: str, flagged: bool) -> None:
    assert total_of_part(passage, claim) is flagged


def test_an_amount_the_passage_also_gives_alone_is_not_only_a_total() -> None:
    passage = ("The Kettering warehouse and the Ashby warehouse store 400 pallets in total. The Ashby warehouse alone "
               "can take 400 pallets in an emergency.")
    assert not total_of_part(passage, "The Ashby warehouse stores 400 pallets.")


def test_a_total_of_one_thing_joins_nothing() -> None:
    assert not total_of_part("In 2019, the Leeds plant produced 4,000 units in total.",
                             "The Leeds plant produced 4,000 units.")


def test_the_claim_is_unsupported_without_a_call() -> None:
    verdict = settled(GARDENS, "安吉白茶基地面积约500亩。", set(), None)
    assert verdict is not None and verdict.label == "neutral"
