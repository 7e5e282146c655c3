"""Faithfulness: is every claim of the answer supported by the retrieved contexts?"""

from __future__ import annotations

from ragkit.evaluation import MetricContext, claim_details
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import mean, unscorable


@metric(requires=("response.answer", "response.retrieved_contexts"), uses=("response_vs_contexts",))
def faithfulness() -> MetricFn:
    """Share of the answer's claims that the retrieved contexts entail (1.0 = fully grounded).

    ``F = (1/|A|) Σ_{a ∈ A} support(contexts ⊨ a)`` with ``A`` the response claims and the contexts read
    together (the shared ``response_vs_contexts`` attribution, RAGChecker's retrieved2response): a claim that
    needs two contexts at once is supported, and the details say which contexts the judge named for each claim.
    An answer without claims is unscorable (None); an answer with claims but no retrieved contexts scores 0.
    """

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        view = ctx.sample_claims(sample)
        claims = await view.response_claims()
        if not claims:
            return unscorable("the answer contains no checkable claims")
        attributions = await view.response_vs_contexts()
        value = mean([a.support for a in attributions])
        supported = sum(1 for a in attributions if a.support >= 0.5)
        note = f"{supported} of {len(claims)} answer claims supported by a retrieved context"
        if not view.contexts:
            note += " (no retrieved contexts)"
        return Score(value=value, explanation=note,
                     details={"claims": claim_details(sample, response_claims=claims,
                                                      response_vs_contexts=attributions)})

    return score
