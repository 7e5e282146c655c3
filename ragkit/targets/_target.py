"""The RAG system under test: one protocol and its adapters (callable, HTTP endpoint, JSONL answers, baseline, and
the LangChain / LlamaIndex / Haystack objects of ``_frameworks``).

A target answers a test sample with a ``RagResponse`` (answer, retrieved contexts, latency). Adapters never raise
for a failed question: the failure is recorded on the response (``error``) and the run goes on.

    make_target("mypkg.rag:answer")                 # a Python callable, sync or async
    make_target("http://127.0.0.1:8000/query")      # JSON in / JSON out
    make_target("answers.jsonl")                    # precomputed answers, matched by sample id or question
    make_target("baseline", kg=kg, judge=judge)     # the built-in BM25 / embedding RAG (ragkit.targets._baseline)
    make_target("langchain:myapp.chains:rag")       # a LangChain runnable (llamaindex:..., haystack:... alike)
    make_target(query_engine)                       # a framework object or a callable, from Python
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragkit.errors import ConfigError, DataError, TargetError
from ragkit.targets._frameworks import (
    FRAMEWORKS,
    NO_HISTORY,
    FrameworkTarget,
    detect_framework,
    load_framework_target,
)
from ragkit.targets._http import HttpTarget
from ragkit.targets._normalise import short_error, to_response
from ragkit.targets._protocol import Target, TargetKind, TargetOptions, TargetSpec
from ragkit.types import RagResponse, TestSample

# -- callable ----------------------------------------------------------------------------------------


def load_object(path: str, ref: str) -> Any:
    """Import ``module:attr`` or ``path/to/file.py:attr`` (``ref`` is the target as given, for messages)."""
    module_name, _, attr = path.rpartition(":")
    if not module_name or not attr:
        raise ConfigError(f"target '{ref}' is not of the form module:name")
    try:
        if module_name.endswith(".py"):
            file = Path(module_name)
            if not file.is_file():
                raise ConfigError(f"target '{ref}': no such file {file}")
            spec = importlib.util.spec_from_file_location(file.stem, file)
            if spec is None or spec.loader is None:
                raise ConfigError(f"target '{ref}': cannot import {file}")
            module = importlib.util.module_from_spec(spec)
            sys.modules.setdefault(file.stem, module)
            spec.loader.exec_module(module)
        else:
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"target '{ref}': cannot import {module_name} ({short_error(exc)})") from exc
    obj: Any = module
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise ConfigError(f"target '{ref}': {module_name} has no attribute '{attr}'")
    return obj


def load_callable(ref: str) -> Callable[..., Any]:
    """Import ``module:function`` or ``path/to/file.py:function``."""
    fn = load_object(ref, ref)
    if not callable(fn):
        raise ConfigError(f"target '{ref}': {ref.rpartition(':')[2]} is not callable")
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


def _takes_history(fn: Callable[..., Any]) -> bool:
    """True when the callable has a ``history`` parameter (or takes ``**kwargs``)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "history" or p.kind is p.VAR_KEYWORD for p in params)


class CallableTarget:
    """A Python function ``f(question) -> dict | RagResponse | str`` (or ``f(sample)``), sync or async.

    A turn of a conversation reaches ``f(sample)`` with ``sample.history`` (``sample.messages()`` gives the chat
    messages), and ``f(question, history=...)`` with the earlier messages (``{"role", "content"}``, oldest first)
    when ``f`` has a ``history`` parameter. Sync functions run in a worker thread so that several questions can be
    in flight.
    """

    def __init__(self, fn: Callable[..., Any], *, name: str | None = None) -> None:
        self.fn = fn
        self.pass_sample = _wants_sample(fn)
        self.pass_history = not self.pass_sample and _takes_history(fn)
        ref = name or f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', repr(fn))}"
        self.spec = TargetSpec(kind="callable", name=ref, args={})

    async def answer(self, sample: TestSample) -> RagResponse:
        arg: Any = sample if self.pass_sample else sample.question
        kwargs = {"history": sample.messages()[:-1]} if self.pass_history else {}
        started = time.perf_counter()
        try:
            if inspect.iscoroutinefunction(self.fn):
                value = await self.fn(arg, **kwargs)
            else:
                value = await asyncio.to_thread(self.fn, arg, **kwargs)
                if inspect.isawaitable(value):
                    value = await value
            response = to_response(value, where=f"target {self.spec.name}, sample {sample.id}")
        except Exception as exc:  # the target's own bug: recorded on the sample
            return RagResponse(error=f"target raised {short_error(exc)}", latency_s=time.perf_counter() - started)
        if response.latency_s is None:
            response.latency_s = time.perf_counter() - started
        if sample.history and not (self.pass_sample or self.pass_history):
            response.metadata["history"] = NO_HISTORY
        return response


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


def target_kind(ref: str) -> TargetKind:
    """What kind of target a command-line reference names (see ``make_target``)."""
    prefix = ref.partition(":")[0]
    if prefix in FRAMEWORKS:
        return prefix  # type: ignore[return-value]
    if ref == "baseline":
        return "baseline"
    if re.match(r"^https?://", ref):
        return "http"
    if ref.endswith((".jsonl", ".json")) or (Path(ref).is_file() and ":" not in ref):
        return "jsonl"
    if ":" in ref:
        return "callable"
    raise ConfigError(
        f"cannot tell what target '{ref}' is: use module:function, langchain:module:object (or llamaindex:, "
        "haystack:), http(s)://..., a .jsonl file of answers, or baseline"
    )


def make_target(
    ref: Any,
    *,
    options: TargetOptions | None = None,
    kg: Any = None,
    judge: Any = None,
    embeddings: Any = None,
) -> Target:
    """Build a target from its command-line form (see the module docstring), or from a Python object: a
    LangChain runnable, LlamaIndex query engine, Haystack pipeline, or a callable."""
    options = options or TargetOptions()
    if not isinstance(ref, str):
        if detect_framework(ref) is not None:
            return FrameworkTarget(ref)
        if callable(ref):
            return CallableTarget(ref)
        raise ConfigError(f"cannot use a {type(ref).__name__} as a target")
    kind = target_kind(ref)
    if kind == "baseline":
        if kg is None or judge is None:
            raise ConfigError("the baseline target needs a document folder (for its index) and a model")
        from ragkit.targets._baseline import BaselineRag

        return BaselineRag(kg, judge, top_k=options.top_k, retrieval=options.retrieval, embeddings=embeddings)
    if kind in FRAMEWORKS:
        return load_framework_target(ref, load_object)
    if kind == "http":
        return HttpTarget(ref, options)
    if kind == "jsonl":
        return JsonlTarget(ref)
    return CallableTarget(load_callable(ref), name=ref)


async def close_target(target: Target) -> None:
    """Release a target's resources (HTTP connections)."""
    closer = getattr(target, "aclose", None)
    if closer is not None:
        await closer()


def describe_failure(target: Target, exc: BaseException) -> TargetError:
    """A TargetError for failures outside any one sample (for example the target cannot start)."""
    return TargetError(f"target {target.spec.name} failed: {short_error(exc)}")
