"""Praise the passage never gives (``_praise``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._praise import unsaid_praise


@pytest.mark.parametrize(("passage", "claim", "asked", "unsaid"), [
    ("Kss splits sentences and normalises spacing.", "Kss is widely used in the Korean NLP community.", "", True),
    ("Kss splits sentences and normalises spacing.", "Kss is a valuable resource.", "", True),
    ("Kss splits sentences and normalises spacing.", "Kss splits sentences.", "", False),
    ("Typer is easy to use and popular with FastAPI users.", "Typer is popular with FastAPI users.", "", False),
    ("It offers a full suite of well-known patterns.", "It offers well known patterns.", "", False),  # one word
    ("Typer builds CLIs.", "Typer is popular because it builds CLIs.", "Why is Typer so popular?", False),
    ("青禾OCR支持横排和竖排文字。", "青禾OCR是一款功能强大的工具。", "", True),
    ("ひかり変換はひらがなとカタカナを変換します。", "ひかり変換は広く使われているライブラリです。", "", True),
    ("한빛 분석기는 형태소를 분석하며 연구자들 사이에서 인기가 높다.", "한빛 분석기는 인기가 높다.", "", False),
    ("한빛 분석기는 형태소를 분석한다.", "한빛 분석기는 널리 사용되는 도구이다.", "", True),
    # an English answer about a Korean passage is read in English
    ("한빛 분석기는 형태소를 분석한다.", "The Hanbit analyser is a powerful tool.", "", True),
])
def test_unsaid_praise(passage: str, claim: str, asked: str, unsaid: bool) -> None:
    assert unsaid_praise(passage, claim, asked) is unsaid
