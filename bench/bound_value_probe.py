#!/usr/bin/env python3
"""A value the passage gives another fact (session 61): is "pycorrector 1.1.2 版本新增了 MacBERT" entailed by a
passage that says "1.0.4 版本新增了 MacBERT 纠错模型，1.1.2 版本加入了 ChatGLM 微调"?

On the validity case zh-version-model, faithfulness scored the wrong answer 0.87 and the right one 0.71: the check
read the claim by its topic, and the cloze, asked to fill "pycorrector [0] 版本新增了 MacBERT 纠错模型" from 1.0.4 and
1.1.2, answered "none" for both answers. Each case is a passage, its question, and claims labelled right (True) or
wrong (False): two facts of one passage, each with a value of the same kind, and claims that give one fact the
other's value, in en, zh, ja, ko and de; and facts that change over time, where an older value stands beside the
claim's words. The set was written before any change. With ``--no-question`` each claim is checked as faithfulness
checks an answer's claims against the retrieved contexts, with no question to read the passage by: that is where
the cloze answered "none", because the question section read "(none)".

    RAGKIT_CACHE_DIR=cache PYTHONPATH=.. ../.venv/bin/python bound_value_probe.py [--no-question]
"""

from __future__ import annotations

import argparse
import asyncio

from claim_probe import Case, probe

CASES: list[Case] = [
    ("ltp 4.0 版本引入了多任务模型，4.2 版本增加了语义依存分析。", "ltp 哪个版本引入了多任务模型？",
     [("ltp 4.0 版本引入了多任务模型。", True),
      ("ltp 4.2 版本引入了多任务模型。", False),
      ("语义依存分析是在 4.2 版本加入的。", True),
      ("语义依存分析是在 4.0 版本加入的。", False)]),
    ("The Harlow line opened in 1932, and the Bexley branch followed in 1951.", "When did the Harlow line open?",
     [("The Harlow line opened in 1932.", True),
      ("The Harlow line opened in 1951.", False),
      ("The Bexley branch opened in 1951.", True),
      ("The Bexley branch opened in 1932.", False)]),
    ("2019년에 부산 공장이 가동을 시작했고, 2021년에 광주 연구소가 문을 열었습니다.",
     "부산 공장은 언제 가동을 시작했나요?",
     [("부산 공장은 2019년에 가동을 시작했습니다.", True),
      ("부산 공장은 2021년에 가동을 시작했습니다.", False),
      ("광주 연구소는 2021년에 문을 열었습니다.", True),
      ("광주 연구소는 2019년에 문을 열었습니다.", False)]),
    ("本社工場は1998年に稼働し、熊本工場は2006年に完成した。", "熊本工場はいつ完成しましたか？",
     [("熊本工場は2006年に完成した。", True),
      ("熊本工場は1998年に完成した。", False),
      ("本社工場は1998年に稼働を始めた。", True),
      ("本社工場は2006年に稼働した。", False)]),
    ("Version 2.4 brachte den Offline-Modus, Version 3.0 die Synchronisation mit dem Kalender.",
     "Mit welcher Version kam der Offline-Modus?",
     [("Der Offline-Modus kam mit Version 2.4.", True),
      ("Der Offline-Modus kam mit Version 3.0.", False),
      ("Version 3.0 brachte die Synchronisation mit dem Kalender.", True),
      ("Die Synchronisation mit dem Kalender kam mit Version 2.4.", False)]),
    ("v2.0에서 GPU 추론이 추가되었고, v2.3부터 양자화 모델이 지원됩니다.", "GPU 추론은 어느 버전에서 추가되었나요?",
     [("GPU 추론은 v2.0에서 추가되었습니다.", True),
      ("GPU 추론은 v2.3에서 추가되었습니다.", False),
      ("양자화 모델은 v2.3부터 지원됩니다.", True)]),
    # facts that change over time: the older value stands in a clause with the claim's words
    ("In 2020 the plant employed 250 people. Today it employs 310 people, after the new line opened.",
     "How many people does the plant employ today?",
     [("The plant employs 310 people today.", True),
      ("The plant employs 250 people today.", False),
      ("In 2020 the plant employed 250 people.", True)]),
    ("The museum was closed by a fire in 2016. It reopened in 2019.", "When did the museum reopen?",
     [("The museum reopened in 2019.", True),
      ("A fire closed the museum in 2016.", True),
      ("The museum reopened in 2016.", False)]),
    ("该店2018年的员工为12人，扩建后现有员工30人。", "该店现在有多少员工？",
     [("该店现有员工30人。", True),
      ("该店现有员工12人。", False),
      ("该店2018年的员工为12人。", True)]),
]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-question", action="store_true",
                        help="check each claim as faithfulness does, with no question to read the passage by")
    args = parser.parse_args()
    await probe(CASES, with_question=not args.no_question)


if __name__ == "__main__":
    asyncio.run(main())
