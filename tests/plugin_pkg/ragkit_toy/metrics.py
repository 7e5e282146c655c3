"""Two toy metrics: one plain computation, one read from the claim engine's shared matrices."""

from __future__ import annotations

from ragkit import EvalSample, MetricContext, MetricFn, Score, metric


@metric(name="toy/answer_length", requires=("response.answer",))
def answer_length(*, max_words: int = 100) -> MetricFn:
    """Share of the word budget the answer uses (1.0 = at or over the budget)."""

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        words = len(sample.response.answer.split())
        return Score(value=min(1.0, words / max_words), explanation=f"{words} of {max_words} words")

    return score


@metric(name="toy/grounded_share", requires=("response.answer", "response.retrieved_contexts"),
        uses=("response_vs_contexts",))
def grounded_share(*, threshold: float = 0.5) -> MetricFn:
    """Share of the answer's claims that a retrieved context supports with at least ``threshold`` (1.0 = all)."""

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        view = ctx.sample_claims(sample)
        claims = await view.response_claims()
        if not claims:
            return Score(value=None, explanation="the answer has no checkable claims")
        found = await view.response_vs_contexts()  # per claim: the verdict on the contexts read together
        grounded = [a.support >= threshold for a in found]
        return Score(value=sum(grounded) / len(claims), explanation=f"{sum(grounded)} of {len(claims)} grounded")

    return score
