#!/usr/bin/env python3
"""A claim that gives part of a date (session 60): is "The bridge reopened in February 2023" entailed by a passage
that writes "2023.02.14", and "in July 2023" not?

Session 59's dotted-date probe lost one right claim, "The second hall opened in October 2022": the value cloze
offers a date's parts ("2022", "10", "15") beside the whole date, and the small judge filled the year of "in
October [0]" with the month, 10. Each case is a passage with two dates and often a plain number that is also a
date's part ("14 million", "12 个展厅"), its question, and claims labelled right (True) or wrong (False) that give a
year, a month and year, or the plain number; each claim is checked alone. The set was written before the trial.
Session 60 tried a date's parts offered as no options of their own, only the whole date, and did not keep it: a
month written as a word was no blank. Session 61 made a month of a year one blank and then dropped the parts
(bench/README.md, "The value cloze").

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/date_parts_probe.py
"""

from __future__ import annotations

import argparse
import asyncio

from claim_probe import Case, probe

CASES: list[Case] = [
    ("The bridge was closed on 2021.07.09 and reopened on 2023.02.14. Repairs cost 14 million dollars.",
     "When did the bridge reopen?",
     [("The bridge reopened in February 2023.", True),
      ("The bridge reopened in July 2023.", False),
      ("The bridge was closed in 2021.", True),
      ("Repairs cost 14 million dollars.", True),
      ("The bridge reopened in February 2021.", False)]),
    ("该馆于 2018.05.20 开放，2022.12.01 扩建，共有 12 个展厅。", "该馆何时扩建？",
     [("该馆于2022年12月扩建。", True),
      ("该馆于2018年12月扩建。", False),
      ("该馆共有12个展厅。", True),
      ("该馆于2018年5月开放。", True)]),
    ("新工場は 2020.10.01 に稼働し、2024.04.15 に第二ラインが加わった。", "第二ラインはいつ加わりましたか？",
     [("第二ラインは2024年4月に加わった。", True),
      ("第二ラインは2020年4月に加わった。", False),
      ("新工場は2020年に稼働した。", True),
      ("新工場は2024年10月に稼働した。", False)]),
    ("도서관은 2016. 9. 5.에 문을 열었고 2023. 3. 2.에 새 열람실을 열었다. 열람실 좌석은 120석이다.",
     "새 열람실은 언제 열었나요?",
     [("새 열람실은 2023년 3월에 열었다.", True),
      ("새 열람실은 2023년 9월에 열었다.", False),
      ("도서관은 2016년에 문을 열었다.", True),
      ("열람실 좌석은 120석이다.", True),
      ("도서관은 2023년에 문을 열었다.", False)]),
    ("Das Museum wurde am 03.10.1990 gegründet und am 21.06.2015 renoviert.", "When was the museum renovated?",
     [("The museum was renovated in June 2015.", True),
      ("The museum was renovated in October 2015.", False),
      ("The museum was founded in 1990.", True)]),
]


async def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
