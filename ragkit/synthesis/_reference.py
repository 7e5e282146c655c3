"""The critic's last check: the reference answer's claims against the sample's reference contexts."""

from __future__ import annotations

from typing import Any

from ragkit.evaluation import ClaimStore
from ragkit.kg import KnowledgeGraph
from ragkit.synthesis._writer import passage
from ragkit.synthesis._written import Verdict
from ragkit.types import TestSample


async def reference_check(claims: ClaimStore, kg: KnowledgeGraph, sample: TestSample, checks: dict[str, Any],
                          floor: float) -> Verdict:
    """The reference answer's claims, checked against the reference contexts read together, each headed by its
    document title and section (the faithfulness check the evaluation makes). A claim the judge does not label
    entailed, or labels entailed with a support (its probability, where the judge gives one) under ``floor``,
    drops the sample."""
    split = await claims.split(sample.reference_answer or "", sample.question)
    headed = [passage(kg, r.chunk_id) if r.chunk_id else r.text for r in sample.reference_contexts if not r.distractor]
    # the question's own numbers are never a claim's value to check
    attributions = await claims.attribute(headed, split, asked=sample.question)
    rows: list[dict[str, Any]] = [{"claim": c, "verdict": a.verdict.label, "support": round(a.support, 2)}
                                  for c, a in zip(split, attributions, strict=True)]
    checks = {**checks, "reference_claims": rows}
    unsupported = [r for r, a in zip(rows, attributions, strict=True) if a.verdict.label != "entailed"
                   or a.support < floor]
    if unsupported:
        weak = "" if unsupported[0]["verdict"] != "entailed" else f" (support {unsupported[0]['support']:g})"
        return Verdict(False, "unsupported_reference", f"the reference contexts do not support {len(unsupported)} "
                       f"of {len(split)} claims: {unsupported[0]['claim'][:80]!r}{weak}", checks)
    return Verdict(True, checks=checks)
