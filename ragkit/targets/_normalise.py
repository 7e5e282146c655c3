"""What a target returned, as a ``RagResponse``: answers and contexts from the common reply shapes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ragkit.errors import DataError, redact
from ragkit.types import ContextRef, RagResponse

# -- response normalisation --------------------------------------------------------------------------

_ANSWER_KEYS = ("answer", "response", "output", "text", "result")
_CONTEXT_KEYS = ("retrieved_contexts", "contexts", "context", "sources", "documents", "retrieved_context")
_TEXT_KEYS = ("text", "content", "page_content", "chunk", "passage")
_ID_KEYS = ("chunk_id", "id", "doc_id")


def dig(obj: Any, path: str) -> Any:
    """``obj["a"]["b"]`` for ``path="a.b"`` (list indexes allowed); None when any step is missing."""
    for part in path.split("."):
        if isinstance(obj, Mapping):
            obj = obj.get(part)
        elif isinstance(obj, list) and part.isdigit() and int(part) < len(obj):
            obj = obj[int(part)]
        else:
            return None
    return obj


def to_context(item: Any, where: str) -> ContextRef:
    """A context from a string, a ContextRef or a dict with text / id / source keys."""
    if isinstance(item, ContextRef):
        return item
    if isinstance(item, str):
        return ContextRef(text=item)
    if isinstance(item, Mapping):
        text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), None)
        if text is None:
            raise DataError(where, f"a context has no text field (one of {', '.join(_TEXT_KEYS)})")
        cid = next((str(item[k]) for k in _ID_KEYS if item.get(k) not in (None, "")), None)
        found = item.get("metadata")
        meta: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        source = item.get("source") or meta.get("source")
        return ContextRef(chunk_id=cid, text=text, source=str(source) if source else None)
    raise DataError(where, f"a context must be a string or an object, got {type(item).__name__}")


def to_response(
    value: Any, *, where: str, answer_field: str | None = None, contexts_field: str | None = None
) -> RagResponse:
    """Normalise what a target returned (RagResponse, dict, or a plain answer string)."""
    if isinstance(value, RagResponse):
        return value
    if isinstance(value, str):
        return RagResponse(answer=value)
    if not isinstance(value, Mapping):
        raise DataError(where, f"expected a dict or RagResponse, got {type(value).__name__}")
    if answer_field:
        answer = dig(value, answer_field)
    else:
        answer = next((value[k] for k in _ANSWER_KEYS if k in value), None)
    if answer is None:
        field = answer_field or "answer"
        raise DataError(where, f"no '{field}' field in the reply (keys: {', '.join(list(value)[:8])})")
    if not isinstance(answer, str):
        answer = json.dumps(answer, ensure_ascii=False) if not isinstance(answer, int | float) else str(answer)
    if contexts_field:
        raw = dig(value, contexts_field)
        if raw is None:
            raw = next((value[k] for k in _CONTEXT_KEYS if k in value), None)
    else:
        raw = next((value[k] for k in _CONTEXT_KEYS if k in value), None)
    raw = [] if raw is None else raw
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise DataError(where, f"contexts must be a list, got {type(raw).__name__}")
    contexts = [to_context(c, where) for c in raw]
    found = value.get("metadata")
    meta: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    return RagResponse(answer=answer, retrieved_contexts=contexts, metadata=dict(meta))


def short_error(exc: BaseException) -> str:
    text = redact(str(exc)).splitlines()[0][:300] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
