"""The RAG system under test: one protocol and its adapters (callable, HTTP, JSONL answers, baseline,
LangChain, LlamaIndex, Haystack)."""

from __future__ import annotations

from ragkit.targets._frameworks import FrameworkTarget
from ragkit.targets._protocol import Target, TargetKind, TargetOptions, TargetSpec
from ragkit.targets._target import close_target, make_target, target_kind

__all__ = [
    "FrameworkTarget",
    "Target",
    "TargetKind",
    "TargetOptions",
    "TargetSpec",
    "close_target",
    "make_target",
    "target_kind",
]
