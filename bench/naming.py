"""Which retrieved chunk states a claim? The judge's naming against RAGChecker's per-chunk labels.

Context precision and noise sensitivity read, for each claim the retrieved contexts support, which of them state it
(``ClaimStore.attribute(..., name_contexts=True)``). RAGChecker's tutorial example (``shared/fixtures/ragchecker``)
labels every (claim, chunk) pair of its two samples with its own GPT-4 checker: 55 claims × 3–4 chunks. This bench
gives the judge RAGChecker's claims and chunks and compares, for the claims RAGChecker finds entailed by at least
one chunk, the chunks the judge names with the chunks RAGChecker labels "Entailment".

    .venv/bin/python bench/naming.py [--model MODEL] [--no-cache] [--fixture checking_outputs.json]

Reported: claims whose named chunks equal RAGChecker's exactly; pair-level precision and recall of the naming
(a pair is a claim and a chunk named for it); claims the judge's set verdict calls not stated (named nothing).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from ragkit import run_sync
from ragkit.evaluation import ClaimStore
from ragkit.llm import Judge

FIXTURE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "ragchecker" / "checking_outputs.json"


def labelled(results: list[dict[str, Any]]) -> list[tuple[list[str], list[str], list[list[int]]]]:
    """Per sample and claim list: the chunks, the claims RAGChecker finds entailed somewhere, and their chunks."""
    out = []
    for r in results:
        chunks = [c["text"] for c in r["retrieved_context"]]
        for claims, matrix in ((r["response_claims"], r["retrieved2response"]),
                               (r["gt_answer_claims"], r["retrieved2answer"])):
            rows = [(" ".join(c), [k for k, label in enumerate(row) if label == "Entailment"])
                    for c, row in zip(claims, matrix, strict=True)]
            rows = [(c, gold) for c, gold in rows if gold]
            out.append((chunks, [c for c, _ in rows], [gold for _, gold in rows]))
    return out


async def named(store: ClaimStore, cases: list[tuple[list[str], list[str], list[list[int]]]]) -> list[list[int]]:
    got: list[list[int]] = []
    with store.judge.stage("naming"):
        for chunks, claims, _ in cases:
            got += [a.by for a in await store.attribute(chunks, claims, name_contexts=True)]
    return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None, help="any litellm model string (default: the embedded judge)")
    parser.add_argument("--no-cache", action="store_true", help="ask the judge even when a reply is cached")
    parser.add_argument("--fixture", type=Path, default=FIXTURE, help="RAGChecker's checking_outputs.json")
    args = parser.parse_args()
    cases = labelled(json.loads(args.fixture.read_text(encoding="utf-8"))["results"])
    judge = Judge(args.model, cache=not args.no_cache)
    started = time.monotonic()
    got = run_sync(named(ClaimStore(judge), cases))
    seconds = time.monotonic() - started
    gold = [g for _, _, golds in cases for g in golds]
    pairs_got = {(i, k) for i, ks in enumerate(got) for k in ks}
    pairs_gold = {(i, k) for i, ks in enumerate(gold) for k in ks}
    hit = len(pairs_got & pairs_gold)
    exact = sum(1 for g, n in zip(gold, got, strict=True) if sorted(g) == sorted(n))
    usage = judge.usage.stage("naming")
    print(f"claims entailed by some chunk (RAGChecker): {len(gold)}; named exactly: {exact} "
          f"({exact / len(gold):.2f}); none named: {sum(1 for n in got if not n)}")
    print(f"pairs named: {len(pairs_got)}, RAGChecker's: {len(pairs_gold)}; precision "
          f"{hit / max(1, len(pairs_got)):.2f}, recall {hit / len(pairs_gold):.2f}")
    print(f"judge {judge.model}: {usage.calls} calls, {usage.prompt_tokens} prompt + {usage.completion_tokens} "
          f"completion tokens, {seconds:.0f} s")


if __name__ == "__main__":
    main()
