"""ragkit: how good is your RAG system, really?"""

from . import _offline  # noqa: F401  (first: keeps imports off the network)
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
    "Chunk",
    "ConfigError",
    "ContextRef",
    "CorpusError",
    "DataError",
    "Document",
    "Element",
    "EvalSample",
    "GraphError",
    "Judge",
    "JudgeError",
    "JudgeOutputError",
    "JudgeTimeoutError",
    "JudgeUnavailableError",
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
    "Scenario",
    "Score",
    "Settings",
    "StageUsage",
    "TargetError",
    "TestSample",
    "UnknownPluginError",
    "Usage",
    "__version__",
    "generator",
    "metric",
]
