"""One retry policy for every remote model call (chat completions and embeddings): the attempt timeout,
exponential backoff with jitter, and the verdict when it gives up: a timeout, an unavailable model, or a fatal
failure that every later call would repeat (rejected credentials, an unknown model, an endpoint refusing
connections since the first call)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from ragkit.errors import JudgeError, JudgeTimeoutError, JudgeUnavailableError
from ragkit.llm._calls import (
    connection_failure,
    first_line,
    is_timeout,
    litellm_module,
    ragkit_cause,
    retry_after,
    retryable,
)

T = TypeVar("T")


@dataclass
class Retrier:
    """Retries of one model's calls. ``timeout`` None leaves the attempt limit to the callee (the local model
    enforces it from when it starts on the call); ``local`` calls are deterministic and never retried."""

    model: str
    timeout: float | None
    max_retries: int
    backoff: float = 1.0
    local: bool = False
    first_call_timeout: float | None = None
    """The attempt limit until one call has succeeded: a silent endpoint is dead, not slow, and stops the run."""
    reached: bool = False
    """An answer came back once: a refused connection after that is a blip, not a dead endpoint."""

    async def run(self, make: Callable[[], Awaitable[T]], what: str, *, prompt_name: str = "",
                  on_retry: Callable[[], None] | None = None,
                  on_time: Callable[[float], None] | None = None) -> T:
        """Await ``make()`` until it succeeds or the policy gives up with a JudgeError naming ``what``.
        ``make`` is called outside the error handling, so a test fake's own assertion surfaces as is."""
        last: BaseException | None = None
        refused: str | None = None  # litellm may report a retry of a refused connection otherwise: keep the first
        for retry in range(self.max_retries + 1):
            if retry:
                if on_retry is not None:
                    on_retry()
                delay = min(30.0, self.backoff * 2 ** (retry - 1)) * (0.5 + random.random() / 2)
                await asyncio.sleep(max(delay, retry_after(last) if last is not None else 0.0))
            pending = make()
            started = time.monotonic()
            # a local model (timeout None) loads and times itself: the first-call limit is for remote endpoints
            first = not self.reached and self.first_call_timeout is not None and self.timeout is not None and \
                self.first_call_timeout < self.timeout
            try:
                result = await asyncio.wait_for(pending, timeout=self.first_call_timeout if first else self.timeout)
                self.reached = True
                return result
            except Exception as exc:  # classified below; nothing is swallowed silently
                last = exc
                if first and isinstance(exc, asyncio.TimeoutError | TimeoutError) and not self.reached:
                    raise self._silent(what, prompt_name) from exc
                refused = refused or connection_failure(exc)
                self._give_up_now(exc, what, prompt_name, retry + 1)
            finally:
                if on_time is not None:
                    on_time(time.monotonic() - started)
        raise self._gave_up(last, refused, what, prompt_name)

    def _silent(self, what: str, prompt_name: str) -> JudgeError:
        return JudgeUnavailableError(
            f"{self.model} did not answer within {self.first_call_timeout:g} s on {what}, and no call to it has "
            "succeeded yet: is the endpoint up? (for a model slow to load, raise RAGKIT_FIRST_CALL_TIMEOUT)",
            model=self.model, prompt_name=prompt_name, attempts=1, fatal=True)

    def _give_up_now(self, exc: Exception, what: str, prompt_name: str, attempts: int) -> None:
        """Raise at once for what a retry cannot fix: a local model's own error, or a non-transient failure."""
        inner = ragkit_cause(exc)
        if isinstance(inner, JudgeError):  # from the local provider: deterministic, so not retried
            kind = type(inner) if type(inner) is not JudgeError else JudgeUnavailableError
            raise kind(f"{self.model} failed on {what}: {inner}", model=self.model, prompt_name=prompt_name,
                       attempts=attempts, fatal=kind is JudgeUnavailableError) from exc
        if self.local or not retryable(exc):
            kind = JudgeTimeoutError if is_timeout(exc) else JudgeUnavailableError
            raise kind(f"{self.model} failed on {what}: {first_line(exc)}", model=self.model,
                       prompt_name=prompt_name, attempts=attempts, fatal=self.fatal(exc)) from exc

    def _gave_up(self, last: BaseException | None, refused: str | None, what: str, prompt_name: str) -> JudgeError:
        attempts = self.max_retries + 1
        if refused and not self.reached:
            return JudgeUnavailableError(f"{self.model} cannot be reached ({attempts} attempts): {refused}",
                                         model=self.model, prompt_name=prompt_name, attempts=attempts, fatal=True)
        kind = JudgeTimeoutError if is_timeout(last) else JudgeUnavailableError
        timed_out = isinstance(last, asyncio.TimeoutError | TimeoutError)
        reason = f"timed out after {self.timeout:g} s" if timed_out and self.timeout else first_line(last)
        return kind(f"{self.model} failed on {what} after {attempts} attempts: {reason}", model=self.model,
                    prompt_name=prompt_name, attempts=attempts, fatal=self.fatal(last))

    def fatal(self, exc: BaseException | None) -> bool:
        """Whether every other call would fail the same way: rejected credentials, an unknown model, or an
        endpoint that has refused connections since the first call (one that answered before may be blipping)."""
        lt = litellm_module()
        if isinstance(exc, lt.AuthenticationError | lt.PermissionDeniedError | lt.NotFoundError):
            return True
        return connection_failure(exc) is not None and not self.reached
