"""ragkit: how good is your RAG system, really?

The names of the heavy wings (evaluation, kg, llm, runs, synthesis: torch, spaCy, litellm behind them) are
imported on first use, so that ``import ragkit`` and ``ragkit --help`` stay fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ragkit import _offline  # noqa: F401  (first: keeps imports off the network)
from ragkit._sync import run_sync
from ragkit._version import __version__
from ragkit.errors import (
    ConfigError,
    CorpusError,
    DataError,
    GraphError,
    JudgeError,
    JudgeOutputError,
    JudgeTimeoutError,
    JudgeUnavailableError,
    MissingFieldError,
    PluginError,
    RagkitError,
    RunError,
    TargetError,
    UnknownPluginError,
)
from ragkit.registry import GeneratorInfo, MetricFn, MetricInfo, generator, metric, variant
from ragkit.settings import Settings
from ragkit.types import (
    Chunk,
    ContextRef,
    Conversation,
    Document,
    Element,
    EvalSample,
    Persona,
    PluginSpec,
    RagResponse,
    Scenario,
    Score,
    StageUsage,
    TestSample,
    Turn,
    Usage,
)

if TYPE_CHECKING:
    from ragkit.evaluation import (
        Aggregate,
        ClaimDetails,
        ClaimStore,
        EvalResult,
        MetricContext,
        SampleResult,
        Verdict,
        evaluate,
        evaluate_sync,
    )
    from ragkit.kg import KnowledgeGraph, build_graph
    from ragkit.llm import Embeddings, Judge, Prompt
    from ragkit.runs import load_samples
    from ragkit.synthesis import generate

_LAZY = {
    **dict.fromkeys(("Aggregate", "ClaimDetails", "ClaimStore", "EvalResult", "MetricContext", "SampleResult",
                     "Verdict", "evaluate", "evaluate_sync"), "ragkit.evaluation"),
    "KnowledgeGraph": "ragkit.kg", "build_graph": "ragkit.kg",
    "Embeddings": "ragkit.llm", "Judge": "ragkit.llm", "Prompt": "ragkit.llm",
    "load_samples": "ragkit.runs", "generate": "ragkit.synthesis",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ragkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Aggregate",
    "Chunk",
    "ClaimDetails",
    "ClaimStore",
    "ConfigError",
    "ContextRef",
    "Conversation",
    "CorpusError",
    "DataError",
    "Document",
    "Element",
    "Embeddings",
    "EvalResult",
    "EvalSample",
    "GeneratorInfo",
    "GraphError",
    "Judge",
    "JudgeError",
    "JudgeOutputError",
    "JudgeTimeoutError",
    "JudgeUnavailableError",
    "KnowledgeGraph",
    "MetricContext",
    "MetricFn",
    "MetricInfo",
    "MissingFieldError",
    "Persona",
    "PluginError",
    "PluginSpec",
    "Prompt",
    "RagResponse",
    "RagkitError",
    "RunError",
    "SampleResult",
    "Scenario",
    "Score",
    "Settings",
    "StageUsage",
    "TargetError",
    "TestSample",
    "Turn",
    "UnknownPluginError",
    "Usage",
    "Verdict",
    "__version__",
    "build_graph",
    "evaluate",
    "evaluate_sync",
    "generate",
    "generator",
    "load_samples",
    "metric",
    "run_sync",
    "variant",
]
