"""Pydantic models for everything ragkit stores or exchanges."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

ElementKind = Literal["title", "heading", "paragraph", "list_item", "table", "code"]


class Element(BaseModel):
    """One typed block of a parsed document."""

    kind: ElementKind
    text: str
    level: int | None = None
    """Heading level (1 = top) for headings and titles."""
    page: int | None = None


class Document(BaseModel):
    """A parsed source file."""

    id: str
    """Stable id: a hash of the file's path relative to the corpus root."""
    path: str
    """Path relative to the corpus root (absolute when parsed as a single file)."""
    format: str
    content_hash: str
    language: str = "und"
    title: str | None = None
    elements: list[Element] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


class Chunk(BaseModel):
    """A retrievable piece of a document; ``id`` is a hash of its content."""

    id: str
    doc_id: str
    text: str
    index: int
    """Position of the chunk inside its document."""
    heading_path: list[str] = Field(default_factory=list)
    tokens: int = 0
    language: str = "und"
    page: int | None = None
    source: str = ""


class ContextRef(BaseModel):
    """A context passage: the chunk it came from, its text and its source file."""

    chunk_id: str | None = None
    text: str
    source: str | None = None
    distractor: bool = False
    """True for contexts added on purpose as noise (noisy_context samples)."""


class PluginSpec(BaseModel):
    """A plugin's registry name and the arguments it was built with."""

    name: str
    args: dict[str, Any] = Field(default_factory=dict)


class Persona(BaseModel):
    """Who asks the question."""

    name: str
    description: str


class Scenario(BaseModel):
    """What a generator plans to ask, before any LLM call. Generators subclass it."""

    model_config = ConfigDict(extra="allow")

    generator: str
    chunk_ids: list[str]
    persona: Persona | None = None
    style: str = "formal"
    length: str = "medium"
    language: str = "en"


class Turn(BaseModel):
    """An earlier exchange of a conversation, as the sample that follows it sees it."""

    question: str
    """What the user said."""
    answer: str | None = None
    """What the system under test replied; None in a test set, where the reference answer stands in for it."""
    reference_answer: str | None = None
    reference_contexts: list[ContextRef] = Field(default_factory=list)

    @property
    def reply(self) -> str:
        """The assistant's side of the exchange: the system's own answer when a run has one, else the
        reference."""
        return self.answer if self.answer is not None else (self.reference_answer or "")

    def exchange(self) -> str:
        """The turn as two lines, "User: …" then "Assistant: …" (its reply)."""
        return f"User: {self.question.strip()}\nAssistant: {self.reply.strip()}"


class Conversation(BaseModel):
    """Where a sample sits in a multi-turn conversation: every turn is a sample of its own, with the same
    conversation id, its position and the earlier turns in ``TestSample.history``."""

    id: str
    turn: int = Field(ge=1)
    """This sample's position, from 1."""
    goal: str | None = None
    """What the user wants from the whole conversation (DeepEval's scenario, ragas's reference outcome)."""
    turns: int | None = Field(default=None, ge=1)
    """How many turns the whole conversation has, when known: the last one is scored for the conversation as a
    whole (``conversation_completeness``)."""

    @model_validator(mode="after")
    def _check_position(self) -> Conversation:
        if self.turns is not None and self.turn > self.turns:
            raise ValueError(f"turn {self.turn} of a conversation of {self.turns} turn(s)")
        return self

    @property
    def is_last(self) -> bool:
        """This is the conversation's last turn (False when the number of turns is not known)."""
        return self.turns is not None and self.turn == self.turns


class TestSample(BaseModel):
    """One question of a test set, with its reference answer and contexts. A turn of a conversation also carries
    the conversation (``conversation``) and the turns before it (``history``)."""

    __test__ = False  # not a pytest class

    id: str
    question: str
    reference_answer: str | None = None
    reference_contexts: list[ContextRef] = Field(default_factory=list)
    generator: PluginSpec | None = None
    scenario: dict[str, Any] = Field(default_factory=dict)
    persona: str | None = None
    style: str | None = None
    length: str | None = None
    language: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    conversation: Conversation | None = None
    history: list[Turn] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_turns(self) -> TestSample:
        if self.history and self.conversation is None:
            raise ValueError("a sample with a history needs its conversation (id and turn)")
        if self.conversation is not None and len(self.history) != self.conversation.turn - 1:
            raise ValueError(f"turn {self.conversation.turn} of a conversation needs the {self.conversation.turn - 1} "
                             f"turn(s) before it in 'history', got {len(self.history)}")
        return self

    @model_serializer(mode="wrap")
    def _drop_empty_turns(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A single question is written as before conversations existed: no ``conversation`` or ``history``."""
        data: dict[str, Any] = handler(self)
        if self.conversation is None:
            data.pop("conversation", None)
            data.pop("history", None)
        return data

    def messages(self) -> list[dict[str, str]]:
        """The conversation so far as chat messages (``role`` user / assistant, ``content``), ending with this
        sample's question."""
        out: list[dict[str, str]] = []
        for turn in self.history:
            out += [{"role": "user", "content": turn.question}, {"role": "assistant", "content": turn.reply}]
        return [*out, {"role": "user", "content": self.question}]

    def transcript(self, *, question: bool = True) -> str:
        """The conversation as "User: …" / "Assistant: …" lines, ending with this sample's question (left out
        when ``question`` is False)."""
        lines = [t.exchange() for t in self.history] + ([f"User: {self.question.strip()}"] if question else [])
        return "\n".join(lines)


class RagResponse(BaseModel):
    """What the RAG system under test returned for one question."""

    answer: str = ""
    retrieved_contexts: list[ContextRef] = Field(default_factory=list)
    latency_s: float | None = None
    error: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("retrieved_contexts", mode="before")
    @classmethod
    def _strings_to_refs(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"text": v} if isinstance(v, str) else v for v in value]
        return value


class EvalSample(BaseModel):
    """A test sample with the target's response: what metrics score."""

    test: TestSample
    response: RagResponse = Field(default_factory=RagResponse)

    @property
    def id(self) -> str:
        return self.test.id


class Score(BaseModel):
    """One metric's verdict on one sample. ``None`` means unscorable, and then says why."""

    value: float | None
    explanation: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> Score:
        if self.value is not None and not math.isfinite(self.value):
            raise ValueError("score value must be finite; use None with an explanation")
        if self.value is None and not self.explanation:
            raise ValueError("a None score needs an explanation")
        return self


class StageUsage(BaseModel):
    """LLM usage of one stage (``kg.enrich``, ``generate``, ``evaluate`` ...)."""

    calls: int = 0
    """Model calls that returned (cache hits not included)."""
    cache_hits: int = 0
    failures: int = 0
    """Judge calls that ended in a JudgeError (after every retry and re-ask)."""
    retries: int = 0
    """Attempts repeated after a transient error (rate limit, timeout, 5xx, connection)."""
    reasks: int = 0
    """Re-asks after invalid or schema-violating output."""
    prompt_tokens: int = 0
    reused_tokens: int = 0
    """Prompt tokens the model did not evaluate again: a prefix it kept from an earlier call (the embedded model's
    saved prompt states; a provider's prompt cache)."""
    completion_tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0

    def tokens_text(self) -> str:
        """Prompt / completion tokens, with the share of prompt tokens reused: ``"18350/2347 (43% reused)"``."""
        text = f"{self.prompt_tokens}/{self.completion_tokens}"
        if self.reused_tokens and self.prompt_tokens:
            text += f" ({self.reused_tokens / self.prompt_tokens:.0%} reused)"
        return text

    def add(self, other: StageUsage) -> None:
        for name in type(self).model_fields:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def since(self, before: StageUsage) -> StageUsage:
        """The usage accumulated after the snapshot ``before`` was taken."""
        return StageUsage(**{name: getattr(self, name) - getattr(before, name) for name in type(self).model_fields})


class Usage(BaseModel):
    """LLM usage by stage."""

    stages: dict[str, StageUsage] = Field(default_factory=dict)

    def stage(self, name: str) -> StageUsage:
        return self.stages.setdefault(name, StageUsage())

    @property
    def total(self) -> StageUsage:
        out = StageUsage()
        for s in self.stages.values():
            out.add(s)
        return out
