"""Registers the embedded llama.cpp models with litellm as the ``local/`` provider."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from pathlib import Path
from typing import Any

from ragkit.llm._local import LocalModel
from ragkit.settings import Settings

LOCAL_PARAM = "ragkit_local"
"""Optional litellm parameter carrying ``model_dir`` / ``threads`` / ``context_size`` from the caller's settings."""


_EXECUTORS: dict[str, concurrent.futures.ThreadPoolExecutor] = {}
_EXECUTORS_LOCK = threading.Lock()


def _executor(model: str) -> concurrent.futures.ThreadPoolExecutor:
    """One worker thread per local model: calls queue here (the model runs one at a time anyway) instead of
    tying up the default executor's threads, which litellm and the embeddings also use."""
    with _EXECUTORS_LOCK:
        pool = _EXECUTORS.get(model)
        if pool is None:
            pool = _EXECUTORS[model] = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ragkit-llm")
        return pool


def _handler_class(litellm: Any) -> type:
    from litellm.llms.custom_llm import CustomLLM

    class LocalProvider(CustomLLM):
        """Answers ``local/<name>`` calls in-process with llama.cpp."""

        def completion(self, model: str, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
            return _complete(model, messages, kwargs, None)

        async def acompletion(self, model: str, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
            cancel = threading.Event()
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(_executor(model), _complete, model, messages, kwargs, cancel)
            except asyncio.CancelledError:
                cancel.set()  # a running call stops at its next token and frees the model; a queued one never starts
                raise

    return LocalProvider


def _complete(model: str, messages: list[Any], kwargs: dict[str, Any], cancel: threading.Event | None) -> Any:
    """One chat completion on the local model, as litellm's ModelResponse."""
    params: dict[str, Any] = dict(kwargs.get("optional_params") or {})
    local = params.get(LOCAL_PARAM) or {}
    if not local:
        settings = Settings.load()
        local = {"model_dir": settings.model_dir, "threads": settings.threads,
                 "context_size": settings.context_size, "prompt_cache_mb": settings.prompt_cache_mb}
    llm = LocalModel.get(model.removeprefix("local/"), model_dir=Path(local["model_dir"]), threads=local["threads"],
                         context_size=local["context_size"], prompt_cache_mb=local.get("prompt_cache_mb", 0))
    timeout = kwargs.get("timeout")
    out = llm.chat(
        [{"role": m["role"], "content": m["content"]} for m in messages],
        max_tokens=int(params.get("max_tokens") or 512),
        temperature=float(params.get("temperature") or 0.0),
        response_format=params.get("response_format"),
        timeout=float(timeout) if isinstance(timeout, int | float) else None,
        logprobs=bool(params.get("logprobs")),
        top_logprobs=int(params.get("top_logprobs") or 5),
        cancel=cancel,
    )
    return _model_response(out, kwargs.get("model_response"), model)


def _model_response(out: dict[str, Any], response: Any, model: str) -> Any:
    """llama.cpp's OpenAI-style dict as litellm's ModelResponse (the one litellm handed in, when it did)."""
    from litellm.types.utils import ChoiceLogprobs, Choices, Message, ModelResponse, Usage

    choice = out["choices"][0]
    response = response or ModelResponse()
    logprobs = choice.get("logprobs")
    response.choices = [
        Choices(
            index=0,
            finish_reason=choice.get("finish_reason") or "stop",
            message=Message(role="assistant", content=choice["message"].get("content") or ""),
            logprobs=ChoiceLogprobs(**logprobs) if logprobs else None,
        )
    ]
    usage = out.get("usage") or {}
    response.usage = Usage(
        prompt_tokens=usage.get("prompt_tokens", 0),
        completion_tokens=usage.get("completion_tokens", 0),
        total_tokens=usage.get("total_tokens", 0),
        prompt_tokens_details=usage.get("prompt_tokens_details"),
    )
    response.model = model
    response.created = int(time.time())
    return response


def register(litellm: Any) -> None:
    """Add the ``local`` provider to litellm's custom provider map (once)."""
    if any(item.get("provider") == "local" for item in litellm.custom_provider_map):
        return
    handler = _handler_class(litellm)()
    litellm.custom_provider_map = [*litellm.custom_provider_map, {"provider": "local", "custom_handler": handler}]
    from litellm.utils import custom_llm_setup

    custom_llm_setup()  # type: ignore[no-untyped-call]
