"""What a generation run is asked for and what it reports: the default mix, exact shares, per-generator reports."""

from __future__ import annotations

import math
from collections import Counter

from pydantic import BaseModel, Field

from ragkit.errors import ConfigError
from ragkit.registry import lookup
from ragkit.synthesis._conversation import conversation_turns
from ragkit.types import Persona, StageUsage, TestSample, Usage

DEFAULT_DISTRIBUTION: dict[str, float] = {
    "single_hop": 0.3,
    "multi_hop": 0.2,
    "abstract": 0.15,
    "noisy_context": 0.15,
    "comparison": 0.1,
    "unanswerable": 0.1,
}
"""The default mix: mostly factual lookups, a fifth needing two documents, the rest testing harder behaviour."""


class GeneratorReport(BaseModel):
    """What happened to one generator's share."""

    name: str
    weight: float
    requested: int
    """Its exact share of n by the weights."""
    target: int = 0
    """What it was asked to keep after shares moved between generators."""
    planned: int = 0
    kept: int = 0
    dropped: dict[str, int] = Field(default_factory=dict)
    """Dropped candidates by reason."""
    examples: dict[str, str] = Field(default_factory=dict)
    """One example detail per drop reason."""
    notes: list[str] = Field(default_factory=list)
    usage: StageUsage = Field(default_factory=StageUsage)

    @property
    def dropped_total(self) -> int:
        return sum(self.dropped.values())


class GenerationResult(BaseModel):
    """The kept samples, and why there are not more."""

    samples: list[TestSample] = Field(default_factory=list)
    requested: int
    dropped_samples: list[TestSample] = Field(default_factory=list)
    """The candidates the critic or the run dropped, in order, each with ``metadata["dropped"]`` (reason and
    detail) and, when the critic's LLM checks ran, ``metadata["critic"]``."""
    report: dict[str, GeneratorReport] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    personas: list[Persona] = Field(default_factory=list)
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return len(self.samples) == self.requested

    def written(self) -> list[TestSample]:
        """The kept samples as a test set holds them: a conversation as one sample per turn."""
        return [turn for sample in self.samples for turn in conversation_turns(sample)]

    @property
    def dropped(self) -> Counter[str]:
        """Dropped candidates by reason, over every generator."""
        out: Counter[str] = Counter()
        for report in self.report.values():
            out.update(report.dropped)
        return out


def largest_remainder(weights: dict[str, float], n: int) -> dict[str, int]:
    """Exact integer shares of ``n`` proportional to ``weights`` (ties go to the earlier key)."""
    total = sum(weights.values())
    if n <= 0 or total <= 0:
        return {k: 0 for k in weights}
    raw = {k: n * w / total for k, w in weights.items()}
    out = {k: math.floor(v) for k, v in raw.items()}
    order = sorted(weights, key=lambda k: (-(raw[k] - out[k]), list(weights).index(k)))
    for k in order[: n - sum(out.values())]:
        out[k] += 1
    return out


def check_distribution(distribution: dict[str, float]) -> dict[str, float]:
    """Validated weights (every name registered, weights finite and ≥ 0, at least one > 0)."""
    if not distribution:
        raise ConfigError("the generator distribution is empty; give at least one generator=weight")
    for name, weight in distribution.items():
        lookup("generator", name)
        if not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise ConfigError(f"generator weight for '{name}' must be a number >= 0, got {weight!r}")
    if sum(distribution.values()) <= 0:
        raise ConfigError("every generator weight is 0; give at least one positive weight")
    return {k: float(v) for k, v in distribution.items()}
