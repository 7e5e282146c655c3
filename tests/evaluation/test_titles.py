"""A title without the qualifier the passage gives it (``_titles``), in the four languages; the claim engine asks the
judge nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._titles import unqualified
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


@pytest.mark.parametrize(("passage", "claim", "dropped"), [
    ("Lena Ortiz is the acting director of the museum.", "Lena Ortiz is the director of the museum.", True),
    ("Lena Ortiz is the acting director of the museum.", "Lena Ortiz is the museum's acting director.", False),
    ("Sam Rees, the assistant editor, checks every article.", "Sam Rees is the editor.", True),
    ("Sam Rees, the assistant editor, checks every article.", "Sam Rees checks every article.", False),
    # the qualified title is another person's
    ("Vice president Ana Ruiz and president Tom Hill signed the deal.", "Tom Hill is the president.", False),
    ("Vice president Ana Ruiz and president Tom Hill signed the deal.", "Ana Ruiz is the president.", True),
    ("Owen Blake, formerly deputy chair, is now chair.", "Owen Blake is the chair.", False),  # what holds now
    ("副总经理是孙丽，总经理是高志远。", "孙丽是总经理。", True),
    ("副总经理是孙丽，总经理是高志远。", "高志远是总经理。", False),
    ("副校长王兰和校长李军出席了典礼。", "李军是校长。", False),  # the title again, between
])
def test_a_title_without_its_qualifier(passage: str, claim: str, dropped: bool) -> None:
    assert unqualified(passage, claim) is dropped


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "dropped"), [
    ("한결제약의 부사장은 배지은이다.", "배지은은 한결제약의 사장이다.", True),
    ("한결제약의 부사장은 배지은이다.", "배지은은 한결제약의 부사장이다.", False),
    ("부사장 이민호와 사장 정수진이 참석했다.", "정수진은 사장이다.", False),
    ("김민수는 부산으로 발령을 받았다.", "김민수는 울산으로 발령을 받았다.", False),  # 부산 is a place, not 부- and 산
    ("さくら電機の副社長は小林恵である。", "小林恵はさくら電機の社長である。", True),
    ("館長代理の森本健が図書館の運営を担当している。", "森本健は図書館の館長である。", True),
    ("館長代理の森本健が図書館の運営を担当している。", "森本健は館長代理である。", False),
])
def test_a_title_without_its_qualifier_in_korean_and_japanese(passage: str, claim: str, dropped: bool) -> None:
    assert unqualified(passage, claim) is dropped


async def test_the_engine_calls_it_unsupported_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check("Lena Ortiz is the acting director of the museum.",
                                               ["Lena Ortiz is the director of the museum."])
    assert verdict.label == "neutral" and judge.calls == []
