"""Claims about a passage's tables, checked by where their values stand."""

from __future__ import annotations

import re
from collections.abc import Callable

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._table_facts import Placement, placements, table_witnesses
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge

PRODUCTS = ("Products\n\nProduct | Units 2022 | Units 2023 | Built at\nTern T4 arm | 1,240 | 1,100 | Hull\n"
            "Gull G2 mobile robot | 410 | 980 | Braga\n")
RESULTS = "Measure | 2022 | 2023\nRevenue | 41.2 million | 47.9 million\nRevenue growth | 9% | 16%"
GARDENS = ("项目 | 东山茶园 | 西岭基地\n所在地 | 苏州市吴中区 | 湖州市长兴县\n面积 | 约300亩 | 约120亩\n"
           "主要品种 | 碧螺春、槠叶种 | 紫笋")
SITES = "Site | City | Opened\nFoundry House (HQ) | Bristol, UK | 2011\nYard Two | Bath, UK | 2019"


def _placed(*numbers: str, pinned: bool = False, in_line: bool = False) -> Placement:
    """A placement where some value stands where the claim's names point, with these numbers placed; ``pinned``:
    in the one cell its row and column name; ``in_line``: in one cell of the one row it names, no column named."""
    return Placement(False, frozenset(numbers), stands=True, pinned=pinned, in_line=in_line)


def _one(passage: str, claim: str) -> Placement | None:
    return placements(passage, [claim])[0]


def test_a_value_of_another_row_is_misplaced() -> None:
    assert _one(PRODUCTS, "The Tern T4 arm is built at Braga.") == Placement(True, frozenset())
    assert _one(PRODUCTS, "The Tern T4 arm is built at Hull.") == _placed(pinned=True)


def test_a_value_of_another_column_is_misplaced_and_the_columns_year_is_placed_with_a_right_one() -> None:
    assert _one(RESULTS, "Revenue in 2022 was 47.9 million.").misplaced  # type: ignore[union-attr]
    assert _one(RESULTS, "Revenue in 2023 was 47.9 million.") == _placed("47.9", "2023", pinned=True)
    assert not _one(RESULTS, "Revenue growth in 2023 was 16%.").misplaced  # type: ignore[union-attr]


def test_a_table_whose_columns_are_its_subjects() -> None:
    assert _one(GARDENS, "西岭基地面积约300亩。").misplaced  # type: ignore[union-attr]
    assert _one(GARDENS, "东山茶园的主要品种包括紫笋。").misplaced  # type: ignore[union-attr]
    assert not _one(GARDENS, "东山茶园的主要品种是碧螺春。").misplaced  # type: ignore[union-attr]


def test_a_leading_part_of_a_row_names_it_and_particles_do_not_hide_a_name() -> None:
    assert _one(PRODUCTS, "The Gull G2 shipped 1,100 units in 2023.").misplaced  # type: ignore[union-attr]
    # the column "Units 2023" is not named, but its year stands beside the placed value
    assert _one(PRODUCTS, "The Gull G2 shipped 980 units in 2023.") == _placed("980", "2023", in_line=True)
    assert _one(PRODUCTS, "The Gull G2 shipped 980 units in 2022.") == _placed("980")
    menu = "메뉴 | 가격\n소금빵 | 2,900원\n크루아상 | 3,800원"
    assert _one(menu, "소금빵은 3,800원입니다.").misplaced  # type: ignore[union-attr]
    catalog = "製品 | 価格\nHS-5 | 6,800円\nHS-8 | 14,500円"
    assert _one(catalog, "HS-5の価格は14,500円です。").misplaced  # type: ignore[union-attr]


def test_a_column_another_value_stands_in_does_not_misplace_the_rest() -> None:
    assert not _one(SITES, "The headquarters in Bristol, UK opened in 2011.").misplaced  # type: ignore[union-attr]


def test_a_column_of_words_does_not_misplace_a_number() -> None:
    beans = "제품 | 로스팅 | 가격(200g)\n구지 함벨라 | 라이트 | 18,000원\n우일라 수프리모 | 미디엄 | 15,000원"
    # "로스팅" of the plant's name names the roast column, which holds no price: the fee is not the table's to place
    assert _one(beans, "기장 로스팅 공장 견학 참가비는 1인 15,000원입니다.") is None
    assert _one(beans, "구지 함벨라의 가격은 15,000원입니다.").misplaced  # type: ignore[union-attr]
    # a claim of a number and a word, the column named only by the number's heading, places both in their row
    assert _one(SITES, "Yard Two opened in 2019 in Bath, UK.").pinned  # type: ignore[union-attr]


def test_nothing_is_said_of_a_claim_that_names_nothing_of_the_table_or_states_none_of_its_values() -> None:
    assert _one(PRODUCTS, "The company sells arms and robots.") is None
    assert _one(PRODUCTS, "The Tern T4 arm is painted blue.") is None
    assert placements("No table here.", ["The Tern T4 arm is built at Braga."]) == [None]


def test_a_row_of_one_table_is_not_placed_by_another_tables_column() -> None:
    two = "製品 | 生産\nHS-5 | 浜松工場\n\nブレーキ | 生産\nHB-100 | 熊本工場"
    assert _one(two, "HB-100は浜松工場で生産されています。") is None
    assert _one(two, "HB-100は熊本工場で生産されています。") == _placed(pinned=True)


def _supported_and_cloze(pick: str) -> Callable[[CallInfo], object]:
    """A judge whose check calls every claim supported, and whose cloze fills every blank with ``pick``."""
    def reply(call: CallInfo) -> object:
        if call.prompt_name == "claims.check":
            return {str(i): "supported" for i in range(len(call.data.claims))}  # type: ignore[union-attr]
        return dict.fromkeys(re.findall(r"\[(\d+)\]", call.data.statements), pick)  # type: ignore[union-attr]
    return reply


async def test_the_store_contradicts_a_misplaced_value_without_asking_the_judge() -> None:
    judge = ScriptedJudge(_supported_and_cloze("47.9"))
    right, wrong = await ClaimStore(judge).check(RESULTS, ["Revenue in 2023 was 47.9 million.",
                                                           "Revenue in 2022 was 47.9 million."])
    assert (right.label, wrong.label) == ("entailed", "contradicted")
    assert judge.calls == []  # the right claim is the table's own cell (pinned), the wrong one misplaced


async def test_the_clozes_pick_of_another_cell_for_a_placed_value_is_set_aside_but_not_for_an_unplaced_one() -> None:
    claims = ["Revenue growth in 2023 was 16%.", "Profit rose by 9%."]  # the second names no row or column
    placed, loose = await ClaimStore(ScriptedJudge(_supported_and_cloze("41.2"))).check(RESULTS, claims)
    assert (placed.label, loose.label) == ("entailed", "contradicted")


def test_a_one_word_item_of_a_list_cell_is_no_value() -> None:
    fields = "field | uses\nrequires | sample fields\nuses | llm, embeddings, or claim matrices"
    assert _one(fields, "The requires field is checked before the first LLM call.") is None
    assert _one(fields, "The requires field is read from sample fields.") == _placed(pinned=True, in_line=True)


async def test_the_passage_whose_table_holds_a_value_is_named_though_another_names_the_subject() -> None:
    about = "Orrin Labs makes water-testing kits and sells them in eleven countries."
    claim = "Orrin Labs' revenue in 2023 was 47.9 million."
    judge = ScriptedJudge(_supported_and_cloze("47.9"))
    (attribution,) = await ClaimStore(judge, name_by_words=True).attribute([about, RESULTS], [claim],
                                                                           name_contexts=True)
    assert attribution.by == [1] and attribution.verdict.label == "entailed"
    assert "claims.attribute" not in [c.prompt_name for c in judge.calls]  # named without the judge
    assert table_witnesses([about, RESULTS], "Orrin Labs' revenue in 2022 was 47.9 million.") == [1]
    assert table_witnesses([about], claim) == []


async def test_a_claim_the_table_states_in_one_cell_is_entailed_without_asking() -> None:
    assert _one(RESULTS, "Revenue in 2023 was 47.9 million.").pinned  # type: ignore[union-attr]
    assert not _one(PRODUCTS, "The Gull G2 shipped 980 units in 2023.").pinned  # type: ignore[union-attr]
    judge = ScriptedJudge(lambda call: {"0": "not_mentioned"})
    (verdict,) = await ClaimStore(judge).check(RESULTS, ["Revenue in 2023 was 47.9 million."])
    assert verdict.label == "entailed" and judge.calls == []


KO_SITES = ("사업장\n\n사업장 | 위치 | 문을 연 해 | 인원\n본사 | 부산 해운대구 | 2013 | 22명\n"
         "기장 로스팅 공장 | 부산 기장군 | 2017 | 31명\n성수점 | 서울 성동구 | 2023 | 11명")


def test_a_number_counted_otherwise_is_not_the_cells_value() -> None:
    # "오후 11시" (11 pm) is no value of the 성수점 row's "11명" (11 people): the README's Korean job scored this
    # right answer 0.00 against its own passage's shifts before
    (shifts,) = placements(KO_SITES, ["기장 로스팅 공장은 2조가 오후 2시부터 오후 11시까지 근무합니다."])
    assert shifts is None or not shifts.misplaced
    (wrong,) = placements(KO_SITES, ["기장 로스팅 공장의 인원은 11명입니다."])
    assert wrong is not None and wrong.misplaced  # the same count, in another row
    (right,) = placements(KO_SITES, ["기장 로스팅 공장의 인원은 31인입니다."])
    assert right is not None and right.pinned  # people counted with another counter
    (arm,) = placements("Spec\n\nItem | Value\nAxes | 6 rotating joints\nReach | 850 mm",
                        ["The arm has a 6 kg payload and 850 mm reach."])
    assert arm is not None and not arm.misplaced


def test_a_claim_its_named_row_states_in_one_cell_is_entailed_when_it_says_nothing_more() -> None:
    from ragkit.evaluation._settled import settled

    menu = ("대표 메뉴\n\n메뉴 | 종류 | 가격\n바게트 | 식사빵 | 4,500원\n마들렌 | 구움과자 | 2,200원\n"
            "치아바타 | 식사빵 | 3,900원")

    def verdict(passage: str, claim: str, asked: str = "") -> str | None:
        (placed,) = placements(passage, [claim])
        found = settled(passage, claim, set(), placed, asked, asked)
        return found.label if found is not None else None

    asked = "오븐집 베이커리의 마들렌은 얼마인가요?"
    # the row, its one cell of the claim's value, and the question's subject: the row states it
    assert _one(menu, "오븐집 베이커리의 마들렌은 2,200원이에요.").in_line  # type: ignore[union-attr]
    assert verdict(menu, "오븐집 베이커리의 마들렌은 2,200원이에요.", asked) == "entailed"
    assert verdict(menu, "마들렌은 구움과자입니다.") == "entailed"
    # another row's price is misplaced; a denial, or a word neither the passage nor the question has, is the judge's
    assert verdict(menu, "마들렌은 3,900원이에요.", asked) == "contradicted"
    assert verdict(menu, "마들렌은 2,200원 할인됩니다.", asked) is None
    assert verdict(menu, "오븐집 베이커리의 마들렌은 2,200원이에요.") is None  # 오븐집 is only the question's
    # a number the table does not place, or values of two cells, leave the row to the judge
    assert not _one(menu, "마들렌은 2025년부터 2,200원이에요.").in_line  # type: ignore[union-attr]
    assert not _one(GARDENS, "碧螺春和紫笋是主要品种。").in_line  # type: ignore[union-attr]
    lines = "路線 | 区間 | 駅数\n本線 | 東浜〜岬 | 12\n支線 | 東浜〜港 | 3"
    assert verdict(lines, "支線の駅数は3です。") == "entailed"  # the column named: pinned, as before
    assert verdict(lines, "支線には駅が3つあります。", "支線には駅がいくつありますか？") == "entailed"
    farms = "项目 | 青溪农场 | 白石农场\n所在地 | 普洱市 | 临沧市\n负责人 | 罗建华 | 杨秀梅"
    assert verdict(farms, "罗建华负责青溪农场。") == "entailed"  # a table whose columns are its subjects
    assert verdict(farms, "罗建华负责白石农场。") == "contradicted"
    sites = "Site | City | Staff\nYard Two | Bath | 40\nMill Lane | Leeds | 65"
    assert verdict(sites, "Mill Lane Leeds.") == "entailed"
    assert verdict(sites, "Mill Lane employs 65 people.") is None  # "employs" and "people" are no word of it
