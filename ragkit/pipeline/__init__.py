"""The whole job in one: build the graph, generate, ask the target, evaluate, report; resumable."""

from __future__ import annotations

from ragkit.pipeline._runner import (
    BenchmarkOptions,
    Pipeline,
    new_run,
    open_run,
    resolve_metrics,
    run_target,
)

__all__ = [
    "BenchmarkOptions",
    "Pipeline",
    "new_run",
    "open_run",
    "resolve_metrics",
    "run_target",
]
