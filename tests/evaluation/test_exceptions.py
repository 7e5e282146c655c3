"""The whole fact a sentence says of a group, denied of the thing its exception names, is entailed; a denial that
drops a number or a qualifier of the fact, or of a group the sentence does not name, is left to the judge."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._exceptions import excepted_again
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

LEAVE = "Every employee except drivers gets 25 days of paid leave a year."
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


@pytest.mark.parametrize(("passage", "claim", "entailed"), [
    (LEAVE, "Drivers do not get 25 days of paid leave a year.", True),
    ("All staff apart from interns receive a laptop.", "Interns do not receive a laptop.", True),
    ("Each branch except Leeds opens on Sundays.", "The Leeds branch does not open on Sundays.", True),
    ("除外包人员外，所有访客都可以使用北侧停车场。", "外包人员不可以使用北侧停车场。", True),
    ("All 40 employees except drivers get a laptop.", "Drivers do not get a laptop.", True),  # the group's number
    (LEAVE, "Drivers do not get paid leave.", False),  # says more: the passage leaves drivers' leave unsaid
    (LEAVE, "Drivers do not get 20 days of paid leave a year.", False),
    (LEAVE, "Drivers get 25 days of paid leave a year.", False),
    (LEAVE, "Office employees do not get 25 days of paid leave a year.", False),  # not the thing excepted
    ("Employees except drivers get 25 days of paid leave a year.", "Drivers do not get 25 days of paid leave a year.",
     False),  # no quantifier names the group: the judge's
    ("All staff apart from interns receive a laptop in their first week.", "Interns do not receive a laptop.", False),
    ("除临时工外，所有正式员工每年享有10天带薪年假。", "临时工没有带薪年假。", False),  # 10天 dropped
])
def test_a_denial_of_the_excepted_thing_is_entailed_when_it_says_the_whole_fact(passage: str, claim: str,
                                                                                 entailed: bool) -> None:
    assert excepted_again(passage, claim) is entailed


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "entailed"), [
    ("인턴을 제외한 모든 직원은 노트북을 받는다.", "인턴은 노트북을 받지 않는다.", True),
    ("협력업체 직원을 제외한 모든 방문객은 북쪽 주차장을 이용할 수 있다.",
     "협력업체 직원은 북쪽 주차장을 이용할 수 없다.", True),
    ("パートを除く全社員は賞与を受け取る。", "パートは賞与を受け取らない。", True),
    ("パートを除く全社員は賞与を受け取る。", "パートは賞与を受け取る。", False),
])
def test_a_korean_or_japanese_denial_of_the_excepted_thing(passage: str, claim: str, entailed: bool) -> None:
    assert excepted_again(passage, claim) is entailed


async def test_a_denial_of_the_excepted_thing_is_entailed_without_a_call() -> None:
    def reply(call: CallInfo) -> object:  # the judge's habit: not mentioned
        return {str(i): "not_mentioned" for i in range(len(call.data.claims))}  # type: ignore[union-attr]

    judge = ScriptedJudge(reply)
    (verdict,) = await ClaimStore(judge).check(LEAVE, ["Drivers do not get 25 days of paid leave a year."])
    assert verdict.label == "entailed" and judge.calls == []
