"""Any litellm model string works unchanged: the Judge against an OpenAI-compatible server on 127.0.0.1.

The server is a tiny stdlib HTTP server started by the test; it records each request and answers with a valid
chat completion. Nothing here is mocked inside litellm: the request goes over HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, Field

from ragkit import Judge, JudgeUnavailableError, Settings
from ragkit.llm._prompts import Prompt
from ragkit.testing import FakeOpenAIServer, completion


class City(BaseModel):
    name: str


class Facts(BaseModel):
    country: str = Field(max_length=40)
    population_millions: float


FACTS = Prompt("facts", "Give the country and population of the city.", City, Facts, max_tokens=80)


@pytest.fixture
def serve() -> Iterator[Any]:
    started: list[FakeOpenAIServer] = []

    def start(replies: list[tuple[int, dict[str, Any]]]) -> FakeOpenAIServer:
        fake = FakeOpenAIServer(replies).__enter__()
        started.append(fake)
        return fake

    yield start
    for fake in started:
        fake.__exit__(None, None, None)


def judge_for(fake: FakeOpenAIServer, **settings: Any) -> Judge:
    s = Settings(model="openai/some-model", timeout=10, max_retries=2, **settings)
    return Judge("openai/some-model", settings=s, cache=False, backoff=0.01, api_base=fake.base_url, api_key="x")


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


async def test_prompt_tokens_the_provider_reused_are_counted(serve: Any) -> None:
    reply = completion('{"country": "France", "population_millions": 2.1}', prompt_tokens=400, cached_tokens=300)
    fake = serve([(200, reply), (200, completion('{"country": "Peru", "population_millions": 10}'))])
    judge = judge_for(fake)
    await judge.structured(FACTS, City(name="Paris"))
    await judge.structured(FACTS, City(name="Lima"))  # no cached-token count: nothing reused
    total = judge.usage.total
    assert (total.prompt_tokens, total.reused_tokens) == (431, 300)
    assert total.tokens_text() == "431/24 (70% reused)"
