#!/usr/bin/env python3
"""A date written with dots (session 59): is "2024년 3월 18일에 출시" entailed by a passage that writes "2024.03.18"?

The number reader read "2024.03.18" as one number, where it reads "2024-03-18", "2024/03/18" and "2024년 3월 18일" as
three, so the value cloze could offer the judge only the whole date for a claim's day or year, and every choice of
it contradicts. Korean and Chinese documents write dates with dots often ("2024.03.18", "2024. 3. 18."; German
"18.03.2024"). Each case is a passage, its question, and claims labelled right (True) or wrong (False); each claim is
checked alone. The set was written before the change. ``--rule-off`` reads a dotted date as one number again.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/dotted_date_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio
import re

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("한빛 분석기 2.0은 2024.03.18에 출시되었고, 2.1은 2024.09.02에 출시되었다.",
     "한빛 분석기 2.0은 언제 출시되었나요?",
     [("한빛 분석기 2.0은 2024년 3월 18일에 출시되었다.", True),
      ("한빛 분석기 2.0은 2024년 9월 2일에 출시되었다.", False),
      ("한빛 분석기 2.1은 2024년 9월에 출시되었다.", True),
      ("한빛 분석기 2.0은 2023년 3월 18일에 출시되었다.", False)]),
    ("青禾OCR 第二版于 2023.11.05 发布，首版发布于 2021.06.30。", "青禾OCR 第二版是什么时候发布的？",
     [("青禾OCR 第二版于2023年11月5日发布。", True),
      ("青禾OCR 第二版于2021年6月30日发布。", False),
      ("青禾OCR 首版发布于2021年。", True)]),
    ("The warehouse opened on 2019.04.01. Its second hall followed on 2022.10.15.", "When did the warehouse open?",
     [("The warehouse opened on April 1, 2019.", True),
      ("The warehouse opened in 2022.", False),
      ("The second hall opened in October 2022.", True),
      ("The warehouse opened on April 15, 2019.", False)]),
    ("Die Filiale in Graz öffnete am 18.03.2024; die Filiale in Linz folgte am 02.09.2024.",
     "When did the Graz branch open?",
     [("The Graz branch opened on 18 March 2024.", True),
      ("The Graz branch opened on 2 September 2024.", False)]),
]


def _turn_off() -> None:
    import ragkit.text._numbers as reader

    setattr(reader, "_DATE", re.compile(r"(?!)"))  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "with a dotted date read as one number", _turn_off)
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
