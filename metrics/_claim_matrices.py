"""Fetch the claim matrices a metric reads from the shared claim store, as supports plus report details."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ragkit.evaluation import Attribution, MetricContext, claim_details
from ragkit.types import EvalSample

from ._ragchecker_math import Supports


@dataclass(frozen=True)
class Collected:
    supports: Supports
    details: dict[str, Any]
    response_claims: list[str]
    reference_claims: list[str]

    def missing(self, needs: Iterable[str]) -> str | None:
        """Why the metric is unscorable (claims it averages over are absent), or None."""
        needs = set(needs)
        if any(n.startswith("response_") for n in needs) and not self.response_claims:
            return "the answer contains no checkable claims"
        if any(n.startswith("reference_") for n in needs) and not self.reference_claims:
            return "the reference answer contains no checkable claims"
        return None


def _grid(attributions: list[Attribution] | None, n_contexts: int) -> list[list[float]] | None:
    """Per-context supports (claims × contexts) from the attributions, None when they were not computed."""
    if attributions is None:
        return None
    return [[v.support for v in a.row(n_contexts)] for a in attributions]


async def collect(sample: EvalSample, ctx: MetricContext, needs: Iterable[str], *,
                  name_contexts: bool = False) -> Collected:
    """Compute (through the memoised store) only the matrices in ``needs``; ``name_contexts`` when the formula
    asks which chunk supports a claim (context precision, noise sensitivity), not only whether the set does."""
    needs = set(needs)
    view = ctx.sample_claims(sample)
    resp = await view.response_claims() if any("response" in n for n in needs) else []
    ref = await view.reference_claims() if any("reference" in n for n in needs) else []
    got: dict[str, Any] = {}
    for name in ("response_vs_reference", "reference_vs_response"):
        if name in needs:
            got[name] = await getattr(view, name)()
    for name in ("response_vs_contexts", "reference_vs_contexts"):
        if name in needs:
            got[name] = await getattr(view, name)(name_contexts=name_contexts)
    sup = Supports(
        resp_vs_ref=[v.support for v in got["response_vs_reference"]] if "response_vs_reference" in got else None,
        ref_vs_resp=[v.support for v in got["reference_vs_response"]] if "reference_vs_response" in got else None,
        resp_vs_ctx=_grid(got.get("response_vs_contexts"), len(sample.response.retrieved_contexts)),
        ref_vs_ctx=_grid(got.get("reference_vs_contexts"), len(sample.response.retrieved_contexts)),
        resp_vs_set=[a.support for a in got["response_vs_contexts"]] if "response_vs_contexts" in got else None,
        ref_vs_set=[a.support for a in got["reference_vs_contexts"]] if "reference_vs_contexts" in got else None,
    )
    details = claim_details(sample, response_claims=resp if any(n.startswith("response_") for n in needs) else (),
                            reference_claims=ref if any(n.startswith("reference_") for n in needs) else (), **got)
    return Collected(sup, details, resp, ref)
