"""Answer correctness: factual F1 blended with semantic similarity."""

from __future__ import annotations

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric, variant
from ragkit.types import EvalSample, Score

from ._shared import fbeta
from .factual_correctness import claim_precision_recall
from .semantic_similarity import cosine


@metric(requires=("response.answer", "test.reference_answer"),
        uses=("response_vs_reference", "reference_vs_response", "embeddings"))
def answer_correctness(*, weights: tuple[float, float] = (0.75, 0.25)) -> MetricFn:
    """Weighted mean of factual F1 and semantic similarity (1.0 = correct and complete).

    ``AC = (w₀·F1 + w₁·sim) / (w₀ + w₁)`` with F1 the claim-level F1 of ``factual_correctness`` (β = 1) and
    sim the cosine of the embeddings (``semantic_similarity``). As in ragas, F1 = 1 when neither text has
    claims. Embeddings are not loaded when w₁ = 0.
    """
    w_f, w_s = (float(w) for w in weights)
    if w_f < 0 or w_s < 0 or w_f + w_s <= 0:
        raise ConfigError(f"answer_correctness: weights must be non-negative and not both 0, not {weights}")

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        p, r, details, n_resp, n_ref = await claim_precision_recall(sample, ctx)
        f1 = 1.0 if n_resp == 0 and n_ref == 0 else fbeta(p or 0.0, r or 0.0)
        sim = await cosine(ctx, sample.test.reference_answer or "", sample.response.answer) if w_s > 0 else 0.0
        value = (w_f * f1 + w_s * sim) / (w_f + w_s)
        return Score(value=value, explanation=f"factual F1 {f1:.2f}, similarity {sim:.2f}",
                     details={"claims": details, "f1": f1, "similarity": sim})

    return variant(score, uses=("response_vs_reference", "reference_vs_response", "embeddings" if w_s > 0 else ""))
