"""Two names in each other's places (``_roles``) and a duty for a choice (``_modality``), in the four languages; the
claim engine asks the judge nothing about either."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._modality import mode_changed, modes
from ragkit.evaluation._roles import swapped
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

EN = ("In 2019 Harwick Foods acquired Blue Lantern Bakery. Priya Nair reports to Tom Whitaker. Anna Berg married Leo "
      "Berg in 2015. The Harbour Museum was founded by Ellen Marsh. Staff may work from home on Fridays. Visitors "
      "must sign in at reception.")
ZH = "青禾农机为东方农场供应播种机。张伟接替陈明担任厂长。员工周五可以在家办公。访客必须在前台登记。"
KO = "누리식품은 2019년 청등베이커리를 인수했다. 김민지는 박준호에게 보고한다. 해든박물관은 오지은이 설립했다."
JA = "さくら電機はみどり自動車に電池を供給している。社員は金曜日に在宅勤務をしてもよい。"
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


@pytest.mark.parametrize(("passage", "claim", "turned"), [
    (EN, "Blue Lantern Bakery acquired Harwick Foods in 2019.", True),
    (EN, "Harwick Foods acquired Blue Lantern Bakery in 2019.", False),
    (EN, "Tom Whitaker reports to Priya Nair.", True),
    (EN, "Leo Berg married Anna Berg in 2015.", False),  # reads the same both ways
    (EN, "Ellen Marsh founded the Harbour Museum.", False),  # the passive, turned active
    (ZH, "东方农场为青禾农机供应播种机。", True),  # two names that share a character
    (ZH, "陈明接替张伟担任厂长。", True),
    (ZH, "青禾农机为东方农场供应播种机。", False),
])
def test_two_names_in_each_others_places_by_word_order(passage: str, claim: str, turned: bool) -> None:
    assert swapped(passage, claim) is turned


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "turned"), [
    (KO, "청등베이커리는 2019년에 누리식품을 인수했다.", True),
    (KO, "박준호는 김민지에게 보고한다.", True),
    (KO, "누리식품은 2019년에 청등베이커리를 인수했다.", False),
    (KO, "오지은이 해든박물관을 설립했다.", False),  # the object was the passage's topic
    (JA, "みどり自動車はさくら電機に電池を供給している。", True),
    (JA, "さくら電機はみどり自動車に電池を供給している。", False),
])
def test_two_names_in_each_others_places_by_particles(passage: str, claim: str, turned: bool) -> None:
    assert swapped(passage, claim) is turned


@pytest.mark.parametrize(("text", "language", "said"), [
    ("Visitors must sign in.", "en", {"duty"}), ("Tenants are required to give notice.", "en", {"duty"}),
    ("Pets are allowed in the garden.", "en", {"choice"}), ("访客必须登记。", "zh", {"duty"}),
    ("员工可以在家办公。", "zh", {"choice"}), ("The plant opened in 2019.", "en", set()),
    ("직원은 반드시 서명해야 한다.", "ko", {"duty"}), ("재택근무를 할 수 있다.", "ko", {"choice"}),
    ("必ず署名しなければならない。", "ja", {"duty"}), ("在宅勤務をしてもよい。", "ja", {"choice"}),
])
def test_the_words_that_say_a_duty_or_a_choice(text: str, language: str, said: set[str]) -> None:
    assert modes(text, language) == said


@pytest.mark.parametrize(("passage", "claim", "changed"), [
    (EN, "Staff must work from home on Fridays.", True),
    (EN, "Staff are allowed to work from home on Fridays.", False),
    (EN, "Visitors may sign in at reception if they wish.", True),
    (EN, "Visitors sign in at reception.", False),  # no mode: the judge's
    (ZH, "员工周五必须在家办公。", True),
    (ZH, "访客可以选择在前台登记。", True),
])
def test_a_duty_for_a_choice_or_a_choice_for_a_duty(passage: str, claim: str, changed: bool) -> None:
    assert mode_changed(passage, claim) is changed


@needs_mecab
def test_a_duty_for_a_choice_in_japanese_and_korean() -> None:
    assert mode_changed(JA, "社員は金曜日に必ず在宅勤務をしなければならない。")
    assert mode_changed("직원은 금요일에 재택근무를 할 수 있다.", "직원은 금요일에 반드시 재택근무를 해야 한다.")
    # a sentence with no subject of its own is about something else, and does not speak for the claim
    passage = "세입자는 두 달 전에 반드시 통보해야 한다. 정원에는 반려동물을 데려올 수 있다."
    assert mode_changed(passage, "세입자는 두 달 전에 통보할 수 있다.")


async def test_the_engine_settles_both_without_a_call() -> None:
    judge = ScriptedJudge([])
    claims = ["Tom Whitaker reports to Priya Nair.", "Staff must work from home on Fridays."]
    verdicts = await ClaimStore(judge).check(EN, claims)
    assert [v.label for v in verdicts] == ["contradicted", "neutral"] and judge.calls == []


def test_a_split_claim_that_the_text_itself_turns_round_is_the_texts_sentence() -> None:
    from ragkit.evaluation._settled import as_said_in

    text = "Omar Kline reports to Nadia Haddad. He joined in 2017."
    assert as_said_in(text, ["Nadia Haddad reports to Omar Kline.", "Omar Kline joined in 2017."]) == [
        "Omar Kline reports to Nadia Haddad.", "Omar Kline joined in 2017."]
    assert as_said_in("Quillpad does not export to PDF.", ["Quillpad exports to PDF."]) == [
        "Quillpad does not export to PDF."]


async def test_a_short_answers_claim_is_read_without_its_question() -> None:
    judge = ScriptedJudge([])
    claim = "Who does Priya Nair report to? Tom Whitaker reports to Priya Nair."
    (verdict,) = await ClaimStore(judge).check(EN, [claim])
    assert verdict.label == "contradicted" and judge.calls == []


def test_a_copula_reads_the_same_both_ways() -> None:
    assert not swapped("项目负责人是周立平，质量经理是陈思远。", "陈思远是质量经理。")
    assert not swapped("The head of quality is Mara Quill.", "Mara Quill is the head of quality.")
