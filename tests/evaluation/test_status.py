"""What moved away or ended, said in the present (``_status``), in the four languages; the claim engine asks the
judge nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._status import arrived, ended, past
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

EN = ("In 2015 brake production moved from the Hamamatsu plant to the Kumamoto plant. Ruth Ames chaired the board "
      "until 2022, when Ian Holt took over. The offer is valid until 2027.")
ZH = "2020年，包装业务从余杭工厂迁到了萧山工厂。王芳曾任董事长至2022年，之后由刘洋接任。截至2023年底共有员工约150人。"
KO = ("2020년에 포장 작업은 요크 공장에서 리즈 공장으로 이전되었다. "
      "최민준은 2022년까지 이사장이었고, 그 뒤 윤서연이 맡았다.")
JA = "2020年、梱包作業は大阪工場から神戸工場へ移転した。佐藤花子は2022年まで理事長を務め、その後は高橋誠が就任した。"
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


@pytest.mark.parametrize(("text", "language", "told"), [
    ("Ruth Ames chaired the board.", "en", True), ("Brakes are made in Kumamoto.", "en", False),
    ("Ruth Ames chairs the board.", "en", False), ("王芳曾任董事长。", "zh", True), ("王芳是董事长。", "zh", False),
])
def test_a_text_told_in_the_past(text: str, language: str, told: bool) -> None:
    assert past(text, language) is told


@pytest.mark.parametrize(("passage", "claim", "how"), [
    (EN, "The Hamamatsu plant makes brakes.", "moved"),
    (EN, "Brakes are made at the Kumamoto plant.", None),  # the place it moved to
    (EN, "Brakes were made at the Hamamatsu plant until 2015.", None),  # told in the past, with a year
    (EN, "Ruth Ames chairs the board.", "until"),
    (EN, "Ruth Ames chaired the board.", None),
    (EN, "The offer is valid.", None),  # "until 2027" in a sentence told in the present
    ("Upholstery moved from the Derby workshop to Ripon.", "The Derby workshop upholsters chairs.", "moved"),
    (ZH, "余杭工厂负责包装业务。", "moved"),
    (ZH, "包装业务在萧山工厂。", None),
    (ZH, "王芳是董事长。", "until"),
    (ZH, "公司共有员工约150人。", None),  # 截至, "as of"
])
def test_what_moved_away_or_ended_said_in_the_present(passage: str, claim: str, how: str | None) -> None:
    assert ended(passage, claim) == how


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "how"), [
    (KO, "포장 작업은 요크 공장에서 한다.", "moved"),
    (KO, "포장 작업은 리즈 공장에서 한다.", None),
    (KO, "최민준이 이사장이다.", "until"),
    (KO, "최민준은 이사장이었다.", None),
    (JA, "梱包作業は大阪工場で行われている。", "moved"),
    (JA, "梱包作業は神戸工場で行われている。", None),
    (JA, "佐藤花子が理事長である。", "until"),
    # no past ending, but "その後" says what came after
    ("田中一郎は2019年まで社長を務め、その後は鈴木健が社長を務めている。", "田中一郎が社長である。", "until"),
])
def test_what_moved_away_or_ended_in_korean_and_japanese(passage: str, claim: str, how: str | None) -> None:
    assert ended(passage, claim) == how


async def test_the_engine_contradicts_it_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(EN, ["Ruth Ames chairs the board."])
    assert verdict.label == "contradicted" and judge.calls == []


@needs_mecab
@pytest.mark.parametrize(("claim", "asked", "how"), [
    ("みどり図書館の理事長は佐藤花子である。", "みどり図書館の理事長は誰ですか？", "until"),  # the question's subject
    ("みどり図書館の理事長は佐藤花子である。", "", None),  # the clause does not name the library
    ("みどり図書館の理事長は高橋誠である。", "みどり図書館の理事長は誰ですか？", None),  # who came after
    ("みどり図書館の理事長である。", "みどり図書館の理事長は誰ですか？", None),  # nothing of its own
])
def test_the_question_gives_the_subject_the_split_added(claim: str, asked: str, how: str | None) -> None:
    assert ended(JA, claim, asked) == how


async def test_the_engine_reads_the_question_the_claims_answer() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(JA, ["みどり図書館の理事長は佐藤花子である。"],
                                               question="みどり図書館の理事長は誰ですか？")
    assert verdict.label == "contradicted" and judge.calls == []


NEW_EN = ("In 2019 packaging moved from the Leicester depot to the Corby depot. The Leicester depot now handles "
          "returns. Maria Okafor was head of sales until 2022; since then Tom Braddock has led the sales team. "
          "Printing was moved from Norwich to Ipswich in 2017, and binding stayed in Norwich.")


@pytest.mark.parametrize(("claim", "asked", "now"), [
    ("Packaging is done at the Corby depot.", "Where is packaging done?", True),
    ("The Corby depot handles packaging.", "", True),  # a verb of doing
    ("Tom Braddock leads the sales team.", "Who leads sales?", True),
    ("Printing is done in Ipswich.", "", True),
    ("Packaging is done at the Leicester depot.", "", False),  # the old side
    ("The Corby depot handles returns.", "What does the Corby depot do?", False),  # not what moved
    ("Packaging is done at the Corby depot by an outside firm.", "", False),  # a word the passage lacks
    ("Binding is done in Ipswich.", "Where is binding done?", False),  # another clause's thing
    ("Tom Braddock is head of sales.", "", False),  # "head" is the ended part's own word: the judge's
    ("Tom Braddock has led the sales team since 2019.", "", False),  # a year of its own
    ("Packaging is not done at the Corby depot.", "", False),  # a negation is the polarity rule's
])
def test_where_it_moved_to_or_who_came_after_said_in_the_present(claim: str, asked: str, now: bool) -> None:
    assert arrived(NEW_EN, claim, asked) is now


def test_a_second_change_leaves_the_present_to_the_judge() -> None:
    moved = "In 2018 the head office moved from Leeds to York."
    assert arrived(moved, "The head office is in York.", "Where is the head office?")
    assert not arrived(moved + " It moved back to Leeds in 2022.", "The head office is in York.", "")


def test_a_question_word_the_passage_says_of_the_old_side_is_not_the_new_sides() -> None:
    passage = ("In 2019 packaging moved from the Leicester depot to the Corby depot. "
               "The Leicester depot handles returns.")
    assert not arrived(passage, "The Corby depot handles packaging and returns.", "Who handles packaging and returns?")
    assert arrived(passage, "The Corby depot handles packaging.", "Who handles packaging and returns?")


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "asked", "now"), [
    (ZH, "包装业务在萧山工厂进行。", "", True),
    (ZH, "余杭工厂负责包装业务。", "", False),
    ("王建国曾任销售总监至2022年，此后由刘芳担任销售总监。", "刘芳是销售总监。", "", True),
    ("王建国曾任销售总监至2022年，此后由刘芳担任销售总监。", "刘芳是市场总监。", "", False),  # another title
    ("王建国曾任销售总监至2022年，此后由刘芳担任销售总监。", "刘芳是市场总监。", "现在的市场总监是谁？", False),
    ("陈立新曾任青禾农机总经理至2021年，此后由许静担任总经理。", "青禾农机现在的总经理是许静。",
     "青禾农机现在的总经理是谁？", True),  # the firm, in the ended part, is the question's
    ("陈立新曾任青禾农机总经理至2021年，此后由许静担任总经理。", "陈立新是总经理。", "", False),
    ("陈立新曾任青禾农机总经理至2021年，此后由许静担任总经理。", "许静担任青禾农机总经理。",
     "青禾农机现在的总经理是谁？", True),  # 任 of 曾任 is a verb of doing, not the old side's word
    (KO, "포장 작업은 리즈 공장에서 한다.", "", True),
    (KO, "포장 작업은 요크 공장에서 한다.", "", False),
    ("최은정은 2022년까지 영업본부장이었고, 이후 한도윤이 영업본부장을 맡고 있다.", "한도윤이 영업본부장이다.", "",
     True),
    (JA, "梱包作業は神戸工場で行われている。", "", True),
    ("山口洋子は2020年まで館長を務め、その後は森本健が館長に就任した。", "みどり図書館の館長は森本健です。",
     "みどり図書館の館長は誰ですか？", True),
    ("山口洋子は2020年まで館長を務め、その後は森本健が館長に就任した。", "森本健が社長である。", "", False),
])
def test_where_it_moved_to_or_who_came_after_in_chinese_korean_and_japanese(passage: str, claim: str, asked: str,
                                                                            now: bool) -> None:
    assert arrived(passage, claim, asked) is now


async def test_the_engine_entails_the_new_side_without_a_call_though_the_passage_names_the_old() -> None:
    judge = ScriptedJudge([])  # the sibling rule had called this neutral: the passage says "handles" of Leicester
    (verdict,) = await ClaimStore(judge).check(NEW_EN, ["The Corby depot handles packaging."])
    assert verdict.label == "entailed" and judge.calls == []


@needs_mecab
async def test_the_new_side_is_named_on_the_passage_that_says_it_moved_not_on_one_that_names_the_subject() -> None:
    judge = ScriptedJudge([])  # by words alone, the two passages together held the claim's words: a "bridge"
    moved = "생산 안내\n\n2022년에 빵 굽는 작업은 연남점 주방에서 파주 공장으로 이전되었다. 연남점은 지금 판매만 한다."
    (got,) = await ClaimStore(judge).attribute([moved, "해든 베이커리는 2016년에 문을 열었다."],
                                               ["해든 베이커리의 빵은 파주 공장에서 굽습니다."], name_contexts=True,
                                               asked="해든 베이커리의 빵은 어디에서 굽나요?")
    assert got.verdict.label == "entailed" and got.by == [0] and judge.calls == []
