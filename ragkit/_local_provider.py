"""Registers the embedded llama.cpp models with litellm as the ``local/`` provider."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .local_llm import LocalModel
from .settings import Settings


def _handler_class(litellm: Any) -> type:
    from litellm import CustomLLM
    from litellm.types.utils import Choices, Message, ModelResponse, Usage

    class LocalProvider(CustomLLM):  # type: ignore[misc]
        """Answers ``local/<name>`` calls in-process with llama.cpp."""

        def completion(self, model: str, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
            params: dict[str, Any] = dict(kwargs.get("optional_params") or {})
            settings = Settings.load()
            name = model.removeprefix("local/")
            llm = LocalModel.get(name, model_dir=settings.model_dir, threads=settings.threads,
                                 context_size=settings.context_size)
            timeout = kwargs.get("timeout")
            out = llm.chat(
                [{"role": m["role"], "content": m["content"]} for m in messages],
                max_tokens=int(params.get("max_tokens") or 512),
                temperature=float(params.get("temperature") or 0.0),
                response_format=params.get("response_format"),
                timeout=float(timeout) if isinstance(timeout, int | float) else None,
                logprobs=bool(params.get("logprobs")),
            )
            choice = out["choices"][0]
            response: ModelResponse = kwargs.get("model_response") or ModelResponse()
            response.choices = [
                Choices(
                    index=0,
                    finish_reason=choice.get("finish_reason") or "stop",
                    message=Message(role="assistant", content=choice["message"].get("content") or ""),
                    logprobs=choice.get("logprobs"),
                )
            ]
            usage = out.get("usage") or {}
            response.usage = Usage(  # type: ignore[attr-defined]
                prompt_tokens=usage.get("prompt_tokens", 0),
                completion_tokens=usage.get("completion_tokens", 0),
                total_tokens=usage.get("total_tokens", 0),
            )
            response.model = model
            response.created = int(time.time())
            return response

        async def acompletion(self, model: str, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(self.completion, model, messages, *args, **kwargs)

    return LocalProvider


def register(litellm: Any) -> None:
    """Add the ``local`` provider to litellm's custom provider map (once)."""
    if any(item.get("provider") == "local" for item in litellm.custom_provider_map):
        return
    handler = _handler_class(litellm)()
    litellm.custom_provider_map = [*litellm.custom_provider_map, {"provider": "local", "custom_handler": handler}]
    from litellm.utils import custom_llm_setup

    custom_llm_setup()
