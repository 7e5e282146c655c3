"""The run summary's data: what summary.json holds (written by ``summarize``, read by the views and advice)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ragkit.runs import FORMAT_VERSION
from ragkit.text import counts_text
from ragkit.types import StageUsage

STAGES = ("kg", "generate", "target", "evaluate", "report")
BREAKDOWNS = ("generator", "persona", "style")
NOT_SCORED = "not scored"
"""Prefix of the error of a score record written for a sample whose target call failed."""


class NotScored(BaseModel):
    """One reason a metric has no score for some samples, and how many."""

    kind: Literal["failed", "unscorable", "skipped"]
    reason: str
    samples: int


class MetricSummary(BaseModel):
    """Aggregate of one metric over the scored samples."""

    mean: float | None = None
    low: float | None = None
    """95% bootstrap CI (None with fewer than 2 scored samples)."""
    high: float | None = None
    scored: int = 0
    unscorable: int = 0
    """The metric does not apply (None with an explanation)."""
    failed: int = 0
    """The judge or the metric failed (None with an error)."""
    skipped: int = 0
    """Not evaluated: the target failed on the sample."""
    higher_is_better: bool = True
    not_scored: list[NotScored] = Field(default_factory=list)
    """Why the failed, unscorable and skipped samples have no score, most common reason first (a few per kind)."""


class GroupRow(BaseModel):
    """Metric means of one group of samples (one generator, persona or style)."""

    group: str
    n: int
    means: dict[str, float | None] = Field(default_factory=dict)


class SampleBrief(BaseModel):
    """One line of the slowest / worst lists."""

    id: str
    question: str
    generator: str | None = None
    latency_s: float | None = None
    quality: float | None = None
    """Mean of the sample's scores, each scaled to 0..1 with 1 = best."""
    error: str | None = None


class StageTime(BaseModel):
    """Wall time and LLM usage of a stage, summed over every session of the run."""

    seconds: float = 0.0
    sessions: int = 0
    items: int = 0
    usage: StageUsage = Field(default_factory=StageUsage)
    dropped: dict[str, int] = Field(default_factory=dict)
    """generate: candidates dropped, by reason (the kept ones are ``items``)."""

    def drops_text(self) -> str:
        """"dropped 6 of 10 candidates (not_answerable 3, single_passage 2, …)", or "" when none was."""
        total = sum(self.dropped.values())
        if not total:
            return ""
        return f"dropped {total} of {total + self.items} candidates ({counts_text(self.dropped)})"


class Counts(BaseModel):
    requested: int = 0
    samples: int = 0
    responses: int = 0
    target_errors: int = 0
    scored: int = 0
    eval_errors: int = 0
    unscorable: int = 0


class CalibratedMetric(BaseModel):
    """How a metric, scored by this run's judge, agreed with the user's labels (``ragkit calibrate``), and the
    prediction-powered mean of the labels' quantity over this run."""

    labels: str
    """binary or ordinal"""
    n_labels: int
    auc: float | None = None
    kappa: float | None = None
    threshold: float | None = None
    spearman: float | None = None
    ppi_mean: float | None = None
    ppi_low: float | None = None
    ppi_high: float | None = None
    calibrated: str = ""
    """When, and from which labels file."""


class Summary(BaseModel):
    """summary.json."""

    format_version: int = FORMAT_VERSION
    run: str
    target: str
    model: str
    complete: bool
    counts: Counts
    metrics: dict[str, MetricSummary] = Field(default_factory=dict)
    breakdowns: dict[str, list[GroupRow]] = Field(default_factory=dict)
    slowest: list[SampleBrief] = Field(default_factory=list)
    worst: list[SampleBrief] = Field(default_factory=list)
    stages: dict[str, StageTime] = Field(default_factory=dict)
    wall_seconds: float = 0.0
    llm_calls: int = 0
    llm_calls_per_sample: float | None = None
    """Model calls (cache misses) of generation, target and evaluation, divided by the samples."""
    advice: list[Any] = Field(default_factory=list)
    """ragkit.report._advice.Advice items (plain dicts in the JSON)."""
    calibration: dict[str, CalibratedMetric] = Field(default_factory=dict)
    """Per metric with a saved calibration for this run's judge."""

    def to_pandas(self) -> Any:
        """One row per metric: mean, its 95% interval, the counts and the direction."""
        import pandas as pd

        return pd.DataFrame([{"metric": k, **m.model_dump(exclude={"not_scored"})} for k, m in self.metrics.items()])

    def _repr_html_(self) -> str:
        """The metric table (notebooks)."""
        from ragkit._tables import html_table

        rows = [(k, m.mean, m.low, m.high, m.scored, m.unscorable, m.failed, "↑" if m.higher_is_better else "↓")
                for k, m in self.metrics.items()]
        return html_table(("metric", "mean", "95% low", "95% high", "scored", "unscorable", "failed", "better"),
                          rows, caption=f"{self.run} · target {self.target} · judge {self.model} · "
                                        f"{self.counts.scored} scored")
