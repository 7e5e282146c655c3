"""Bootstrap CIs and paired comparisons."""

from __future__ import annotations

import numpy as np

from ragkit.report._stats import bootstrap_ci, paired_bootstrap, verdict


def test_ci_brackets_the_mean_and_is_reproducible() -> None:
    rng = np.random.default_rng(1)
    values = rng.uniform(0, 1, 50).tolist()
    ci = bootstrap_ci(values)
    assert ci is not None and ci.low is not None and ci.high is not None
    assert ci.low < ci.mean < ci.high and ci.n == 50
    assert abs(ci.mean - float(np.mean(values))) < 1e-12
    # the standard error of a U(0,1) mean over 50 draws is ~0.041, so a 95% CI is ~0.16 wide
    assert 0.10 < ci.high - ci.low < 0.22
    assert bootstrap_ci(values) == ci  # seeded


def test_ci_coverage_is_close_to_95_percent() -> None:
    rng = np.random.default_rng(2)
    hits = 0
    for _ in range(200):
        ci = bootstrap_ci(rng.normal(0.6, 0.2, 40).tolist(), resamples=500, seed=int(rng.integers(1e9)))
        hits += ci is not None and ci.contains(0.6)
    assert 0.88 <= hits / 200 <= 0.99


def test_edge_cases() -> None:
    assert bootstrap_ci([]) is None
    one = bootstrap_ci([0.3])
    assert one is not None and one.mean == 0.3 and one.low is None
    same = bootstrap_ci([0.5] * 10)
    assert same is not None and same.low == same.high == 0.5


def test_paired_detects_a_consistent_small_gain_that_unpaired_intervals_miss() -> None:
    rng = np.random.default_rng(3)
    difficulty = rng.uniform(0.1, 0.9, 30)
    a = difficulty.tolist()
    b = (difficulty + 0.05 + rng.normal(0, 0.01, 30)).tolist()
    ca, cb = bootstrap_ci(a), bootstrap_ci(b)
    assert ca and cb and ca.high is not None and cb.low is not None and cb.low < ca.high  # overlapping
    d = paired_bootstrap(a, b)
    assert d is not None and d.low is not None and d.low > 0
    assert verdict(d) == "better" and verdict(d, higher_is_better=False) == "worse"


def test_verdicts() -> None:
    rng = np.random.default_rng(4)
    a = rng.uniform(0, 1, 25).tolist()
    noise = (np.array(a) + rng.normal(0, 0.1, 25)).tolist()
    assert verdict(paired_bootstrap(a, noise)) == "no significant difference"
    worse = [x - 0.3 for x in a]
    assert verdict(paired_bootstrap(a, worse)) == "worse"
    assert verdict(paired_bootstrap([0.1], [0.9])) == "not enough data"
    assert verdict(None) == "not enough data"


def test_roc_auc_is_the_share_of_positive_negative_pairs_ranked_right() -> None:
    from ragkit.calibration import roc_auc

    assert roc_auc([0.9, 0.8, 0.1], [True, True, False]) == 1.0
    assert roc_auc([0.1, 0.9], [True, False]) == 0.0
    # one tie among four pairs counts a half: (1 + 1 + 1 + 0.5) / 4
    assert roc_auc([0.9, 0.5, 0.5, 0.2], [True, True, False, False]) == 0.875
    assert roc_auc([0.3, 0.4], [True, True]) is None


def test_small_samples_get_a_bca_interval_and_a_warning_beside_it() -> None:
    from ragkit.report._model import MetricSummary, Summary
    from ragkit.report._terminal import metrics_table

    scores = [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]  # piled up at 1: the interval is lopsided, not symmetric
    ci = bootstrap_ci(scores)
    assert ci is not None and ci.low is not None and ci.high is not None
    assert ci.low < ci.mean <= ci.high <= 1.0 and ci.mean - ci.low > ci.high - ci.mean
    summary = Summary.model_construct(metrics={"faithfulness": MetricSummary(
        mean=ci.mean, low=ci.low, high=ci.high, scored=6, unscorable=0, failed=0, higher_is_better=True)})
    assert "n < 30 (as few as 6)" in str(metrics_table(summary).caption)


def test_the_terminal_tables_show_whole_metric_names_in_80_columns() -> None:
    from rich.console import Console

    from ragkit.report._model import GroupRow, MetricSummary, Summary
    from ragkit.report._terminal import breakdown_table, metrics_table

    names = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "context_utilization",
             "factual_correctness", "noise_sensitivity"]
    summary = Summary.model_construct(metrics={n: MetricSummary(mean=0.5, low=0.2, high=0.8, scored=4, unscorable=0,
                                                                failed=1 if n == "context_recall" else 0,
                                                                higher_is_better=True) for n in names})
    console = Console(width=80, record=True)
    console.print(metrics_table(summary))
    rows = [GroupRow(group=g, n=2, means=dict.fromkeys(names, 0.5)) for g in ("noisy_context", "single_hop")]
    console.print(breakdown_table("generator", rows, names, console.width))
    text = console.export_text()
    assert "…" not in text and all(n in text for n in names)  # every name whole in the scores table
    assert "failed" in text and "unscorable" not in text and "skipped" not in text  # only columns with counts
    assert "By generator (first 4 of 7 metrics)" in text and "precision" in text  # as many as fit, headers wrapped
    assert max(len(line) for line in text.splitlines()) <= 80
