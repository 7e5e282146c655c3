"""Noise sensitivity: how often does the answer repeat wrong things from the retrieved contexts?"""

from __future__ import annotations

from typing import Literal

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from . import _ragchecker_math as rc
from ._claim_matrices import collect
from ._shared import unscorable

NEEDS = ("response_vs_reference", "response_vs_contexts", "reference_vs_contexts")


@metric(requires=("response.answer", "test.reference_answer", "response.retrieved_contexts"),
        direction="lower", uses=NEEDS)
def noise_sensitivity(*, mode: Literal["relevant", "irrelevant"] = "relevant") -> MetricFn:
    """Share of the answer's claims that are incorrect yet supported by a retrieved context (0.0 = not misled).

    A context is relevant when it entails at least one reference claim. A response claim is incorrect when
    the reference does not entail it. ``relevant``: ``mean_a rel_faithful_a · incorrect_a``; ``irrelevant``:
    ``mean_a irr_faithful_a · (1 − rel_faithful_a) · incorrect_a``, where ``rel_faithful_a`` (``irr_faithful_a``)
    is the claim's support by any relevant (irrelevant) context. This is the ragas port of RAGChecker's
    definition; ragas spends 2·n_ctx + 3 calls on it, here it reads three shared matrices
    (``noise_sensitivity_in_relevant`` / ``_in_irrelevant`` give the same values).
    """
    if mode not in ("relevant", "irrelevant"):
        raise ConfigError(f"noise_sensitivity: mode must be relevant or irrelevant, not {mode!r}")

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        got = await collect(sample, ctx, NEEDS, name_contexts=True)
        why = got.missing(("response_vs_contexts",))
        value = None if why else rc.noise_sensitivity(got.supports, relevant=mode == "relevant")
        if value is None:
            return unscorable(why or "undefined for this sample", claims=got.details)
        return Score(value=value, details={"claims": got.details})

    return score
