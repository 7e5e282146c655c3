#!/usr/bin/env python3
"""A Chinese title written before its holder's name (session 66): does "具体排班由厂长周立平安排" entail "周立平是厂长"?

Chinese often names a person by title and name run together, with no copula or colon ("总经理许文静介绍了…",
"据副厂长王海介绍"), a form ``_holders`` does not read (it reads a holder after "是" or a colon). Before writing a rule
for it, this probe asks whether the judge needs one. Each case is a passage, its question, and claims labelled right
(True) or wrong (False); every claim is checked alone, as the claim engine checks it. In session 66 the judge
entailed every right claim and one wrong one (a former chairman, "前董事长", as the chairman), so no rule was built.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/title_probe.py
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe

CASES: list[Case] = [
    ("采茶季期间，余杭加工厂实行两班制，具体排班由厂长周立平安排。", "谁负责余杭加工厂的排班？",
     [("周立平是厂长。", True), ("周立平是余杭加工厂的厂长。", True), ("周立平是副厂长。", False),
      ("何春生是厂长。", False)]),
    ("会上，总经理许文静介绍了新工厂的建设进度，技术总监韩磊汇报了设备调试情况。", "谁介绍了新工厂的建设进度？",
     [("许文静是总经理。", True), ("韩磊是技术总监。", True), ("许文静是技术总监。", False),
      ("韩磊是总经理。", False)]),
    ("据副厂长王海介绍，三号生产线将于五月投产。", "三号生产线何时投产？",
     [("王海是副厂长。", True), ("王海是厂长。", False)]),
    ("前董事长陈国平出席了新总部的开业仪式。", "谁出席了开业仪式？",
     [("陈国平是董事长。", False)]),
    ("明川物流首席财务官罗佳慧表示，公司今年营收增长12%。", "明川物流今年营收增长多少？",
     [("罗佳慧是明川物流的首席财务官。", True), ("罗佳慧是明川物流的总经理。", False)]),
    ("澄江纺织董事长吴国平在年会上致辞，感谢员工一年来的努力。", "谁在年会上致辞？",
     [("吴国平是澄江纺织的董事长。", True), ("吴国平是澄江纺织的总经理。", False)]),
]


async def main() -> None:
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
