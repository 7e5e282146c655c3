"""What the ``llm`` graph build costs, and how much of a reference graph's entities a new build keeps.

Builds a corpus (default corpora/acme) with the ``llm`` extractor in a fresh cache, one model process, and prints
wall time, calls and tokens of the enrichment stage, peak RSS and a raw llama.cpp call timed in the same run (the
machine-speed yardstick of bench/README.md). It reports the recall of the corpus's hand-labelled named entities
(``--gold``, bench/acme_entities.json for corpora/acme). With ``--reference GRAPH`` it also reports the share of that
graph's entities (by normalised key) that the new graph holds, over the whole graph and per chunk (the same chunk
id, the same entity).

    .venv/bin/python bench/kg_llm_build.py --save /tmp/kg-before.json
    .venv/bin/python bench/kg_llm_build.py --save /tmp/kg-after.json --reference /tmp/kg-before.json
    .venv/bin/python bench/kg_llm_build.py --recall /tmp/kg-after.json --reference /tmp/kg-before.json  # no build
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))


def gold_recall(graph: Any, gold_path: Path) -> dict[str, Any]:
    """Recall of the hand-labelled named entities (bench/acme_entities.json): found when the graph holds one of an
    entry's keys; and the share of the graph's entities that are one of those keys."""
    gold: dict[str, list[str]] = json.loads(gold_path.read_text())["entities"]
    ours = {e.id for e in graph.entities()}
    keys = {k for ks in gold.values() for k in ks}
    return {
        "gold_entities": len(gold), "found": sum(1 for ks in gold.values() if ours & set(ks)),
        "recall": round(sum(1 for ks in gold.values() if ours & set(ks)) / len(gold), 3),
        "graph_entities": len(ours), "graph_entities_that_are_gold": len(ours & keys),
        "missed": sorted(name for name, ks in gold.items() if not ours & set(ks)),
    }


def entity_recall(graph: Any, reference: Any) -> dict[str, Any]:
    """Graph-level and chunk-level recall of ``reference``'s entities in ``graph``, keys as the graph stores them."""
    ours = {e.id for e in graph.entities()}
    theirs = {e.id for e in reference.entities()}
    pairs_ref = {(c.id, e.id) for c in reference.chunks() for e in reference.entities_of(c.id)}
    pairs_new = {(c.id, e.id) for c in graph.chunks() for e in graph.entities_of(c.id)}
    shared_chunks = {c.id for c in graph.chunks()} & {c.id for c in reference.chunks()}
    pairs_ref = {p for p in pairs_ref if p[0] in shared_chunks}
    return {
        "entities": len(ours), "reference_entities": len(theirs),
        "graph_recall": round(len(ours & theirs) / max(1, len(theirs)), 3),
        "graph_precision_vs_reference": round(len(ours & theirs) / max(1, len(ours)), 3),
        "chunk_pairs": len(pairs_new), "reference_chunk_pairs": len(pairs_ref),
        "chunk_recall": round(len(pairs_ref & pairs_new) / max(1, len(pairs_ref)), 3),
        "shared_chunks": len(shared_chunks),
        "graph_recall_by_reference_type": {
            kind: f"{len(ours & ids)}/{len(ids)}" for kind in sorted({e.type for e in reference.entities()})
            if (ids := {e.id for e in reference.entities() if e.type == kind})},
        "missed_examples": sorted(theirs - ours)[:30],
    }


async def build(corpus: Path, model: str | None) -> dict[str, Any]:
    from ragkit.kg import BuildOptions, build_graph
    from ragkit.llm._embeddings import Embeddings
    from ragkit.llm._judge import Judge

    judge = Judge(model)
    started = time.monotonic()
    built = await build_graph(corpus, BuildOptions(extractor="llm", progress=True), judge=judge,
                              embeddings=Embeddings())
    wall = time.monotonic() - started
    usage = judge.usage.stages.get("kg.enrich")
    from validity import raw_call_seconds

    return {
        "graph": built.kg, "wall_s": round(wall, 1),
        "stage_s": {k: round(v, 1) for k, v in built.summary.seconds.items()},
        "calls": usage.calls if usage else 0,
        "prompt_tokens": usage.prompt_tokens if usage else 0,
        "reused_tokens": usage.reused_tokens if usage else 0,
        "completion_tokens": usage.completion_tokens if usage else 0,
        "failures": built.summary.failures,
        "chunks": len(built.kg.chunks()), "documents": len(built.kg.documents()),
        "raw_llama_call_s": round(raw_call_seconds(judge) or 0.0, 2),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=REPO / "corpora" / "acme")
    parser.add_argument("--model", default=None)
    parser.add_argument("--save", type=Path, help="write the built graph here")
    parser.add_argument("--cache-dir", type=Path, help="reuse this cache (default: a fresh one, every call paid)")
    parser.add_argument("--reference", type=Path, help="a graph to measure entity recall against")
    parser.add_argument("--recall", type=Path, help="no build: measure this graph against --reference / --gold")
    parser.add_argument("--gold", type=Path, default=REPO / "bench" / "acme_entities.json",
                        help="hand-labelled named entities of the corpus (default: corpora/acme's)")
    args = parser.parse_args()
    from ragkit.kg import KnowledgeGraph

    if args.recall:
        graph = KnowledgeGraph.load(args.recall)
        out = {"gold": gold_recall(graph, args.gold)}
        if args.reference:
            out["reference"] = entity_recall(graph, KnowledgeGraph.load(args.reference))
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return
    os.environ["RAGKIT_CACHE_DIR"] = str(args.cache_dir or tempfile.mkdtemp(prefix="ragkit-bench-kg-"))
    figures = asyncio.run(build(args.corpus, args.model))
    graph = figures.pop("graph")
    if args.save:
        graph.save(args.save)
    figures["gold"] = gold_recall(graph, args.gold)
    if args.reference:
        figures["recall"] = entity_recall(graph, KnowledgeGraph.load(args.reference))
    print(json.dumps(figures, indent=2, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
