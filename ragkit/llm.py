"""The Judge: every LLM call of ragkit goes through here. The only module that imports litellm."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from . import _offline  # noqa: F401  (must run before litellm is imported)
from .cache import Cache, content_key
from .errors import JudgeError, JudgeOutputError, JudgeTimeoutError, JudgeUnavailableError
from .prompts import Prompt
from .settings import Settings
from .types import Usage

Out = TypeVar("Out", bound=BaseModel)
In = TypeVar("In", bound=BaseModel)

_STAGE: contextvars.ContextVar[str] = contextvars.ContextVar("ragkit_stage", default="default")
_litellm: Any = None


def litellm_module() -> Any:
    """Import litellm once, quietly, with the embedded ``local/`` provider registered."""
    global _litellm
    if _litellm is None:
        import litellm

        litellm.suppress_debug_info = True
        litellm.telemetry = False
        litellm.drop_params = True
        from ._local_provider import register

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


@dataclass(frozen=True)
class Completion:
    text: str
    finish_reason: str | None


def _retryable(exc: BaseException) -> bool:
    lt = litellm_module()
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return True
    transient = (lt.RateLimitError, lt.Timeout, lt.APIConnectionError, lt.InternalServerError,
                 lt.ServiceUnavailableError)
    if isinstance(exc, transient):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def _json_payload(raw: str) -> str:
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


def _describe(exc: ValidationError | ValueError) -> str:
    if isinstance(exc, ValidationError):
        parts = []
        for err in exc.errors()[:4]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        return "; ".join(parts)
    return str(exc).splitlines()[0][:300]


class Judge:
    """Async LLM client for structured and free-text calls, with retries, re-asks, a cache and usage.

    Examples:
        >>> judge = Judge("openai/gpt-4o-mini")          # any litellm model string
        >>> verdict = await judge.structured(MY_PROMPT, MyInput(text="..."))
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
        self.backoff = backoff
        self.litellm_params = litellm_params
        self.usage = Usage()
        self._semaphores: dict[int, asyncio.Semaphore] = {}

    # -- public API -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Account every call made inside this block (and tasks it starts) to ``name``."""
        token = _STAGE.set(name)
        try:
            yield
        finally:
            _STAGE.reset(token)

    async def structured(self, prompt: Prompt[In, Out], data: In, *, max_tokens: int | None = None) -> Out:
        """Ask ``prompt`` about ``data`` and return a validated ``prompt.output`` object."""
        messages = prompt.render(data)
        schema = prompt.schema()
        errors: list[str] = []
        raw = ""
        attempts = self.settings.max_reasks + 1
        for attempt in range(1, attempts + 1):
            info = CallInfo(prompt.name, data, messages, attempt)
            done = await self._complete(info, schema=schema, max_tokens=max_tokens or prompt.max_tokens)
            raw = done.text
            try:
                return prompt.output.model_validate_json(_json_payload(raw))
            except (ValidationError, ValueError) as exc:
                err = _describe(exc)
                if done.finish_reason == "length":
                    err = "the reply was cut off at the token limit; " + err
                errors.append(err)
                messages = [
                    *messages,
                    {"role": "assistant", "content": raw[:1500]},
                    {
                        "role": "user",
                        "content": f"That reply was invalid: {err}. Reply again with one complete, valid "
                        "JSON object that matches the schema. Keep every text field short.",
                    },
                ]
        raise JudgeOutputError(
            model=self.model, prompt_name=prompt.name, attempts=attempts, raw_output=raw, errors=errors
        )

    async def text(
        self, messages: str | list[dict[str, str]], *, name: str = "text", max_tokens: int = 512
    ) -> str:
        """A free-text completion."""
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        info = CallInfo(name, None, messages, 1)
        return (await self._complete(info, schema=None, max_tokens=max_tokens)).text

    # -- internals --------------------------------------------------------------------------------

    def _hook_params(self, info: CallInfo) -> dict[str, Any]:
        """Extra litellm parameters for one call; the scripted test fake overrides this."""
        return {}

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sem = self._semaphores.get(id(loop))
        if sem is None:
            sem = self._semaphores[id(loop)] = asyncio.Semaphore(max(1, self.settings.concurrency))
        return sem

    def _response_format(self, schema: dict[str, Any] | None, name: str) -> dict[str, Any] | None:
        if schema is None:
            return None
        if self.model.startswith("local/"):
            return {"type": "json_object", "schema": schema}
        lt = litellm_module()
        try:
            if lt.supports_response_schema(model=self.model):
                return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
        except Exception:  # unknown models: fall through to plain JSON mode
            pass
        return {"type": "json_object"}

    async def _complete(self, info: CallInfo, *, schema: dict[str, Any] | None, max_tokens: int) -> Completion:
        stage = self.usage.stage(_STAGE.get())
        params = {"temperature": self.settings.temperature, "max_tokens": max_tokens}
        key = content_key(self.model, info.messages, schema, params)
        if self.cache is not None:
            hit = self.cache.get("llm", key)
            if hit is not None:
                stage.cache_hits += 1
                return Completion(**json.loads(hit))
        lt = litellm_module()
        call = {
            "model": self.model,
            "messages": info.messages,
            **params,
            "timeout": self.settings.timeout,
            "num_retries": 0,
            **self.litellm_params,
        }
        fmt = self._response_format(schema, info.prompt_name)
        if fmt is not None:
            call["response_format"] = fmt
        async with self._semaphore():
            response = await self._call_with_retries(lt, call, info)
        choice = response.choices[0]
        done = Completion(text=choice.message.content or "", finish_reason=choice.finish_reason)
        stage.calls += 1
        usage = getattr(response, "usage", None)
        if usage is not None:
            stage.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
            stage.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
        with contextlib.suppress(Exception):
            stage.cost_usd += float(lt.completion_cost(completion_response=response) or 0.0)
        if self.cache is not None:
            self.cache.put("llm", key, json.dumps(done.__dict__).encode())
        return done

    async def _call_with_retries(self, lt: Any, call: dict[str, Any], info: CallInfo) -> Any:
        stage = self.usage.stage(_STAGE.get())
        last: BaseException | None = None
        for retry in range(self.settings.max_retries + 1):
            if retry:
                delay = min(30.0, self.backoff * 2 ** (retry - 1))
                await asyncio.sleep(delay * (0.5 + random.random() / 2))
            started = time.monotonic()
            try:
                coro = lt.acompletion(**call, **self._hook_params(info))
                return await asyncio.wait_for(coro, timeout=self.settings.timeout + 5)
            except Exception as exc:  # classified below; nothing is swallowed silently
                stage.failures += 1
                last = exc
                if not _retryable(exc):
                    raise JudgeUnavailableError(
                        f"{self.model} failed on prompt '{info.prompt_name}': {type(exc).__name__}: "
                        f"{str(exc).splitlines()[0][:300] if str(exc) else ''}",
                        model=self.model,
                        prompt_name=info.prompt_name,
                        attempts=retry + 1,
                    ) from exc
            finally:
                stage.seconds += time.monotonic() - started
        attempts = self.settings.max_retries + 1
        kind = JudgeTimeoutError if isinstance(last, asyncio.TimeoutError | TimeoutError) else JudgeError
        if isinstance(last, lt.Timeout):
            kind = JudgeTimeoutError
        raise kind(
            f"{self.model} failed on prompt '{info.prompt_name}' after {attempts} attempts: "
            f"{type(last).__name__}: {str(last).splitlines()[0][:300] if str(last) else ''}",
            model=self.model,
            prompt_name=info.prompt_name,
            attempts=attempts,
        ) from last


async def litellm_embed(model: str, texts: list[str], **params: Any) -> list[list[float]]:
    """Embed ``texts`` with a litellm embedding model (``openai/text-embedding-3-small`` ...)."""
    lt = litellm_module()
    try:
        response = await lt.aembedding(model=model, input=texts, **params)
    except Exception as exc:
        raise JudgeUnavailableError(f"embedding model {model} failed: {exc}", model=model) from exc
    return [list(item["embedding"]) for item in response.data]
