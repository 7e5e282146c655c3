"""A fact of one person said of another (``_people``), in the four languages; the claim engine asks the judge
nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._people import people, said_of_another
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

EN = ("Maria Lopez founded Brightline Analytics in 2012; Daniel Reyes joined as chief technology officer in 2014. "
      "Lucy Grant chairs the town council, and Peter Lund is its treasurer. The Harlow Footbridge was designed by "
      "Mara Quill and built by Owen Pryce.")
ZH = "青石桥由李建国设计，王芳负责施工。刘洋担任村委会主任，张丽是会计。"
KO = "품질관리팀장은 이수민이고, 생산팀장은 박지훈이다. 김하늘은 카페사업부에서 도매 납품을 담당한다."
JA = "工場長は山本健、品質管理課長は佐藤花子である。鈴木真理は営業部で海外販売を担当している。"
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


def test_the_people_a_text_names() -> None:
    assert people("Lucy Grant chairs the council; The Harlow Footbridge is old.", "en") == (
        "Lucy Grant", "Harlow Footbridge")
    assert people("沈嘉禾是公司董事长，孙悦在品牌部工作。", "zh") == ("沈嘉禾", "孙悦")


@pytest.mark.parametrize(("passage", "claim", "other"), [
    (EN, "Daniel Reyes founded Brightline Analytics in 2012.", "Maria Lopez"),
    (EN, "Maria Lopez founded Brightline Analytics.", None),
    (EN, "Peter Lund chairs the town council.", "Lucy Grant"),
    (EN, "Peter Lund is the treasurer of the town council.", None),  # no one clause holds its words: the judge's
    (EN, "Owen Pryce designed the Harlow Footbridge.", None),  # one clause names both: the judge's
    (ZH, "青石桥由王芳设计。", "李建国"),
    (ZH, "李建国设计了青石桥。", None),
    (ZH, "刘洋是会计。", "张丽"),
])
def test_a_fact_of_one_person_said_of_another(passage: str, claim: str, other: str | None) -> None:
    assert said_of_another(passage, claim) == other


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "other"), [
    (KO, "품질관리팀장은 박지훈이다.", "이수민"),
    (KO, "이수민이 품질관리팀장이다.", None),
    (KO, "박지훈은 도매 납품을 담당한다.", "김하늘"),
    (JA, "品質管理課長は山本健である。", "佐藤花子"),
    (JA, "佐藤花子が品質管理課長です。", None),
])
def test_a_fact_of_one_person_said_of_another_in_korean_and_japanese(passage: str, claim: str,
                                                                     other: str | None) -> None:
    assert said_of_another(passage, claim) == other


def test_a_later_clause_keeps_its_sentences_subject() -> None:
    passage = "禾丰食品的总经理是周海涛，财务总监是林晓燕，研发总监是郑凯。"
    assert said_of_another(passage, "周海涛担任禾丰食品的财务总监。") == "林晓燕"
    assert said_of_another(passage, "林晓燕担任禾丰食品的财务总监。") is None
    assert said_of_another(EN, "Lucy Grant is the treasurer of the town council.") == "Peter Lund"


def test_a_clause_that_names_nobody_speaks_of_either() -> None:
    passage = "Lucy Grant chairs the town council. Peter Lund keeps its accounts. The treasurer also chairs the fair."
    assert said_of_another(passage, "Peter Lund chairs the fair.") is None


async def test_the_engine_settles_it_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(EN, ["Peter Lund chairs the town council."])
    assert verdict.label == "neutral" and judge.calls == []


def test_an_english_past_form_is_its_verb() -> None:
    passage = "The Kelby lifeboat crew is led by Hannah Price. Joe Mercer runs the station's training."
    assert said_of_another(passage, "Joe Mercer leads the Kelby lifeboat crew.") == "Hannah Price"


@pytest.mark.parametrize(("passage", "claim", "other"), [
    # what another held once, in a sentence that goes on to the claim's person: the judge's
    ("Maria Okafor was head of sales until 2022; since then Tom Braddock has led the sales team.",
     "Tom Braddock is head of sales.", None),
    ("王海燕曾任学校校长，现任校长为李明。", "李明是学校校长。", None),
    ("The post office was in Mill Lane; it is now in the High Street.", "The post office is in the High Street.", None),
    # nothing says the claim's person came after: still another's
    ("Maria Okafor was the treasurer. Rosa Finch chairs the club.", "Rosa Finch is the treasurer.", "Maria Okafor"),
    ("王海燕曾任学校校长，李明是教导主任。", "李明是学校校长。", "王海燕"),
    # his clause says his own role, not the one that passed on
    ("Martin Cole is the club's treasurer, and Ivy Stone was its secretary.",
     "Martin Cole is the club's treasurer and secretary.", "Ivy Stone"),
])
def test_what_another_held_once_is_not_theirs_when_the_passage_goes_on_to_the_claims_person(
        passage: str, claim: str, other: str | None) -> None:
    assert said_of_another(passage, claim) == other


@needs_mecab
def test_a_later_sentence_in_the_present_that_names_the_claims_person_goes_on_from_the_old_holder() -> None:
    passage = "다온 공방의 대표는 원래 서지훈이었다. 지금은 한예린이 공방을 이끌고 있다."
    assert said_of_another(passage, "다온 공방의 대표는 한예린입니다.") is None
    assert said_of_another("다온 공방의 대표는 원래 서지훈이었다. 한예린은 도예 강사이다.",
                           "다온 공방의 대표는 한예린입니다.") == "서지훈"


@needs_mecab
def test_a_korean_name_is_written_whole_not_joined_across_a_space() -> None:
    # mecab-ko-dic reads "이장은" (the village head, with its particle) as a name too; joined with the next word it
    # made a person, "이장은윤재석", whom no clause names
    assert people("지금 이장은 윤재석이다.", "ko") == ("이장은", "윤재석")
    assert said_of_another("박성호는 마을 이장이었으며, 지금 이장은 윤재석이다.", "마을 이장은 윤재석입니다.") is None
