"""A thing of a list put in the place the list gives another thing (``_bindings.misplaced``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._bindings import misplaced
from ragkit.evaluation._settled import settled

WAREHOUSES = ("The company runs two warehouses: the Kettering warehouse in Northamptonshire and the Ashby warehouse "
              "in Leicestershire. The Ashby warehouse also ships to Northamptonshire.")
GARDENS = "公司拥有两处自有茶园：西湖区的龙坞茶园和安吉县的安吉白茶基地，合计约500亩。"
SHOPS_KO = "한빛커피는 매장 두 곳을 운영합니다. 해운대구의 해운대점과 수영구의 광안리점입니다."
SHOPS_JA = "関西には大阪市の梅田店と神戸市の三宮店がある。"


@pytest.mark.parametrize(("passage", "claim", "flagged"), [
    (WAREHOUSES, "The Kettering warehouse is in Leicestershire.", True),
    (WAREHOUSES, "The Kettering warehouse is in Northamptonshire.", False),
    # another sentence joins the thing and the place: it may say what the claim says
    (WAREHOUSES, "The Ashby warehouse ships to Northamptonshire.", False),
    (GARDENS, "杭州西湖区有龙坞茶园和安吉白茶基地。", True),  # 西湖区 of 杭州西湖区 is the list's place
    (GARDENS, "安吉白茶基地位于西湖区。", True),
    (GARDENS, "西湖区有龙坞茶园。", False),
    (GARDENS, "龙坞茶园在西湖区，安吉白茶基地在安吉县。", False),  # each in its own place
    (SHOPS_KO, "광안리점은 해운대구에 있습니다.", True),
    (SHOPS_KO, "광안리점은 수영구에 있습니다.", False),
    (SHOPS_JA, "三宮店は大阪市にある。", True),
    (SHOPS_JA, "梅田店は大阪市に、三宮店は神戸市にある。", False),
])
def test_a_thing_in_the_place_its_list_gives_another(passage: str, claim: str, flagged: bool) -> None:
    assert misplaced(passage, claim) is flagged


def test_two_phrases_that_are_no_list_give_no_place() -> None:
    # two genitives in two clauses: 変速機 is no place of the 外装変速機, nor 部品 of the brand
    passage = "創業当初は変速機の部品を加工していましたが、1996年に自社ブランドの外装変速機「HS-5」を発売した。"
    assert not misplaced(passage, "ひばり精工の外装変速機HS-5は1996年に発売されました。")
    assert not misplaced("西湖区的龙坞茶园，以及后来的安吉县的基地。", "安吉县有龙坞茶园。")


def test_the_claim_is_unsupported_without_a_call() -> None:
    verdict = settled(WAREHOUSES, "The Kettering warehouse is in Leicestershire.", set(), None)
    assert verdict is not None and verdict.label == "neutral"


@pytest.mark.parametrize(("passage", "claim", "entailed"), [
    (WAREHOUSES, "The Kettering warehouse is located in Northamptonshire.", True),
    (GARDENS, "安吉白茶基地位于安吉县。", True),
    (GARDENS, "西湖区有龙坞茶园。", True),
    (SHOPS_KO, "광안리점은 수영구에 있습니다.", True),
    (SHOPS_JA, "三宮店は神戸市にある。", True),
    # anything more, a negation or the past goes to the judge
    (WAREHOUSES, "The Kettering warehouse is in Northamptonshire and opens at 6 am.", False),
    (WAREHOUSES, "The Kettering warehouse is not in Northamptonshire.", False),
    (WAREHOUSES, "The Kettering warehouse was in Northamptonshire.", False),
    (GARDENS, "安吉白茶基地不在安吉县。", False),
    (SHOPS_KO, "광안리점은 수영구에 없습니다.", False),
    (SHOPS_JA, "三宮店は神戸市にあり、2019年に開店した。", False),
    (WAREHOUSES, "The Kettering warehouse is in Leicestershire.", False),
])
def test_a_thing_in_the_place_its_list_gives_it(passage: str, claim: str, entailed: bool) -> None:
    from ragkit.evaluation._bindings import in_own_place

    assert in_own_place(passage, claim) is entailed
    verdict = settled(passage, claim, set(), None)
    assert (verdict is not None and verdict.label == "entailed") is entailed
