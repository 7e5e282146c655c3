"""Context precision: are the relevant contexts ranked at the top?"""

from __future__ import annotations

from typing import Literal

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext, claim_details
from ragkit.registry import MetricFn, metric, variant
from ragkit.types import EvalSample, Score

from ._ids import rank_ids
from ._shared import average_precision, column_support, string_similarity, unscorable

REQUIRES = {
    "answer": ("test.reference_answer", "response.retrieved_contexts"),
    "response": ("response.answer", "response.retrieved_contexts"),
    "contexts": ("test.reference_contexts", "response.retrieved_contexts"),
    "ids": ("test.reference_contexts[].chunk_id", "response.retrieved_contexts"),
}


@metric(requires=REQUIRES["answer"], uses=("reference_vs_contexts",))
def context_precision(
    *, reference: Literal["answer", "response", "contexts", "ids"] = "answer", threshold: float = 0.5
) -> MetricFn:
    """Rank-aware precision of the retrieved contexts (1.0 = every relevant context ranked above the rest).

    ``CP = Σ_k precision@k · v_k / Σ_k v_k`` (average precision over the ranking; 0 when no context is
    relevant), where v_k says whether context k is relevant:

    - ``reference="answer"``: context k entails at least one claim of the reference answer,
      ``v_k = max_g support(ctx_k ⊨ g)``. ragas asks the LLM once per context whether it was useful for the
      reference; here the verdicts come from the shared ``reference_vs_contexts`` matrix (the one context recall
      and the RAGChecker metrics read), so context precision costs no extra call.
    - ``reference="response"``: the same against the response's claims (ragas's context utilization).
    - ``reference="contexts"``: ``v_k = [max_r sim(ctx_k, r) ≥ threshold]`` against the reference contexts.
    - ``reference="ids"``: ``v_k = [chunk_id_k ∈ reference ids]`` (ragas's id-based variant is the unranked
      ratio |retrieved ∩ ref| / |retrieved|; this keeps the rank-aware formula).

    Unscorable without retrieved contexts, or when the reference (response) has no claims.
    """
    if reference not in REQUIRES:
        raise ConfigError(
            f"context_precision: reference must be answer, response, contexts or ids, not {reference!r}"
        )
    matrix_name = {"answer": "reference_vs_contexts", "response": "response_vs_contexts"}.get(reference, "")

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        if not sample.response.retrieved_contexts:
            return unscorable("no retrieved contexts")
        if reference == "ids":
            return _by_ids(sample, ctx)
        if reference == "contexts":
            return _by_text(sample, threshold)
        return await _by_claims(sample, ctx, reference == "answer")

    return variant(score, requires=REQUIRES[reference], uses=(matrix_name,))


def _result(relevance: list[float], details: dict[str, object]) -> Score:
    relevant = [k for k, v in enumerate(relevance) if v >= 0.5]
    note = f"relevant contexts at ranks {[k + 1 for k in relevant]}" if relevant else "no relevant context retrieved"
    return Score(value=average_precision(relevance), explanation=note, details={"relevance": relevance, **details})


def _by_ids(sample: EvalSample, ctx: MetricContext) -> Score:
    ranking = rank_ids(sample, ctx.reference_ids)
    if isinstance(ranking, str):
        return unscorable(ranking)
    rel = [1.0 if cid in ranking.relevant else 0.0 for cid in ranking.ranked]
    return _result(rel, {"matched_by_text": ranking.by_text})


def _by_text(sample: EvalSample, threshold: float) -> Score:
    refs = [c.text for c in sample.test.reference_contexts]
    sims = [max((string_similarity(c.text, r) for r in refs), default=0.0) for c in sample.response.retrieved_contexts]
    return _result([1.0 if s >= threshold else 0.0 for s in sims], {"similarity": sims})


async def _by_claims(sample: EvalSample, ctx: MetricContext, of_reference: bool) -> Score:
    """Relevance from which contexts state the reference's (or the response's) claims."""
    view = ctx.sample_claims(sample)
    if of_reference:
        claims = await view.reference_claims()
        if not claims:
            return unscorable("the reference answer contains no checkable claims")
        matrix = await view.reference_vs_contexts(name_contexts=True)
        details = claim_details(sample, reference_claims=claims, reference_vs_contexts=matrix)
    else:
        claims = await view.response_claims()
        if not claims:
            return unscorable("the answer contains no checkable claims")
        matrix = await view.response_vs_contexts(name_contexts=True)
        details = claim_details(sample, response_claims=claims, response_vs_contexts=matrix)
    n = len(sample.response.retrieved_contexts)
    return _result([column_support(matrix, k) for k in range(n)], {"claims": details})
