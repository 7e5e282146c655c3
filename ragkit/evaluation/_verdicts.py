"""Verdicts of claims against passages, and the claim-level details a score records for the report.

Verdicts are graded where the judge can say how sure it is: ``Verdict.p`` is the probability of ``entailed``
(from token log-probabilities, when available); otherwise verdicts are 0/1. Metrics use ``Verdict.support``,
the expected value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from ragkit.types import EvalSample

Label = Literal["entailed", "contradicted", "neutral"]


class Verdict(BaseModel):
    """The judge's verdict on one claim against one passage."""

    label: Label
    p: float | None = None
    """Probability that the claim is entailed, when the judge exposes token log-probabilities."""
    padded: bool = False
    """The judge gave no verdict for this claim; it counts as neutral."""

    @property
    def support(self) -> float:
        """Expected entailment: ``p`` when known, else 1.0 for entailed and 0.0 otherwise."""
        if self.p is not None:
            return self.p
        return 1.0 if self.label == "entailed" else 0.0


Matrix = list[list[Verdict]]
"""Rows are claims, columns are passages."""


class Attribution(BaseModel):
    """One claim checked against the retrieved contexts read together.

    ``verdict`` is the verdict on the whole set (a fact may need two contexts at once); ``by`` lists the contexts
    (0-based ranks) the judge named for it: the ones that support it together, or the one that contradicts it.
    """

    verdict: Verdict
    by: list[int] = Field(default_factory=list)

    @property
    def support(self) -> float:
        """Support of the claim by the retrieved set."""
        return self.verdict.support

    def against(self, k: int) -> Verdict:
        """What the attribution says about context ``k``: the set's verdict when ``k`` was named, else neutral."""
        return self.verdict if k in self.by else Verdict(label="neutral")

    def row(self, n: int) -> list[Verdict]:
        """Per-context verdicts for ``n`` contexts (a row of a claims × contexts ``Matrix``)."""
        return [self.against(k) for k in range(n)]


class PassageRef(BaseModel):
    """A passage claims were checked against: a retrieved context (by rank), the reference or the response."""

    kind: Literal["context", "reference", "response"]
    index: int | None = None
    """Rank of the retrieved context (0 = first)."""
    chunk_id: str | None = None


class ClaimRow(BaseModel):
    """One claim and its verdict against each passage of ``ClaimDetails.passages``."""

    text: str
    source: Literal["response", "reference"]
    verdicts: list[Verdict | None]
    """Aligned with ``ClaimDetails.passages``; ``None`` where the claim was not checked against that passage."""
    supported_by: list[int] = Field(default_factory=list)
    """Indices into ``ClaimDetails.passages`` of the passages that entail the claim."""
    together: Verdict | None = None
    """The verdict against the retrieved contexts read together (None when the claim was not checked against them)."""


class ClaimDetails(BaseModel):
    """Claim-level evidence behind a score: stored as ``Score.details["claims"]`` for the report's drill-down.

    ``passages`` lists the retrieved contexts in rank order, then the reference and the response when claims
    were checked against them; each claim row carries a verdict per passage.
    """

    passages: list[PassageRef]
    claims: list[ClaimRow]

    @classmethod
    def from_score(cls, details: dict[str, Any]) -> ClaimDetails | None:
        """Read the claim details back from a ``Score.details`` dict (None when the score has none)."""
        raw = details.get("claims")
        return cls.model_validate(raw) if raw is not None else None


def claim_details(
    sample: EvalSample,
    *,
    response_claims: Sequence[str] = (),
    reference_claims: Sequence[str] = (),
    response_vs_contexts: Sequence[Attribution] | None = None,
    reference_vs_contexts: Sequence[Attribution] | None = None,
    response_vs_reference: Sequence[Verdict] | None = None,
    reference_vs_response: Sequence[Verdict] | None = None,
) -> dict[str, Any]:
    """The ``Score.details["claims"]`` payload (a dumped ``ClaimDetails``) for what a metric computed."""
    contexts = sample.response.retrieved_contexts
    passages = [PassageRef(kind="context", index=i, chunk_id=c.chunk_id) for i, c in enumerate(contexts)]
    with_ref, with_resp = response_vs_reference is not None, reference_vs_response is not None
    if with_ref:
        passages.append(PassageRef(kind="reference"))
    if with_resp:
        passages.append(PassageRef(kind="response"))

    def rows(claims: Sequence[str], source: Literal["response", "reference"], ctx: Sequence[Attribution] | None,
             cross: Sequence[Verdict] | None) -> list[ClaimRow]:
        out = []
        for i, claim in enumerate(claims):
            verdicts: list[Verdict | None] = (list(ctx[i].row(len(contexts))) if ctx is not None
                                              else [None] * len(contexts))
            if with_ref:
                verdicts.append(cross[i] if source == "response" and cross is not None else None)
            if with_resp:
                verdicts.append(cross[i] if source == "reference" and cross is not None else None)
            supported = [j for j, v in enumerate(verdicts) if v is not None and v.label == "entailed"]
            out.append(ClaimRow(text=claim, source=source, verdicts=verdicts, supported_by=supported,
                                together=ctx[i].verdict if ctx is not None else None))
        return out

    claims = rows(response_claims, "response", response_vs_contexts, response_vs_reference)
    claims += rows(reference_claims, "reference", reference_vs_contexts, reference_vs_response)
    return ClaimDetails(passages=passages, claims=claims).model_dump(mode="json", exclude_defaults=True)
