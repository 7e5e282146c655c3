"""Conversations in the peers' multi-turn formats: a ragas ``MultiTurnSample`` record or a DeepEval
``ConversationalGolden`` is one whole conversation, where ragkit keeps one sample per turn.

Reading splits a record into its turns: turn k is a sample whose question is the k-th user message, whose history
holds the exchanges before it (with the assistant's replies, when the record has them) and whose response is the
assistant's reply to it. Writing joins a conversation's samples back into one record. What the peer's format has
no field for (each turn's reference answer and reference contexts with chunk ids, the sample ids) travels in the
user messages' ``metadata``, which both peers keep, so that a ragkit conversation written and read back is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import ValidationError

from ragkit.errors import DataError, validation_error
from ragkit.types import ContextRef, Conversation, EvalSample, RagResponse, TestSample, Turn

T = TypeVar("T")
_USER = {"human": "user", "user": "user"}
_ASSISTANT = {"ai": "assistant", "assistant": "assistant"}


def group_turns(items: Iterable[T], test: Callable[[T], TestSample]) -> list[list[T]]:
    """Each single question alone and each conversation's turns together (ordered by turn), in the order of their
    first item; ``test`` gives an item's TestSample (``lambda s: s.test`` for answered samples)."""
    groups: dict[str, list[T]] = {}
    for item in items:
        t = test(item)
        groups.setdefault(f"c:{t.conversation.id}" if t.conversation else f"s:{t.id}", []).append(item)
    return [sorted(g, key=lambda i: c.turn if (c := test(i).conversation) else 0) for g in groups.values()]


# -- reading -----------------------------------------------------------------------------------------


def _refs(items: Any, where: str, field: str) -> list[ContextRef]:
    out = []
    for n, item in enumerate(items or []):
        try:
            out.append(ContextRef(text=item) if isinstance(item, str) else ContextRef.model_validate(item))
        except ValidationError as exc:
            loc, msg = validation_error(exc) or ("", str(exc))
            raise DataError(where, f"{field}[{n}]: field '{loc}': {msg}") from None
    return out


class _Exchange:
    """One user message and what the assistant said to it, as read from a peer's message list."""

    def __init__(self, question: str, meta: dict[str, Any]) -> None:
        self.question, self.meta = question, meta
        self.replies: list[str] = []
        self.contexts: list[ContextRef] = []

    @property
    def answer(self) -> str | None:
        return "\n".join(self.replies) if self.replies else None


def exchanges(messages: list[Any], where: str, *, role_key: str, field: str,
              need_user: bool = True) -> list[_Exchange]:
    """User messages with the assistant's replies after each; other messages (tool calls) are skipped. With
    ``need_user``, a list without a user message is an error naming ``field``."""
    out: list[_Exchange] = []
    for n, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("content"), str):
            raise DataError(where, f"field '{field}[{n}]' must be a message with a 'content' string")
        role = str(m.get(role_key, ""))
        meta = m.get("metadata") or m.get("additional_metadata") or {}
        if role in _USER:
            out.append(_Exchange(m["content"], meta if isinstance(meta, dict) else {}))
        elif role in _ASSISTANT and out:
            out[-1].replies.append(m["content"])
            full = meta.get("retrieved_contexts") if isinstance(meta, dict) else None  # ragkit's, with chunk ids
            out[-1].contexts += _refs(full or m.get("retrieval_context"), where, f"{field}[{n}] contexts")
    if not out and need_user:
        raise DataError(where, f"field '{field}' has no user message")
    return out


def _turn_samples(said: list[_Exchange], conv_id: str, goal: str | None, where: str,
                  extra: dict[str, Any]) -> list[EvalSample]:
    """One EvalSample per exchange: its history is the exchanges before it."""
    samples: list[EvalSample] = []
    history: list[Turn] = []
    for k, ex in enumerate(said, 1):
        meta = dict(ex.meta)
        reference = meta.pop("reference_answer", None)
        refs = _refs(meta.pop("reference_contexts", None), where, f"turn {k} reference_contexts")
        try:
            test = TestSample(
                id=str(meta.pop("id", None) or f"{conv_id}-t{k}"), question=ex.question,
                reference_answer=reference, reference_contexts=refs,
                conversation=Conversation(id=conv_id, turn=k, goal=goal, turns=len(said)), history=list(history),
                **{key: meta.pop(key) for key in ("persona", "style", "length", "language") if key in meta},
                metadata={**extra, **meta},
            )
        except ValidationError as exc:
            loc, msg = validation_error(exc) or ("", str(exc))
            raise DataError(where, f"turn {k}: field '{loc}': {msg}") from None
        samples.append(EvalSample(test=test, response=RagResponse(answer=ex.answer or "",
                                                                  retrieved_contexts=ex.contexts)))
        history.append(Turn(question=ex.question, answer=ex.answer, reference_answer=reference,
                            reference_contexts=refs))
    return samples


def from_ragas_conversation(record: dict[str, Any], where: str, default_id: str) -> list[EvalSample]:
    """A ragas ``MultiTurnSample``: ``user_input`` (``human`` / ``ai`` / ``tool`` messages), ``reference`` (the
    outcome the conversation should reach: the goal here), ``reference_topics``."""
    said = exchanges(record["user_input"], where, role_key="type", field="user_input")
    conv_id = str(record.get("id") or default_id)
    extra = {"reference_topics": record["reference_topics"]} if record.get("reference_topics") else {}
    reference = record.get("reference")
    return _turn_samples(said, conv_id, reference if isinstance(reference, str) else None, where, extra)


def from_deepeval_conversation(record: dict[str, Any], where: str, default_id: str) -> list[EvalSample]:
    """A DeepEval ``ConversationalGolden`` (or test case): ``scenario``, ``turns`` (``role`` user / assistant,
    ``content``, ``retrieval_context``, ``metadata``), ``expected_outcome``, ``user_description``, ``name``."""
    turns = record.get("turns") or []
    if not isinstance(turns, list):
        raise DataError(where, "field 'turns' must be a list")
    said = exchanges(turns, where, role_key="role", field="turns")
    meta = dict(record.get("additional_metadata") or {})
    conv_id = str(meta.pop("conversation_id", None) or record.get("name") or default_id)
    goal = meta.pop("goal") if "goal" in meta else record.get("scenario")
    if record.get("user_description"):  # who the user is: each turn's persona, unless the turn says
        for ex in said:
            ex.meta.setdefault("persona", str(record["user_description"]))
    extra = {"expected_outcome": record["expected_outcome"]} if record.get("expected_outcome") else {}
    return _turn_samples(said, conv_id, goal, where, {**extra, **meta})


# -- writing -----------------------------------------------------------------------------------------


def _user_meta(s: EvalSample) -> dict[str, Any]:
    """What a user message carries beyond its words, for a lossless round trip."""
    t = s.test
    meta: dict[str, Any] = {"id": t.id, "reference_answer": t.reference_answer,
                            "reference_contexts": [c.model_dump(mode="json") for c in t.reference_contexts]}
    meta.update({k: getattr(t, k) for k in ("persona", "style", "length", "language") if getattr(t, k)})
    meta.update(t.metadata)
    return meta


def _answered(s: EvalSample) -> bool:
    return bool(s.response.answer or s.response.retrieved_contexts)


def to_ragas_conversation(turns: list[EvalSample]) -> dict[str, Any]:
    """One ``MultiTurnSample`` record for a conversation's samples (ordered by turn)."""
    messages: list[dict[str, Any]] = []
    for s in turns:
        messages.append({"content": s.test.question, "type": "human", "metadata": _user_meta(s)})
        if _answered(s):
            contexts = [c.model_dump(mode="json") for c in s.response.retrieved_contexts]
            messages.append({"content": s.response.answer, "type": "ai", "metadata": {"retrieved_contexts": contexts}})
    conv = turns[0].test.conversation
    assert conv is not None  # only conversations are grouped here
    return {"id": conv.id, "user_input": messages, "reference": conv.goal}


def to_deepeval_conversation(turns: list[EvalSample]) -> dict[str, Any]:
    """One ``ConversationalGolden`` record (a conversational test case, when the turns have answers)."""
    out: list[dict[str, Any]] = []
    for s in turns:
        out.append({"role": "user", "content": s.test.question, "metadata": _user_meta(s)})
        if _answered(s):
            out.append({"role": "assistant", "content": s.response.answer,
                        "retrieval_context": [c.text for c in s.response.retrieved_contexts] or None,
                        "metadata": {"retrieved_contexts": [c.model_dump(mode="json")
                                                            for c in s.response.retrieved_contexts]}})
    conv = turns[0].test.conversation
    assert conv is not None
    return {
        "name": conv.id, "scenario": conv.goal or turns[0].test.question, "turns": out,
        "user_description": turns[0].test.persona,
        "context": [c.text for s in turns for c in s.test.reference_contexts] or None,
        "additional_metadata": {"conversation_id": conv.id, "goal": conv.goal},
    }
