"""What evaluation returns: per-sample scores, per-metric aggregates, usage."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ragkit._atomic import write_atomic
from ragkit.types import PluginSpec, Score, Usage

if TYPE_CHECKING:
    import pandas as pd

FORMAT_VERSION = 1


class Aggregate(BaseModel):
    """One metric over the whole dataset. ``mean`` skips unscorable and failed samples."""

    mean: float | None
    count: int
    """Samples with a value."""
    unscorable: int = 0
    """Samples where the metric does not apply (None with an explanation)."""
    failed: int = 0
    """Samples where the judge or the target failed."""
    std: float | None = None
    min: float | None = None
    max: float | None = None
    higher_is_better: bool = True
    range: tuple[float, float] = (0.0, 1.0)


class SampleResult(BaseModel):
    """Every metric's score on one sample, keyed by metric key."""

    sample_id: str
    scores: dict[str, Score] = Field(default_factory=dict)
    error: str | None = None
    """The target's error for this sample (then no metric was run)."""
    seconds: float | None = None


class EvalResult(BaseModel):
    """What ``evaluate`` returns: per-sample scores, aggregates, the metric specs and the LLM usage."""

    format_version: int = FORMAT_VERSION
    samples: list[SampleResult]
    aggregates: dict[str, Aggregate]
    metrics: list[PluginSpec]
    usage: Usage = Field(default_factory=Usage)
    claim_stats: dict[str, int] = Field(default_factory=dict)
    """split / check calls made by the claim engine, memo hits, padded verdicts."""
    seconds: float = 0.0

    def to_pandas(self) -> pd.DataFrame:
        """One row per sample: ``sample_id``, ``error`` and one column per metric key (NaN-free: None → NA)."""
        import pandas as pd

        rows = []
        for s in self.samples:
            row: dict[str, Any] = {"sample_id": s.sample_id, "error": s.error}
            row.update({k: v.value for k, v in s.scores.items()})
            rows.append(row)
        return pd.DataFrame(rows, columns=["sample_id", "error", *self.aggregates])

    def _repr_html_(self) -> str:
        """The aggregates as a table (notebooks)."""
        from ragkit._tables import html_table

        rows = [(k, a.mean, a.std, a.count, a.unscorable, a.failed, "↑" if a.higher_is_better else "↓")
                for k, a in self.aggregates.items()]
        return html_table(("metric", "mean", "std", "scored", "unscorable", "failed", "better"), rows,
                          caption=f"ragkit evaluation · {len(self.samples)} samples")

    def to_json(self, path: str | Path | None = None, *, indent: int | None = 2) -> str:
        """The result as JSON (written to ``path`` when given)."""
        text = self.model_dump_json(indent=indent)
        if path is not None:
            write_atomic(path, text)
        return text

    @classmethod
    def from_json(cls, text_or_path: str | Path) -> EvalResult:
        path = Path(text_or_path) if not str(text_or_path).lstrip().startswith("{") else None
        return cls.model_validate_json(path.read_text(encoding="utf-8") if path else str(text_or_path))
