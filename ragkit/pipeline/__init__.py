"""The whole job in one: build the graph, generate, ask the target, evaluate, report; resumable."""

from __future__ import annotations

from ragkit.pipeline._asking import run_target
from ragkit.pipeline._runner import Pipeline
from ragkit.pipeline._runs import (
    DEFAULT_METRICS,
    BenchmarkOptions,
    BenchmarkSpec,
    import_answers,
    new_run,
    open_run,
    resolve_metrics,
    set_metrics,
)

__all__ = [
    "BenchmarkOptions",
    "BenchmarkSpec",
    "DEFAULT_METRICS",
    "Pipeline",
    "import_answers",
    "new_run",
    "open_run",
    "resolve_metrics",
    "run_target",
    "set_metrics",
]
