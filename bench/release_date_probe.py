#!/usr/bin/env python3
"""A release and its date on one line of a list of releases (session 67): "- December 19, 2022 Released Kss 4.0
Python." against "Kss 4.0 Python was released in December 2022."

The check read the right claim as supported (0.86); the value cloze, asked for the version and the date, picked the
list's first date, and the claim was contradicted (0.02). ``dates_together`` keeps the cloze from overruling a
date that a sentence of the passage gives with the claim's other numbers, and no other month. Each case is a
passage, its question, and claims labelled right (True) or wrong (False), each checked alone, with the question
and, as faithfulness checks an answer, without it. The first case is
the one found in a generated test set; the others were written after the rule. ``--rule-off`` runs them without
it.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=.:bench .venv/bin/python bench/release_date_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("What's New:\n\n- April 27, 2024 Released Kss 6.0 Python.\n- March 31, 2024 Released Kss 5.0 Python.\n"
     "- December 19, 2022 Released Kss 4.0 Python.\n- August 18, 2021 Released Kss 3.0 Python.",
     "What version of Kss was released in December 2022?",
     [("Kss 4.0 Python was released in December 2022.", True), ("Kss 3.0 Python was released in August 2021.", True),
      ("Kss 5.0 Python was released in December 2022.", False), ("Kss 4.0 Python was released in March 2022.", False)]),
    ("更新记录\n\n- 2024年4月27日 发布青岚助手6.0版。\n- 2024年3月31日 发布青岚助手5.0版。\n"
     "- 2022年12月19日 发布青岚助手4.0版。",
     "青岚助手4.0版是什么时候发布的？",
     [("青岚助手4.0版于2022年12月发布。", True), ("青岚助手4.0版于2024年3月发布。", False)]),
    ("업데이트 내역\n\n- 2024년 4월 27일 한빛 분석기 6.0 출시\n- 2023년 3월 31일 한빛 분석기 5.0 출시\n"
     "- 2022년 12월 19일 한빛 분석기 4.0 출시",
     "한빛 분석기 4.0은 언제 출시되었나요?",
     [("한빛 분석기 4.0은 2022년 12월에 출시되었다.", True), ("한빛 분석기 4.0은 2024년 4월에 출시되었다.", False)]),
    ("リリース履歴\n\n- 2024年4月27日 さくらツール6.0をリリース\n- 2023年3月31日 さくらツール5.0をリリース\n"
     "- 2022年12月19日 さくらツール4.0をリリース",
     "さくらツール4.0はいつリリースされましたか？",
     [("さくらツール4.0は2022年12月にリリースされた。", True),
      ("さくらツール4.0は2023年3月にリリースされた。", False)]),
    ("Version 2.1 of the Harbor app shipped on March 3, 2023. Version 2.2 followed on September 14, 2023, with "
     "offline maps.",
     "When was version 2.2 of the Harbor app released?",
     [("Version 2.2 of the Harbor app was released in September 2023.", True),
      ("Version 2.2 of the Harbor app was released in March 2023.", False)]),
]


def _turn_off() -> None:
    import ragkit.evaluation._claims as claims

    setattr(claims, "dates_together", lambda claim, passage: set())  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "without the rule", _turn_off)
    print("checked with the question (as the critic checks a reference):")
    await probe(CASES)
    print("checked as faithfulness checks an answer (no question):")
    await probe(CASES, with_question=False)


if __name__ == "__main__":
    asyncio.run(main())
