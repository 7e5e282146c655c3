"""Which retrieved contexts are the test set's reference chunks: by id when the target speaks the test set's ids,
else by text. Shared by every id-based metric (hit rate, recall@k, MRR, nDCG, and the ``ids`` variants of context
recall and precision).

A real retriever gives its contexts ids of its own (``doc-17#3``), or none at all. Compared with the test set's
chunk ids, such a context never matches, and the metric would print a silent 0. Instead, each retrieved context
is mapped to a reference chunk:

- by id, when its id is a chunk id that the test set knows (any sample's reference contexts);
- otherwise by text: when the retrieved text holds the reference chunk's text nearly word for word (rapidfuzz
  ``partial_ratio`` ≥ ``TEXT_MATCH`` on the normalised texts), or is held in it and covers at least
  ``MIN_OVERLAP`` of it. So the same passage chunked differently still maps, a larger chunk that contains the
  reference chunk maps, and a short snippet that happens to occur in a long chunk does not.

A context with a foreign id and no text cannot be judged; when no retrieved context can, the metric is
unscorable and says why, never 0.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ragkit.text import normalise
from ragkit.types import ContextRef, EvalSample

TEXT_MATCH = 90.0
"""Minimum rapidfuzz ``partial_ratio`` (0–100) between a retrieved text and a reference chunk's text."""
MIN_OVERLAP = 0.4
"""A retrieved text shorter than the reference chunk must be at least this share of its length."""


@dataclass(frozen=True)
class Ranking:
    """The retrieved contexts as reference chunk ids, in rank order."""

    ranked: list[str]
    """Per retrieved context: the reference chunk id it was matched to, or ``""`` for none."""
    relevant: set[str]
    by_text: int
    """How many retrieved contexts were matched by their text rather than their id."""
    judged: int
    """How many retrieved contexts could be matched at all (a known id, or text to compare)."""

    def note(self) -> str:
        """What the details say about the mapping."""
        return f"{self.by_text} of {len(self.ranked)} retrieved contexts matched to reference chunks by text"


def same_text(retrieved: str, reference: str) -> bool:
    """True when the retrieved text holds the reference chunk, or most of it (see the module docstring)."""
    from rapidfuzz import fuzz

    retrieved, reference = normalise(retrieved), normalise(reference)
    if not retrieved or not reference or len(retrieved) < MIN_OVERLAP * len(reference):
        return False
    return float(fuzz.partial_ratio(retrieved, reference)) >= TEXT_MATCH


def _match(context: ContextRef, references: list[ContextRef], relevant: set[str],
           known: Collection[str]) -> tuple[str, bool, bool]:
    """(reference id or "", matched by text, could be judged) for one retrieved context."""
    if context.chunk_id and context.chunk_id in known:
        return (context.chunk_id if context.chunk_id in relevant else ""), False, True
    if not context.text.strip():
        return "", False, False
    found = next((r.chunk_id for r in references if r.chunk_id and r.text.strip() and same_text(context.text, r.text)),
                 None)
    return (found or ""), found is not None, any(r.text.strip() for r in references)


def rank_ids(sample: EvalSample, known: Collection[str] = ()) -> Ranking | str:
    """The retrieved contexts mapped to reference chunk ids, or why they cannot be (an unscorable reason).

    ``known``: every chunk id the test set uses (defaults to this sample's reference ids).
    """
    references = [r for r in sample.test.reference_contexts if r.chunk_id]
    relevant = {r.chunk_id for r in references if r.chunk_id}
    if not relevant:
        return "the test sample has no reference chunk ids"
    known = known or relevant
    matches = [_match(c, references, relevant, known) for c in sample.response.retrieved_contexts]
    ranking = Ranking([m[0] for m in matches], relevant, sum(m[1] for m in matches), sum(m[2] for m in matches))
    if matches and ranking.judged == 0:
        example = next((c.chunk_id for c in sample.response.retrieved_contexts if c.chunk_id), None)
        what = f"ids such as {example!r} that the test set does not use" if example else "no ids"
        return f"the retrieved contexts have {what}, and no text to match against the reference chunks"
    return ranking
