"""What the claim engine keeps of a split: only the text's own claims, whole."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._claim_text import conjunct_of, of_the_text, untranslated, without_cut_short
from ragkit.testing import ScriptedJudge


def test_a_claim_cut_short_beside_its_whole_is_dropped() -> None:
    assert without_cut_short(["The York plant has more staff.", "The York plant has more staff than the Leeds plant."]
                             ) == ["The York plant has more staff than the Leeds plant."]
    assert without_cut_short(["It is B.", "It is Bob."]) == ["It is B.", "It is Bob."]  # not at a word's end
    assert without_cut_short(["城西仓库的员工比城东仓库少。", "城西仓库的员工比城东仓库少，约45人。"]) == [
        "城西仓库的员工比城东仓库少，约45人。"]


QUESTION = "Which reservoir holds more water, Alder or Birch?"


def test_a_claim_taken_from_the_question_is_not_the_texts() -> None:
    text = "The Birch reservoir was built to supply a new steelworks."
    assert of_the_text(["The Birch reservoir holds more water than Alder.",  # the question's words only
                        "The Birch reservoir supplies a steelworks."], text, QUESTION) == [
        "The Birch reservoir supplies a steelworks."]
    # nothing left: the text's sentences are its claims
    assert of_the_text(["The Birch reservoir holds more water than Alder."], text, QUESTION) == [text]
    assert of_the_text(["明湖店是哪一年开业的？"], "我不知道明湖店的开业年份。", "明湖店是哪一年开业的？") == [
        "我不知道明湖店的开业年份。"]  # a question is no claim


def test_an_answer_with_no_words_of_its_own_is_the_questions_statement() -> None:
    # "네, 품질관리팀장이었습니다." says only "yes" to the question's words, with another ending: its claim is the
    # question's statement, not one taken from the question instead of the text
    claims = ["이수민은 품질관리팀장이었다."]
    assert of_the_text(claims, "네, 품질관리팀장이었습니다.", "이수민은 품질관리팀장이었는가?") == claims


def test_a_yes_that_lost_its_subject_to_the_question_is_restated_with_it() -> None:
    # the split gave the question itself and the answer as written: the question is no claim, and "네, …" alone
    # says nothing of 이수민
    question, text = "이수민은 품질관리팀장이었는가?", "네, 품질관리팀장이었습니다."
    assert of_the_text([question, text], text, question) == [f"{question} {text}"]


def test_a_claim_that_names_its_subject_from_the_question_is_kept() -> None:
    question = "Who designed the Harlow Footbridge?"
    claims = ["The Harlow Footbridge was designed by Mara Quill."]  # "It" resolved by the question's words
    assert of_the_text(claims, "It was designed by Mara Quill, an engineer.", question) == claims
    # a number of the text is the text's own, whatever words come with it
    line = ["みさき鉄道の港線の駅数は4です。"]
    assert of_the_text(line, "港線の駅数は4です。", "みさき鉄道の港線には駅がいくつありますか？") == line


async def test_the_split_keeps_only_the_texts_claims() -> None:
    judge = ScriptedJudge([{"claims": ["The Birch reservoir holds more water than Alder.",
                                       "The Birch reservoir was built to supply a new steelworks."], "entities": []}])
    claims = await ClaimStore(judge).split("The Birch reservoir was built to supply a new steelworks.", QUESTION)
    assert claims == ["The Birch reservoir was built to supply a new steelworks."]


PHP = ("PHP's SimpleXML API is vulnerable to quadratic entity expansion and loads entities from local and remote "
       "resources.")


SHIPS = ("Kellan Audio ships its K7 headphones to 35 countries: Austria, Belgium, Estonia, Finland and Uruguay. Orders "
         "leave the Leeds warehouse within two working days.")


@pytest.mark.parametrize(("passage", "claim", "part"), [
    (PHP, "PHP's SimpleXML API is vulnerable to quadratic entity expansion.", True),  # up to "and"
    (PHP, "PHP's SimpleXML API loads entities from local and remote resources.", True),  # the subject, then "and …"
    ("The plant was built in 2012 and expanded in 2019.", "The plant was expanded in 2019.", True),
    ("该API存在二次实体扩展漏洞，并从本地和远程资源加载实体。", "该API从本地和远程资源加载实体。", True),
    ("Leeds ships 900 orders a day and York ships 400 orders a day.", "Leeds ships 400 orders a day.", False),
    ("The plant is open on Sundays only in summer.", "The plant is open on Sundays.", False),  # a qualifier cut
    ("Leeds and York have 300 staff.", "Leeds have 300 staff.", False),
    ("The CB-3 supports Modbus TCP and PROFINET.", "The CB-3 supports PROFINET.", True),
    (SHIPS, "Kellan Audio ships its K7 headphones to Estonia.", True),  # an item in the middle of a list
    (SHIPS, "Kellan Audio ships its K7 headphones to Austria and Finland.", True),
    (SHIPS, "Kellan Audio ships its K7 headphones to Peru.", False),  # no item of the list
    (SHIPS, "Kellan Audio ships its K7 headphones to 35 countries.", False),  # a number: the value checks' to read
    ("Kellan ships the K7 to Austria, Belgium, but not Chile or Peru.", "Kellan ships the K7 to Peru.", False),
    ("Acme is based in the EU, and its CEO lives in Spain, Portugal and France.", "Acme is based in Spain.", False),
    ("本系统支持的付款方式包括信用卡、借记卡、支付宝和微信支付。", "本系统支持的付款方式包括支付宝。", True),
    ("本系统支持信用卡、借记卡和支付宝，不支持现金。", "本系统支持现金。", False),
])
def test_a_conjunct_of_a_sentence_as_written(passage: str, claim: str, part: bool) -> None:
    assert conjunct_of(passage, claim) is part


async def test_a_conjunct_is_entailed_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(PHP, ["PHP's SimpleXML API loads entities from local and remote "
                                                      "resources."])
    assert verdict.label == "entailed" and judge.calls == []


def test_a_claim_the_split_wrote_in_another_language_is_the_texts_sentence() -> None:
    text = "あおい食堂の料理長は松田健二である。"
    question = "あおい食堂の料理長は誰ですか？"
    assert untranslated(["松田健二是あおい食堂的料理长。"], text, question) == [text]  # 是, 的, 长: Chinese
    assert untranslated(["あおい食堂の料理長は松田健二である。"], text, question) == [text]
    assert untranslated(["料理長は松田健二である。", "松田健二は料理長だ。"], text, question) == [
        "料理長は松田健二である。", "松田健二は料理長だ。"]  # the question's and the text's characters
    assert untranslated(["首都是北京。"], "北京。", "首都在哪里？") == ["首都是北京。"]  # Chinese adds 是 itself
