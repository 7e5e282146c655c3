"""ragkit: how good is your RAG system, really?"""

from . import _offline  # noqa: F401  (first: keeps imports off the network)
from .claims import ClaimDetails, ClaimStore, MetricContext, Verdict
from .datasets import load_samples
from .errors import (
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
from .evaluate import Aggregate, EvalResult, SampleResult, evaluate, evaluate_sync
from .llm import Judge
from .prompts import Prompt
from .registry import MetricFn, MetricInfo, generator, metric
from .settings import Settings
from .types import (
    Chunk,
    ContextRef,
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
    Usage,
)

__version__ = "0.1.0"

__all__ = [
    "Aggregate",
    "Chunk",
    "ClaimDetails",
    "ClaimStore",
    "ConfigError",
    "ContextRef",
    "CorpusError",
    "DataError",
    "Document",
    "Element",
    "EvalResult",
    "EvalSample",
    "GraphError",
    "Judge",
    "JudgeError",
    "JudgeOutputError",
    "JudgeTimeoutError",
    "JudgeUnavailableError",
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
    "UnknownPluginError",
    "Usage",
    "Verdict",
    "__version__",
    "evaluate",
    "evaluate_sync",
    "generator",
    "load_samples",
    "metric",
]
