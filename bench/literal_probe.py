#!/usr/bin/env python3
"""A code name or a quoted value written nearly, but not exactly, as the passage writes it (session 57): is the
claim entailed?

A Japanese README run gave a reference "jaconv.h2z('…') は 'ティロ・フィナーノabc123' を返します" against a passage
whose output is 'ティロ・フィナーレabc123', and the claim engine called it entailed (0.83). In technical documents a
letter changes the thing: ``jieba.cut`` is not ``jieba.lcut``, ``log_levels`` is no option of a program that reads
``log_level``. Each case is a passage, its question, and claims labelled right (True) or wrong (False); every claim
is checked alone, as the claim engine checks it. The set was written before the rule. ``--rule-off`` runs it without.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/literal_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("Retries are set with the `max_retries` option (default 3). Timeouts use `timeout_s`, in seconds.",
     "Which option sets the number of retries?",
     [("The number of retries is set with the max_retries option.", True),
      ("The number of retries is set with the max_retry option.", False),
      ("Timeouts are set in seconds with timeout_s.", True),
      ("Timeouts are set in seconds with timeout_ms.", False)]),
    ("Call `client.fetch_all()` to download every record; it pages through the results by itself. It supports "
     "Python 3.8 and later.",
     "How do I download every record?",
     [("client.fetch_all() downloads every record.", True),
      ("client.fetch_one() downloads every record.", False),
      ("It supports Python3.8 and later.", True)]),
    ("`slugify('Hello World')` returns 'hello-world'. Install it with pip install fastslug.",
     "What does slugify return for 'Hello World'?",
     [("slugify('Hello World') returns 'hello-world'.", True),
      ("slugify('Hello World') returns 'hello_world'.", False),
      ("It is installed with pip install fastslug.", True),
      ("It is installed with pip install fastslog.", False)]),
    ("使用 jieba.lcut() 可以直接得到词语列表，jieba.cut() 返回的是生成器。", "怎样直接得到词语列表？",
     [("jieba.lcut() 可以直接得到词语列表。", True), ("jieba.lcat() 可以直接得到词语列表。", False)]),
    ("jaconv.hira2kata('ともえまみ') は 'トモエマミ' を返します。", "jaconv.hira2kata('ともえまみ') は何を返しますか？",
     [("jaconv.hira2kata('ともえまみ') は 'トモエマミ' を返します。", True),
      ("jaconv.hira2kata('ともえまみ') は 'トモエマメ' を返します。", False),
      ("jaconv.hira2kana('ともえまみ') は 'トモエマミ' を返します。", False)]),
    # added with the reading of a call's arguments, after the first run
    ("# アルファベット to ひらがな\njaconv.alphabet2kana('japan')\n# => じゃぱん\n\n# アルファベット to カタカナ\n"
     "jaconv.alphabet2kata('namba')\n# => 'ナンバ'", "'namba' をカタカナにするには？",
     [("jaconv.alphabet2kata('namba') は 'ナンバ' を返します。", True),
      ("jaconv.alphabet2kana('namba') は 'ナンバ' を返します。", False)]),
    ("설정 파일에서 log_level 값을 DEBUG로 바꾸면 자세한 로그가 남습니다.", "자세한 로그를 남기려면 어떻게 하나요?",
     [("log_level 값을 DEBUG로 바꾸면 자세한 로그가 남습니다.", True),
      ("log_levels 값을 DEBUG로 바꾸면 자세한 로그가 남습니다.", False)]),
]


def _turn_off() -> None:
    import ragkit.evaluation._settled as settled

    setattr(settled, "written_otherwise", lambda passage, claim, asked="": False)  # noqa: B010


async def main() -> None:
    rule_off(__doc__.splitlines()[0], "without the rule", _turn_off)
    await probe(CASES)


if __name__ == "__main__":
    asyncio.run(main())
