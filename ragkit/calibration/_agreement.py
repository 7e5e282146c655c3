"""How far a metric agrees with human labels: ROC-AUC, Cohen's kappa at the best threshold, Spearman's rho.

Binary labels (0 / 1: "this answer is faithful", "this answer is right") get ROC-AUC, which needs no threshold,
and the threshold on the score that agrees best with the labels, as Cohen's kappa (agreement beyond chance).
Ordinal labels (1–5) get Spearman's rank correlation, and the same for the labels split at their midpoint.
"""

from __future__ import annotations

from collections.abc import Sequence


def cohen_kappa(predicted: Sequence[bool], truth: Sequence[bool]) -> float:
    """Cohen's kappa of two binary raters: (p_o − p_e) / (1 − p_e); 1.0 when both are constant and equal."""
    n = len(truth)
    observed = sum(p == t for p, t in zip(predicted, truth, strict=True)) / n
    yes_p, yes_t = sum(predicted) / n, sum(truth) / n
    expected = yes_p * yes_t + (1 - yes_p) * (1 - yes_t)
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def best_threshold(scores: Sequence[float], truth: Sequence[bool]) -> tuple[float, float]:
    """(threshold, kappa): the cut ``score ≥ threshold`` that agrees best with the labels.

    Candidates are the midpoints between consecutive distinct scores; among equally good cuts the one nearest
    0.5 wins, so that a tie does not drift to an extreme.
    """
    values = sorted(set(scores))
    cuts = [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)] or [values[0]]
    ranked = [(cohen_kappa([s >= c for s in scores], truth), -abs(c - 0.5), c) for c in cuts]
    kappa, _, cut = max(ranked)
    return cut, kappa


def spearman(scores: Sequence[float], labels: Sequence[float]) -> float | None:
    """Spearman's rank correlation (None when either side is constant)."""
    if len(set(scores)) < 2 or len(set(labels)) < 2:
        return None
    from scipy.stats import spearmanr

    return float(spearmanr(scores, labels).statistic)


def roc_auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve of ``scores`` for the binary ``labels`` (None without both classes).

    The Mann–Whitney form: the probability that a random positive scores above a random negative, ties
    counting one half. It needs no threshold, so it says how well a metric ranks right above wrong whatever
    its scale.
    """
    if len(scores) != len(labels):
        raise ValueError(f"scores and labels differ in length: {len(scores)} vs {len(labels)}")
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))
