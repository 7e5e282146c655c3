"""The RAGChecker diagnostics, each a separate metric over the shared claim matrices.

Names: ``ragchecker_precision``, ``ragchecker_recall``, ``ragchecker_f1`` (overall); ``claim_recall``,
``ragchecker_context_precision`` (retriever); ``context_utilization``, ``noise_sensitivity_in_relevant``,
``noise_sensitivity_in_irrelevant``, ``hallucination``, ``self_knowledge``, ``ragchecker_faithfulness``
(generator). The ``ragchecker_`` prefix marks the names that would otherwise clash with the ragas-style metrics
of a different formula. Per-sample values are in [0, 1]; RAGChecker's corpus figures are the mean × 100
(``ragchecker_summary``). Formulas: ``_ragchecker_math``. Where RAGChecker returns 0 for missing claims, these
return None with an explanation, so aggregates skip the sample and count it as unscorable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from . import _ragchecker_math as rc
from ._claim_matrices import collect
from ._shared import unscorable

RESP_REF = ("response.answer", "test.reference_answer")
ALL = ("response.answer", "test.reference_answer", "response.retrieved_contexts")
REF_CTX = ("test.reference_answer", "response.retrieved_contexts")
RESP_CTX = ("response.answer", "response.retrieved_contexts")


def _build(compute: Callable[[rc.Supports], float | None], *needs: str, undefined: str = "",
           per_chunk: bool = False) -> MetricFn:
    """``per_chunk``: the formula asks which chunk supports a claim, so the store names the contexts too."""

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        got = await collect(sample, ctx, needs, name_contexts=per_chunk)
        why = got.missing(needs)
        value = None if why else compute(got.supports)
        if value is None:
            return unscorable(why or undefined or "undefined for this sample", claims=got.details)
        return Score(value=value, details={"claims": got.details})

    return score


@metric(requires=RESP_REF, uses=("response_vs_reference",))
def ragchecker_precision() -> MetricFn:
    """Share of the response's claims that the reference answer entails (1.0 = nothing wrong or extra)."""
    return _build(rc.precision, "response_vs_reference")


@metric(requires=RESP_REF, uses=("reference_vs_response",))
def ragchecker_recall() -> MetricFn:
    """Share of the reference answer's claims that the response entails (1.0 = complete)."""
    return _build(rc.recall, "reference_vs_response")


@metric(requires=RESP_REF, uses=("response_vs_reference", "reference_vs_response"))
def ragchecker_f1() -> MetricFn:
    """Harmonic mean of RAGChecker precision and recall (1.0 = correct and complete)."""
    return _build(rc.f1, "response_vs_reference", "reference_vs_response")


@metric(requires=REF_CTX, uses=("reference_vs_contexts",))
def claim_recall() -> MetricFn:
    """Share of reference claims found in at least one retrieved chunk (1.0 = retrieval found everything)."""
    return _build(rc.claim_recall, "reference_vs_contexts")


@metric(requires=REF_CTX, uses=("reference_vs_contexts",))
def ragchecker_context_precision() -> MetricFn:
    """Share of retrieved chunks holding at least one reference claim, unranked (1.0 = no useless chunk)."""
    return _build(rc.context_precision, "reference_vs_contexts", undefined="no retrieved contexts", per_chunk=True)


@metric(requires=ALL, uses=("reference_vs_contexts", "reference_vs_response"))
def context_utilization() -> MetricFn:
    """Of the reference claims retrieved, the share the response uses (1.0 = all retrieved facts used)."""
    return _build(rc.context_utilization, "reference_vs_contexts", "reference_vs_response",
                  undefined="no reference claim was found in the retrieved contexts")


@metric(requires=ALL, direction="lower",
        uses=("response_vs_reference", "response_vs_contexts", "reference_vs_contexts"))
def noise_sensitivity_in_relevant() -> MetricFn:
    """Share of response claims that are wrong yet supported by a relevant chunk (0.0 = not misled)."""
    return _build(lambda s: rc.noise_sensitivity(s, relevant=True), "response_vs_reference",
                  "response_vs_contexts", "reference_vs_contexts", per_chunk=True)


@metric(requires=ALL, direction="lower",
        uses=("response_vs_reference", "response_vs_contexts", "reference_vs_contexts"))
def noise_sensitivity_in_irrelevant() -> MetricFn:
    """Share of response claims that are wrong and supported only by irrelevant chunks (0.0 = not misled)."""
    return _build(lambda s: rc.noise_sensitivity(s, relevant=False), "response_vs_reference",
                  "response_vs_contexts", "reference_vs_contexts", per_chunk=True)


@metric(requires=ALL, direction="lower", uses=("response_vs_contexts", "response_vs_reference"))
def hallucination() -> MetricFn:
    """Share of response claims that are wrong and supported by no chunk (0.0 = no hallucination)."""
    return _build(rc.hallucination, "response_vs_contexts", "response_vs_reference")


@metric(requires=ALL, direction="lower", uses=("response_vs_contexts", "response_vs_reference"))
def self_knowledge() -> MetricFn:
    """Share of response claims that are correct but supported by no chunk (lower = more grounded).

    Whether this is bad depends on the system: for a strictly grounded RAG, lower is better.
    """
    return _build(rc.self_knowledge, "response_vs_contexts", "response_vs_reference")


@metric(requires=RESP_CTX, uses=("response_vs_contexts",))
def ragchecker_faithfulness() -> MetricFn:
    """Share of response claims supported by some retrieved chunk (1.0 = fully grounded; = faithfulness)."""
    return _build(rc.faithfulness, "response_vs_contexts")


SUMMARY_GROUPS: dict[str, tuple[str, ...]] = {
    "overall": ("precision", "recall", "f1"),
    "retriever": ("claim_recall", "context_precision"),
    "generator": ("context_utilization", "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant",
                  "hallucination", "self_knowledge", "faithfulness"),
}
REGISTRY_NAME = {
    "precision": "ragchecker_precision", "recall": "ragchecker_recall", "f1": "ragchecker_f1",
    "context_precision": "ragchecker_context_precision", "faithfulness": "ragchecker_faithfulness",
}


def ragchecker_summary(means: Mapping[str, float | None]) -> dict[str, dict[str, Any]]:
    """RAGChecker's corpus block (mean × 100, one decimal) from per-metric means keyed by registry name."""
    out: dict[str, dict[str, Any]] = {}
    for group, names in SUMMARY_GROUPS.items():
        block = {}
        for name in names:
            value = means.get(REGISTRY_NAME.get(name, name))
            block[name] = None if value is None else round(value * 100, 1)
        out[group] = block
    return out
