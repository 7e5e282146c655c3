#!/usr/bin/env python3
"""Praise the passage never gives (session 57): is "Kss is widely used in the Korean NLP community" entailed by a
README that only says what Kss does?

Each case is a passage, its question, and claims labelled right (True) or wrong (False): a wrong claim praises its
subject with words the passage never uses; a right one says what the passage says, praise included where the passage
praises. Every claim is checked alone, as the claim engine checks it (the judge's verdict on a claim moves with its
batch). The set was written before the rule. ``--rule-off`` runs it without.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/praise_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("Kss is a Korean string processing suite. It splits sentences, normalises spacing and converts Hanja to Hangul.",
     "What is Kss?",
     [("Kss splits sentences and normalises spacing.", True),
      ("Kss is widely used in the Korean NLP community.", False),
      ("Kss is a powerful and comprehensive toolkit for Korean text.", False)]),
    ("Typer builds command-line interfaces from Python type hints. It is easy to use and popular with FastAPI users.",
     "What is Typer?",
     [("Typer is popular with FastAPI users.", True),
      ("Typer builds command-line interfaces from type hints.", True),
      ("Typer offers an intuitive and user-friendly syntax.", False)]),
    ("青禾OCR是一个中文文字识别工具，支持横排和竖排文字。", "青禾OCR是什么？",
     [("青禾OCR支持竖排文字。", True), ("青禾OCR是一款功能强大、广泛使用的识别工具。", False)]),
    ("ひかり変換は、ひらがなとカタカナを相互に変換するライブラリです。", "ひかり変換とは何ですか？",
     [("ひかり変換はひらがなをカタカナに変換できます。", True),
      ("ひかり変換は広く使われている強力なライブラリです。", False)]),
    ("한빛 분석기는 한국어 형태소를 분석하는 도구이며, 연구자들 사이에서 인기가 높다.", "한빛 분석기는 무엇인가요?",
     [("한빛 분석기는 연구자들 사이에서 인기가 높다.", True), ("한빛 분석기는 널리 사용되는 강력한 도구이다.", False)]),
]


def _turn_off() -> None:
    import ragkit.evaluation._settled as settled

    setattr(settled, "unsaid_praise", lambda passage, claim, asked="": False)  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "without the rule", _turn_off)
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
