#!/usr/bin/env python3
"""A version the passage never writes (session 59): is "v3.1.0 及更早版本使用 base-v1" entailed by a passage that says
so of v3.0.5?

Session 58's version probe left such a claim entailed (0.39): the value cloze picks "none" for its version, and a
"none" pick tells nothing by design (a number may be written in other words: "five" for 5). A version of two dots or
more, or one written with a "v", has no other words. Each case is a passage, its question, and claims labelled right
(True) or wrong (False), in English, Chinese, Japanese and Korean; each claim is checked alone, as the claim engine
checks it. The set was written before the rule. ``--rule-off`` runs it without the rule.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/unwritten_version_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("Starting with v3.2.0 the default model is base-v2; v3.0.5 and earlier use base-v1. Python 3.9 or newer is "
     "required.", "Which default model does v3.2.0 use?",
     [("v3.2.0 uses base-v2 by default.", True),
      ("v3.1.0 and earlier use base-v1.", False),
      ("Since version 3.3.0 the default model is base-v2.", False),
      ("Python 3.9.0 or newer is required.", True),
      ("Python 3.8 or newer is required.", False)]),
    ("hgtk 0.2.1 버전부터 josa 모듈을 지원합니다. 0.1.3 버전에서는 한글 자모 분해만 가능합니다.",
     "josa 모듈은 어느 버전부터 지원되나요?",
     [("josa 모듈은 0.2.1 버전부터 지원됩니다.", True),
      ("josa 모듈은 0.2.0 버전부터 지원됩니다.", False),
      ("0.1.3 버전에서는 한글 자모 분해만 가능합니다.", True),
      ("josa 모듈은 v0.3.0부터 지원됩니다.", False)]),
    ("SudachiPy 0.6.8 では Python 3.8 以上が必要です。SudachiDict は 20240109 版から core 辞書が既定になりました。",
     "SudachiPy 0.6.8 に必要な Python のバージョンは？",
     [("SudachiPy 0.6.8 では Python 3.8 以上が必要です。", True),
      ("SudachiPy 0.6.7 では Python 3.8 以上が必要です。", False),
      ("SudachiPy v0.6.8 は Python 3.8 以降で動きます。", True),
      ("SudachiPy 0.7.0 では Python 3.8 以上が必要です。", False)]),
    ("pycorrector 1.0.4 版本新增了 MacBERT 纠错模型，1.1.2 版本加入了 ChatGLM 微调。", "哪个版本加入了 MacBERT 模型？",
     [("pycorrector 1.0.4 版本新增了 MacBERT 纠错模型。", True),
      ("pycorrector 1.0.3 版本新增了 MacBERT 纠错模型。", False),
      ("1.1.2 版本加入了 ChatGLM 微调。", True),
      ("1.2.0 版本加入了 ChatGLM 微调。", False)]),
    ("The API was frozen in release 2.0. Patch 2.0.3 fixed the memory leak reported on 2024.03.18.",
     "Which patch fixed the memory leak?",
     [("Patch 2.0.3 fixed the memory leak.", True),
      ("Patch 2.0.4 fixed the memory leak.", False),
      ("The API was frozen in release 2.0.0.", True),
      ("The memory leak was fixed in v2.0.3.", True),
      ("The memory leak was reported on March 18, 2024.", True)]),
    ("2024년 3월 18일에 배포된 2.0.3 패치에서 메모리 누수가 고쳐졌습니다.", "메모리 누수는 언제 고쳐졌나요?",
     [("메모리 누수는 2024.03.18에 배포된 패치에서 고쳐졌습니다.", True),
      ("메모리 누수는 2.0.3 패치에서 고쳐졌습니다.", True),
      ("메모리 누수는 2.1.3 패치에서 고쳐졌습니다.", False)]),
]


def _turn_off() -> None:
    import ragkit.evaluation._settled as settled

    setattr(settled, "unwritten_version", lambda passage, claim: False)  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "without the rule for a version the passage never writes", _turn_off)
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
