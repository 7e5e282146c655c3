"""A clause of the passage said again with one of its values changed is contradicted; a value that some clause with
the claim's words states, a rounded or differently bounded value, or a negated claim is left alone."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._restated import other_value
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge
from ragkit.text import as_written_in

VERSIONS = "fastparse v2.1.0 では Python 3.9 以上が必要です。v1.8.3 までは Python 3.7 でも動作します。"
STORES = "2018년에 2호 매장을 열었다. 2020년에는 직원이 45명이 되었다."
MODELS = "pycorrector 1.0.4 版本新增了 MacBERT 纠错模型，1.1.2 版本加入了 ChatGLM 微调。"
MENU = "| 메뉴 | 가격 |\n| 버터 크루아상 | 3,800원 |\n| 소금빵 | 2,900원 |"


@pytest.mark.parametrize(("passage", "claim"), [
    (VERSIONS, "v2.1.0 までは Python 3.7 でも動作します。"),  # bounded alike: another version in its place
    (STORES, "4호 매장을 열었다."),  # the clause's 2018 is no store; its 2호 is
    (MODELS, "pycorrector 1.1.2 版本新增了 MacBERT 纠错模型。"),
    (MENU, "소금빵은 3,800원입니다."),  # a table row is a clause
    ("The Harlow line opened in 1932, and the Bexley branch followed in 1951.", "The Harlow line opened in 1951."),
    ("The shop opens at 9:00 and closes at 18:00.", "The shop opens at 10:00 and closes at 18:00."),
])
def test_a_clause_said_again_with_another_value_is_contradicted(passage: str, claim: str) -> None:
    assert other_value(passage, as_written_in(passage, claim))


@pytest.mark.parametrize(("passage", "claim"), [
    (VERSIONS, "v1.8.3 までは Python 3.7 でも動作します。"),
    (STORES, "2호 매장을 열었다."),
    (MENU, "소금빵은 2,900원입니다."),
    ("The tour takes 1.5 hours.", "The tour takes 90 minutes."),  # one value, written as the passage writes it
    ("The API was frozen in release 2.0.", "The API was frozen in release 2.0.0."),  # one version
    ("Sales were 358 million pounds.", "Sales were about 360 million pounds."),  # rounded near the passage's
    ("The W300 carries up to 100 kg.", "The W300 carries 80 kg."),  # bounded otherwise: it may carry 80 kg
    ("The plant opened in 2021.", "The plant did not open in 2019."),  # negated
    ("Parking costs 3 euros.", "It costs 5 euros."),  # of the thing named before, which may be another
    # another clause with the claim's words states its value
    ("2022年工厂生产了300吨。2023年工厂生产了500吨。", "工厂生产了500吨。"),
    # no value of the changed one's kind in its place: 곳 counts stores, 호 numbers them
    ("2018년에 매장 3곳을 열었다.", "4호 매장을 열었다."),
    # the claim's words are not one clause's: 新增 is the right clause's word, 加入 the other's
    (MODELS, "MacBERT纠错模型是在v1.0.4版本加入的。"),
    # two values changed: a claim of another fact
    ("한빛 분석기 2.0은 2024.03.18에 출시되었다.", "한빛 분석기 2.1은 2024.09.02에 출시되었다."),
    ("2019년 3월에 3호 매장을 열었다.", "2021년에 5호 매장을 열었다."),
])
def test_a_value_the_passage_may_give_is_not_read_as_changed(passage: str, claim: str) -> None:
    assert not other_value(passage, as_written_in(passage, claim))


async def test_a_clause_with_another_value_is_contradicted_without_a_call() -> None:
    def reply(call: CallInfo) -> object:  # the habit the rule guards against: the topic read, the value not
        if call.prompt_name == "claims.check":
            return {str(i): "supported" for i in range(len(call.data.claims))}  # type: ignore[union-attr]
        return dict.fromkeys("01", "2")

    judge = ScriptedJudge(reply)
    right, wrong = await ClaimStore(judge).check(STORES, ["2호 매장을 열었다.", "4호 매장을 열었다."])
    assert (right.label, wrong.label) == ("entailed", "contradicted")
    assert all(c.data.claims == ["2호 매장을 열었다."] for c in judge.calls  # type: ignore[union-attr]
               if c.prompt_name == "claims.check")
