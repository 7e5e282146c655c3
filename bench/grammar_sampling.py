#!/usr/bin/env python3
"""The grammar asked last (``ragkit/llm/_sampling.py``) against llama-cpp-python's own sampler chain (issue 16).

Runs real ragkit prompts on the embedded model, each three times in a row: once with the stock chain (every token
of the vocabulary tested against the JSON grammar at every step) to put the prompt in the model's KV cache, then
timed with the stock chain and with the grammar asked last. The two timed runs start from the same state (the
prompt in the cache, its last token evaluated again), so their logits are the same to the last bit and their
replies must be the same text. (A prompt evaluated in one batch and one resumed from the cache give logits that
differ in the last bits, which can turn a greedy choice at a near-tie: the untimed first run keeps that out.)

The prompts are the claim split of each validity case's reference, the check of its right, wrong and unsupported
answers against its gold passage, and the critic's own answer from its passages (``bench/validity_cases.json``:
English, Chinese, Japanese and Korean). It reports the generation time of each timed run (from the first generated
token to the last: the prompt evaluation is left out), the generated tokens, whether the two timed replies are the
same text, and how often the grammar rejected the unconstrained choice.

    .venv/bin/python bench/grammar_sampling.py [--cases N] [--out rows.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def prompts(cases: list[dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    """(name, prompt, input) for each case: split, check, critic."""
    from ragkit.evaluation._claim_prompts import SPLIT, CheckInput, SplitInput, check_prompt
    from ragkit.synthesis._critic_prompts import CRITIC_PROMPT, CriticInput

    out: list[tuple[str, Any, Any]] = []
    for case in cases:
        claims = [case[k] for k in ("right", "wrong", "unsupported") if case.get(k)]
        out.append((f"{case['id']}/split", SPLIT, SplitInput(question=case["question"], text=case["reference"])))
        out.append((f"{case['id']}/check", check_prompt(len(claims)),
                    CheckInput(question=case["question"], passage="\n".join(case["gold"]), claims=claims)))
        out.append((f"{case['id']}/critic", CRITIC_PROMPT,
                    CriticInput(passages=[*case["gold"], *case.get("distractors", [])], question=case["question"])))
    return out


def run(llama: Any, prompt: Any, data: Any) -> dict[str, Any]:
    """One streamed call: its text, generated tokens and generation seconds (first token to last)."""
    stream = llama.create_chat_completion(
        messages=prompt.render(data), max_tokens=prompt.max_tokens, temperature=0.0,
        response_format={"type": "json_object", "schema": prompt.schema()}, stream=True)
    first = last = None
    parts: list[str] = []
    for chunk in stream:
        now = time.perf_counter()
        first = first if first is not None else now
        last = now
        parts.append(chunk["choices"][0]["delta"].get("content") or "")
    text = "".join(parts)
    sampler = getattr(llama, "_sampler", None)
    return {"text": text, "tokens": len(llama.tokenize(text.encode(), add_bos=False, special=False)),
            "seconds": (last or 0.0) - (first or 0.0), "rejected": getattr(sampler, "rejected", None),
            "proposals": getattr(sampler, "proposals", None)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=0, help="only the first N validity cases (default: all)")
    parser.add_argument("--out", type=Path, help="one JSON row per prompt")
    args = parser.parse_args()

    from ragkit.llm._local import LocalModel
    from ragkit.settings import Settings

    settings = Settings.load()
    model = LocalModel.get(settings.model.removeprefix("local/"), model_dir=Path(settings.model_dir),
                           threads=settings.threads, context_size=settings.context_size, prompt_cache_mb=0)
    cases = json.loads((REPO / "bench" / "validity_cases.json").read_text(encoding="utf-8"))
    cases = cases[: args.cases] if args.cases else cases

    rows = []
    for name, prompt, data in prompts(cases):
        model.llama.ask_grammar_last = False
        first = run(model.llama, prompt, data)
        before = run(model.llama, prompt, data)
        model.llama.ask_grammar_last = True
        after = run(model.llama, prompt, data)
        row = {"prompt": name, "same": before["text"] == after["text"], "tokens": after["tokens"],
               "first_run_same": first["text"] == before["text"],
               "stock_s": round(before["seconds"], 3), "grammar_last_s": round(after["seconds"], 3),
               "rejected": after["rejected"], "proposals": after["proposals"]}
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.out:
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    stock_s = sum(r["stock_s"] for r in rows)
    last_s = sum(r["grammar_last_s"] for r in rows)
    tokens = sum(r["tokens"] for r in rows)
    print(f"{len(rows)} prompts, {sum(r['same'] for r in rows)} identical replies, {tokens} generated tokens")
    print(f"stock chain: {stock_s:.1f} s ({tokens / stock_s:.1f} tokens/s); grammar last: {last_s:.1f} s "
          f"({tokens / last_s:.1f} tokens/s); rejected proposals {sum(r['rejected'] or 0 for r in rows)} of "
          f"{sum(r['proposals'] or 0 for r in rows)}")
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
