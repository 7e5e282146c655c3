#!/usr/bin/env python3
"""A version written "v2.9.1" (session 58): is a claim with another version than the passage's entailed?

A Korean README run gave a reference "… tokenizers v0.13이 필요합니다" against a passage that asks v0.15 of that
release (v0.13 is what older releases work with), and the claim engine called it entailed (0.57): the number
reader took the "v" for a letter of a code ("K10") and left the version alone, so no value check saw it. Each case
is a passage, its question, and claims labelled right (True) or wrong (False); every claim is checked alone, as the
claim engine checks it. The set was written before the rule. ``--rule-off`` runs it with the number reader of
before, which reads no number after a letter.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/version_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio
import re

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("kotok v1.4.0 and later need tokenizers v0.15 or newer. Releases up to v1.2.0 work only with tokenizers v0.13. "
     "The user dictionary arrived in v1.3.2.", "Which tokenizers version does kotok v1.4.0 need?",
     [("kotok v1.4.0 needs tokenizers v0.15 or newer.", True),
      ("kotok v1.4.0 needs tokenizers v0.13.", False),
      ("The user dictionary was added in v1.3.2.", True),
      ("The user dictionary was added in v1.2.0.", False)]),
    ("kotok v1.4.0부터는 tokenizers v0.15 이상이 필요합니다. v1.2.0 이하 버전은 tokenizers v0.13에서만 동작합니다. "
     "v1.3.2에서 사용자 사전 기능이 추가되었습니다.", "kotok v1.4.0을 쓰려면 tokenizers는 어떤 버전이 필요한가요?",
     [("kotok v1.4.0을 쓰려면 tokenizers v0.15 이상이 필요합니다.", True),
      ("kotok v1.4.0을 쓰려면 tokenizers v0.13이 필요합니다.", False),
      ("사용자 사전 기능은 v1.3.2에서 추가되었습니다.", True),
      ("사용자 사전 기능은 v1.4.0에서 추가되었습니다.", False)]),
    ("fastparse v2.1.0 では Python 3.9 以上が必要です。v1.8.3 までは Python 3.7 でも動作します。",
     "fastparse v2.1.0 に必要な Python のバージョンは？",
     [("fastparse v2.1.0 では Python 3.9 以上が必要です。", True),
      ("fastparse v2.1.0 では Python 3.7 以上が必要です。", False),
      ("v1.8.3 までは Python 3.7 でも動作します。", True),
      ("v2.1.0 までは Python 3.7 でも動作します。", False)]),
    ("从 v3.2.0 开始，默认模型改为 base-v2；v3.0.5 及更早版本使用 base-v1。", "v3.2.0 的默认模型是什么？",
     [("从 v3.2.0 开始，默认模型是 base-v2。", True),
      ("从 v3.0.5 开始，默认模型是 base-v2。", False),
      ("v3.0.5 及更早版本使用 base-v1。", True),
      ("v3.1.0 及更早版本使用 base-v1。", False)]),
]


def _turn_off() -> None:
    import ragkit.text._numbers as reader

    setattr(reader, "_NUMBER", re.compile(r"(?<![A-Za-z\d.,])\d+(?:[.,]\d+)*"))  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "with the number reader of before", _turn_off)
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
