"""Judge overhead on the embedded default model (issue 2).

The same 50 structured calls, once through ``Judge.structured`` (litellm, the local provider, validation, usage,
SQLite cache writes) and once straight to llama.cpp (``LocalModel.chat`` with the same messages, schema and token
budget). The two paths alternate call by call over two passes, so that both see the same machine load and every call
follows a different prompt with the same instruction (the same llama.cpp prefix reuse). Then a new Judge on the
same cache file reruns the 50 calls: the cached time per call. Because the machine's load moves the ratio by
several percent either way, the script also reports the Judge's own time per call: its wall time minus the time
spent inside ``LocalModel.chat`` for that call. Optionally (``--scored N``), N calls through
``structured_scored`` measure what recording token logprobs costs.

    .venv/bin/python bench/judge_overhead.py [--n 50] [--scored 10] [--model local/qwen2.5-coder-1.5b]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ragkit import Judge, Settings
from ragkit.llm import litellm_module
from ragkit.llm._cache import Cache
from ragkit.llm._local import LocalModel
from ragkit.llm._prompts import Prompt

PLACES = [
    ("Lyon", "France"), ("Porto", "Portugal"), ("Kraków", "Poland"), ("Osaka", "Japan"), ("Cusco", "Peru"),
    ("Mombasa", "Kenya"), ("Tabriz", "Iran"), ("Bergen", "Norway"), ("Cebu", "the Philippines"),
    ("Valparaíso", "Chile"),
]
FACTS = ["is the largest city in the region", "has a busy harbour", "was founded more than a thousand years ago",
         "hosts a well-known university", "is known for its old town"]


class Check(BaseModel):
    passage: str
    claim: str


class Verdict(BaseModel):
    verdict: Literal["supported", "contradicted", "unrelated"]
    reason: str = Field(max_length=120)


VERIFY = Prompt("bench.verify", "Decide whether the passage supports the claim, contradicts it, or says nothing "
                "about it. Give a short reason.", Check, Verdict, max_tokens=64)


def inputs(n: int) -> list[Check]:
    out = []
    for i in range(n):
        city, country = PLACES[i % len(PLACES)]
        fact = FACTS[(i // len(PLACES)) % len(FACTS)]
        other = PLACES[(i + 3) % len(PLACES)][1]
        claim = f"{city} is in {country}." if i % 3 == 0 else f"{city} is in {other}." if i % 3 == 1 else \
            f"{city} has a famous football team."
        out.append(Check(passage=f"{city} is a city in {country}. It {fact}.", claim=claim))
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--scored", type=int, default=10)
    parser.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    args = parser.parse_args()

    settings = Settings.load(model=args.model)
    name = args.model.removeprefix("local/")
    started = time.monotonic()
    model = LocalModel.get(name, model_dir=settings.model_dir, threads=settings.threads,
                           context_size=settings.context_size)
    load_s = time.monotonic() - started
    litellm_module()
    cache_path = Path(tempfile.mkdtemp(prefix="ragkit-bench-")) / "llm.sqlite"
    judge = Judge(settings=settings, cache=Cache(cache_path))
    fmt = {"type": "json_object", "schema": VERIFY.schema()}
    items = inputs(args.n)

    inside: list[float] = []  # seconds spent inside LocalModel.chat, whichever path called it
    chat = model.chat

    def timed_chat(*a: Any, **kw: Any) -> dict[str, Any]:
        t = time.monotonic()
        try:
            return chat(*a, **kw)
        finally:
            inside.append(time.monotonic() - t)

    model.chat = timed_chat  # type: ignore[method-assign]

    def direct(item: Check) -> str:
        out = model.chat(VERIFY.render(item), max_tokens=VERIFY.max_tokens, temperature=settings.temperature,
                         response_format=fmt, timeout=settings.timeout)
        return str(out["choices"][0]["message"]["content"])

    # warm-up (not timed): first-call costs of llama.cpp and litellm
    warm = Check(passage="Warm-up passage.", claim="Nothing.")
    direct(warm)
    await Judge(settings=settings, cache=False).structured(VERIFY, warm)

    direct_s = [0.0] * args.n
    judge_s = [0.0] * args.n
    direct_out: dict[int, Verdict] = {}
    judge_out: dict[int, Verdict] = {}
    outside_ms: list[float] = []  # per Judge call: its time minus the time llama.cpp spent on it
    # Two passes over the inputs; call i goes to one path in the first pass and to the other in the second, so
    # load drift hits both paths alike and no call follows the same prompt (no whole-prompt reuse in llama.cpp).
    for first_pass in (True, False):
        for i, item in enumerate(items):
            t = time.monotonic()
            if (i % 2 == 0) == first_pass:
                direct_out[i] = Verdict.model_validate_json(direct(item))
                direct_s[i] = time.monotonic() - t
            else:
                judge_out[i] = await judge.structured(VERIFY, item)
                judge_s[i] = time.monotonic() - t
                outside_ms.append((judge_s[i] - inside[-1]) * 1000)
            if (i + 1) % 10 == 0:
                print(f"  pass {1 if first_pass else 2}: {i + 1}/{args.n}", file=sys.stderr)
    same = sum(direct_out[i] == judge_out[i] for i in range(args.n))

    rerun = Judge(settings=settings, cache=Cache(cache_path))
    t = time.monotonic()
    for item in items:
        await rerun.structured(VERIFY, item)
    cached_per_call = (time.monotonic() - t) / args.n
    assert rerun.usage.total.calls == 0, "the cached rerun called the model"

    scored_s: list[float] = []
    plain_s: list[float] = []
    if args.scored:
        uncached = Judge(settings=settings, cache=False)
        for item in items[: args.scored]:
            t = time.monotonic()
            await uncached.structured(VERIFY, item)
            plain_s.append(time.monotonic() - t)
        for item in items[: args.scored]:
            t = time.monotonic()
            await uncached.structured_scored(VERIFY, item)
            scored_s.append(time.monotonic() - t)

    usage = judge.usage.total
    result = {
        "model": args.model,
        "calls_per_path": args.n,
        "model_load_s": round(load_s, 2),
        "direct_total_s": round(sum(direct_s), 2),
        "judge_total_s": round(sum(judge_s), 2),
        "ratio": round(sum(judge_s) / sum(direct_s), 4),
        "direct_median_s": round(statistics.median(direct_s), 3),
        "judge_median_s": round(statistics.median(judge_s), 3),
        "median_ratio": round(statistics.median(j / d for j, d in zip(judge_s, direct_s, strict=True)), 4),
        "judge_overhead_ms_median": round(statistics.median(outside_ms), 2),
        "judge_overhead_ms_max": round(max(outside_ms), 2),
        "same_output": f"{same}/{args.n}",
        "cached_rerun_ms_per_call": round(cached_per_call * 1000, 2),
        "prompt_tokens_per_call": round(usage.prompt_tokens / max(1, usage.calls)),
        "completion_tokens_per_call": round(usage.completion_tokens / max(1, usage.calls)),
    }
    if scored_s:
        result["scored_vs_plain_ratio"] = round(sum(scored_s) / sum(plain_s), 4)
        result["scored_calls"] = len(scored_s)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
