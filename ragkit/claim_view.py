"""The claim-level view of one sample, read from its scores' details, for the report's drill-down.

Which answer claims each retrieved context supports or contradicts, which answer claims no context supports
(hallucinations), and which reference claims the contexts hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .types import Score


@dataclass
class ClaimRow:
    """One claim and the retrieved contexts (0-based ranks) that support or contradict it."""

    text: str
    supported_by: list[int] = field(default_factory=list)
    contradicted_by: list[int] = field(default_factory=list)


@dataclass
class ClaimView:
    answer_claims: list[ClaimRow] = field(default_factory=list)
    reference_claims: list[ClaimRow] = field(default_factory=list)


def _label(v: Any) -> str | None:
    if isinstance(v, str):
        return v
    if isinstance(v, Mapping):
        lab = v.get("label")
        return lab if isinstance(lab, str) else None
    if isinstance(v, bool):
        return "entailed" if v else "neutral"
    return None


def _rows(claims: Any, matrix: Any) -> list[ClaimRow] | None:
    """Claims (list of str) with a claims × contexts matrix of labels."""
    if not isinstance(claims, list) or not isinstance(matrix, list) or len(claims) != len(matrix):
        return None
    rows = []
    for text, verdicts in zip(claims, matrix, strict=True):
        if not isinstance(text, str) or not isinstance(verdicts, list):
            return None
        labels = [_label(v) for v in verdicts]
        rows.append(ClaimRow(text, [i for i, lab in enumerate(labels) if lab == "entailed"],
                             [i for i, lab in enumerate(labels) if lab == "contradicted"]))
    return rows


def claim_view(scores: Mapping[str, Score]) -> ClaimView | None:
    """The richest claim view found in any score's details; None when no metric recorded claims."""
    view = ClaimView()
    for score in scores.values():
        d = score.details or {}
        if not view.answer_claims:
            rows = _rows(d.get("response_claims"), d.get("response_vs_contexts"))
            if rows:
                view.answer_claims = rows
        if not view.reference_claims:
            rows = _rows(d.get("reference_claims"), d.get("reference_vs_contexts"))
            if rows:
                view.reference_claims = rows
    return view if view.answer_claims or view.reference_claims else None
