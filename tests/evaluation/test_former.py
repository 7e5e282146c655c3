"""A state the passage tells in the past, said in the present (``_former``), in the four languages; the claim engine
asks the judge nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._former import a_past_state, formerly
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

EN = ("Club officers\n\nIvy Stone was the club's secretary. Martin Cole is its treasurer. Ana Costa has chaired the "
      "club since 2021. The clubhouse was built in 1932. The shop was in Mill Lane; it is now in Bridge Street.")
ZH = "公司概况\n\n赵磊曾是公司的财务总监。孙丽是公司的副总经理。工厂建于1998年，原是一家纺织厂。"
KO = "회사 소개\n\n배지은은 이 회사의 연구소장이었다. 노태호는 생산본부장이다. 공장은 1998년에 세워졌다."
JA = "会社概要\n\n小林恵はこの会社の副社長だった。山本隆は技術部長である。工場は1998年に建てられた。"
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


@pytest.mark.parametrize(("clause", "state"), [
    ("Ivy Stone was the club's secretary", True), ("The shop was in Mill Lane", True),
    ("The clubhouse was built in 1932", False), ("Kenji Ito was born in Osaka", False),  # events
    ("Martin Cole is its treasurer", False),
])
def test_a_state_told_in_the_past_not_an_event(clause: str, state: bool) -> None:
    assert a_past_state(clause, "en") is state


@pytest.mark.parametrize(("claim", "now"), [
    ("Ivy Stone is the club's secretary.", True),
    ("Ivy Stone was the club's secretary.", False),  # told in the past itself
    ("Martin Cole is the club's treasurer.", False),
    ("Ana Costa chairs the club.", False),
    ("The clubhouse was built in 1932.", False),
    ("Ivy Stone is the club's secretary and its president.", False),  # a word the clause lacks: the judge's
    ("The shop is in Mill Lane.", True),
    ("The shop is in Bridge Street.", False),
])
def test_a_past_state_said_in_the_present(claim: str, now: bool) -> None:
    assert formerly(EN, claim) is now


def test_a_state_said_now_elsewhere_or_still_held_is_the_judges() -> None:
    assert not formerly(EN + " Ivy Stone is the club's secretary today.", "Ivy Stone is the club's secretary.")
    assert not formerly("Ivy Stone was the secretary and still is.", "Ivy Stone is the secretary.")


@pytest.mark.parametrize(("claim", "now"), [
    ("赵磊是公司的财务总监。", True), ("孙丽是公司的副总经理。", False), ("工厂是一家纺织厂。", True),
    ("工厂建于1998年。", False),
])
def test_a_past_state_in_chinese(claim: str, now: bool) -> None:
    assert formerly(ZH, claim) is now


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "now"), [
    (KO, "배지은이 이 회사의 연구소장이다.", True), (KO, "노태호가 생산본부장이다.", False),
    (KO, "공장은 1998년에 세워졌다.", False),
    (JA, "小林恵はこの会社の副社長である。", True), (JA, "山本隆は技術部長である。", False),
    (JA, "工場は1998年に建てられた。", False),
])
def test_a_past_state_in_korean_and_japanese(passage: str, claim: str, now: bool) -> None:
    assert formerly(passage, claim) is now


async def test_the_engine_calls_it_unsupported_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(EN, ["Ivy Stone is the club's secretary."])
    assert verdict.label == "neutral" and judge.calls == []


@pytest.mark.parametrize(("passage", "claim", "now"), [
    ("Omar Hale was the harbour master for twelve years.", "Omar Hale is the harbour master.", True),
    ("The ferry has been the island's only link for 40 years.", "The ferry is the island's only link.", False),
    ("周敏曾任会长八年。", "周敏是会长。", True),
    ("周敏任会长已有八年。", "周敏是会长。", False),
])
def test_how_long_a_past_state_lasted_need_not_be_said(passage: str, claim: str, now: bool) -> None:
    assert formerly(passage, claim) is now


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "now"), [
    ("최지호는 15년 동안 교장이었다.", "최지호는 교장이다.", True),
    ("최지호는 15년째 교장을 맡고 있다.", "최지호는 교장이다.", False),
    ("岡田浩は十年間校長だった。", "岡田浩は校長である。", True),
])
def test_how_long_a_past_state_lasted_in_korean_and_japanese(passage: str, claim: str, now: bool) -> None:
    assert formerly(passage, claim) is now
