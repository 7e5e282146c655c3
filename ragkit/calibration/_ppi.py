"""Prediction-powered inference of a mean (Angelopoulos, Bates, Fannjiang, Jordan, Zrnic, 2023, "Prediction-
powered inference", Science 382; the estimator ARES uses to report judge-scored means with honest intervals).

A judge-scored metric is a prediction f(X) of what a person would say, Y. On a large unlabelled run the mean of
f is precise but biased by the judge's errors; on a few labelled samples the mean of Y is unbiased but noisy.
PPI keeps both strengths: the run's mean of f, corrected by the judge's average error on the labelled samples
(the *rectifier*), with an interval that accounts for both sources of noise:

    θ̂ = mean_N f(X̃) − mean_n (f(X) − Y)
    σ̂² = var_N f(X̃) / N + var_n (f(X) − Y) / n
    CI = θ̂ ± z_{1−α/2} · σ̂

(N unlabelled samples X̃, n labelled pairs (X, Y), sample variances.) It is valid whatever the judge's quality: a
bad judge only widens the interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist, fmean, variance


@dataclass(frozen=True)
class PPIEstimate:
    """A prediction-powered mean with its confidence interval."""

    mean: float
    low: float
    high: float
    n_labelled: int
    n_unlabelled: int


def ppi_mean(
    unlabelled: Sequence[float], predicted: Sequence[float], labels: Sequence[float], *, confidence: float = 0.95
) -> PPIEstimate | None:
    """The PPI estimate of the mean of the labels' quantity over the unlabelled samples.

    ``unlabelled``: f on the run's samples; ``predicted`` and ``labels``: f and Y on the labelled samples (same
    scale). None with fewer than two of either.
    """
    if len(predicted) != len(labels):
        raise ValueError(f"predictions and labels differ in length: {len(predicted)} vs {len(labels)}")
    n, big_n = len(labels), len(unlabelled)
    if n < 2 or big_n < 2:
        return None
    errors = [f - y for f, y in zip(predicted, labels, strict=True)]
    theta = fmean(unlabelled) - fmean(errors)
    sigma = math.sqrt(variance(unlabelled) / big_n + variance(errors) / n)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    return PPIEstimate(theta, theta - z * sigma, theta + z * sigma, n, big_n)
