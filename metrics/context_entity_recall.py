"""Context entity recall: do the retrieved contexts mention the reference's entities?"""

from __future__ import annotations

import re
import unicodedata

from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import unscorable


def normalise(text: str) -> str:
    """Casefolded NFKC text with punctuation dropped and whitespace collapsed (CJK kept as is)."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text)
    return re.sub(r"\s+", " ", text).strip()


def mentioned(entity: str, haystack: str, *, fuzzy: float = 90.0) -> bool:
    """Whether ``entity`` occurs in ``haystack`` (normalised substring, or a near match of ≥ ``fuzzy``)."""
    needle = normalise(entity)
    if not needle:
        return False
    if needle in haystack:
        return True
    if len(needle) < 5:
        return False
    from rapidfuzz import fuzz

    return fuzz.partial_ratio(needle, haystack) >= fuzzy


@metric(requires=("test.reference_answer", "response.retrieved_contexts"), uses=("llm",), calls=1)
def context_entity_recall() -> MetricFn:
    """Share of the reference answer's named entities that the retrieved contexts mention (1.0 = all).

    ``CER = |{e ∈ E_R : e occurs in the contexts}| / |E_R|``. ragas extracts entities from the reference and
    from the joined contexts with two LLM calls and intersects the two lists as exact strings; here E_R comes
    free with the reference's claim split, and each entity is looked up in the contexts' text (normalised
    substring, or a ≥ 90 partial fuzzy match for entities of 5+ characters), which is cheaper and does not
    lose an entity the second extraction happened to skip. Unscorable when the reference has no entities.
    """

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        entities = await ctx.sample_claims(sample).reference_entities()
        if not entities:
            return unscorable("the reference answer names no entities")
        haystack = normalise("\n".join(c.text for c in sample.response.retrieved_contexts))
        found = [e for e in entities if mentioned(e, haystack)]
        missed = [e for e in entities if e not in found]
        return Score(value=len(found) / len(entities), explanation=f"{len(found)} of {len(entities)} entities found",
                     details={"found": found, "missed": missed})

    return score
