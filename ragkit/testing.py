"""A scripted Judge for tests: the real Judge, with litellm's ``mock_response`` at the model call.

Everything above the model call (rendering, validation, re-asks, retries, cache, usage) runs for real.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from .cache import Cache
from .llm import CallInfo, Judge
from .settings import Settings

Reply = str | BaseModel | dict[str, Any] | list[Any] | BaseException
Responder = Callable[[CallInfo], Reply]


def _as_mock(reply: Reply) -> Any:
    if isinstance(reply, BaseException | str):
        return reply
    if isinstance(reply, BaseModel):
        return reply.model_dump_json()
    import json

    return json.dumps(reply, ensure_ascii=False)


class ScriptedJudge(Judge):
    """A Judge whose model replies come from a script.

    ``script`` is either a list of replies used in order (a reply may be an exception instance, which the
    model call then raises), or a function of the call (prompt name, input data, messages) returning one.

    Examples:
        >>> judge = ScriptedJudge([Claims(claims=["Paris is in France."])])
        >>> judge = ScriptedJudge(lambda call: Verdicts(...) if call.prompt_name == "verify" else ...)
    """

    def __init__(
        self,
        script: Iterable[Reply] | Responder,
        *,
        settings: Settings | None = None,
        cache: Cache | None = None,
        **litellm_params: Any,
    ) -> None:
        base = settings or Settings(model="openai/scripted-judge", max_retries=3, concurrency=4)
        super().__init__(base.model, settings=base, cache=cache or False, backoff=0.0, **litellm_params)
        self._responder: Responder | None = script if callable(script) else None
        self._queue: list[Reply] = [] if callable(script) else list(script)
        self.calls: list[CallInfo] = []

    def _hook_params(self, info: CallInfo) -> dict[str, Any]:
        self.calls.append(info)
        if self._responder is not None:
            return {"mock_response": _as_mock(self._responder(info))}
        if not self._queue:
            raise AssertionError(
                f"ScriptedJudge called more often than scripted ({len(self.calls)} calls; "
                f"this one for prompt '{info.prompt_name}')"
            )
        return {"mock_response": _as_mock(self._queue.pop(0))}

    def calls_for(self, prompt_name: str) -> list[CallInfo]:
        """The calls made for one prompt."""
        return [c for c in self.calls if c.prompt_name == prompt_name]
