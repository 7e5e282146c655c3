"""Bootstrap confidence intervals for run aggregates and for paired differences between two runs.

BCa bootstrap (bias-corrected and accelerated, Efron 1987) through ``scipy.stats.bootstrap``: resample the
per-sample scores with replacement, take the mean of each resample, and correct the quantiles for the bias and
skew of those means. At the small n of most evaluations (4–30 samples) and for scores piled up at 0 or 1, the
plain percentile interval is too narrow; BCa keeps closer to its stated coverage. The paired version resamples
the *differences* b_i - a_i on shared samples, which cancels per-question difficulty and detects smaller effects
than comparing two independent intervals. Seeded: the same scores always give the same interval.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

Verdict = Literal["better", "worse", "no significant difference", "not enough data"]

SMALL_N = 30
"""Below this many scored samples an interval is wide: the report says so beside it."""


@dataclass(frozen=True)
class Interval:
    """A mean with its bootstrap confidence interval (``low``/``high`` are None with fewer than 2 values)."""

    mean: float
    low: float | None
    high: float | None
    n: int

    def contains(self, value: float) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high


def _bca(values: np.ndarray, confidence: float, resamples: int, seed: int) -> tuple[float, float]:
    """The BCa interval of the mean; the percentile interval where BCa is undefined (a constant jackknife)."""
    from scipy.stats import bootstrap

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns, then returns NaN, when BCa is undefined: handled below
        for method in ("BCa", "percentile"):
            res = bootstrap((values,), np.mean, n_resamples=resamples, confidence_level=confidence, method=method,
                            vectorized=True, rng=np.random.default_rng(seed))
            low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
            if math.isfinite(low) and math.isfinite(high):
                return low, high
    mean = float(values.mean())
    return mean, mean


def bootstrap_ci(
    values: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> Interval | None:
    """Mean of ``values`` with a BCa-bootstrap CI; None for an empty list."""
    arr = np.asarray([v for v in values if v is not None], dtype=np.float64)
    if arr.size == 0:
        return None
    mean = float(arr.mean())
    if arr.size < 2:
        return Interval(mean, None, None, 1)
    if float(np.ptp(arr)) == 0.0:
        return Interval(mean, mean, mean, int(arr.size))
    low, high = _bca(arr, confidence, resamples, seed)
    return Interval(mean, min(low, mean), max(high, mean), int(arr.size))


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> Interval | None:
    """Mean of ``b - a`` over paired values with its bootstrap CI; None when there are no pairs."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} vs {len(b)}")
    diffs = [float(y) - float(x) for x, y in zip(a, b, strict=True)]
    return bootstrap_ci(diffs, confidence=confidence, resamples=resamples, seed=seed)


def verdict(diff: Interval | None, *, higher_is_better: bool = True) -> Verdict:
    """Plain reading of a paired difference (B - A): better, worse, or no significant difference (the interval
    holds 0)."""
    if diff is None or diff.low is None or diff.high is None:
        return "not enough data"
    if diff.low > 0:
        return "better" if higher_is_better else "worse"
    if diff.high < 0:
        return "worse" if higher_is_better else "better"
    return "no significant difference"

