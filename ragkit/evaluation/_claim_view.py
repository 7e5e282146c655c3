"""The claim-level view of one sample, merged from its scores' ``details["claims"]`` (``ClaimDetails``).

Several metrics each record the part of the claim × passage matrices they read (faithfulness: answer claims ×
contexts; context recall: reference claims × contexts; factual correctness: answer × reference ...). The report
merges them per claim: which retrieved contexts support or contradict it, and whether the reference (for an
answer claim) or the answer (for a reference claim) entails it. Payloads it cannot read are skipped, never fatal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ragkit.types import Score


@dataclass
class ClaimRow:
    """One claim and the retrieved contexts (0-based ranks) that support or contradict it."""

    text: str
    supported_by: list[int] = field(default_factory=list)
    contradicted_by: list[int] = field(default_factory=list)
    checked: bool = False
    """Checked against the retrieved contexts (False: only against the reference / the answer)."""
    together: str | None = None
    """Verdict against the retrieved contexts read together (a fact may need several of them at once)."""
    cross: str | None = None
    """Verdict against the other text: the reference for an answer claim, the answer for a reference claim."""


@dataclass
class ClaimView:
    answer_claims: list[ClaimRow] = field(default_factory=list)
    reference_claims: list[ClaimRow] = field(default_factory=list)


def _label(v: Any) -> str | None:
    if isinstance(v, Mapping) and isinstance(v.get("label"), str):
        return str(v["label"])
    return v if isinstance(v, str) else None


def _merge(view: ClaimView, payload: Any) -> None:
    if not isinstance(payload, Mapping):
        return
    passages, claims = payload.get("passages"), payload.get("claims")
    if not isinstance(passages, list) or not isinstance(claims, list):
        return
    kinds = [(p.get("kind"), p.get("index")) if isinstance(p, Mapping) else (None, None) for p in passages]
    index = {("response", r.text): r for r in view.answer_claims} | {("reference", r.text): r
                                                                     for r in view.reference_claims}
    for raw in claims:
        if not isinstance(raw, Mapping) or not isinstance(raw.get("text"), str):
            continue
        source = raw.get("source")
        if source not in ("response", "reference"):
            continue
        row = index.get((source, raw["text"]))
        if row is None:
            row = index[(source, raw["text"])] = ClaimRow(raw["text"])
            (view.answer_claims if source == "response" else view.reference_claims).append(row)
        together = _label(raw.get("together"))
        if together is not None:
            row.checked = True
            row.together = together
        found = raw.get("verdicts")
        verdicts: list[Any] = found if isinstance(found, list) else []
        for (kind, rank), v in zip(kinds, verdicts, strict=False):
            label = _label(v)
            if label is None:
                continue
            if kind == "context" and isinstance(rank, int):
                row.checked = True
                if label == "entailed" and rank not in row.supported_by:
                    row.supported_by.append(rank)
                if label == "contradicted" and rank not in row.contradicted_by:
                    row.contradicted_by.append(rank)
            elif kind in ("reference", "response") and kind != source:
                row.cross = label


def claim_view(scores: Mapping[str, Score]) -> ClaimView | None:
    """The claims of one sample merged over every score's details; None when no metric recorded claims."""
    view = ClaimView()
    for score in scores.values():
        _merge(view, (score.details or {}).get("claims"))
    for row in view.answer_claims + view.reference_claims:
        row.supported_by.sort()
        row.contradicted_by.sort()
    return view if view.answer_claims or view.reference_claims else None
