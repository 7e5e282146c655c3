"""The HTTP target: a JSON endpoint that answers questions."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ragkit.errors import ConfigError, DataError, TargetError, redact, register_secret
from ragkit.targets._normalise import short_error, to_response
from ragkit.targets._protocol import TargetOptions, TargetSpec
from ragkit.types import RagResponse, TestSample

HEADER_ENV_PREFIX = "RAGKIT_TARGET_HEADER_"


# -- HTTP --------------------------------------------------------------------------------------------


def resolve_headers(header_env: Mapping[str, str]) -> dict[str, str]:
    """Headers from ``RAGKIT_TARGET_HEADER_<NAME>`` variables plus explicit ``name → ENVVAR`` pairs."""
    headers: dict[str, str] = {}
    for key, value in os.environ.items():
        if key.startswith(HEADER_ENV_PREFIX) and len(key) > len(HEADER_ENV_PREFIX):
            headers[key[len(HEADER_ENV_PREFIX):].replace("_", "-").title()] = value
    for name, var in header_env.items():
        found = os.environ.get(var)
        if found is None:
            raise ConfigError(f"header {name}: environment variable {var} is not set")
        headers[name] = found
    return headers


_DEAD_STATUS = frozenset({401, 403, 404, 405})
"""Statuses that every question would get again: credentials refused, or a wrong URL or method."""


class HttpTarget:
    """A JSON endpoint: POST ``{question_field: question, "id": sample_id}``, read the answer and contexts. A
    turn of a conversation also sends ``history_field``: the conversation so far as ``{"role": "user" |
    "assistant", "content": ...}`` messages, oldest first (the question itself not among them).

    Connection errors, timeouts, 429 and 5xx are retried with exponential backoff; other 4xx are not.
    """

    def __init__(self, url: str, options: TargetOptions | None = None) -> None:
        self.url = url
        self.options = options or TargetOptions()
        extra = resolve_headers(self.options.header_env)
        for value in extra.values():
            register_secret(value)  # a header carries credentials: never let an echo of it reach a file
        self.headers = {"Content-Type": "application/json", **extra}
        o = self.options
        self.spec = TargetSpec(kind="http", name=url, args={
            "question_field": o.question_field, "answer_field": o.answer_field, "history_field": o.history_field,
            "contexts_field": o.contexts_field, "timeout": o.timeout, "retries": o.retries,
            "headers": sorted(k for k in self.headers if k != "Content-Type"),
        })
        self._client: Any = None
        self._answered = False
        """True once the endpoint gave one answer: from then on a failure is that sample's alone."""

    def _http(self) -> Any:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.options.timeout, headers=self.headers)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def answer(self, sample: TestSample) -> RagResponse:
        import httpx

        body: dict[str, Any] = {self.options.question_field: sample.question, "id": sample.id}
        if sample.history:
            body[self.options.history_field] = sample.messages()[:-1]
        started = time.perf_counter()
        error, dead = "", False
        for attempt in range(self.options.retries + 1):
            if attempt:
                delay = self.options.backoff * 2 ** (attempt - 1)
                await asyncio.sleep(delay * (0.5 + random.random() / 2))
            dead = False  # judged on the last attempt only
            try:
                reply = await self._http().post(self.url, json=body)
            except httpx.TimeoutException:
                error = f"timed out after {self.options.timeout:g}s"
                continue
            except httpx.HTTPError as exc:
                error, dead = f"connection failed: {short_error(exc)}", isinstance(exc, httpx.ConnectError)
                continue
            if reply.status_code == 429 or reply.status_code >= 500:
                error = f"HTTP {reply.status_code}: {reply.text[:200]}"
                continue
            if reply.status_code >= 400:
                error, dead = f"HTTP {reply.status_code}: {reply.text[:200]}", reply.status_code in _DEAD_STATUS
                break
            elapsed = time.perf_counter() - started
            try:
                data = reply.json()
                response = to_response(data, where=f"{self.url} (sample {sample.id})",
                                       answer_field=self.options.answer_field,
                                       contexts_field=self.options.contexts_field)
            except (ValueError, DataError, ValidationError) as exc:
                return RagResponse(error=f"bad reply: {short_error(exc)}", latency_s=elapsed)
            response.latency_s = elapsed
            self._answered = True
            return response
        tries = "" if self.options.retries == 0 else f" (after {attempt + 1} attempts)"
        if dead and not self._answered:
            # refused connections, or a wrong URL or credentials, before any answer: every question would fail
            raise TargetError(f"target {self.url} is unusable: {' '.join(error.split())}{tries}")
        return RagResponse(error=redact(f"{error}{tries}"), latency_s=time.perf_counter() - started)
