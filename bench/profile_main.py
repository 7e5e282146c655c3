#!/usr/bin/env python3
"""Where the README's main job spends its time (issue 16): per pipeline stage and per model call.

Runs ``ragkit benchmark corpora/acme --target baseline -n 4 --extractor fast`` in this process, on a fresh cache
directory (the model weights already assembled), with the embedded llama.cpp model and the embedding model
instrumented from outside. For every model call it records when it was asked, when it got the model (the wait
is the queue), how many prompt tokens it had and how many the model reused (its own count: the prefix shared with
the live KV cache or with a saved state it loaded), the time to the first generated token (prompt evaluation),
the generated tokens and the generation time (under the JSON grammar). Per stage it reports wall time, model
time, embedding time, model loads and the Python time left outside them.

    .venv/bin/python bench/profile_main.py [--out profile.json] [-- extra benchmark options]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SCRIPT_START = time.monotonic()
REPO = Path(__file__).resolve().parent.parent
CALLS: list[dict[str, Any]] = []
STAGES: list[tuple[str, float, float]] = []
EMBED: list[tuple[float, float, int]] = []
LOADS: dict[str, float] = {}
NAMES: dict[str, str] = {}
GENERATION: dict[str, Any] = {}
"""Per generator: kept, calls and candidates dropped by reason."""
"""Prompt name by the messages the Judge sent (calls made without the Judge, the target's, are "(target)")."""


def instrument() -> None:
    """Wrap the model calls, the embedding calls, the model loads and the pipeline stages (from outside)."""
    import ragkit.llm._embeddings as emb
    import ragkit.llm._judge as judge
    import ragkit.llm._local as local
    import ragkit.pipeline._runner as runner

    complete = judge.Judge._complete

    async def named_complete(self: Any, info: Any, **kwargs: Any) -> Any:
        NAMES[json.dumps(info.messages, ensure_ascii=False)] = info.prompt_name
        return await complete(self, info, **kwargs)

    judge.Judge._complete = named_complete  # type: ignore[method-assign]

    import ragkit.synthesis as synthesis

    generate = synthesis.generate

    async def reported_generate(*args: Any, **kwargs: Any) -> Any:
        result = await generate(*args, **kwargs)
        for name, r in result.report.items():
            GENERATION[name] = {"requested": r.requested, "kept": r.kept, "calls": r.usage.calls,
                                "dropped": dict(r.dropped), "examples": dict(r.examples)}
        return result

    synthesis.generate = reported_generate

    chat, init = local.LocalModel.chat, local.LocalModel.__init__

    def timed_init(self: Any, *args: Any, **kwargs: Any) -> None:
        started = time.monotonic()
        init(self, *args, **kwargs)
        LOADS["llama.cpp model"] = LOADS.get("llama.cpp model", 0.0) + time.monotonic() - started
        create = self.llama.create_chat_completion

        def traced_create(*a: Any, **kw: Any) -> Any:  # runs with the model's lock held
            record = CALLS[-1]
            record["got_model"] = time.monotonic()
            recorder = kw["logits_processor"][0]
            original = recorder.__call__

            def first_token(input_ids: Any, scores: Any) -> Any:
                if "first_token" not in record:
                    record["first_token"] = time.monotonic()
                    record["prompt_tokens"] = len(input_ids)
                return original(input_ids, scores)

            kw["logits_processor"][0] = first_token
            return create(*a, **kw)

        self.llama.create_chat_completion = traced_create

    def timed_chat(self: Any, messages: Any, **kwargs: Any) -> Any:
        record: dict[str, Any] = {"asked": time.monotonic(), "grammar": kwargs.get("response_format") is not None,
                                  "prompt": NAMES.get(json.dumps(messages, ensure_ascii=False), "(target)")}
        CALLS.append(record)
        out = chat(self, messages, **kwargs)
        record["done"] = time.monotonic()
        record["generated_tokens"] = out["usage"]["completion_tokens"]
        # the model's own count: the prefix shared with the live KV cache or with a saved state it loaded
        record["reused_tokens"] = out["usage"]["prompt_tokens_details"]["cached_tokens"]
        return out

    def timed_compute(self: Any, texts: list[str], **kwargs: Any) -> Any:
        started = time.monotonic()
        out = compute(self, texts, **kwargs)
        EMBED.append((started, time.monotonic(), len(texts)))
        return out

    def timed_load(name: str) -> Any:
        started = time.monotonic()
        fresh = name not in emb._MODELS
        out = load(name)
        if fresh:
            LOADS["embedding model"] = LOADS.get("embedding model", 0.0) + time.monotonic() - started
        return out

    @contextlib.contextmanager
    def timed_stage(run: Any, name: str, *args: Any) -> Iterator[None]:
        started = time.monotonic()
        with stage(run, name, *args):
            yield
        STAGES.append((name, started, time.monotonic()))

    compute, load, stage = emb.Embeddings._compute, emb.load_embedding_model, runner._stage
    local.LocalModel.__init__, local.LocalModel.chat = timed_init, timed_chat  # type: ignore[method-assign]
    emb.Embeddings._compute = timed_compute  # type: ignore[method-assign]
    emb.load_embedding_model = timed_load
    runner._stage = timed_stage


def _stage_of(t: float) -> str:
    return next((name for name, a, b in STAGES if a <= t <= b), "(between stages)")


def _totals(calls: list[dict[str, Any]]) -> dict[str, float]:
    t: dict[str, float] = defaultdict(float)
    for c in calls:
        got, first = c.get("got_model", c["asked"]), c.get("first_token", c["done"])
        t["calls"] += 1
        t["queue_s"] += got - c["asked"]
        t["prompt_eval_s"] += first - got
        t["generate_s"] += c["done"] - first
        t["prompt_tokens"] += c.get("prompt_tokens", 0)
        t["reused_tokens"] += c.get("reused_tokens", 0)
        t["generated_tokens"] += c.get("generated_tokens", 0)
    return t


def _figures(t: dict[str, float]) -> dict[str, Any]:
    return {
        "calls": int(t["calls"]), "model_s": round(t["prompt_eval_s"] + t["generate_s"], 1),
        "prompt_eval_s": round(t["prompt_eval_s"], 1), "generate_s": round(t["generate_s"], 1),
        "queue_s_summed": round(t["queue_s"], 1),
        "prompt_tokens": int(t["prompt_tokens"]), "reused_prompt_tokens": int(t["reused_tokens"]),
        "reused_share": round(t["reused_tokens"] / t["prompt_tokens"], 2) if t["prompt_tokens"] else None,
        "generated_tokens": int(t["generated_tokens"]),
        "prompt_tok_per_s": round((t["prompt_tokens"] - t["reused_tokens"]) / t["prompt_eval_s"], 1)
        if t["prompt_eval_s"] else None,
        "generated_tok_per_s": round(t["generated_tokens"] / t["generate_s"], 1) if t["generate_s"] else None,
    }


def report(started: float, ended: float) -> dict[str, Any]:
    wall = ended - started
    done = [c for c in CALLS if "done" in c]
    first = CALLS[0] if CALLS else {}
    embed: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for a, b, n in EMBED:
        embed[_stage_of(a)][0] += b - a
        embed[_stage_of(a)][1] += n
    out: dict[str, Any] = {"wall_s": round(wall, 1), "loads_s": {k: round(v, 1) for k, v in LOADS.items()},
                           "stages": {}, "prompts": {}, "generation": GENERATION}
    if first:  # from this script's start (ragkit's imports included) to the first model call and its first token
        out["first_llm_call_s"] = round(first["asked"] - SCRIPT_START, 2)
        out["first_generated_token_s"] = round(first.get("first_token", first["done"]) - SCRIPT_START, 2)
    for name, a, b in STAGES:
        figures = _figures(_totals([c for c in done if _stage_of(c["asked"]) == name]))
        figures["wall_s"] = round(b - a, 1)
        figures["embed_s"] = round(embed[name][0], 1)
        figures["outside_model_and_embedding_s"] = round(b - a - figures["model_s"] - embed[name][0], 1)
        out["stages"][name] = figures
    out["calls"] = [{"stage": _stage_of(c["asked"]), "prompt": c["prompt"], "prompt_tokens": c.get("prompt_tokens", 0),
                     "reused_tokens": c.get("reused_tokens", 0), "generated_tokens": c.get("generated_tokens", 0),
                     "prompt_eval_s": round(c.get("first_token", c["done"]) - c.get("got_model", c["asked"]), 2),
                     "generate_s": round(c["done"] - c.get("first_token", c["done"]), 2)} for c in done]
    for key in sorted({(_stage_of(c["asked"]), c["prompt"]) for c in done}):
        out["prompts"][" / ".join(key)] = _figures(_totals(
            [c for c in done if (_stage_of(c["asked"]), c["prompt"]) == key]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--keep", type=Path, help="copy the run's directory (samples, results, report) here")
    parser.add_argument("extra", nargs="*", help="more benchmark options (after --)")
    args = parser.parse_args()
    instrument()
    from ragkit.cli import cli

    with tempfile.TemporaryDirectory() as tmp:
        argv = ["benchmark", str(REPO / "corpora" / "acme"), "--target", "baseline", "-n", "4", "--extractor",
                "fast", "-o", f"{tmp}/run", "--cache-dir", f"{tmp}/cache", "--no-progress", *args.extra]
        load = open("/proc/loadavg").read().split()[:3]
        started = time.monotonic()
        try:
            cli.main(argv, standalone_mode=False)
        except SystemExit as exc:  # the gate's exit codes are not this bench's concern
            if exc.code not in (0, 3, 4, None):
                raise
        result = report(started, time.monotonic())
        if args.keep:  # to tell, between two profiles, which samples the calls went to
            shutil.copytree(f"{tmp}/run", args.keep, dirs_exist_ok=True)
    sys.path.insert(0, str(REPO / "bench"))
    from validity import raw_call_seconds

    from ragkit.llm import Judge

    result["raw_llama_call_s"] = round(raw_call_seconds(Judge(cache=False)) or 0.0, 2)
    result["load_before"] = load
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
