"""Semantic similarity of the answer and the reference answer, by embeddings."""

from __future__ import annotations

from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import clip01, unscorable


async def cosine(ctx: MetricContext, a: str, b: str) -> float:
    """Cosine similarity of two texts with the run's embeddings, clipped to [0, 1]."""
    vectors = await ctx.require_embeddings().aembed([a, b])
    return clip01(float(vectors[0] @ vectors[1]))


@metric(requires=("response.answer", "test.reference_answer"), uses=("embeddings",))
def semantic_similarity(*, threshold: float | None = None) -> MetricFn:
    """Cosine similarity of the embeddings of the answer and the reference (1.0 = same meaning).

    ``sim = max(0, cos(E(reference), E(response)))``; with ``threshold`` the score is binarised to
    ``[sim ≥ threshold]``. Unscorable when the answer is empty.
    """

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        answer, reference = sample.response.answer.strip(), (sample.test.reference_answer or "").strip()
        if not answer:
            return unscorable("the answer is empty")
        sim = await cosine(ctx, reference, answer)
        if threshold is not None:
            return Score(value=1.0 if sim >= threshold else 0.0, explanation=f"cosine {sim:.3f}",
                         details={"cosine": sim})
        return Score(value=sim, details={"cosine": sim})

    return score
