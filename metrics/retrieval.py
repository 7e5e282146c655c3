"""Retrieval quality by chunk ids: hit rate, recall@k, MRR, nDCG@k, and reference resolution (recall on a
conversation's follow-up turns). No LLM.

Relevant chunks are the ids of ``test.reference_contexts``; the ranking is ``response.retrieved_contexts``
in order, each mapped to a reference chunk by its id or, when the target uses ids of its own or none, by its
text (``_ids``). When no retrieved context can be matched either way, the sample is unscorable, never 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._ids import rank_ids
from ._shared import unscorable

REQUIRES = ("test.reference_contexts[].chunk_id", "response.retrieved_contexts")


def _check_k(name: str, k: int | None) -> None:
    if k is not None and k < 1:
        raise ConfigError(f"{name}: k must be at least 1, not {k}")


def _build(compute: Callable[[list[str], set[str]], float]) -> MetricFn:
    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        found = rank_ids(sample, ctx.reference_ids)
        if isinstance(found, str):
            return unscorable(found)
        hits = [i + 1 for i, cid in enumerate(found.ranked) if cid in found.relevant]
        return Score(value=compute(found.ranked, found.relevant), explanation=found.note() if found.by_text else None,
                     details={"relevant_ranks": hits, "matched_by_text": found.by_text})

    return score


def hit_at(ranked: list[str], relevant: set[str], k: int | None) -> float:
    return 1.0 if any(cid in relevant for cid in ranked[:k]) else 0.0


def recall_at(ranked: list[str], relevant: set[str], k: int | None) -> float:
    return len(set(ranked[:k]) & relevant) / len(relevant)


def reciprocal_rank(ranked: list[str], relevant: set[str]) -> float:
    return next((1.0 / (i + 1) for i, cid in enumerate(ranked) if cid in relevant), 0.0)


def ndcg_at(ranked: list[str], relevant: set[str], k: int | None) -> float:
    seen: set[str] = set()
    dcg = 0.0
    for i, cid in enumerate(ranked[:k]):
        if cid in relevant and cid not in seen:  # a chunk retrieved twice counts once
            dcg += 1.0 / math.log2(i + 2)
            seen.add(cid)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(relevant), k or len(relevant))))
    return dcg / ideal


@metric(requires=REQUIRES)
def hit_rate(*, k: int | None = None) -> MetricFn:
    """1.0 when a relevant chunk is among the top ``k`` retrieved (all retrieved when k is None)."""
    _check_k("hit_rate", k)
    return _build(lambda ranked, rel: hit_at(ranked, rel, k))


@metric(requires=REQUIRES)
def recall_at_k(*, k: int | None = None) -> MetricFn:
    """|top-k ∩ relevant| / |relevant| (1.0 = every relevant chunk retrieved in the top k)."""
    _check_k("recall_at_k", k)
    return _build(lambda ranked, rel: recall_at(ranked, rel, k))


@metric(requires=REQUIRES)
def mrr() -> MetricFn:
    """Reciprocal rank of the first relevant chunk, 1 / rank (0.0 when none is retrieved)."""
    return _build(reciprocal_rank)


@metric(requires=REQUIRES)
def ndcg_at_k(*, k: int | None = None) -> MetricFn:
    """Binary-relevance nDCG@k: Σ_{i ≤ k} rel_i / log2(i + 1) over the ideal DCG of min(|relevant|, k) hits."""
    _check_k("ndcg_at_k", k)
    return _build(lambda ranked, rel: ndcg_at(ranked, rel, k))


@metric(requires=REQUIRES)
def reference_resolution() -> MetricFn:
    """For a follow-up turn of a conversation (turn 2 on): the share of the turn's reference chunks its retrieval
    found. A follow-up ("and how long does it take?") names little of what it asks about, so a system finds them
    only by resolving it against the earlier turns. Unscorable for single questions and first turns."""
    recall = _build(lambda ranked, rel: recall_at(ranked, rel, None))

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        conversation = sample.test.conversation
        if conversation is None or conversation.turn < 2:
            return unscorable("not a follow-up turn of a conversation")
        return await recall(sample, ctx)

    return score
