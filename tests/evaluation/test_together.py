"""A year and an amount: stated together as the passage binds them, or the amount put in another year."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._together import bound_to_another_year, dates_together
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge, WithLogprobs

ZH = "青山茶业于2011年在杭州成立。2022年，公司营业收入约2.4亿元，较2021年的1.9亿元增长约26%，员工约260人。"
KO = ("한빛제과는 1998년 부산에서 설립되었다. 2022년 매출은 약 530억 원으로 2021년의 480억 원보다 증가했으며, "
      "직원은 310명이다.")
JA = "さくら電機は1985年に名古屋で設立されました。2022年度の売上高は約120億円で、前年度の108億円から増加しました。"
EN = ("Northgate Tools was founded in 1987 in Sheffield. In 2022 its revenue reached 41.5 million pounds, up from "
      "37.2 million pounds in 2021, and it employed 230 people.")


@pytest.mark.parametrize(("passage", "claim", "asked"), [
    (ZH, "2011年青山茶业的营业收入约2.4亿元。", "青山茶业的营业收入是多少？"),  # the founding year
    (ZH, "2021年青山茶业的营业收入约2.4亿元。", "青山茶业的营业收入是多少？"),  # the year of the other amount
    (ZH, "2020年青山茶业的营业收入约2.4亿元。", ""),  # a year the passage never writes
    (KO, "한빛제과의 2021년 매출은 약 530억 원이다.", "한빛제과의 매출은 얼마인가요?"),  # 2021 beside its own 480억
    (KO, "한빛제과의 2022년 매출은 480억 원이었다.", "한빛제과의 매출은 얼마인가요?"),
    (JA, "さくら電機の1985年度の売上高は約120億円です。", "さくら電機の売上高はいくらですか？"),
    (EN, "In 1987, Northgate Tools' revenue reached 41.5 million pounds.", "What was Northgate Tools' revenue?"),
    ("2020년에 문을 연 이 도서관은 2023년 방문객이 약 12만 명이었다.", "2020년 도서관 방문객은 약 12만 명이었다.", ""),
    ("In 2023 the plant had 1900 employees.", "The plant had 1900 employees in 2022.", ""),  # 1900 counts people
])
def test_an_amount_put_in_a_year_the_passage_never_gives_it_is_bound_to_another(
        passage: str, claim: str, asked: str) -> None:
    assert bound_to_another_year(passage, claim, asked)


@pytest.mark.parametrize(("passage", "claim", "asked"), [
    (ZH, "2022年青山茶业的营业收入约2.4亿元。", ""),
    (ZH, "2021年青山茶业的营业收入约1.9亿元。", ""),  # "较2021年的1.9亿元": side by side
    (KO, "한빛제과의 2021년 매출은 480억 원이었다.", ""),
    (JA, "さくら電機の売上高は2022年度に約120億円でした。", ""),
    (EN, "Northgate Tools' revenue was 37.2 million pounds in 2021.", ""),
    # two facts joined: the year and the amount stand in clauses of their own, or the claim says what the year's
    # clause says of it (创立 of "于2011年在杭州成立" is not the amount's)
    (ZH, "青山茶业成立于2011年，营业收入约2.4亿元。", ""),
    (EN, "Northgate Tools, founded in 1987, had revenue of 41.5 million pounds.", ""),
    (ZH, "2011年成立的青山茶业营业收入约2.4亿元。", "青山茶业的营业收入是多少？"),
    # the subject, named only in the clause of the founding year, may be what the claim takes from it
    (ZH, "2011年青山茶业的营业收入约2.4亿元。", ""),
    # a span of years: its first year is the claim's
    ("2019年至2023年，公司累计销售3.6亿元。", "2019年起公司累计销售3.6亿元。", ""),
    ("Between 2018 and 2022 the trust raised 12 million dollars.", "Since 2018 the trust raised 12 million dollars.",
     ""),
    # a clause that states the amount with no year may state it of the claim's year
    ("2022年营业收入约2.4亿元。2023年营业收入与上年持平，仍为2.4亿元。", "2023年营业收入约2.4亿元。", ""),
    # a claim of one number or three is no year and amount
    (ZH, "青山茶业的营业收入约2.4亿元。", ""),
    (ZH, "青山茶业2022年营业收入约2.4亿元，员工约260人。", ""),
])
def test_a_year_and_amount_the_passage_binds_or_may_join_are_not(passage: str, claim: str, asked: str) -> None:
    assert not bound_to_another_year(passage, claim, asked)


async def test_a_wrong_year_for_an_amount_is_contradicted_without_a_call() -> None:
    def reply(call: CallInfo) -> object:  # the native build's habit: the founding year in the year's blank
        if call.prompt_name == "claims.check":
            return {str(i): "supported" for i in range(len(call.data.claims))}  # type: ignore[union-attr]
        return {"0": "2011", "1": "2.4"}

    judge = ScriptedJudge(reply)
    right, wrong = await ClaimStore(judge).check(
        ZH, ["2022年青山茶业的营业收入约2.4亿元。", "2011年青山茶业的营业收入约2.4亿元。"],
        asked="青山茶业的营业收入是多少？")
    assert (right.label, wrong.label) == ("entailed", "contradicted")
    assert [c.data.claims for c in judge.calls] == [["2022年青山茶业的营业收入约2.4亿元。"]]  # type: ignore[union-attr]


RELEASED = ("What's New:\n\n- April 27, 2024 Released Kss 6.0 Python.\n- March 31, 2024 Released Kss 5.0 Python.\n"
            "- December 19, 2022 Released Kss 4.0 Python.\n- August 18, 2021 Released Kss 3.0 Python.")


@pytest.mark.parametrize(("claim", "passage", "bound"), [
    ("Kss 4.0 Python was released in December 2022.", RELEASED, {"December 2022"}),
    ("Kss 4.0 Python was released in March 2022.", RELEASED, set()),  # the passage's 4.0 has another month
    ("Kss 5.0 Python was released in December 2022.", RELEASED, set()),
    ("青岚4.0版于2022年12月发布。", "2022年12月19日发布青岚4.0版。", {"2022年12月"}),
    # two months in the sentence bind neither to 4.0
    ("Kss 4.0 was released in March 2024.", "Kss 4.0 came out in December 2022 and 5.0 in March 2024.", set()),
])
def test_a_date_a_sentence_gives_with_the_claims_other_numbers(claim: str, passage: str, bound: set[str]) -> None:
    assert dates_together(claim, passage) == bound


async def test_the_clozes_other_date_for_a_release_a_list_line_binds_is_set_aside() -> None:
    """The check unsure (0.82), the cloze picks the list's first date, as the embedded judge did (session 67)."""
    def judge() -> ScriptedJudge:
        check = '{"0": "supported"}'
        cloze = '{"0": "none", "1": "April 27, 2024"}'
        return ScriptedJudge([
            WithLogprobs(check, [('{"0": "', 0.0), ("supported", -0.2, [("contr", -2.0)]), ('"}', 0.0)]),
            WithLogprobs(cloze, [('{"0": "', 0.0), ("none", 0.0), ('", "1": "', 0.0), ("April 27, 2024", 0.0),
                                 ('"}', 0.0)]),
        ])

    (right,) = await ClaimStore(judge()).check(RELEASED, ["Kss 4.0 Python was released in December 2022."])
    (wrong,) = await ClaimStore(judge()).check(RELEASED, ["Kss 4.0 Python was released in March 2022."])
    assert (right.label, wrong.label) == ("entailed", "contradicted")
