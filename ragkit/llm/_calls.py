"""What one model call is and how it fails: litellm imported once, the call and completion records, and the
classification of failures (retry, fatal, timeout) and of replies (the JSON inside, what is invalid about it)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from ragkit import _offline  # noqa: F401  (must run before litellm is imported)
from ragkit.errors import RagkitError

_litellm: Any = None


def litellm_module() -> Any:
    """Import litellm once, quietly, with the embedded ``local/`` provider registered."""
    global _litellm
    if _litellm is None:
        import litellm

        litellm.suppress_debug_info = True
        litellm.telemetry = False
        litellm.drop_params = True
        from ragkit.llm._provider import register

        register(litellm)
        _litellm = litellm
    return _litellm


@dataclass(frozen=True)
class CallInfo:
    """What the Judge is about to send: handed to test hooks (the scripted fake)."""

    prompt_name: str
    data: BaseModel | None
    messages: list[dict[str, str]]
    attempt: int
    """1 for the first ask, 2+ for re-asks after invalid output (retries of one ask share the number)."""
    schema: dict[str, Any] | None = None
    """The JSON schema the reply is decoded under (with the call's ``choices``); None for free text."""


@dataclass(frozen=True)
class Completion:
    text: str
    finish_reason: str | None
    logprobs: list[dict[str, Any]] | None = None


def retryable(exc: BaseException) -> bool:
    lt = litellm_module()
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return True
    transient = (lt.RateLimitError, lt.Timeout, lt.APIConnectionError, lt.InternalServerError,
                 lt.ServiceUnavailableError)
    if isinstance(exc, transient):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def connection_failure(exc: BaseException | None) -> str | None:
    """How the endpoint could not be connected to at all (litellm may wrap that as a 500 "Connection error"), or
    None: the innermost connection error's message, which names the address."""
    return next((f"{type(e).__name__}: {e}" for e in _chain(exc) if isinstance(e, ConnectionError)), None)


def is_timeout(exc: BaseException | None) -> bool:
    return isinstance(exc, asyncio.TimeoutError | TimeoutError) or isinstance(exc, litellm_module().Timeout)


def ragkit_cause(exc: BaseException) -> RagkitError | None:
    """A RagkitError that litellm wrapped (the local provider raises them), if any."""
    return next((e for e in _chain(exc) if isinstance(e, RagkitError)), None)


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc`` and every exception it was raised from or while handling, each once (causes before contexts)."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        todo += [current.__context__, current.__cause__]  # popped last-in first: the cause is followed first


def retry_after(exc: BaseException) -> float:
    """Seconds the provider asked us to wait (Retry-After header), else 0."""
    with contextlib.suppress(Exception):
        value = exc.response.headers.get("retry-after")  # type: ignore[attr-defined]
        if value is not None:
            return min(60.0, float(value))
    return 0.0


def first_line(exc: BaseException | None) -> str:
    text = str(exc) if exc is not None else ""
    return f"{type(exc).__name__}: {text.splitlines()[0][:300] if text else ''}"


def json_payload(raw: str) -> str:
    """The JSON object inside a reply (models sometimes wrap it in prose or code fences)."""
    text = raw.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fence:
        text = fence.group(1).strip()
    if not text.startswith("{"):
        start, end = text.find("{"), text.rfind("}")
        if start != -1 and end > start:
            text = text[start : end + 1]
    return text


def describe(exc: ValidationError | ValueError) -> str:
    if isinstance(exc, ValidationError):
        parts = []
        for err in exc.errors()[:4]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        return "; ".join(parts)
    return str(exc).splitlines()[0][:300]
