"""The target protocol: what every adapter is, what a run records about it, and the adapters' options."""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from ragkit.types import RagResponse, TestSample

TargetKind = Literal["callable", "http", "jsonl", "baseline", "langchain", "llamaindex", "haystack"]


class TargetSpec(BaseModel):
    """How the target was built; recorded in a run's spec.json (never any secret: header *names* only)."""

    kind: TargetKind
    name: str
    args: dict[str, Any] = Field(default_factory=dict)


@runtime_checkable
class Target(Protocol):
    """The RAG system under test."""

    spec: TargetSpec

    async def answer(self, sample: TestSample) -> RagResponse:
        """Answer one test question; failures are recorded in ``RagResponse.error``, never raised."""
        ...


class TargetOptions(BaseModel):
    """Adapter options (CLI flags of ``ragkit benchmark`` / ``ragkit run``)."""

    question_field: str = "question"
    """HTTP: request field that carries the question."""
    history_field: str = "history"
    """HTTP: request field that carries a conversation's earlier messages (turns after the first only)."""
    answer_field: str = "answer"
    """HTTP: response field (dotted path allowed) holding the answer."""
    contexts_field: str = "contexts"
    """HTTP: response field (dotted path allowed) holding the retrieved contexts."""
    header_env: dict[str, str] = Field(default_factory=dict)
    """HTTP: header name → environment variable holding its value."""
    timeout: float = 60.0
    retries: int = 2
    backoff: float = 0.5
    top_k: int = 4
    """baseline: chunks retrieved per question."""
    retrieval: Literal["bm25", "embedding"] = "bm25"
    """baseline: retrieval method."""
