"""Advice from score patterns, and the CI gate."""

from __future__ import annotations

import pytest

from ragkit.errors import ConfigError
from ragkit.report._advice import advise
from ragkit.report._gate import check_known, failures, parse_thresholds
from ragkit.report._summary import Counts, MetricSummary, Summary
from ragkit.runs._rundir import MetricMeta, ScoreRecord
from ragkit.types import PluginSpec, Score, TestSample


def summary(**metrics: tuple[float, float | None, float | None] | tuple[float, float | None, float | None, bool]
            ) -> Summary:
    out = {}
    for name, t in metrics.items():
        mean, low, high, *hib = t
        out[name] = MetricSummary(mean=mean, low=low, high=high, scored=10, higher_is_better=hib[0] if hib else True)
    return Summary(run="r", target="t", model="m", complete=True, counts=Counts(responses=10), metrics=out)


def keys(s: Summary, samples: list[TestSample] | None = None, scores: dict | None = None) -> list[str]:
    return [a.key for a in advise(s, samples or [], scores or {})]


def test_healthy_run_gets_no_advice() -> None:
    s = summary(claim_recall=(0.9, 0.85, 0.95), context_precision=(0.8, 0.7, 0.9),
                noise_sensitivity=(0.1, 0.05, 0.15, False), hallucination=(0.05, 0.0, 0.1, False),
                faithfulness=(0.92, 0.88, 0.96))
    assert keys(s) == []


def test_each_pattern_maps_to_its_fix() -> None:
    assert keys(summary(claim_recall=(0.4, 0.3, 0.5))) == ["retrieval_recall"]
    assert keys(summary(context_recall=(0.4, 0.3, 0.5))) == ["retrieval_recall"]  # fallback name
    assert keys(summary(context_precision=(0.3, 0.2, 0.4))) == ["retrieval_precision"]
    assert keys(summary(noise_sensitivity=(0.5, 0.4, 0.6, False))) == ["noise"]
    assert keys(summary(hallucination=(0.4, 0.3, 0.5, False))) == ["hallucination"]
    # hallucination and low faithfulness give the same fix: said once
    assert keys(summary(hallucination=(0.4, 0.3, 0.5, False), faithfulness=(0.5, 0.4, 0.6))) == ["hallucination"]


def test_firm_versus_likely_and_severity() -> None:
    firm = advise(summary(claim_recall=(0.3, 0.2, 0.4)), [], {})[0]
    assert firm.title == "Retrieve more or better chunks" and firm.severity == "high"
    assert "claim_recall = 0.30 (95% CI 0.20-0.40), below 0.70" == firm.evidence
    hedged = advise(summary(claim_recall=(0.65, 0.5, 0.8)), [], {})[0]
    assert hedged.title.startswith("Likely:") and hedged.severity == "low"


def test_unanswerable_results_teach_refusal() -> None:
    samples = [TestSample(id=f"u{i}", question="?", generator=PluginSpec(name="unanswerable")) for i in range(3)]
    samples.append(TestSample(id="a", question="?", generator=PluginSpec(name="single_hop")))
    bad = {f"u{i}": ScoreRecord(sample_id=f"u{i}", scores={"factual_correctness": Score(value=0.1)})
           for i in range(3)}
    bad["a"] = ScoreRecord(sample_id="a", scores={"factual_correctness": Score(value=1.0)})
    found = advise(summary(), samples, bad)
    assert [a.key for a in found] == ["refusal"] and "3 unanswerable" in found[0].evidence
    good = {k: ScoreRecord(sample_id=k, scores={"factual_correctness": Score(value=0.9)}) for k in bad}
    assert keys(summary(), samples, good) == []


def test_target_errors_come_first() -> None:
    s = summary(claim_recall=(0.3, 0.2, 0.4))
    s.counts = Counts(responses=10, target_errors=4)
    assert keys(s) == ["target_errors", "retrieval_recall"]


def test_gate() -> None:
    assert parse_thresholds(["faithfulness=0.8", "context_recall = 0.7"]) == {"faithfulness": 0.8,
                                                                              "context_recall": 0.7}
    with pytest.raises(ConfigError, match="expected METRIC=NUMBER"):
        parse_thresholds(["faithfulness"])
    meta = {"faithfulness": MetricMeta(), "rubric_score": MetricMeta(range=(1.0, 5.0))}
    with pytest.raises(ConfigError, match="not in this run: faithfullness"):
        check_known({"faithfullness": 0.8}, meta)
    with pytest.raises(ConfigError, match=r"faithfulness=7 is outside the metric's range \[0, 1\]"):
        check_known({"faithfulness": 7}, meta)
    check_known({"faithfulness": 0.8, "rubric_score": 4}, meta)
    s = summary(faithfulness=(0.75, 0.7, 0.8), context_recall=(0.9, 0.8, 1.0), hallucination=(0.3, 0.2, 0.4, False))
    s.metrics["empty"] = MetricSummary()
    assert failures(s, {"context_recall": 0.7}) == []
    lines = failures(s, {"faithfulness": 0.8, "context_recall": 0.7, "empty": 0.5}, {"hallucination": 0.2})
    assert lines == ["faithfulness = 0.750 is below 0.8 (--fail-under faithfulness=0.8)",
                     "empty: no scored samples (needs >= 0.5)",
                     "hallucination = 0.300 is above 0.2 (--fail-over hallucination=0.2)"]
