#!/usr/bin/env python3
"""Numbered things in passages that also give years (session 56): does the value cloze read a year as the number?

Given "第[0]工場を開設した" and "2015年に第2工場を開設した。", the small judge's cloze picked 2015 for the blank and so
contradicted a right claim. ``_values.as_counted`` takes a year (four digits the passage writes only with 年 or 년)
for "none" in a blank counted otherwise. Each case is a passage, its question, and claims labelled right (True) or
wrong (False); every claim is checked as the claim engine checks it (check, then cloze). The set was written
before either run. ``--rule-off`` keeps only the rule for a kind the passage never gives.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/year_probe.py [--rule-off]
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import ragkit.evaluation._claims as claims_module
import ragkit.evaluation._values as values
from ragkit.evaluation import ClaimStore
from ragkit.llm import Judge

CASES: list[tuple[str, str, list[tuple[str, bool]]]] = [
    ("2019年，工厂新建了3号生产线。2021年，公司员工达到120名。", "工厂有哪些变化？",
     [("工厂新建了3号生产线。", True), ("工厂新建了5号生产线。", False),
      ("公司员工达到120名。", True), ("公司员工达到150名。", False)]),
    ("2018년에 2호 매장을 열었다. 2020년에는 직원이 45명이 되었다.", "회사는 어떻게 성장했나요?",
     [("2호 매장을 열었다.", True), ("4호 매장을 열었다.", False),
      ("직원이 45명이 되었다.", True), ("직원이 60명이 되었다.", False)]),
    ("2015年に第2工場を開設した。2022年の従業員は約300人である。", "会社の工場と従業員について教えてください。",
     [("従業員は約300人である。", True), ("従業員は約350人である。", False),
      ("第2工場を開設した。", True), ("第3工場を開設した。", False)]),
    ("2023年5月，批号LS-230412的产品因2号烘干机温度传感器故障导致水分超标。此后每批成品出厂前进行三次水分抽检。",
     "产品为什么水分超标？",
     [("产品因2号烘干机温度传感器故障导致水分超标。", True), ("产品因1号烘干机温度传感器故障导致水分超标。", False),
      ("每批成品出厂前进行三次水分抽检。", True), ("每批成品出厂前进行五次水分抽检。", False)]),
]


def without_year_rule() -> None:
    """``as_counted`` with only its first rule: a kind the passage never gives."""
    counted = values.as_counted

    def first_rule(distribution: dict[str, float], hole: Any, units: dict[str, set[str]]) -> dict[str, float]:
        if hole.unit and any(values.alike(hole.unit, u) for found in units.values() for u in found):
            return distribution
        return counted(distribution, hole, units)

    setattr(claims_module, "as_counted", first_rule)  # noqa: B010 (the name the store calls)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule-off", action="store_true", help="without the year rule")
    if parser.parse_args().rule_off:
        without_year_rule()
    store = ClaimStore(Judge())
    counts = {"right contradicted": 0, "wrong entailed": 0}
    for passage, question, labelled in CASES:
        verdicts = await store.check(passage, [c for c, _ in labelled], question=question)
        for (claim, right), verdict in zip(labelled, verdicts, strict=True):
            print(f"{'right' if right else 'wrong'}\t{verdict.label}\t{verdict.support:.3f}\t{claim}")
            counts["right contradicted"] += right and verdict.label == "contradicted"
            counts["wrong entailed"] += not right and verdict.label == "entailed"
    print(counts)


if __name__ == "__main__":
    asyncio.run(main())
