"""A comparison of two siblings settled by the passage's numbers (``compared``), in the four languages; the claim
engine asks the judge nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._comparisons import as_compared_in, compared, comparison_witnesses
from ragkit.testing import ScriptedJudge

PLANTS = ("The Leeds plant opened in 2012 and has 140 staff. The York plant opened in 2018 and has 320 staff. "
          "Leeds ships about 900 orders a day; York ships about 400.")
FACTORIES = "余杭加工厂2012年投产，员工140人。萧山加工厂2018年投产，员工320人。余杭每天发货约900单，萧山每天约400单。"
BRANCHES = ("부산 지점은 2010년에 문을 열었다. 부산 지점의 연 매출은 약 120억 원이다. "
            "인천 지점은 2016년에 문을 열었고 연 매출은 약 80억 원이다.")
OFFICES = "札幌支店は2008年に開設され、社員は25人です。福岡支店は2003年に開設され、社員は40人です。"
WAREHOUSES = ("The Porto warehouse holds 12,000 pallets.\n\n| Site | Staff |\n|---|---|\n| Porto warehouse | 85 |\n"
              "| Lyon warehouse | 130 |")


@pytest.mark.parametrize(("passage", "claim", "settled"), [
    (PLANTS, "The York plant has more staff than the Leeds plant.", "entailed"),
    (PLANTS, "The Leeds plant has more staff than the York plant.", "contradicted"),
    (PLANTS, "The York plant opened before the Leeds plant.", "contradicted"),  # a year each
    (PLANTS, "Leeds ships more orders a day than York.", "entailed"),  # the clause that shares "ships", "orders"
    (FACTORIES, "萧山加工厂比余杭加工厂更早投产。", "contradicted"),
    (FACTORIES, "萧山每天的发货量比余杭多。", "contradicted"),
    (BRANCHES, "인천 지점보다 부산 지점이 먼저 문을 열었다.", "entailed"),  # the second side stands before 보다
    (BRANCHES, "부산 지점의 연 매출은 인천 지점보다 적다.", "contradicted"),
    (OFFICES, "札幌支店の社員は福岡支店より少ない。", "entailed"),
    (OFFICES, "札幌支店は福岡支店より早く開設された。", "contradicted"),
    (WAREHOUSES, "The Lyon warehouse has fewer staff than the Porto warehouse.", "contradicted"),  # by the header
])
def test_a_comparison_of_siblings_is_settled_by_their_numbers(passage: str, claim: str, settled: str) -> None:
    assert compared(passage, claim) == settled


@pytest.mark.parametrize(("passage", "claim"), [
    (PLANTS, "The Leeds plant does not have more staff than the York plant."),  # negated: the judge reads it
    (PLANTS, "The Leeds plant has more than 300 staff."),  # compared with a value, not with the sibling
    (PLANTS, "The York plant has 320 staff, more than the Leeds plant."),  # the claim states the value
    (PLANTS, "The York plant opened in 2018."),  # no comparison
    (PLANTS, "The York plant is more modern than the Leeds plant."),  # nothing the passage counts
    (WAREHOUSES, "The Porto warehouse holds more pallets than the Lyon warehouse."),  # Lyon's pallets unknown
    ("부산 지점은 2010년, 인천 지점은 2016년에 문을 열었다.", "인천 지점은 2012년보다 늦게 문을 열었다."),
    ("The Leeds plant has 140 staff. The York plant has 140 staff.", "York has more staff than Leeds."),  # equal
])
def test_what_the_numbers_cannot_tell_is_left_to_the_judge(passage: str, claim: str) -> None:
    assert compared(passage, claim) is None


def test_a_claim_that_says_more_than_the_comparison_is_the_judges() -> None:
    passage = ("부산 창고는 2014년에 지었고 보관 면적은 8,000제곱미터이다. "
               "인천 창고는 2019년에 지었고 보관 면적은 12,000제곱미터이다.")
    assert compared(passage, "인천 창고가 부산 창고보다 보관 면적이 넓다.") == "entailed"
    # "more popular, since it can store frozen goods": right by the area it shares "보관" with, but not said
    assert compared(passage, "인천 창고는 냉동 보관이 가능해서 부산 창고보다 인기가 많다.") is None
    assert compared(passage, "부산 창고가 인천 창고보다 보관 면적이 넓다.") == "contradicted"


def test_a_number_with_a_unit_after_it_is_no_year() -> None:
    passage = "The Leeds plant has 2000 staff. The York plant has 1900 staff."
    assert compared(passage, "The York plant has fewer staff than the Leeds plant.") == "entailed"
    assert compared(passage, "The York plant opened earlier than the Leeds plant.") is None


async def test_the_engine_settles_a_comparison_without_a_call() -> None:
    judge = ScriptedJudge([])
    verdicts = await ClaimStore(judge).check(PLANTS, ["The Leeds plant has more staff than the York plant."])
    assert [v.label for v in verdicts] == ["contradicted"] and verdicts[0].support == 0.0
    assert judge.calls == []


def test_a_comparison_stated_in_words_contradicts_its_reverse() -> None:
    # a reference read as the passage (factual correctness) states the comparison with no numbers
    reference = "福岡支店の社員は札幌支店より多い。"
    assert compared(reference, "札幌支店の社員は福岡支店より多い。") == "contradicted"
    assert compared(reference, "札幌支店の社員は福岡支店より少ない。") is None  # the same way round: the judge's
    assert compared(reference, "札幌支店は福岡支店より早く開設された。") is None  # another kind


def test_a_split_claim_that_reverses_its_texts_comparison_is_the_texts_sentence() -> None:
    text = "The Birch reservoir holds more water than the Alder reservoir. It was filled in 1971."
    claims = ["The Alder reservoir holds more water than the Birch reservoir.",  # the split's swap
              "The Alder reservoir holds less water than the Birch reservoir.",  # the same, said the other way
              "It was filled in 1971."]
    assert as_compared_in(text, claims) == [
        "The Birch reservoir holds more water than the Alder reservoir.", *claims[1:]]
    assert as_compared_in("福岡支店の社員は札幌支店より多い。", ["札幌支店の社員は福岡支店より多い。"]) == [
        "福岡支店の社員は札幌支店より多い。"]


def test_a_settled_comparison_stands_on_the_passages_that_give_its_values() -> None:
    passages = ["The Leeds plant opened in 2012 and has 140 staff.", "Both plants are open to visitors on Fridays.",
                "The York plant opened in 2018 and has 320 staff."]
    assert comparison_witnesses(passages, "The York plant has more staff than the Leeds plant.") == [0, 2]
    assert comparison_witnesses(passages, "The York plant is more modern than the Leeds plant.") == []


PRODUCTS = ("The Kestrel K10 arm carries up to 10 kg and reaches 1,300 mm. It was launched in 2019. "
            "The Wren W300 mobile robot carries up to 300 kg and was launched in 2021.")
SITES = "余杭加工厂建于2015年，员工约120人。安吉白茶基地2018年建成，常驻员工约15人。"
SHOPS = ("기장 로스팅 공장은 2017년에 문을 열었고 직원은 24명이다. "
         "성수점은 2020년에 문을 열었으며 바리스타 8명이 일한다.")


@pytest.mark.parametrize(("passage", "claim", "settled"), [
    (PRODUCTS, "The Kestrel K10 carries more than the Wren W300.", "contradicted"),
    (PRODUCTS, "The Kestrel K10 was launched earlier than the Wren W300.", "entailed"),  # "It was launched in 2019"
    (SITES, "安吉白茶基地的员工比余杭加工厂多。", "contradicted"),
    (SITES, "余杭加工厂比安吉白茶基地建成得早。", "entailed"),
    (SHOPS, "성수점이 기장 로스팅 공장보다 먼저 문을 열었다.", "contradicted"),
])
def test_two_things_with_no_common_head_are_compared_by_their_names(passage: str, claim: str, settled: str) -> None:
    assert compared(passage, claim) == settled


def test_before_and_after_compare_only_siblings() -> None:
    # "Acme's second plant after Sheffield" orders plants, it does not date the Wren W300
    passage = ("The Wren W300 is made at the Maia plant, which opened in 2021 and is Acme's second plant after "
               "Sheffield.")
    assert compared(passage, passage) is None
    assert compared(PRODUCTS, "The Wren W300 was launched before the Kestrel K10.") is None
    assert compared(PRODUCTS, "Docuvault rejects files larger than 200 MB.") is None  # "200 MB" is no name
