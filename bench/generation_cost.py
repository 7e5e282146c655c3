"""What a test set costs: LLM calls, tokens and seconds per kept sample, and the drop rate by reason.

Builds the graph of a corpus (default corpora/acme) in a fresh cache, then generates N samples with the default
mix, and reports the generation alone and the graph build included. Goal (issue 5): at most 3 LLM calls per kept
sample, critic included.

    .venv/bin/python bench/generation_cost.py                       # acme, n=10, fast extractor, embedded model
    .venv/bin/python bench/generation_cost.py --extractor llm --n 10
    .venv/bin/python bench/generation_cost.py --corpus corpora/zh --n 5 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(REPO / "corpora" / "acme"))
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--extractor", choices=["llm", "fast"], default="fast")
    parser.add_argument("--model", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache-dir", default=None, help="Reuse a cache dir (default: a fresh one, so every "
                                                          "call is paid).")
    parser.add_argument("--json", dest="json_out", default=None, help="Also write the figures to this file.")
    args = parser.parse_args()
    os.environ["RAGKIT_CACHE_DIR"] = args.cache_dir or tempfile.mkdtemp(prefix="ragkit-bench-gen-")
    figures = asyncio.run(run(args))
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(figures, indent=2, ensure_ascii=False))


async def run(args: argparse.Namespace) -> dict[str, object]:
    from ragkit.kg import BuildOptions, build_graph
    from ragkit.llm._embeddings import Embeddings
    from ragkit.llm._judge import Judge
    from ragkit.synthesis import GenerateOptions, generate

    judge, embeddings = Judge(args.model), Embeddings()
    started = time.monotonic()
    built = await build_graph(Path(args.corpus), BuildOptions(extractor=args.extractor, progress=True),
                              judge=judge if args.extractor == "llm" else None, embeddings=embeddings)
    build_seconds = time.monotonic() - started
    build_usage = judge.usage.stages.get("kg.enrich")
    build_calls = build_usage.calls if build_usage else 0
    build_tokens = (build_usage.prompt_tokens + build_usage.completion_tokens) if build_usage else 0

    started = time.monotonic()
    result = await generate(built.kg, args.n, GenerateOptions(seed=args.seed, progress=True), judge=judge,
                            embeddings=embeddings)
    gen_seconds = time.monotonic() - started
    total = result.usage.total
    kept = len(result.samples)
    drops: Counter[str] = Counter()
    candidates = kept
    for r in result.report.values():
        drops.update(r.dropped)
        candidates += r.dropped_total
    per = max(kept, 1)
    web = [len(s.question.split()) for s in result.samples if s.style == "web_search" and s.language != "zh"]
    return {
        "corpus": args.corpus, "extractor": args.extractor, "model": judge.model, "requested": args.n,
        "kept": kept, "candidates": candidates,
        "graph": {"documents": len(built.kg.documents()), "chunks": len(built.kg.chunks()),
                  "llm_calls": build_calls, "tokens": build_tokens, "seconds": round(build_seconds, 1)},
        "generation": {
            "llm_calls": total.calls, "prompt_tokens": total.prompt_tokens,
            "completion_tokens": total.completion_tokens, "llm_seconds": round(total.seconds, 1),
            "seconds": round(gen_seconds, 1), "reasks": getattr(total, "reasks", 0),
        },
        "per_kept_sample": {
            "llm_calls": round(total.calls / per, 2),
            "tokens": round((total.prompt_tokens + total.completion_tokens) / per),
            "seconds": round(gen_seconds / per, 1),
            "llm_calls_with_build": round((total.calls + build_calls) / per, 2),
            "seconds_with_build": round((gen_seconds + build_seconds) / per, 1),
        },
        "drop_rate": round(sum(drops.values()) / max(candidates, 1), 3),
        "drops_by_reason": dict(drops.most_common()),
        "generators": {k: {"requested": r.requested, "kept": r.kept, "dropped": r.dropped, "calls": r.usage.calls}
                       for k, r in result.report.items()},
        "styles": dict(Counter(s.style for s in result.samples)),
        "web_search_words_median": statistics.median(web) if web else None,
        "notes": result.notes,
        "samples": [{"generator": s.generator.name if s.generator else None, "style": s.style,
                     "question": s.question, "answer": s.reference_answer,
                     "sources": sorted({c.source for c in s.reference_contexts if not c.distractor})}
                    for s in result.samples],
    }


if __name__ == "__main__":
    sys.exit(main())
