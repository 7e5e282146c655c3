"""Any litellm model string works unchanged: the Judge against an OpenAI-compatible server on 127.0.0.1.

The server is a tiny stdlib HTTP server started by the test; it records each request and answers with a valid
chat completion. Nothing here is mocked inside litellm: the request goes over HTTP.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pydantic import BaseModel, Field

from ragkit import Judge, JudgeUnavailableError, Settings
from ragkit.prompts import Prompt


class City(BaseModel):
    name: str


class Facts(BaseModel):
    country: str = Field(max_length=40)
    population_millions: float


FACTS = Prompt("facts", "Give the country and population of the city.", City, Facts, max_tokens=80)


class FakeOpenAI:
    """Serves POST /v1/chat/completions; ``replies`` are (status, body) pairs used in order, then the last again."""

    def __init__(self, replies: list[tuple[int, dict[str, Any]]]) -> None:
        self.replies = replies
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

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.timeout = 1
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "some-model",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 31, "completion_tokens": 12, "total_tokens": 43},
    }


@pytest.fixture
def serve() -> Iterator[Any]:
    started: list[FakeOpenAI] = []

    def start(replies: list[tuple[int, dict[str, Any]]]) -> FakeOpenAI:
        fake = FakeOpenAI(replies)
        fake.thread.start()
        started.append(fake)
        return fake

    yield start
    for fake in started:
        fake.server.shutdown()
        fake.server.server_close()
        fake.thread.join(timeout=5)


def judge_for(fake: FakeOpenAI, **settings: Any) -> Judge:
    s = Settings(model="openai/some-model", timeout=10, max_retries=2, **settings)
    return Judge("openai/some-model", settings=s, cache=False, backoff=0.01, api_base=fake.base, api_key="x")


async def test_structured_call_to_an_openai_compatible_server(serve: Any) -> None:
    fake = serve([(200, completion('{"country": "France", "population_millions": 2.1}'))])
    judge = judge_for(fake)
    facts = await judge.structured(FACTS, City(name="Paris"))
    assert facts == Facts(country="France", population_millions=2.1)

    [request] = fake.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["model"] == "some-model"
    assert request["messages"] == FACTS.render(City(name="Paris"))
    assert "population_millions" in request["messages"][0]["content"]  # the schema travels in the prompt
    assert request["response_format"]["type"] in ("json_object", "json_schema")
    assert request["max_tokens"] == 80 and request["temperature"] == 0.0
    assert fake.headers[0]["authorization"] == "Bearer x"
    usage = judge.usage.total
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens) == (1, 31, 12)


async def test_server_errors_are_retried_over_http(serve: Any) -> None:
    error = {"error": {"message": "overloaded", "type": "server_error"}}
    fake = serve([(503, error), (429, {"error": {"message": "slow down", "type": "rate_limit"}}),
                  (200, completion('{"country": "France", "population_millions": 2.1}'))])
    facts = await judge_for(fake).structured(FACTS, City(name="Paris"))
    assert facts.country == "France"
    assert len(fake.requests) == 3


async def test_invalid_output_is_reasked_over_http(serve: Any) -> None:
    fake = serve([(200, completion('{"country": "France"}')),
                  (200, completion('{"country": "France", "population_millions": 2.1}'))])
    facts = await judge_for(fake).structured(FACTS, City(name="Paris"))
    assert facts.population_millions == 2.1
    reask = fake.requests[1]["messages"]
    assert reask[-2]["content"] == '{"country": "France"}'
    assert "population_millions: Field required" in reask[-1]["content"]


async def test_auth_failure_fails_fast_over_http(serve: Any) -> None:
    fake = serve([(401, {"error": {"message": "invalid api key", "type": "invalid_request_error"}})])
    with pytest.raises(JudgeUnavailableError, match="invalid api key"):
        await judge_for(fake).structured(FACTS, City(name="Paris"))
    assert len(fake.requests) == 1
