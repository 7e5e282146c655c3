"""The RAG system under test: one protocol and its adapters (callable, HTTP, JSONL answers, baseline)."""

from __future__ import annotations

from ragkit.targets._protocol import Target, TargetKind, TargetOptions, TargetSpec
from ragkit.targets._target import close_target, make_target

__all__ = [
    "Target",
    "TargetKind",
    "TargetOptions",
    "TargetSpec",
    "close_target",
    "make_target",
]
