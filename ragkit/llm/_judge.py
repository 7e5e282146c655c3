"""The Judge: every LLM call of ragkit goes through here (litellm itself is imported once, in ``_calls``)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError

from ragkit.errors import JudgeError, JudgeOutputError, redact, register_secret
from ragkit.llm._cache import Cache, content_key
from ragkit.llm._calls import (
    CallInfo,
    Completion,
    describe,
    json_payload,
    litellm_module,
)
from ragkit.llm._logprobs import Scored, label_probs, plain_logprobs, tokens_from_plain
from ragkit.llm._prompts import Prompt
from ragkit.llm._retry import Retrier
from ragkit.settings import Settings
from ragkit.types import Usage

log = logging.getLogger("ragkit")

Out = TypeVar("Out", bound=BaseModel)
In = TypeVar("In", bound=BaseModel)

_STAGE: contextvars.ContextVar[str] = contextvars.ContextVar("ragkit_stage", default="default")
_SECRET_PARTS = ("key", "secret", "token", "password", "headers", "mock_")


# One gate per event loop and judge; weak keys so that a closed loop never hands out a stale semaphore.
_Gates = weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
# The asks in flight per event loop and judge, by cache key: the leader's reply, or None when it failed.
_Pending = weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[str, "asyncio.Future[tuple[BaseModel, Completion] | None]"]]


class Judge:
    """Async LLM client for structured and free-text calls, with retries, re-asks, a cache and usage.

    ``model`` is any litellm model string; extra keyword arguments (``api_base``, ``api_key``, ...) are passed
    to every litellm call. ``timeout`` (settings) bounds each attempt; an embedded ``local/`` model counts it
    from when the model starts on the call (waiting for the one llama.cpp instance is free), and its failures
    are not retried (they would repeat).

    Examples:
        >>> judge = Judge("openai/gpt-4o-mini")          # any litellm model string
        >>> verdict = await judge.structured(MY_PROMPT, MyInput(text="..."))
        >>> with judge.stage("evaluate"):
        ...     scored = await judge.structured_scored(VERDICT_PROMPT, data)   # + label probabilities
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        settings: Settings | None = None,
        cache: Cache | None | bool = True,
        backoff: float = 1.0,
        **litellm_params: Any,
    ) -> None:
        self.settings = settings or Settings.load(model=model)
        if model is not None and settings is not None:
            self.settings = settings.model_copy(update={"model": model})
        self.model = self.settings.model
        if cache is True:
            cache = Cache(self.settings.llm_cache_path) if self.settings.cache else None
        self.cache: Cache | None = cache or None
        # a local model enforces the attempt timeout itself, from when it starts on the call (see local_llm)
        self._retrier = Retrier(self.model, None if self.is_local else self.settings.timeout,
                                self.settings.max_retries, backoff, local=self.is_local,
                                first_call_timeout=None if self.is_local else self.settings.first_call_timeout)
        self.litellm_params = litellm_params
        register_secret(litellm_params.get("api_key"))  # proxies echo keys back in their errors
        self.usage = Usage()
        self.last_failure: str | None = None
        """The last call's error after every retry and re-ask (redacted, one line), for a run's closing message."""
        self._gates: _Gates = weakref.WeakKeyDictionary()
        self._pending: _Pending = weakref.WeakKeyDictionary()

    def __reduce__(self) -> tuple[Any, ...]:
        """A Judge pickles as its recipe (model, settings, parameters): a copy sent to another process (a Ray
        actor) opens its own cache and counts its own usage."""
        return _rebuild, (type(self), (self.model,), {"settings": self.settings, "cache": self.cache is not None,
                                                      "backoff": self.backoff, **self.litellm_params})

    @property
    def backoff(self) -> float:
        """Base delay of the retries' exponential backoff, in seconds."""
        return self._retrier.backoff

    @backoff.setter
    def backoff(self, value: float) -> None:
        self._retrier.backoff = value

    @property
    def is_local(self) -> bool:
        """True for the embedded llama.cpp models (``local/...``)."""
        return self.model.startswith("local/")

    # -- public API -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Account every call made inside this block (and tasks it starts) to ``name``."""
        token = _STAGE.set(name)
        try:
            yield
        finally:
            _STAGE.reset(token)

    async def structured(self, prompt: Prompt[In, Out], data: In, *, max_tokens: int | None = None,
                         choices: Mapping[str, Sequence[str]] | None = None) -> Out:
        """Ask ``prompt`` about ``data`` and return a validated ``prompt.output`` object.

        ``choices`` names string fields of the reply and the values each is decoded among: the schema the model
        is decoded under lists them (an ``enum``), the one the prompt shows does not. The embedded model and
        providers that enforce a JSON schema keep to them; others may not, so a caller checks what it relies on.
        """
        out, _ = await self._structured(prompt, data, max_tokens=max_tokens, top_logprobs=0, choices=choices)
        return out

    async def structured_scored(
        self, prompt: Prompt[In, Out], data: In, *, max_tokens: int | None = None, top_logprobs: int = 20,
        choices: Mapping[str, Sequence[str]] | None = None,
    ) -> Scored[Out]:
        """Like :meth:`structured`, plus token log-probabilities and the probability of every label field.

        Label fields are ``Literal[...]`` (or str Enum) fields of the output, nested ones included; see
        :mod:`ragkit.llm._logprobs`. When the provider returns no log-probabilities, ``tokens`` is None and
        ``labels`` empty. Cached like every call (under its own key).
        """
        out, done = await self._structured(prompt, data, max_tokens=max_tokens, top_logprobs=max(1, top_logprobs),
                                           choices=choices)
        tokens = tokens_from_plain(done.logprobs)
        return Scored(output=out, tokens=tokens, labels=label_probs(out, done.text, tokens))

    async def text(
        self, messages: str | list[dict[str, str]], *, name: str = "text", max_tokens: int = 512
    ) -> str:
        """A free-text completion."""
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        info = CallInfo(name, None, messages, 1)
        key = self._cache_key(messages, None, self._params(max_tokens, 0))
        with self._count_failure():
            done = self._cached(key, accept=lambda hit: True)
            if done is None:
                done = await self._complete(info, schema=None, max_tokens=max_tokens)
                self._store(key, done)
            return done.text

    # -- internals --------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _count_failure(self) -> Iterator[None]:
        try:
            yield
        except JudgeError as exc:
            self.usage.stage(_STAGE.get()).failures += 1
            self.last_failure = " ".join(str(exc).split())[:300]
            raise

    async def _structured(
        self, prompt: Prompt[In, Out], data: In, *, max_tokens: int | None, top_logprobs: int,
        choices: Mapping[str, Sequence[str]] | None = None,
    ) -> tuple[Out, Completion]:
        """One validated reply; an ask already in flight with the same key is waited for, not made again.

        The same prompt asked twice at once (validity's context relevance rates one distractor in three retrieved
        sets) got two replies from the embedded model that differ in their label probabilities (0.185 and 0.223:
        a prompt resumed from a saved state is evaluated in other batches), while the cache keeps one of them, so
        a run and its replay from the cache scored differently. A follower gets a copy of the leader's reply
        (counted as a cache hit); when the leader fails, it asks on its own."""
        messages = prompt.render(data)
        limit = max_tokens or prompt.max_tokens
        schema = prompt.schema(choices)
        key = self._cache_key(messages, schema, self._params(limit, top_logprobs))
        pending = self._pending.setdefault(asyncio.get_running_loop(), {})
        leader = pending.get(key)
        if leader is not None and (shared := await asyncio.shield(leader)) is not None:
            self.usage.stage(_STAGE.get()).cache_hits += 1
            out = cast(Out, shared[0].model_copy(deep=True))  # a caller may change its reply; the leader's stays
            return out, shared[1]
        mine: asyncio.Future[tuple[BaseModel, Completion] | None] = asyncio.get_running_loop().create_future()
        pending[key] = mine
        result: tuple[Out, Completion] | None = None
        try:
            result = await self._ask(prompt, data, messages, schema, key, limit, top_logprobs)
            return result
        finally:
            if pending.get(key) is mine:
                del pending[key]
            mine.set_result(result)  # None when the ask failed

    async def _ask(self, prompt: Prompt[In, Out], data: In, messages: list[dict[str, str]], schema: dict[str, Any],
                   key: str, limit: int, top_logprobs: int) -> tuple[Out, Completion]:
        # Only a reply that validates is cached, under the first ask's key (also when a re-ask produced it), and a
        # cached entry is validated again on read: an invalid reply never replays, a valid one costs nothing twice.
        found: list[Out] = []

        def accept(done: Completion) -> bool:
            out = _valid(prompt, done)
            found.extend([out] if out is not None else [])
            return out is not None

        hit = self._cached(key, accept=accept)
        if hit is not None:
            return found[-1], hit
        errors: list[str] = []
        raw = ""
        attempts = self.settings.max_reasks + 1
        with self._count_failure():
            for attempt in range(1, attempts + 1):
                if attempt > 1:
                    self.usage.stage(_STAGE.get()).reasks += 1
                info = CallInfo(prompt.name, data, messages, attempt, schema)
                done = await self._complete(info, schema=schema, max_tokens=limit, top_logprobs=top_logprobs)
                raw = done.text
                try:
                    out = prompt.output.model_validate_json(json_payload(raw))
                except (ValidationError, ValueError) as exc:
                    err = describe(exc)
                    if done.finish_reason == "length":
                        err = "the reply was cut off (the token limit, or a loop the local model stopped); " + err
                    errors.append(err)
                    messages = _reask(messages, raw, err)
                    continue
                self._store(key, done)
                return out, done
            raise JudgeOutputError(
                model=self.model, prompt_name=prompt.name, attempts=attempts, raw_output=raw, errors=errors
            )

    def _hook_params(self, info: CallInfo) -> dict[str, Any]:
        """Extra litellm parameters for one model call; the scripted test fake overrides this."""
        return {}

    def _gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(max(1, self.settings.concurrency))
        return gate

    def _response_format(self, schema: dict[str, Any] | None, name: str) -> dict[str, Any] | None:
        if schema is None:
            return None
        if self.is_local:
            return {"type": "json_object", "schema": schema}
        lt = litellm_module()
        try:
            if lt.supports_response_schema(model=self.model):
                return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
        except Exception:  # unknown models: fall through to plain JSON mode
            pass
        return {"type": "json_object"}

    def _key_params(self) -> dict[str, Any]:
        """The caller's litellm parameters that change replies (api_base ...), without secrets."""
        return {k: v for k, v in sorted(self.litellm_params.items())
                if not any(part in k.lower() for part in _SECRET_PARTS)}

    def _params(self, max_tokens: int, top_logprobs: int) -> dict[str, Any]:
        params: dict[str, Any] = {"temperature": self.settings.temperature, "max_tokens": max_tokens}
        if top_logprobs:
            params.update(logprobs=True, top_logprobs=top_logprobs)
        return params

    def _cache_key(self, messages: list[dict[str, str]], schema: dict[str, Any] | None, params: dict[str, Any]) -> str:
        return content_key(self.model, messages, schema, params, self._key_params())

    def _cached(self, key: str, *, accept: Callable[[Completion], bool]) -> Completion | None:
        """The cached completion for ``key`` if there is one that ``accept`` still takes (counted as a hit)."""
        if self.cache is None:
            return None
        raw = self.cache.get("llm", key)
        if raw is None:
            return None
        try:
            done = Completion(**json.loads(raw))
        except (TypeError, ValueError):
            return None
        if not accept(done):
            log.debug("ignoring a cached reply that no longer validates (%s)", key[:12])
            return None
        self.usage.stage(_STAGE.get()).cache_hits += 1
        return done

    def _store(self, key: str, done: Completion) -> None:
        if self.cache is not None:
            self.cache.put("llm", key, redact(json.dumps(asdict(done), ensure_ascii=False)).encode("utf-8"),
                           model=self.model)

    async def _complete(
        self, info: CallInfo, *, schema: dict[str, Any] | None, max_tokens: int, top_logprobs: int = 0
    ) -> Completion:
        """One model call (retries included), counted in the usage; never cached here (see ``_store``)."""
        stage = self.usage.stage(_STAGE.get())
        params = self._params(max_tokens, top_logprobs)
        lt = litellm_module()
        call = {
            "model": self.model,
            "messages": info.messages,
            **params,
            "timeout": self.settings.timeout,
            "num_retries": 0,
            **self.litellm_params,
        }
        if self.is_local:
            call["ragkit_local"] = {"model_dir": str(self.settings.model_dir), "threads": self.settings.threads,
                                    "context_size": self.settings.context_size,
                                    "prompt_cache_mb": self.settings.prompt_cache_mb}
        fmt = self._response_format(schema, info.prompt_name)
        if fmt is not None:
            call["response_format"] = fmt
        async with self._gate():
            response = await self._call_with_retries(lt, call, info)
        choice = response.choices[0]
        done = Completion(text=choice.message.content or "", finish_reason=choice.finish_reason,
                          logprobs=plain_logprobs(getattr(choice, "logprobs", None)) if top_logprobs else None)
        stage.calls += 1
        usage = getattr(response, "usage", None)
        if usage is not None:
            stage.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
            stage.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
            details = getattr(usage, "prompt_tokens_details", None)
            stage.reused_tokens += int(getattr(details, "cached_tokens", 0) or 0)
        if not self.is_local:
            with contextlib.suppress(Exception):
                stage.cost_usd += float(lt.completion_cost(completion_response=response) or 0.0)
        return done

    async def _call_with_retries(self, lt: Any, call: dict[str, Any], info: CallInfo) -> Any:
        """One model call under the Judge's retry policy, its retries and time counted in the stage's usage."""
        stage = self.usage.stage(_STAGE.get())

        def on_time(seconds: float) -> None:
            stage.seconds += seconds

        def on_retry() -> None:
            stage.retries += 1

        return await self._retrier.run(lambda: lt.acompletion(**call, **self._hook_params(info)),
                                       f"prompt '{info.prompt_name}'", prompt_name=info.prompt_name,
                                       on_retry=on_retry, on_time=on_time)


def _rebuild(cls: type[Judge], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Judge:
    return cls(*args, **kwargs)


def _reask(messages: list[dict[str, str]], raw: str, error: str) -> list[dict[str, str]]:
    """The conversation so far, the invalid reply (cut to 1,500 characters: a loop need not be read back whole) and
    what was wrong with it: the next ask."""
    return [
        *messages,
        {"role": "assistant", "content": raw[:1500]},
        {
            "role": "user",
            "content": f"That reply was invalid: {error}. Reply again with one complete, valid JSON object that "
            "matches the schema. Keep every text field short.",
        },
    ]


def _valid(prompt: Prompt[In, Out], done: Completion) -> Out | None:
    """The reply as the prompt's output model, or None when it does not validate."""
    try:
        return prompt.output.model_validate_json(json_payload(done.text))
    except (ValidationError, ValueError):
        return None
