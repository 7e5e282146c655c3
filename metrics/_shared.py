"""Pure arithmetic shared by the built-in metrics (no LLM): unit-tested on their own.

Graded truth values: a verdict's support is a probability in [0, 1] (0/1 when the judge gives no
probabilities). Boolean formulas from the peers carry over with NOT x = 1 − x, x AND y = x·y and
"any of" = max, which is exactly the boolean formula when every value is 0 or 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ragkit.evaluation import Attribution
from ragkit.types import Score

YesNo = Literal["yes", "no"]
"""A yes / no label, written inline in the reply schema (no type name for a small judge to read into)."""


def column_support(attributions: Sequence[Attribution], k: int) -> float:
    """Support of context ``k`` for any claim (the max over claims that name it), 0.0 when there are no claims."""
    return max((a.against(k).support for a in attributions), default=0.0)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def average_precision(relevance: Sequence[float]) -> float:
    """Rank-aware average precision over ranked items: Σ_k precision@k · v_k / Σ_k v_k, 0 when nothing is relevant.

    This is ragas's context-precision formula without its 1e-10 in the denominator (which makes a perfect
    ranking score 0.9999999999).
    """
    total, hits, acc = 0.0, 0.0, 0.0
    for k, v in enumerate(relevance, 1):
        hits += v
        acc += (hits / k) * v
        total += v
    return acc / total if total > 0 else 0.0


def fbeta(precision: float, recall: float, beta: float = 1.0) -> float:
    """F-beta of a precision and a recall; 0.0 when both are 0."""
    b2 = beta * beta
    denom = b2 * precision + recall
    return (1 + b2) * precision * recall / denom if denom > 0 else 0.0


def string_similarity(a: str, b: str) -> float:
    """1 − normalised Levenshtein distance (rapidfuzz)."""
    from rapidfuzz.distance import Levenshtein

    return float(Levenshtein.normalized_similarity(a, b))


def unscorable(reason: str, **details: object) -> Score:
    return Score(value=None, explanation=reason, details=dict(details))


def clip01(x: float) -> float:
    return min(1.0, max(0.0, x))
