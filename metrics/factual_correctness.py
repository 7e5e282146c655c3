"""Factual correctness: the answer's claims against the reference's, as precision, recall or F-beta."""

from __future__ import annotations

from typing import Literal

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext, claim_details
from ragkit.registry import MetricFn, metric, variant
from ragkit.types import EvalSample, Score

from ._shared import fbeta, mean, unscorable


async def claim_precision_recall(
    sample: EvalSample, ctx: MetricContext, *, need_precision: bool = True, need_recall: bool = True
) -> tuple[float | None, float | None, dict[str, object], int, int]:
    """(precision, recall, claim details, n response claims, n reference claims) from the shared store.

    precision = mean support of response claims by the reference; recall = mean support of reference claims
    by the response; None when the claims it averages over are missing.
    """
    view = ctx.sample_claims(sample)
    resp = await view.response_claims()
    ref = await view.reference_claims()
    resp_vs_ref = await view.response_vs_reference() if need_precision else None
    ref_vs_resp = await view.reference_vs_response() if need_recall else None
    p = mean([v.support for v in resp_vs_ref]) if resp_vs_ref else None
    r = mean([v.support for v in ref_vs_resp]) if ref_vs_resp else None
    details = claim_details(sample, response_claims=resp, reference_claims=ref,
                            response_vs_reference=resp_vs_ref, reference_vs_response=ref_vs_resp)
    return p, r, details, len(resp), len(ref)


@metric(requires=("response.answer", "test.reference_answer"), uses=("response_vs_reference", "reference_vs_response"))
def factual_correctness(*, mode: Literal["precision", "recall", "f1"] = "f1", beta: float = 1.0) -> MetricFn:
    """How far the answer's claims agree with the reference's (1.0 = same facts).

    TP = Σ support(reference ⊨ a) over answer claims a, FP = Σ (1 − support); FN = Σ (1 − support(answer ⊨ g))
    over reference claims g. precision = TP / (TP + FP), recall = (|G| − FN) / |G|,
    f1 = F-beta = (1 + β²)·P·R / (β²·P + R), 0 when P = R = 0. Unlike ragas, the value is not rounded.
    Unscorable when the claims being averaged are missing; in f1 mode an answer without claims scores 0
    against a reference that has some, and a reference without claims makes the sample unscorable.
    """
    if mode not in ("precision", "recall", "f1"):
        raise ConfigError(f"factual_correctness: mode must be precision, recall or f1, not {mode!r}")
    if beta <= 0:
        raise ConfigError(f"factual_correctness: beta must be positive, not {beta}")
    needs = {"precision": ("response_vs_reference",), "recall": ("reference_vs_response",),
             "f1": ("response_vs_reference", "reference_vs_response")}[mode]

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        p, r, details, n_resp, n_ref = await claim_precision_recall(
            sample, ctx, need_precision=mode != "recall", need_recall=mode != "precision")
        note = f"{n_resp} answer claims, {n_ref} reference claims"
        if mode == "precision":
            value = p
        elif mode == "recall":
            value = r
        elif n_ref == 0:
            value = None
        else:
            value = fbeta(p or 0.0, r or 0.0, beta)
        if value is None:
            side = "answer" if mode == "precision" else "reference answer"
            return unscorable(f"the {side} contains no checkable claims", claims=details)
        return Score(value=value, explanation=note, details={"claims": details, "precision": p, "recall": r})

    return variant(score, uses=needs)
