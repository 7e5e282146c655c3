#!/usr/bin/env python3
"""Knowledge-graph benchmarks (issue 3). Run by hand; results go to bench/README.md.

1. Relation building on synthetic graphs (default 1k, 10k, 100k chunks): entity sets drawn from a Zipf
   vocabulary, random unit 384-d embeddings drawn around random topic centres (so that some neighbours pass
   the similarity threshold). Each size runs in its own process, so peak memory is that size's alone.
   Reports seconds per step, peak RSS, and the exponent of a log-log fit of time against chunk count.

       .venv/bin/python bench/kg_scaling.py relations [--sizes 1000 10000 100000] [--recall]

2. LLM calls of an incremental rebuild after changing 1 of the 20 files of corpora/acme, against a full build
   (embedded default model unless --model; a fresh cache directory so every call is real):

       .venv/bin/python bench/kg_scaling.py rebuild [--model local/qwen2.5-coder-1.5b] [--extractor llm]

   ``--scripted`` counts the calls of the same two builds with ``ragkit.testing.ScriptedJudge`` answering at the
   model call (everything above it is the real Judge and build): exact call counts in seconds, no model timing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


# -- 1. relation building --------------------------------------------------------------------------------

def synthetic_graph(n: int, seed: int = 0):  # type: ignore[no-untyped-def]
    import numpy as np

    from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention, KnowledgeGraph

    rng = np.random.default_rng(seed)
    vocab = max(1000, n)  # a bigger corpus names more distinct things
    ranks = np.arange(1, vocab + 1)
    p = 1.0 / ranks**1.1
    p /= p.sum()
    topics = max(10, n // 50)
    centres = rng.standard_normal((topics, 384)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    kg = KnowledgeGraph()
    per_doc = 20
    counts = rng.integers(3, 9, n)
    drawn = np.split(rng.choice(vocab, int(counts.sum()), p=p), np.cumsum(counts)[:-1])
    x = centres[rng.integers(0, topics, n)] + 0.75 * rng.standard_normal((n, 384)).astype(np.float32) / 384**0.5
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    for d in range(0, n, per_doc):
        doc_id = f"d{d // per_doc}"
        kg.add(DocumentNode(id=doc_id, path=f"{doc_id}.md", format="md", content_hash=doc_id))
        for i in range(d, min(n, d + per_doc)):
            names = sorted({f"entity {k}" for k in drawn[i]})
            chunk = ChunkNode(id=f"c{i:07d}", doc_id=doc_id, text="", index=i - d,
                              entities=[EntityMention(name=name, type="other") for name in names])
            chunk.embedding = x[i].tolist()  # as the build does: assigned, not validated
            kg.add(chunk)
            kg.add_edge(doc_id, chunk.id, "has_chunk")
    return kg


def run_size(n: int, recall: bool) -> dict[str, object]:
    import numpy as np

    from ragkit.kg._relations import RelationConfig, link_mentions, link_next, link_shared_entities, link_similar

    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    kg = synthetic_graph(n)
    setup = time.perf_counter() - started
    config = RelationConfig()
    steps: dict[str, float] = {}
    t = time.perf_counter()
    for d in kg.documents():
        link_next(kg, d.id)
    steps["next"] = time.perf_counter() - t
    t = time.perf_counter()
    link_mentions(kg, kg.chunks())
    steps["mentions"] = time.perf_counter() - t
    t = time.perf_counter()
    link_shared_entities(kg, config, clear=False)  # a fresh graph, as in a first build
    steps["shares_entity"] = time.perf_counter() - t
    t = time.perf_counter()
    link_similar(kg, config, clear=False)
    steps["similar"] = time.perf_counter() - t
    out: dict[str, object] = {
        "chunks": n, "setup_s": round(setup, 2), "steps_s": {k: round(v, 2) for k, v in steps.items()},
        "relations_s": round(sum(steps.values()), 2), "counts": kg.counts(),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "rss_before_graph_mb": round(base_rss / 1024),
        "knn": "exact" if n <= config.exact_limit else f"forest ({config.trees} trees, leaves <= {config.leaf_size})",
    }
    if recall and n > config.exact_limit:
        from ragkit.kg._relations import similar_pairs

        chunks = kg.chunks()
        x = np.asarray([c.embedding for c in chunks[:20000]], dtype=np.float32)
        exact = similar_pairs(x, RelationConfig(exact_limit=10**9))
        approx = similar_pairs(x, RelationConfig(exact_limit=0))
        truth = set(zip(exact[0].tolist(), exact[1].tolist(), strict=True))
        got = set(zip(approx[0].tolist(), approx[1].tolist(), strict=True))
        out["similar_edge_recall_20k"] = round(len(truth & got) / max(1, len(truth)), 3)
    return out


def relations(sizes: list[int], recall: bool) -> None:
    results = []
    for n in sizes:
        proc = subprocess.run([sys.executable, __file__, "_size", str(n)] + (["--recall"] if recall else []),
                              capture_output=True, text=True, check=True)
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(json.dumps(results[-1]), flush=True)
    if len(results) > 1:
        xs = [math.log(r["chunks"]) for r in results]
        ys = [math.log(max(1e-3, r["relations_s"])) for r in results]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((a - mx) * (b - my) for a, b in zip(xs, ys, strict=True)) / sum((a - mx) ** 2 for a in xs)
        print(json.dumps({"fitted_exponent": round(slope, 3), "cpus": os.cpu_count(),
                          "load_average": [round(v, 2) for v in os.getloadavg()]}))


# -- 2. incremental rebuild ---------------------------------------------------------------------------------

def _scripted_judge(model: str | None):  # type: ignore[no-untyped-def]
    """A Judge whose model call returns a fixed valid reply; batch size follows ``model`` (local: one per call)."""
    from ragkit.settings import Settings
    from ragkit.testing import ScriptedJudge

    def reply(call):  # type: ignore[no-untyped-def]
        facts = {"summary": "A passage.", "entities": [{"name": "Acme Robotics", "type": "organization"}],
                 "keyphrases": ["robots"]}
        if call.prompt_name == "kg.document_summary":
            return {"summary": "A document.", "themes": ["robots"]}
        data = call.data
        return facts if hasattr(data, "passage") else {"items": [facts] * len(data.passages)}

    judge = ScriptedJudge(reply, settings=Settings(model="openai/scripted", concurrency=4))
    judge.model = model or Settings().model  # the name decides the batch size; the replies stay scripted
    return judge


def rebuild(model: str | None, extractor: str, scripted: bool = False) -> None:
    from ragkit.kg import BuildOptions, build_graph_sync
    from ragkit.llm._judge import Judge
    from ragkit.settings import Settings

    def make_judge():  # type: ignore[no-untyped-def]
        if extractor != "llm":
            return None
        return _scripted_judge(model) if scripted else Judge(model, settings=Settings.load())

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RAGKIT_CACHE_DIR"] = str(Path(tmp) / "cache")  # every call is a real call
        corpus = Path(tmp) / "acme"
        shutil.copytree(REPO / "corpora" / "acme", corpus)
        t = time.perf_counter()
        full = build_graph_sync(corpus, BuildOptions(extractor=extractor, progress=not scripted), judge=make_judge())
        full_s = time.perf_counter() - t
        changed = corpus / "customer-faq.md"
        changed.write_text(changed.read_text(encoding="utf-8") + "\n## Spare parts\n\nSpare parts for every arm "
                           "ship from the Sheffield plant within two working days; Wren parts ship from Porto.\n",
                           encoding="utf-8")
        t = time.perf_counter()
        again = build_graph_sync(corpus, BuildOptions(extractor=extractor, progress=not scripted), previous=full.kg,
                                 judge=make_judge())
        again_s = time.perf_counter() - t
    f, a = full.summary, again.summary
    print(json.dumps({
        "extractor": extractor, "model": f.model, "scripted_replies": scripted, "documents": len(full.kg.documents()),
        "chunks": len(full.kg.chunks()),
        "full": {"seconds": round(full_s, 1), "llm_calls": f.llm_calls, "prompt_tokens": f.prompt_tokens,
                 "completion_tokens": f.completion_tokens, "failures": f.failures, "stage_s": f.seconds,
                 "entities": f.entities, "edges": f.edges},
        "rebuild_1_of_20_changed": {"seconds": round(again_s, 1), "llm_calls": a.llm_calls,
                                    "documents": a.documents.model_dump(), "chunks": a.chunks.model_dump(),
                                    "stage_s": a.seconds},
        "call_ratio": round(a.llm_calls / f.llm_calls, 3) if f.llm_calls else None,
        "load_average": [round(v, 2) for v in os.getloadavg()],
    }, indent=2))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "_size":
        print(json.dumps(run_size(int(sys.argv[2]), "--recall" in sys.argv)))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    rel = sub.add_parser("relations")
    rel.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    rel.add_argument("--recall", action="store_true", help="also measure similar-edge recall of the forest")
    reb = sub.add_parser("rebuild")
    reb.add_argument("--model", default=None)
    reb.add_argument("--extractor", choices=["llm", "fast"], default="llm")
    reb.add_argument("--scripted", action="store_true", help="count calls with scripted replies (no model)")
    args = parser.parse_args()
    if args.what == "relations":
        relations(args.sizes, args.recall)
    else:
        rebuild(args.model, args.extractor, args.scripted)


if __name__ == "__main__":
    main()
