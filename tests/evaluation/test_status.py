"""What moved away or ended, said in the present (``_status``), in the four languages; the claim engine asks the
judge nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._status import ended, past
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
