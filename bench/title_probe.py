#!/usr/bin/env python3
"""A Chinese title written before its holder's name (session 66): "具体排班由厂长周立平安排", "前董事长陈国平出席了…".

Chinese often names a person by title and name run together, with no copula or colon ("总经理许文静介绍了…",
"据副厂长王海介绍"). ``_holders`` reads this form only where a word before the title says it was held before
(``former_title``). Each case is a passage, its question, and claims labelled right (True) or wrong (False); every
claim is checked alone, as the claim engine checks it. ``CASES`` was written before any rule: there the judge entailed
every right claim and one wrong one, the former chairman taken for the chairman, which ``former_title`` was then
written for. ``HELD_OUT`` was written after it. ``--rule-off`` runs both without it.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/title_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

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


HELD_OUT: list[Case] = [
    ("原总经理许文静已调往集团总部，新任总经理尚未确定。", "许文静现在在哪里工作？",
     [("许文静已调往集团总部。", True), ("许文静是总经理。", False)]),
    ("会议由前任技术总监韩磊主持，他介绍了新产线的调试经验。", "谁主持了会议？",
     [("韩磊主持了会议。", True), ("韩磊是技术总监。", False)]),
    ("目前董事长吴国平兼任总经理，负责公司日常经营。", "谁是董事长？",
     [("吴国平是董事长。", True), ("吴国平负责公司日常经营。", True)]),
    ("前董事长陈国平退休后，由副董事长马振东接任董事长。", "谁接任了董事长？",
     [("马振东接任了董事长。", True), ("陈国平是董事长。", False)]),
]


def _turn_off() -> None:
    import ragkit.evaluation._settled as settled

    setattr(settled, "former_title", lambda passage, claim: False)  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "without the rule", _turn_off)
    print("cases written before the rule:")
    await probe(CASES)
    print("held out, written after it:")
    await probe(HELD_OUT)


if __name__ == "__main__":
    asyncio.run(main())
