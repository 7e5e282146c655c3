"""How well the test-set critic tells good samples from bad ones, on hand-written cases (bench/critic_cases.json).

For each case (a real chunk of corpora/acme or corpora/zh, a question it answers) the critic reviews four samples:
the right answer (should be kept), a wrong answer, a true statement that does not answer the question, the
question against another chunk that does not answer it, and (``needs_source``) the question reworded so that it
only makes sense beside its passage, with the right answer (all four should be dropped). Reports the keep rate per
kind, LLM calls, and every disagreement.

    .venv/bin/python bench/critic_quality.py --acme-kg acme.kg.json --zh-kg zh.kg.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


async def run(args: argparse.Namespace) -> dict[str, object]:
    from ragkit.kg._graph import KnowledgeGraph
    from ragkit.llm._embeddings import Embeddings
    from ragkit.llm._judge import Judge
    from ragkit.synthesis._critic import Critic
    from ragkit.types import ContextRef, TestSample

    graphs = {"acme": KnowledgeGraph.load(args.acme_kg), "zh": KnowledgeGraph.load(args.zh_kg)}
    cases = json.loads((HERE / "critic_cases.json").read_text(encoding="utf-8"))["cases"]
    for case in cases:
        kg = graphs[case["corpus"]]
        found = [c for c in kg.chunks() if c.text.startswith(case["chunk_starts"])]
        if len(found) != 1:
            raise SystemExit(f"case {case['question']!r}: {len(found)} chunks start with {case['chunk_starts']!r}")
        case["chunk"] = found[0]
    judge, embeddings = Judge(args.model), Embeddings()
    kept: Counter[str] = Counter()
    total: Counter[str] = Counter()
    misses = []
    started = time.monotonic()
    for i, case in enumerate(cases):
        same = [c for c in cases if c["corpus"] == case["corpus"] and c is not case]
        other = same[i % len(same)]["chunk"]
        kg = graphs[case["corpus"]]
        critic = Critic(kg, judge, embeddings)
        lang = "zh" if case["corpus"] == "zh" else "en"
        kinds = [("good", case["question"], case["good"], case["chunk"]),
                 ("wrong", case["question"], case["wrong"], case["chunk"]),
                 ("non_answer", case["question"], case["non_answer"], case["chunk"]),
                 ("wrong_context", case["question"], case["good"], other)]
        if "needs_source" in case:
            kinds.append(("needs_source", case["needs_source"], case["good"], case["chunk"]))
        for kind, question, answer, chunk in kinds:
            sample = TestSample(id=f"{i}-{kind}", question=question, reference_answer=answer, language=lang,
                                reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text,
                                                               source=chunk.source)])
            verdict = await critic.review(sample)
            total[kind] += 1
            kept[kind] += verdict.ok
            if verdict.ok != (kind == "good"):
                misses.append({"kind": kind, "question": question, "answer": answer, "kept": verdict.ok,
                               "reason": verdict.reason, "checks": verdict.checks})
            print(f"{kind:13} {'KEPT' if verdict.ok else 'dropped':8} {verdict.reason or '':20} "
                  f"{question[:60]}", flush=True)
    usage = judge.usage.total
    good = kept["good"] / total["good"]
    bad_kinds = [k for k in total if k != "good"]
    bad_kept = sum(kept[k] for k in bad_kinds) / sum(total[k] for k in bad_kinds)
    return {
        "model": judge.model, "cases": len(cases),
        "keep_rate": {k: round(kept[k] / total[k], 2) for k in total},
        "good_kept": round(good, 2), "bad_dropped": round(1 - bad_kept, 2),
        "llm_calls": usage.calls, "seconds": round(time.monotonic() - started, 1), "disagreements": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--acme-kg", required=True, help="Graph of corpora/acme (ragkit kg build corpora/acme ...)")
    parser.add_argument("--zh-kg", required=True, help="Graph of corpora/zh")
    parser.add_argument("--model", default=None)
    figures = asyncio.run(run(parser.parse_args()))
    print(json.dumps(figures, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    sys.exit(main())
