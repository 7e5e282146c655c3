"""The numbers' cloze: a claim's numbers checked by choosing the passage's value for a blank, read together with
the check's verdict."""

from __future__ import annotations

import re

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._together import stated_together
from ragkit.evaluation._values import (
    NONE,
    Blank,
    as_counted,
    as_kind,
    blanked,
    cloze_prompt,
    combined,
    dates_by_text,
    options,
    stated_values,
    units_by_value,
)
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge, WithLogprobs, claim_reply
from ragkit.text import numbers, year_and_month

HISTORY = "The HS-5 derailleur came out in 1996.\n- 2004: the HB-100 disc brake came out."


def test_each_number_of_an_asked_claim_is_blanked_but_codes_and_the_questions_numbers_are_not() -> None:
    claims = ["The HS-5 came out in 1996.", "The K2307-03 lot was recalled.", "青禾7号于2008年推出。", "Three."]
    statements, holes = blanked(claims, [True] * 4, ["1996", "2008", "2011"], asked="青禾7号是哪一年推出的？")
    assert statements == ["The HS-5 came out in [0].", "青禾7号于[1]年推出。"]
    assert holes == [Blank(0, "1996"), Blank(2, "2008", "年")]
    assert blanked(["The HS-5 came out in 1996."], [False], ["1996", "2004"]) == ([], [])


def test_a_claim_is_blanked_only_when_the_passage_states_another_number() -> None:
    claim = ["The W300 carries 12 kg."]
    assert blanked(claim, [True], numbers("It carries 12 kg.")) == ([], [])
    assert blanked(claim, [True], numbers("No load is given.")) == ([], [])
    assert blanked(claim, [True], numbers("It carries 15 kg."))[0] == ["The W300 carries [0] kg."]


def test_the_blanks_of_a_claim_stand_together_and_a_claim_of_three_numbers_is_left_to_the_check() -> None:
    claims = ["2019年の社員は40名。", "Codes 1, 2 and 3 are used.", "Code 7 is used."]
    statements, holes = blanked(claims, [True, True, True], ["5"])
    assert statements == ["[0]年の社員は[1]名。", "Code [2] is used."]
    assert [(h.claim, h.value) for h in holes] == [(0, "2019"), (0, "40"), (2, "7")]


@pytest.mark.parametrize("claim", ["The bridge reopened in February 2023.", "第二ラインは2024年4月に加わった。",
                                   "새 열람실은 2023년 3월에 열었다.", "山田恵子は2019年4月から社長。"])
def test_a_month_of_a_year_is_one_blank(claim: str) -> None:
    (statement,), (hole,) = blanked([claim], [True], ["2021.07.09", "2023.02.14", "14"])
    assert statement.count("[0]") == 1 and not re.search(r"\d", statement.replace("[0]", ""))
    assert hole.date and hole.value in claim and year_and_month(hole.value) is not None


def test_a_date_or_month_the_question_states_is_no_blank_however_written() -> None:
    stated = ["1.0", "June 2019", "3.4.1", "March 2023", "2024.03.18"]
    statements, _ = blanked(["Version 3.4.1 was introduced in March 2023.", "Version 4.0 shipped on 2024.03.18.",
                             "It was fixed in March 2023."], [True] * 3, stated,
                            asked="Which version came in March 2023, and which on March 18, 2024?")
    assert statements == ["Version [0] was introduced in March 2023.", "Version [1] shipped on 2024.03.18."]
    assert blanked(["Version 3.4.1 was introduced in March 2023."], [True], stated, asked="What came in 2023?")[0] \
        == ["Version [0] was introduced in [1]."]


def test_a_month_of_a_year_is_read_against_a_whole_dates_year_and_month() -> None:
    dates = dates_by_text("Closed on 2021.07.09, reopened on 2023.02.14, for 14 million.")
    february, july, day = Blank(0, "February 2023", date=True), Blank(0, "July 2023", date=True), \
        Blank(0, "2023.02.15", date=True)
    assert as_kind({"2023.02.14": 0.9, "2021.07.09": 0.1}, february, dates) == {"February 2023": 0.9,
                                                                                 "2021.07.09": 0.1}
    assert as_kind({"2023.02.14": 1.0}, july, dates) == {"2023.02.14": 1.0}
    assert as_kind({"2023": 0.7, "14": 0.3}, july, dates) == {NONE: 1.0}  # a plain number names no month
    assert as_kind({"February 2023": 1.0}, day, dates) == {NONE: 1.0}  # nor a month a day
    assert as_kind({"2023.02.14": 1.0}, day, dates) == {"2023.02.14": 1.0}
    assert as_kind({"February 14, 2023": 1.0}, Blank(0, "2023.02.14", date=True), dates) == {"2023.02.14": 1.0}


def test_options_are_the_passages_numbers_then_the_claims_own_then_none() -> None:
    holes = [Blank(0, "1999"), Blank(1, "1200")]
    assert options(numbers("Opened in 1996, with 1,200 staff; 1996 again."), holes) == ["1996", "1200", "1999", NONE]


def test_the_prompt_offers_exactly_the_options() -> None:
    schema = cloze_prompt(2, ["1996", "2004", NONE]).schema()
    assert schema["required"] == ["0", "1"]
    assert next(iter(schema["$defs"].values()))["enum"] == ["1996", "2004", NONE]


def test_a_confident_choice_of_another_value_contradicts_a_claim_the_check_called_supported() -> None:
    check = {"supported": 0.53, "contradicted": 0.19, "not_mentioned": 0.28}
    wrong = combined(check, [{"1996": 0.89, NONE: 0.11}], ["2004"])
    right = combined(check, [{"1996": 0.89, NONE: 0.11}], ["1996"])
    assert wrong.label == "contradicted" and wrong.support < 0.1
    assert right.label == "entailed" and right.support > 0.85


def test_a_cloze_that_finds_nothing_leaves_the_checks_verdict() -> None:
    check = {"supported": 0.74, "contradicted": 0.09, "not_mentioned": 0.17}
    verdict = combined(check, [{NONE: 1.0}], ["5"])
    assert verdict.label == "entailed" and verdict.support == pytest.approx(0.74)


def test_a_claim_with_several_numbers_takes_its_weakest() -> None:
    check = {"supported": 1.0}
    verdict = combined(check, [{"5": 1.0}, {"3": 1.0}], ["5", "7"])
    assert verdict.label == "contradicted" and verdict.support == 0.0


DRYERS = "更换2号烘干机全部温度传感器；每批成品出厂前进行三次水分抽检；新建3号烘干线。"


def test_a_pick_for_a_unit_the_passage_never_counts_with_is_no_value() -> None:
    units = units_by_value(DRYERS)
    assert units == {"2": {"号"}, "3": {"次", "号"}}
    picked = {"2": 0.4, "3": 0.3, "8": 0.1, NONE: 0.2}
    # no temperature in the passage: "2" (of 2号) and "3" (of 三次) are no value for "高约[1]℃"
    assert as_counted(picked, Blank(0, "8", "℃"), units) == pytest.approx({"8": 0.1, NONE: 0.9})
    # a blank counted as the passage counts, or counted by nothing, keeps every pick
    assert as_counted(picked, Blank(0, "2", "号"), units) is picked
    assert as_counted(picked, Blank(0, "2", ""), units) is picked
    # units of one measure are alike: "40분" against "1.5시간" keeps the cloze's pick of 1.5
    assert as_counted({"1.5": 0.9, NONE: 0.1}, Blank(0, "40", "duration"), units_by_value("1.5시간이 걸린다")) == \
        {"1.5": 0.9, NONE: 0.1}
    # so do counters of people
    assert as_counted({"12": 1.0}, Blank(0, "20", "명"), units_by_value("정원은 12인")) == {"12": 1.0}


def test_a_year_is_no_value_for_a_blank_counted_otherwise_but_an_amount_in_a_years_blank_stays() -> None:
    units = units_by_value("2023年5月，2号烘干机的温度传感器故障。公司于2005年创立，2023年销售额约3.6亿元。")
    assert as_counted({"2023": 0.35, "2": 0.2, NONE: 0.45}, Blank(0, "2", "号"), units) == \
        pytest.approx({"2": 0.2, NONE: 0.8})
    kept = {"3.6": 0.9, NONE: 0.1}
    assert as_counted(kept, Blank(0, "2005", "年"), units) is kept


async def test_a_temperature_the_passage_never_gives_is_not_contradicted_by_its_other_numbers() -> None:
    def reply(call: CallInfo) -> object:
        if call.prompt_name == "claims.check":
            return {"0": "supported"}
        return {"0": "2", "1": "3"}  # the cloze fills the blanks with the passage's other numbers

    judge = ScriptedJudge(reply)
    (verdict,) = await ClaimStore(judge).check(DRYERS, ["2号烘干机的温度传感器显示温度高约8℃。"])
    assert judge.calls[-1].prompt_name == "claims.values"
    assert judge.calls[-1].data.statements == "[0]号烘干机的温度传感器显示温度高约[1]℃。"  # type: ignore[union-attr]
    assert verdict.label == "entailed"


def _check_says_supported(call: CallInfo) -> object:
    """A judge whose check calls every claim supported, and whose cloze picks the year of the HS-5 sentence."""
    data = call.data
    if call.prompt_name == "claims.check":
        return {str(i): "supported" for i in range(len(data.claims))}  # type: ignore[union-attr]
    assert call.prompt_name == "claims.values"
    return dict.fromkeys(re.findall(r"\[(\d+)\]", data.statements), "1996")  # type: ignore[union-attr]


async def test_the_store_corrects_a_neighbouring_lines_year_with_one_more_call() -> None:
    judge = ScriptedJudge(_check_says_supported)
    store = ClaimStore(judge)
    right, wrong, nameless = await store.check(HISTORY, ["The HS-5 came out in 1996.", "The HS-5 came out in 2004.",
                                                         "The HS-5 is a derailleur."])
    assert (right.label, wrong.label, nameless.label) == ("entailed", "contradicted", "entailed")
    assert [c.prompt_name for c in judge.calls] == ["claims.check", "claims.values"]
    statements = "The HS-5 came out in [0].\nThe HS-5 came out in [1]."
    assert judge.calls[1].data.statements == statements  # type: ignore[union-attr]
    assert store.stats.value_calls == 1


async def test_a_claim_checked_with_no_question_is_asked_in_a_cloze_with_no_question_section() -> None:
    """Shown a question section that read "(none)", the 1.5B judge took that word for its answer (session 61)."""
    judge = ScriptedJudge(_check_says_supported)
    store = ClaimStore(judge)
    (alone,) = await store.check(HISTORY, ["The HS-5 came out in 2004."], asked="When did the HS-5 come out?")
    (asked,) = await store.check(HISTORY, ["The HS-5 came out in 2004."], question="When did the HS-5 come out?")
    assert alone.label == asked.label == "contradicted"
    check, cloze, _, cloze_asked = judge.calls
    assert check.data.question == "(none)"  # type: ignore[union-attr]
    assert [type(c.data).__name__ for c in (cloze, cloze_asked)] == ["ClozeAloneInput", "ClozeInput"]
    system, user = cloze.messages
    assert "question" not in system["content"] and "## question" not in user["content"]
    assert "(none)" not in user["content"] and "its question" in cloze_asked.messages[0]["content"]


async def test_the_cloze_of_an_attribution_reads_only_the_passages_that_state_a_value() -> None:
    """After the passage that gave the value, one that gave none made the small judge answer "none" (session 61)."""
    judge = ScriptedJudge(_check_says_supported)
    other = "The HS-5 is sold in Europe."
    (attribution,) = await ClaimStore(judge).attribute([HISTORY, other], ["The HS-5 came out in 2004."])
    check, cloze = judge.calls
    assert other in check.data.passage and cloze.data.passage == HISTORY  # type: ignore[union-attr]
    assert attribution.verdict.label == "contradicted"


async def test_claims_the_passage_does_not_speak_of_get_no_cloze() -> None:
    judge = ScriptedJudge(lambda call: {"0": "not_mentioned"})
    (verdict,) = await ClaimStore(judge).check(HISTORY, ["The HS-5 weighs 250 grams."])
    assert verdict.label == "neutral" and len(judge.calls) == 1


async def test_the_cloze_is_graded_by_its_label_probabilities() -> None:
    check = '{"0": "supported"}'
    cloze = '{"0": "1996"}'
    judge = ScriptedJudge([
        WithLogprobs(check, [('{"0": "', 0.0), ("supported", -0.1, [("contr", -2.5)]), ('"}', 0.0)]),
        WithLogprobs(cloze, [('{"0": "', 0.0), ("199", -0.05, [("200", -3.0)]), ("6", 0.0), ('"}', 0.0)]),
    ])
    (verdict,) = await ClaimStore(judge).check(HISTORY, ["The HS-5 came out in 2004."])
    assert verdict.label == "contradicted" and verdict.support < 0.1


async def test_a_rule_judge_fills_a_blank_only_with_the_one_number_that_fits() -> None:
    def label(passage: str, claim: str) -> str:
        return "supported" if claim.rstrip(".") in passage else "not_mentioned"

    judge = ScriptedJudge(lambda call: claim_reply(call, claims=lambda text: [text], label=label))
    store = ClaimStore(judge)
    # (the claim is no verbatim conjunct of the passage, which would settle it without a call)
    passage = "Catalogue: The HS-5 came out in 1996, the HB-100 in 2004"
    (one,) = await store.check(passage, ["The HS-5 came out in 1996."])
    assert one.label == "entailed" and judge.calls[-1].prompt_name == "claims.values"
    assert judge.calls[-1].data.statements == "The HS-5 came out in [0]."  # type: ignore[union-attr]


async def test_a_rule_judge_abstains_when_several_numbers_fit() -> None:
    judge = ScriptedJudge(lambda call: claim_reply(call, claims=lambda text: [text],
                                                   label=lambda passage, claim: "supported"))
    (verdict,) = await ClaimStore(judge).check(HISTORY, ["The HS-5 came out in 2004."])
    assert judge.calls[-1].prompt_name == "claims.values" and verdict.label == "entailed"


MEETING = "1. 龙坞茶园明前龙井预计于3月18日开采，清明（4月4日）前结束；\n2. 安吉白茶基地预计于3月28日前后开采。"


def test_a_value_a_claim_states_twice_is_one_blank_at_both_places() -> None:
    claims = ["安吉白茶基地预计于3月28日前后开采。", "龙坞茶园明前龙井预计清明（4月4日）前结束。"]
    statements, holes = blanked(claims, [True, True], numbers(MEETING))
    assert statements == ["安吉白茶基地预计于[0]月[1]日前后开采。", "龙坞茶园明前龙井预计清明（[2]月[2]日）前结束。"]
    assert holes == [Blank(0, "3", "月"), Blank(0, "28", "日"), Blank(1, "4", "月")]


async def test_a_date_of_one_repeated_number_is_not_contradicted_by_a_judge_that_never_picks_an_option_twice() -> None:
    # the embedded judge's reply to two blanks for 4月4日, in session 34: 4, then 28, another option
    def reply(call: CallInfo) -> dict[str, str]:
        if call.prompt_name == "claims.check":
            return {"0": "supported", "1": "supported"}
        marks = dict.fromkeys(re.findall(r"\[(\d+)\]", call.data.statements))  # type: ignore[union-attr]
        return dict(zip(marks, ["4", "28"], strict=False))

    judge = ScriptedJudge(reply)
    started, ended = await ClaimStore(judge).check(
        MEETING, ["龙坞茶园明前龙井预计于3月18日开采。", "龙坞茶园明前龙井预计清明（4月4日）前结束。"],
        question="龙坞茶园明前龙井预计何时开采？")
    assert ended.label == "entailed" and started.label == "entailed"
    # the first claim's 3 and 18 are its clause's numbers and the check is sure: it is settled, and not asked
    assert judge.calls[-1].data.statements == "龙坞茶园明前龙井预计清明（[0]月[0]日）前结束。"  # type: ignore[union-attr]


PROFILE = ("青岚茶业于2009年创立，2023年营业收入约1.2亿元。"
           "한빛커피는 2013년에 창업했으며 2023년 매출은 약 146억 원이고 직원은 85명이다.")


@pytest.mark.parametrize(("claim", "together"), [
    ("2023年营业收入约1.2亿元。", True),
    ("2009年营业收入约1.2亿元。", False),  # the year of another clause
    ("2023년 매출은 약 146억 원이다.", True),  # a Korean connective ends the clause before 직원은 85명
    ("2013년 매출은 약 146억 원이다.", False),
    ("The company was founded in 2009.", False),  # one number: the cloze is asked as before
])
def test_two_numbers_that_one_clause_states_alone_are_stated_together(claim: str, together: bool) -> None:
    assert stated_together(claim, PROFILE) is together


async def test_the_clozes_other_value_for_a_claim_stated_together_is_set_aside() -> None:
    def reply(call: CallInfo) -> object:  # the embedded judge's habit: the amount in the year's blank
        if call.prompt_name == "claims.check":
            return {"0": "supported", "1": "supported"}
        return {"0": "1.2", "1": "none", "2": "1.2", "3": "none"}

    judge = ScriptedJudge(reply)
    right, wrong = await ClaimStore(judge).check(PROFILE, ["2023年营业收入约1.2亿元。", "2009年营业收入约1.2亿元。"])
    assert (right.label, wrong.label) == ("entailed", "contradicted")


def test_a_clause_of_a_year_alone_opens_the_next() -> None:
    passage = "禾丰食品于2005年在成都创立。2023年，公司销售额约3.6亿元，比2022年的3.1亿元增长约16%。"
    assert stated_together("2023年禾丰食品的销售额约3.6亿元。", passage)
    assert not stated_together("2005年禾丰食品的销售额约3.6亿元。", passage)
    english = "In 2023, sales reached 86.4 million, up from 79.1 million."
    assert stated_together("In 2023 sales were 86.4 million.", english)


def test_two_numbers_next_to_each_other_with_the_claims_words_between_are_stated_together() -> None:
    korean = "2023년 매출은 약 212억 원으로 2022년의 187억 원보다 늘었으며, 직원은 130명이다."
    assert stated_together("누리식품의 2023년 매출은 약 212억 원이다.", korean)
    assert not stated_together("누리식품의 2022년 매출은 약 212억 원이다.", korean)  # not next to each other
    english = "Revenue grew from 47.9 million in 2022 to 52.3 million in 2023."
    assert stated_together("Revenue was 47.9 million in 2022.", english)
    assert not stated_together("In 2022 revenue was 52.3 million.", english)  # "to" is not what the claim says


async def test_a_claim_whose_numbers_the_passage_binds_as_it_says_and_the_check_is_sure_of_gets_no_cloze() -> None:
    judge = ScriptedJudge(_check_says_supported)
    (verdict,) = await ClaimStore(judge).check(PROFILE, ["2023年营业收入约1.2亿元。"])
    assert verdict.label == "entailed" and [c.prompt_name for c in judge.calls] == ["claims.check"]


RELEASES = "한빛 분석기 2.0은 2024.03.18에 출시되었고, 2.1은 2024.09.02에 출시되었다. 2.0.3 패치가 뒤따랐다."


def test_a_whole_date_is_one_blank_and_one_option_and_its_parts_none() -> None:
    stated = stated_values(RELEASES)
    assert stated == ["2.0", "2024.03.18", "2.1", "2024.09.02", "2.0.3"]
    assert stated_values("2023年2月，销量为2万台；2022年为1.5万台。") == ["2023年2月", "2", "2022", "1.5"]
    statements, holes = blanked(["2.0은 2024.09.02에 출시되었다.", "The hall opened on April 15, 2019."], [True, True],
                                stated, asked="한빛 분석기 2.0은 언제 출시되었나요?")
    assert statements == ["2.0은 [0]에 출시되었다.", "The hall opened on [1]."]
    assert holes == [Blank(0, "2024.09.02", "", True), Blank(1, "April 15, 2019", "", True)]


def test_a_pick_of_a_whole_date_is_read_for_what_it_says_of_the_blank() -> None:
    dates = dates_by_text(RELEASES)
    # the year of "in [0]": a date of that year says it, another date does not
    assert as_kind({"2024.03.18": 0.8, NONE: 0.2}, Blank(0, "2024"), dates) == {"2024": 0.8, NONE: 0.2}
    assert as_kind({"2024.03.18": 0.8, NONE: 0.2}, Blank(0, "2023"), dates) == {"2024.03.18": 0.8, NONE: 0.2}
    # a date says nothing of a version, nor a version of a date; a version is one with or without trailing zeros
    assert as_kind({"2024.03.18": 0.7, "2.0.3": 0.3}, Blank(0, "2.0.3"), dates) == \
        pytest.approx({NONE: 0.7, "2.0.3": 0.3})
    assert as_kind({"2.0.3": 0.6, "2024.03.18": 0.4}, Blank(0, "2024.09.02", date=True), dates) == \
        pytest.approx({NONE: 0.6, "2024.03.18": 0.4})
    assert as_kind({"3.9": 1.0}, Blank(0, "3.9.0"), dates) == {"3.9.0": 1.0}
    # nor of a value that is no whole number: a version with one dot, an amount
    assert as_kind({"2024.09.02": 1.0}, Blank(0, "2.1"), dates) == {NONE: 1.0}
    assert as_kind({"2024.09.02": 1.0}, Blank(0, "3.6", "亿元"), dates) == {NONE: 1.0}
    # nor of a count ("2号烘干机"), though the date holds the number
    assert as_kind({"2024.09.02": 1.0}, Blank(0, "2", "号"), dates) == {NONE: 1.0}
    assert as_kind({"2024.09.02": 1.0}, Blank(0, "9", "月"), dates) == {"9": 1.0}


def test_a_claims_own_date_is_no_option_where_the_passage_writes_dates() -> None:
    month, count = Blank(0, "2023년 9월", date=True), Blank(1, "120", "석")
    assert options(stated_values("2023. 3. 2.에 새 열람실을 열었다."), [month, count]) == ["2023. 3. 2", "120", NONE]
    assert options(stated_values("열람실 좌석은 90석이다."), [month]) == ["90", "2023년 9월", NONE]


async def test_a_date_of_another_release_is_contradicted_by_the_cloze() -> None:
    def reply(call: CallInfo) -> dict[str, str]:
        if call.prompt_name == "claims.check":
            return {"0": "supported"}  # the check reads the claim by its topic
        assert call.data.statements == "한빛 분석기 2.0은 [0]에 출시되었다."  # type: ignore[union-attr]
        return {"0": "2024.03.18"}

    verdict, = await ClaimStore(ScriptedJudge(reply)).check(
        RELEASES, ["한빛 분석기 2.0은 2024년 9월 2일에 출시되었다."], question="한빛 분석기 2.0은 언제 출시되었나요?")
    assert verdict.label == "contradicted"
