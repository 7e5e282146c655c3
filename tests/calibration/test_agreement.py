"""Agreement statistics and prediction-powered means, against hand computations and the paper's formula."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest

from ragkit.calibration import best_threshold, calibrate_metric, cohen_kappa, ppi_mean, roc_auc, spearman


def test_cohen_kappa_by_hand() -> None:
    # 10 items: agree on 4 yes and 4 no, disagree on 2 → p_o = 0.8; both say yes 5 of 10 → p_e = 0.5
    pred = [True] * 4 + [False] * 4 + [True, False]
    truth = [True] * 4 + [False] * 4 + [False, True]
    assert cohen_kappa(pred, truth) == pytest.approx((0.8 - 0.5) / (1 - 0.5))
    assert cohen_kappa([True, False], [True, False]) == 1.0
    assert cohen_kappa([True, True], [True, True]) == 1.0


def test_best_threshold_separates_the_labels() -> None:
    scores = [0.1, 0.2, 0.35, 0.7, 0.8, 0.95]
    truth = [False, False, False, True, True, True]
    cut, kappa = best_threshold(scores, truth)
    assert 0.35 < cut < 0.7 and kappa == 1.0
    assert roc_auc(scores, truth) == 1.0


def test_spearman_and_ordinal_calibration() -> None:
    assert spearman([0.1, 0.4, 0.9], [1, 3, 5]) == pytest.approx(1.0)
    assert spearman([0.5, 0.5], [1, 5]) is None
    cal = calibrate_metric("ordinal", [0.1, 0.3, 0.6, 0.9], [1, 2, 4, 5])
    assert cal.spearman == pytest.approx(1.0) and cal.auc == 1.0  # split at 3: 4 and 5 are good
    assert [y for _, y in cal.pairs] == [0.0, 0.25, 0.75, 1.0]  # labels on a 0-1 scale for PPI


def test_ppi_mean_is_the_papers_estimator() -> None:
    # Angelopoulos et al. 2023: θ = mean f(X̃) − mean (f(X) − Y); σ² = var f(X̃)/N + var (f(X) − Y)/n
    unlabelled = [0.9, 0.8, 0.7, 1.0, 0.6, 0.9]
    predicted = [0.9, 0.4, 0.8, 0.2]
    labels = [1.0, 0.0, 1.0, 1.0]
    est = ppi_mean(unlabelled, predicted, labels)
    assert est is not None
    rect = [f - y for f, y in zip(predicted, labels, strict=True)]  # -0.1, 0.4, -0.2, -0.8
    theta = sum(unlabelled) / 6 - sum(rect) / 4
    def var(xs: list[float]) -> float:
        m = sum(xs) / len(xs)
        return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    half = NormalDist().inv_cdf(0.975) * math.sqrt(var(unlabelled) / 6 + var(rect) / 4)
    assert (est.mean, est.low, est.high) == pytest.approx((theta, theta - half, theta + half))
    assert ppi_mean(unlabelled, [0.5], [1.0]) is None


def test_ppi_corrects_a_biased_judge_and_covers_the_truth() -> None:
    # a judge that scores every answer 0.3 too high: the plain mean is off, PPI recovers the truth
    rng = random.Random(7)
    hits, plain_hits = 0, 0
    def judge(y: float) -> float:
        return y * 0.7 + 0.3

    for _ in range(200):
        run = [judge(float(rng.random() < 0.6)) for _ in range(400)]  # unlabelled: only the judge's scores
        labels = [float(rng.random() < 0.6) for _ in range(40)]  # a separate labelled sample
        est = ppi_mean(run, [judge(y) for y in labels], labels)
        assert est is not None
        judged = run
        hits += est.low <= 0.6 <= est.high
        plain_hits += abs(sum(judged) / 400 - 0.6) < 0.05
    assert hits / 200 >= 0.9 and plain_hits == 0
