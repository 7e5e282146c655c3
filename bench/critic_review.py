"""Today's critic, run again on stored, hand-labelled test sets: how often it keeps what a reader calls good and
drops what a reader calls bad (issue 20: "the critic's verdicts measured").

Most stored samples were kept by an older critic; this one reviews each again, as it would a new candidate: every
check, cheap ones first, then the LLM ones (its own answer from the reference contexts, the question check, the
reference answer's claims against the contexts). Nothing is remembered between samples, so there are no
near-duplicate drops. Each test set is reviewed against its corpus's graph (``--graph NAME=FILE``, built with
``ragkit kg build DIR --extractor fast``); a stored context whose chunk the graph lacks (a corpus edited since, or
not in the repository) is added to it as a chunk of its own source.

    PYTHONPATH=. .venv/bin/python bench/critic_review.py bench/testsets/*.jsonl \\
        --graph acme=acme.kg.json --graph zh=zh.kg.json ... -o rows.jsonl

A test set's graph is the one whose name is the longest that its file name starts with, up to a ``_`` (``zh_seed2``
takes ``zh``, ``npm_docs_s27`` takes ``npm_docs``). One failed call loses that sample's verdict, not the run.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from testset_quality import good_labels, read_samples

HERE = Path(__file__).resolve().parent


def graph_for(name: str, graphs: dict[str, str]) -> Any:
    from ragkit.kg._graph import KnowledgeGraph

    known = [g for g in graphs if name == g or name.startswith(g + "_")]
    path = graphs[max(known, key=len)] if known else None
    return KnowledgeGraph.load(path) if path else KnowledgeGraph()


def add_missing(kg: Any, samples: list[Any]) -> int:
    """Each stored context whose chunk the graph lacks, added as a chunk of a document named by its source."""
    from ragkit.kg._graph import ChunkNode, DocumentNode

    added = 0
    for s in samples:
        for ref in s.reference_contexts:
            if not ref.chunk_id or ref.chunk_id in kg.g:
                continue
            source = ref.source or "unknown"
            doc_id = "stored-" + hashlib.sha1(source.encode()).hexdigest()[:12]
            if doc_id not in kg.g:
                kg.add(DocumentNode(id=doc_id, path=source, format="md", content_hash=doc_id, title=Path(source).stem))
            kg.add(ChunkNode(id=ref.chunk_id, doc_id=doc_id, text=ref.text, index=added, source=source,
                             language=s.language or "und"))
            added += 1
    return added


async def review(paths: list[str], graphs: dict[str, str], good: dict[tuple[str, str], bool]) -> list[dict[str, Any]]:
    from ragkit.errors import JudgeError
    from ragkit.llm import Embeddings, Judge
    from ragkit.synthesis._critic import Critic

    judge, embeddings = Judge(), Embeddings()
    by_set: dict[str, list[Any]] = {}
    for name, sample in read_samples(paths):
        by_set.setdefault(name, []).append(sample)
    rows = []
    for name, samples in by_set.items():
        kg = graph_for(name, graphs)
        added = add_missing(kg, samples)
        print(f"{name}: {len(samples)} samples, {added} stored contexts added to the graph", file=sys.stderr)
        for s in samples:
            critic = Critic(kg, judge, embeddings)  # fresh: no kept samples, so no near-duplicate drops
            row: dict[str, Any] = {"testset": name, "id": s.id, "generator": s.generator.name if s.generator else None,
                                   "question": s.question, "labelled_good": good.get((name, s.id))}
            try:
                verdict = await critic.review(s)
                row.update(kept=verdict.ok, reason=verdict.reason, detail=verdict.detail,
                           judge_answer=verdict.checks.get("judge_answer"),
                           reference_claims=verdict.checks.get("reference_claims"))
            except JudgeError as exc:
                row.update(kept=None, reason=None, error=str(exc))
            shown = "error" if row["kept"] is None else "KEPT" if row["kept"] else "dropped"
            print(f"{name:14} {shown:8} {row['reason'] or row.get('error', '')[:22]:22} "
                  f"good={row['labelled_good']} {s.question[:50]}", file=sys.stderr, flush=True)
            rows.append(row)
    print(f"LLM calls: {judge.usage.total.calls}", file=sys.stderr)
    return rows


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    judged = [r for r in rows if r["kept"] is not None and r["labelled_good"] is not None]
    cell = Counter((r["labelled_good"], r["kept"]) for r in judged)
    return {
        "samples": len(rows), "judged": len(judged), "errors": sum(r["kept"] is None for r in rows),
        "good_kept": cell[(True, True)], "good_dropped": cell[(True, False)],
        "bad_kept": cell[(False, True)], "bad_dropped": cell[(False, False)],
        "agreement": round((cell[(True, True)] + cell[(False, False)]) / len(judged), 3) if judged else None,
        "drop_reasons": dict(Counter(r["reason"] for r in judged if not r["kept"]).most_common()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("testsets", nargs="+")
    parser.add_argument("--graph", action="append", default=[], metavar="NAME=FILE")
    parser.add_argument("--labels", default=str(HERE / "testset_labels.jsonl"))
    parser.add_argument("-o", "--output", help="write one row per sample here (JSON lines)")
    args = parser.parse_args()
    graphs = dict(g.split("=", 1) for g in args.graph)
    started = time.monotonic()
    rows = asyncio.run(review(args.testsets, graphs, good_labels(args.labels)))
    if args.output:
        Path(args.output).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(json.dumps({**figures(rows), "seconds": round(time.monotonic() - started, 1)}, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
