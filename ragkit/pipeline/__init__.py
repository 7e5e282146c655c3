"""The whole job in one: build the graph, generate, ask the target, evaluate, report; resumable."""

from __future__ import annotations

from ragkit.pipeline._asking import run_target
from ragkit.pipeline._runner import Pipeline
from ragkit.pipeline._runs import (
    CONVERSATION_METRICS,
    DEFAULT_METRICS,
    BenchmarkOptions,
    BenchmarkSpec,
    has_conversations,
    import_answers,
    new_run,
    open_run,
    resolve_metrics,
    set_metrics,
)

__all__ = [
    "BenchmarkOptions",
    "BenchmarkSpec",
    "CONVERSATION_METRICS",
    "DEFAULT_METRICS",
    "Pipeline",
    "has_conversations",
    "import_answers",
    "new_run",
    "open_run",
    "resolve_metrics",
    "run_target",
    "set_metrics",
]
