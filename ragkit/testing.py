"""A scripted Judge for tests: the real Judge, with litellm's ``mock_response`` at the model call.

Everything above the model call (rendering, validation, re-asks, retries, cache, usage) runs for real.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ragkit.evaluation._values import MARK, NONE, mark
from ragkit.llm import Cache, CallInfo, Judge
from ragkit.settings import Settings
from ragkit.text import number_spans, number_value

Token = tuple[str, float] | tuple[str, float, Sequence[tuple[str, float]]]
"""A scripted token: (text, logprob) or (text, logprob, [(alternative, logprob), ...])."""


@dataclass(frozen=True)
class Delayed:
    """A reply that arrives after ``seconds`` (litellm's ``mock_delay``): for timeout and concurrency tests."""

    reply: Reply
    seconds: float


@dataclass(frozen=True)
class WithLogprobs:
    """A reply whose tokens carry log-probabilities (what ``Judge.structured_scored`` reads).

    The token texts must spell the reply exactly.
    """

    reply: str | BaseModel | dict[str, Any]
    tokens: Sequence[Token]

    def response(self) -> dict[str, Any]:
        text = _as_text(self.reply)
        spelled = "".join(t[0] for t in self.tokens)
        if spelled != text:
            raise AssertionError(f"scripted tokens spell {spelled!r}, not the reply {text!r}")

        def entry(token: str, logprob: float) -> dict[str, Any]:
            return {"token": token, "logprob": logprob, "bytes": list(token.encode("utf-8"))}

        content = []
        for tok in self.tokens:
            item = entry(tok[0], tok[1])
            alternatives = tok[2] if len(tok) > 2 else ()
            item["top_logprobs"] = [entry(tok[0], tok[1])] + [entry(a, lp) for a, lp in alternatives]
            content.append(item)
        return {
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": {"content": content},
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": len(self.tokens),
                      "total_tokens": 10 + len(self.tokens)},
        }


Reply = str | BaseModel | dict[str, Any] | list[Any] | BaseException | Delayed | WithLogprobs
Responder = Callable[[CallInfo], Reply]


def _as_text(reply: str | BaseModel | dict[str, Any] | list[Any]) -> str:
    if isinstance(reply, str):
        return reply
    if isinstance(reply, BaseModel):
        return reply.model_dump_json()
    return json.dumps(reply, ensure_ascii=False)


def _as_params(reply: Reply) -> dict[str, Any]:
    if isinstance(reply, Delayed):
        return {**_as_params(reply.reply), "mock_delay": reply.seconds}
    if isinstance(reply, WithLogprobs):
        return {"mock_response": reply.response()}
    if isinstance(reply, BaseException):
        return {"mock_response": reply}
    return {"mock_response": _as_text(reply)}


class ScriptedJudge(Judge):
    """A Judge whose model replies come from a script.

    ``script`` is either a list of replies used in order, or a function of the call (prompt name, input data,
    messages, attempt) returning one. A reply is a model object, a dict, a string (sent as is, so invalid JSON
    can be scripted), an exception instance (the model call raises it: retries), ``Delayed(reply, seconds)``
    or ``WithLogprobs(reply, tokens)``. Each model call attempt, retries included, takes one reply.

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

    def __reduce__(self) -> tuple[Any, ...]:
        """A copy in another process (a Ray actor) has the same script (a function: pickled by reference, so its
        module must be importable there) and no calls yet."""
        script = self._responder if self._responder is not None else list(self._queue)
        return _scripted, (type(self), script, self.settings, self.litellm_params)

    def _hook_params(self, info: CallInfo) -> dict[str, Any]:
        self.calls.append(info)
        if self._responder is not None:
            return _as_params(self._responder(info))
        if not self._queue:
            raise AssertionError(
                f"ScriptedJudge called more often than scripted ({len(self.calls)} calls; "
                f"this one for prompt '{info.prompt_name}')"
            )
        return _as_params(self._queue.pop(0))

    def calls_for(self, prompt_name: str) -> list[CallInfo]:
        """The calls made for one prompt."""
        return [c for c in self.calls if c.prompt_name == prompt_name]


def _scripted(cls: type[ScriptedJudge], script: Any, settings: Settings, params: dict[str, Any]) -> ScriptedJudge:
    return cls(script, settings=settings, **params)


class FakeOpenAIServer:
    """An OpenAI-compatible chat-completions endpoint on 127.0.0.1, for tests of non-local model strings.

    ``replies`` are (HTTP status, JSON body) pairs served in order (the last one repeats); ``completion(text)``
    builds a valid body. Every request body is recorded in ``requests``. Use it as a context manager.

    Examples:
        >>> with FakeOpenAIServer([(200, completion('{"answer": "Paris"}'))]) as server:
        ...     judge = Judge("openai/any-model", api_base=server.base_url, api_key="x")
    """

    def __init__(self, replies: Sequence[tuple[int, dict[str, Any]]]) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append({"path": self.path, **body})
                fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, reply = fake.replies[min(len(fake.requests), len(fake.replies)) - 1]
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def completion(content: str, *, prompt_tokens: int = 31, completion_tokens: int = 12,
               cached_tokens: int | None = None) -> dict[str, Any]:
    """A valid OpenAI chat-completion response body carrying ``content`` (``cached_tokens``: the prompt tokens the
    provider reports as served from its prompt cache)."""
    import time

    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }
    if cached_tokens is not None:
        body["usage"]["prompt_tokens_details"] = {"cached_tokens": cached_tokens}  # type: ignore[index]
    return body


def contains(passage: str, claim: str) -> str:
    """A rule for scripted verdicts: "supported" when the passage contains the claim, else "not_mentioned".

    Case-insensitive, the final period dropped; a short answer's claim ("Where is Acme based? Manchester.") counts
    by its answer part, after the question.
    """
    answer = claim.rsplit("? ", 1)[-1].rsplit("？ ", 1)[-1]
    return "supported" if answer.lower().rstrip(".") in passage.lower() else "not_mentioned"


def claim_reply(
    call: CallInfo,
    *,
    claims: Callable[[str], list[str]],
    label: Callable[[str, str], str] = contains,
    entities: Callable[[str], list[str]] = lambda text: [],
) -> dict[str, Any] | None:
    """What a judge that follows rules replies to the claim engine's prompts; None for any other prompt.

    ``claims(text)`` and ``entities(text)`` give a text's split; ``label(passage, claim)`` is "supported",
    "contradicted" or "not_mentioned" (by default, :func:`contains`). An attribution names the passages that
    support the claim or, when none does, the ones that contradict it. The blanks of a statement of the numbers'
    cloze are filled with the one choice of the passage's numbers that makes it supported; "none" when no choice
    or several do.

    Examples:
        >>> judge = ScriptedJudge(lambda call: claim_reply(call, claims=lambda text: [text]))
    """
    data: Any = call.data
    if call.prompt_name == "claims.split":
        return {"claims": claims(data.text), "entities": entities(data.text)}
    if call.prompt_name == "claims.check":
        return {str(i): label(data.passage, c) for i, c in enumerate(data.claims)}
    if call.prompt_name == "claims.values":
        return _filled(data.passage, data.statements, label)
    if call.prompt_name != "claims.attribute":
        return None
    out: dict[str, Any] = {}
    for i, claim in enumerate(data.claims):
        labels = [label(p, claim) for p in data.passages]
        verdict = next((v for v in ("supported", "contradicted") if v in labels), "not_mentioned")
        by = [k for k, got in enumerate(labels) if got == verdict] if verdict != "not_mentioned" else []
        out[str(i)] = {"passages": by, "verdict": verdict}
    return out


def _filled(passage: str, statements: str, label: Callable[[str, str], str]) -> dict[str, str]:
    """Each blank of each statement line filled with the passage's numbers as ``label`` reads them: the one
    filling of a statement's blanks that ``label`` calls supported, else "none" for each of them."""
    numbers = list(dict.fromkeys(passage[a:b] for a, b in number_spans(passage)))
    out: dict[str, str] = {}
    for line in statements.splitlines():
        marks = MARK.findall(line)
        fits = []
        for values in itertools.product(numbers, repeat=len(marks)):
            filled = line
            for k, value in zip(marks, values, strict=True):
                filled = filled.replace(mark(int(k)), value, 1)
            if label(passage, filled) == "supported":
                fits.append(values)
        for j, k in enumerate(marks):
            out[k] = number_value(fits[0][j]) if len(fits) == 1 else NONE
    return out
