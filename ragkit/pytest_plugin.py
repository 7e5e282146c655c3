"""The ``ragkit`` pytest plugin (registered by the ``pytest11`` entry point): RAG quality as ordinary tests.

    def test_answers_are_grounded(ragkit_eval):
        scores = ragkit_eval("answers.jsonl", metrics=["faithfulness", "hit_rate"])
        scores.check(faithfulness=0.8, hit_rate=0.9)            # at least (at most for lower-is-better metrics)

    def test_last_nightly_run(ragkit_eval):
        ragkit_eval.run("runs/nightly").check(context_recall=0.7)

``ragkit_eval(data, metrics=...)`` scores samples in any format ragkit reads (a file, a run directory, a
DataFrame, a list of ``EvalSample``) with the judge of ``--ragkit-model`` (or the ``ragkit_model`` ini value,
else ``RAGKIT_MODEL`` and the defaults). ``ragkit_eval.run(path)`` reads a finished run directory's scores.
``check`` fails the test with the metric, its mean, the threshold and the worst samples with their unsupported
claims, instead of a bare ``assert 0.62 >= 0.8``. Importing this module imports nothing heavy: pytest loads it
in every session of an environment where ragkit is installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

WORST = 3
"""Samples shown per failed threshold."""


@dataclass
class Scored:
    """One sample's score on one metric, with what a failure message shows of it."""

    sample_id: str
    question: str
    value: float
    unsupported: list[str] = field(default_factory=list)


@dataclass
class MetricScores:
    mean: float | None
    higher_is_better: bool
    samples: list[Scored]


class Scores:
    """The scores of one evaluation or run, by metric; ``check`` is the assertion."""

    def __init__(self, metrics: dict[str, MetricScores], source: str) -> None:
        self.metrics, self.source = metrics, source

    def __getitem__(self, metric: str) -> float | None:
        """The metric's mean."""
        return self.metrics[metric].mean

    def check(self, **thresholds: float) -> None:
        """Fail the test unless every metric's mean is at least its threshold (at most, for metrics where lower is
        better). Metric names with brackets go through ``**{"context_precision[reference=ids]": 0.7}``."""
        __tracebackhide__ = True
        unknown = sorted(set(thresholds) - set(self.metrics))
        if unknown:
            raise ValueError(f"no scores for {', '.join(unknown)} in {self.source} (it has: "
                             f"{', '.join(self.metrics)})")
        failed = [self._explain(name, limit) for name, limit in thresholds.items() if not self._passes(name, limit)]
        if failed:
            head = f"ragkit: {len(failed)} of {len(thresholds)} thresholds failed on {self.source}"
            raise AssertionError("\n".join([head, *failed]))

    def _passes(self, name: str, limit: float) -> bool:
        m = self.metrics[name]
        return m.mean is not None and (m.mean >= limit if m.higher_is_better else m.mean <= limit)

    def _explain(self, name: str, limit: float) -> str:
        m = self.metrics[name]
        if m.mean is None:
            return f"  {name}: no scored samples (threshold {limit:g})"
        sign = "<" if m.higher_is_better else ">"
        lines = [f"  {name} = {m.mean:.3f} {sign} {limit:g} ({len(m.samples)} samples scored); worst:"]
        worst = sorted(m.samples, key=lambda s: s.value, reverse=not m.higher_is_better)[:WORST]
        for s in worst:
            lines.append(f"    {s.sample_id} ({s.value:.2f}) {s.question[:100]!r}")
            lines += [f"      unsupported: {claim[:120]!r}" for claim in s.unsupported[:3]]
        return "\n".join(lines)


def _unsupported(details: dict[str, Any]) -> list[str]:
    """The claims no passage supports, from a score's claim details."""
    claims = (details or {}).get("claims") or {}
    rows = claims.get("claims") if isinstance(claims, dict) else None
    return [str(r.get("text", "")) for r in rows or [] if isinstance(r, dict) and not r.get("supported_by")]


def _collect(questions: dict[str, str], records: Sequence[tuple[str, dict[str, Any]]],
             directions: dict[str, bool], means: dict[str, float | None]) -> dict[str, MetricScores]:
    out = {name: MetricScores(mean, directions.get(name, True), []) for name, mean in means.items()}
    for sample_id, scores in records:
        for name, score in scores.items():
            if name in out and score.value is not None:
                out[name].samples.append(Scored(sample_id, questions.get(sample_id, ""), float(score.value),
                                                _unsupported(score.details)))
    return out


class Evaluator:
    """The ``ragkit_eval`` fixture's value: call it on samples, or ``.run(path)`` on a run directory."""

    def __init__(self, model: str | None) -> None:
        self.model = model

    def __call__(self, data: Any, metrics: Sequence[str], *, format: str | None = None,  # noqa: A002
                 **judge_args: Any) -> Scores:
        from ragkit.evaluation import evaluate_sync
        from ragkit.llm import Judge
        from ragkit.runs import load_samples
        from ragkit.settings import Settings
        from ragkit.types import EvalSample

        samples = list(data) if isinstance(data, list) and all(isinstance(s, EvalSample) for s in data) \
            else load_samples(data, format=format)
        settings = Settings.load(**({"model": self.model} if self.model else {}))
        result = evaluate_sync(samples, list(metrics), judge=Judge(settings=settings, **judge_args), progress=False)
        questions = {s.id: s.test.question for s in samples}
        directions = {k: a.higher_is_better for k, a in result.aggregates.items()}
        means = {k: a.mean for k, a in result.aggregates.items()}
        records = [(r.sample_id, r.scores) for r in result.samples]
        return Scores(_collect(questions, records, directions, means), str(data) if isinstance(data, str | Path)
                      else f"{len(samples)} samples")

    def run(self, path: str | Path) -> Scores:
        """The scores of a run directory (from benchmark, run + evaluate, or evaluate -o)."""
        from ragkit.report import summarize
        from ragkit.runs import RunDir

        run = RunDir.open(path)
        summary = summarize(run)
        questions = {s.id: s.question for s in run.samples()}
        records = [(sid, rec.scores) for sid, rec in run.scores().items()]
        directions = {k: m.higher_is_better for k, m in summary.metrics.items()}
        means = {k: m.mean for k, m in summary.metrics.items()}
        return Scores(_collect(questions, records, directions, means), str(path))


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ragkit")
    group.addoption("--ragkit-model", help="The judge of ragkit_eval: any litellm model string.")
    parser.addini("ragkit_model", "The judge of ragkit_eval (see --ragkit-model).", default="")


@pytest.fixture
def ragkit_eval(request: pytest.FixtureRequest) -> Evaluator:
    """Score samples or read a run, then ``.check(metric=threshold, ...)``: see ``ragkit.pytest_plugin``."""
    model = request.config.getoption("--ragkit-model") or request.config.getini("ragkit_model") or None
    return Evaluator(model)
