"""Bootstrap confidence intervals for run aggregates and for paired differences between two runs.

Percentile bootstrap: resample the per-sample scores with replacement ``resamples`` times, take the mean of each
resample, and report the (alpha/2, 1 - alpha/2) quantiles of those means. The paired version resamples the
*differences* b_i - a_i on shared samples, which cancels per-question difficulty and detects smaller effects than
comparing two independent intervals. Seeded: the same scores always give the same interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Verdict = Literal["better", "worse", "no detectable difference", "not enough data"]


@dataclass(frozen=True)
class Interval:
    """A mean with its bootstrap confidence interval (``low``/``high`` are None with fewer than 2 values)."""

    mean: float
    low: float | None
    high: float | None
    n: int

    def contains(self, value: float) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high


def _bootstrap_means(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = len(values)
    means = np.empty(resamples, dtype=np.float64)
    step = max(1, 2_000_000 // max(n, 1))  # bound memory: at most ~2M indexes at once
    for start in range(0, resamples, step):
        stop = min(resamples, start + step)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = values[idx].mean(axis=1)
    return means


def bootstrap_ci(
    values: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> Interval | None:
    """Mean of ``values`` with a percentile-bootstrap CI; None for an empty list."""
    arr = np.asarray([v for v in values if v is not None], dtype=np.float64)
    if arr.size == 0:
        return None
    mean = float(arr.mean())
    if arr.size < 2:
        return Interval(mean, None, None, 1)
    means = _bootstrap_means(arr, resamples, seed)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return Interval(mean, float(low), float(high), int(arr.size))


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> Interval | None:
    """Mean of ``b - a`` over paired values with its bootstrap CI; None when there are no pairs."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} vs {len(b)}")
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    return bootstrap_ci(diffs, confidence=confidence, resamples=resamples, seed=seed)


def verdict(diff: Interval | None, *, higher_is_better: bool = True) -> Verdict:
    """Plain reading of a paired difference (B - A): B is better, worse, or not detectably different."""
    if diff is None or diff.low is None or diff.high is None:
        return "not enough data"
    if diff.low > 0:
        return "better" if higher_is_better else "worse"
    if diff.high < 0:
        return "worse" if higher_is_better else "better"
    return "no detectable difference"


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
