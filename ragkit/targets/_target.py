"""The RAG system under test: one protocol and four adapters (callable, HTTP endpoint, JSONL answers, baseline).

A target answers a test sample with a ``RagResponse`` (answer, retrieved contexts, latency). Adapters never raise
for a failed question: the failure is recorded on the response (``error``) and the run goes on.

    make_target("mypkg.rag:answer")                 # a Python callable, sync or async
    make_target("http://127.0.0.1:8000/query")      # JSON in / JSON out
    make_target("answers.jsonl")                    # precomputed answers, matched by sample id or question
    make_target("baseline", kg=kg, judge=judge)     # the built-in BM25 / embedding RAG (ragkit.targets._baseline)
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import json
import os
import random
import re
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragkit.errors import ConfigError, DataError, TargetError, redact, register_secret
from ragkit.targets._protocol import Target, TargetOptions, TargetSpec
from ragkit.types import ContextRef, RagResponse, TestSample

HEADER_ENV_PREFIX = "RAGKIT_TARGET_HEADER_"


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


def _short(exc: BaseException) -> str:
    text = redact(str(exc)).splitlines()[0][:300] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# -- callable ----------------------------------------------------------------------------------------


def load_callable(ref: str) -> Callable[..., Any]:
    """Import ``module:function`` or ``path/to/file.py:function``."""
    module_name, _, attr = ref.rpartition(":")
    if not module_name or not attr:
        raise ConfigError(f"target '{ref}' is not of the form module:function")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise ConfigError(f"target '{ref}': no such file {path}")
            spec = importlib.util.spec_from_file_location(path.stem, path)
            if spec is None or spec.loader is None:
                raise ConfigError(f"target '{ref}': cannot import {path}")
            module = importlib.util.module_from_spec(spec)
            sys.modules.setdefault(path.stem, module)
            spec.loader.exec_module(module)
        else:
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"target '{ref}': cannot import {module_name} ({_short(exc)})") from exc
    fn: Any = module
    for part in attr.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise ConfigError(f"target '{ref}': {module_name} has no attribute '{attr}'")
    if not callable(fn):
        raise ConfigError(f"target '{ref}': {attr} is not callable")
    loaded: Callable[..., Any] = fn
    return loaded


def _wants_sample(fn: Callable[..., Any]) -> bool:
    """True when the callable's first parameter is a TestSample (by annotation or the name ``sample``)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    if not params:
        raise ConfigError(f"target {getattr(fn, '__name__', fn)!r} takes no arguments; it must take the question")
    first = params[0]
    return first.name == "sample" or first.annotation in (TestSample, "TestSample")


class CallableTarget:
    """A Python function ``f(question) -> dict | RagResponse | str`` (or ``f(sample)``), sync or async.

    Sync functions run in a worker thread so that several questions can be in flight.
    """

    def __init__(self, fn: Callable[..., Any], *, name: str | None = None) -> None:
        self.fn = fn
        self.pass_sample = _wants_sample(fn)
        ref = name or f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', repr(fn))}"
        self.spec = TargetSpec(kind="callable", name=ref, args={})

    async def answer(self, sample: TestSample) -> RagResponse:
        arg: Any = sample if self.pass_sample else sample.question
        started = time.perf_counter()
        try:
            if inspect.iscoroutinefunction(self.fn):
                value = await self.fn(arg)
            else:
                value = await asyncio.to_thread(self.fn, arg)
                if inspect.isawaitable(value):
                    value = await value
            response = to_response(value, where=f"target {self.spec.name}, sample {sample.id}")
        except Exception as exc:  # the target's own bug: recorded on the sample
            return RagResponse(error=f"target raised {_short(exc)}", latency_s=time.perf_counter() - started)
        if response.latency_s is None:
            response.latency_s = time.perf_counter() - started
        return response


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
    """A JSON endpoint: POST ``{question_field: question, "id": sample_id}``, read the answer and contexts.

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
            "question_field": o.question_field, "answer_field": o.answer_field,
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

        body = {self.options.question_field: sample.question, "id": sample.id}
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
                error, dead = f"connection failed: {_short(exc)}", isinstance(exc, httpx.ConnectError)
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
                return RagResponse(error=f"bad reply: {_short(exc)}", latency_s=elapsed)
            response.latency_s = elapsed
            self._answered = True
            return response
        tries = "" if self.options.retries == 0 else f" (after {attempt + 1} attempts)"
        if dead and not self._answered:
            # refused connections, or a wrong URL or credentials, before any answer: every question would fail
            raise TargetError(f"target {self.url} is unusable: {' '.join(error.split())}{tries}")
        return RagResponse(error=redact(f"{error}{tries}"), latency_s=time.perf_counter() - started)


# -- precomputed answers -----------------------------------------------------------------------------


def _norm_question(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


class JsonlTarget:
    """Precomputed answers: a JSONL file of ``{"id" | "question", "answer", "contexts"}`` lines.

    Also reads ragkit EvalSample lines (``{"test": ..., "response": ...}``) and ragas column names
    (``user_input``, ``response``, ``retrieved_contexts``). Lines are matched by sample id, else by question.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.by_id: dict[str, RagResponse] = {}
        self.by_question: dict[str, RagResponse] = {}
        self._load()
        self.spec = TargetSpec(kind="jsonl", name=str(self.path), args={"answers": len(self.by_id) +
                                                                         len(self.by_question)})

    def _load(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise ConfigError(f"answers file {self.path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"answers file {self.path} cannot be read: {exc}") from None
        for lineno, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{self.path}:{lineno}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(where, f"not valid JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise DataError(where, "each line must be a JSON object")
            if isinstance(row.get("test"), dict) and "response" in row:
                test, row = row["test"], row["response"]
                sid, question = test.get("id"), test.get("question")
            else:
                sid, question = row.get("id") or row.get("sample_id"), row.get("question") or row.get("user_input")
            if sid is None and question is None:
                raise DataError(where, "a line needs an 'id' or a 'question' to match it to a sample")
            response = to_response(row, where=where)
            if sid is not None:
                self.by_id[str(sid)] = response
            if isinstance(question, str):
                self.by_question[_norm_question(question)] = response

    async def answer(self, sample: TestSample) -> RagResponse:
        found = self.by_id.get(sample.id) or self.by_question.get(_norm_question(sample.question))
        if found is None:
            return RagResponse(error=f"no precomputed answer for sample {sample.id} in {self.path} "
                                     "(matched by id, then by question)")
        return found.model_copy(deep=True)


# -- factory -----------------------------------------------------------------------------------------


def make_target(
    ref: str,
    *,
    options: TargetOptions | None = None,
    kg: Any = None,
    judge: Any = None,
    embeddings: Any = None,
) -> Target:
    """Build a target from its command-line form (see the module docstring)."""
    options = options or TargetOptions()
    if ref == "baseline":
        if kg is None or judge is None:
            raise ConfigError("the baseline target needs a document folder (for its index) and a model")
        from ragkit.targets._baseline import BaselineRag

        return BaselineRag(kg, judge, top_k=options.top_k, retrieval=options.retrieval, embeddings=embeddings)
    if re.match(r"^https?://", ref):
        return HttpTarget(ref, options)
    if ref.endswith((".jsonl", ".json")) or (Path(ref).is_file() and ":" not in ref):
        return JsonlTarget(ref)
    if ":" in ref:
        return CallableTarget(load_callable(ref), name=ref)
    raise ConfigError(
        f"cannot tell what target '{ref}' is: use module:function, http(s)://..., a .jsonl file of answers, "
        "or baseline"
    )


async def close_target(target: Target) -> None:
    """Release a target's resources (HTTP connections)."""
    closer = getattr(target, "aclose", None)
    if closer is not None:
        await closer()


def describe_failure(target: Target, exc: BaseException) -> TargetError:
    """A TargetError for failures outside any one sample (for example the target cannot start)."""
    return TargetError(f"target {target.spec.name} failed: {_short(exc)}")
