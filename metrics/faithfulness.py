"""Faithfulness: is every claim of the answer supported by the retrieved contexts?"""

from __future__ import annotations

from ragkit.evaluation import MetricContext, claim_details
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import mean, row_support, unscorable


@metric(requires=("response.answer", "response.retrieved_contexts"), uses=("response_vs_contexts",))
def faithfulness() -> MetricFn:
    """Share of the answer's claims that some retrieved context entails (1.0 = fully grounded).

    ``F = (1/|A|) Σ_{a ∈ A} max_k support(ctx_k ⊨ a)`` with ``A`` the response claims. Unlike ragas, which
    checks every claim against all contexts joined into one premise, each claim is checked against each context
    (the shared ``response_vs_contexts`` matrix, RAGChecker's retrieved2response), so the details say which chunk
    supports which claim; this is RAGChecker's faithfulness. An answer without claims is unscorable (None); an
    answer with claims but no retrieved contexts scores 0.
    """

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        view = ctx.sample_claims(sample)
        claims = await view.response_claims()
        if not claims:
            return unscorable("the answer contains no checkable claims")
        matrix = await view.response_vs_contexts()
        value = mean([row_support(row) for row in matrix])
        supported = sum(1 for row in matrix if row_support(row) >= 0.5)
        note = f"{supported} of {len(claims)} answer claims supported by a retrieved context"
        if not view.contexts:
            note += " (no retrieved contexts)"
        return Score(value=value, explanation=note,
                     details={"claims": claim_details(sample, response_claims=claims, response_vs_contexts=matrix)})

    return score
