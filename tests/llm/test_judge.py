"""The Judge above the model call: retries, re-asks, timeouts, cache, usage and concurrency.

Only the model call is faked (litellm ``mock_response`` through ScriptedJudge); everything else runs for real.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from ragkit import Settings
from ragkit.errors import JudgeOutputError, JudgeTimeoutError, JudgeUnavailableError
from ragkit.llm import litellm_module
from ragkit.llm._cache import Cache
from ragkit.llm._prompts import Prompt
from ragkit.testing import Delayed, ScriptedJudge


class Question(BaseModel):
    text: str


class Answer(BaseModel):
    answer: str = Field(max_length=40)
    confidence: int = Field(ge=0, le=10)


ASK = Prompt("ask", "Answer the question briefly.", Question, Answer, max_tokens=64)
GOOD = Answer(answer="Paris", confidence=9)


def settings(**kw: object) -> Settings:
    base = {"model": "openai/scripted-judge", "max_retries": 3, "max_reasks": 2, "concurrency": 4, "timeout": 5.0}
    return Settings(**{**base, **kw})  # type: ignore[arg-type]


def lt_error(name: str, message: str = "boom") -> Exception:
    lt = litellm_module()
    cls = getattr(lt, name)
    if name == "APIError":
        return cls(status_code=503, message=message, llm_provider="openai", model="x")
    return cls(message=message, llm_provider="openai", model="x")


# -- retries ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error", ["RateLimitError", "Timeout", "InternalServerError", "ServiceUnavailableError", "APIConnectionError",
              "APIError"]
)
async def test_transient_errors_are_retried(error: str) -> None:
    judge = ScriptedJudge([lt_error(error), lt_error(error), GOOD], settings=settings())
    assert await judge.structured(ASK, Question(text="Capital of France?")) == GOOD
    assert len(judge.calls) == 3
    stage = judge.usage.stage("default")
    assert (stage.calls, stage.retries, stage.failures) == (1, 2, 0)


async def test_retries_back_off_exponentially_with_jitter(monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps: list[float] = []
    real_sleep = asyncio.sleep

    async def record(delay: float) -> None:
        sleeps.append(delay)
        await real_sleep(0)

    monkeypatch.setattr("ragkit.llm._judge.asyncio.sleep", record)
    judge = ScriptedJudge([lt_error("RateLimitError")] * 3 + [GOOD], settings=settings())
    judge.backoff = 1.0
    assert await judge.structured(ASK, Question(text="q")) == GOOD
    assert len(sleeps) == 3
    for i, delay in enumerate(sleeps):  # base 1, 2, 4 s, each scaled by a jitter factor in [0.5, 1]
        assert 0.5 * 2**i <= delay <= 2**i


async def test_gives_up_with_typed_error_after_max_retries() -> None:
    judge = ScriptedJudge([lt_error("RateLimitError", "slow down")] * 4, settings=settings(max_retries=3))
    with pytest.raises(JudgeUnavailableError) as info:
        await judge.structured(ASK, Question(text="q"))
    err = info.value
    assert (err.model, err.prompt_name, err.attempts) == ("openai/scripted-judge", "ask", 4)
    assert "after 4 attempts" in str(err) and "RateLimitError" in str(err)
    assert len(judge.calls) == 4
    assert judge.usage.stage("default").failures == 1
    assert judge.usage.stage("default").retries == 3


@pytest.mark.parametrize("error", ["AuthenticationError", "BadRequestError", "NotFoundError"])
async def test_non_retryable_errors_fail_fast(error: str) -> None:
    judge = ScriptedJudge([lt_error(error, "no way"), GOOD], settings=settings())
    with pytest.raises(JudgeUnavailableError) as info:
        await judge.structured(ASK, Question(text="q"))
    assert len(judge.calls) == 1
    assert info.value.attempts == 1 and error in str(info.value)


# -- re-asks ------------------------------------------------------------------------------------------------------


async def test_reask_on_invalid_json_then_succeeds() -> None:
    judge = ScriptedJudge(["Sure! The answer is Paris.", GOOD], settings=settings())
    assert await judge.structured(ASK, Question(text="q")) == GOOD
    assert [c.attempt for c in judge.calls] == [1, 2]
    reask = judge.calls[1].messages
    assert reask[-2] == {"role": "assistant", "content": "Sure! The answer is Paris."}
    assert "invalid" in reask[-1]["content"] and "Invalid JSON" in reask[-1]["content"]
    assert judge.usage.stage("default").reasks == 1


async def test_reask_carries_the_schema_violation() -> None:
    judge = ScriptedJudge([{"answer": "Paris", "confidence": 42}, GOOD], settings=settings())
    assert await judge.structured(ASK, Question(text="q")) == GOOD
    message = judge.calls[1].messages[-1]["content"]
    assert "confidence: Input should be less than or equal to 10" in message


async def test_json_inside_fences_or_prose_is_accepted() -> None:
    judge = ScriptedJudge(['Here you go:\n```json\n{"answer": "Paris", "confidence": 9}\n```'], settings=settings())
    assert await judge.structured(ASK, Question(text="q")) == GOOD


async def test_output_error_after_last_reask_carries_raw_output() -> None:
    bad = ['{"answer": "Paris"}', "not json at all", '{"answer": "x", "confidence": -1}']
    judge = ScriptedJudge(bad, settings=settings(max_reasks=2))
    with pytest.raises(JudgeOutputError) as info:
        await judge.structured(ASK, Question(text="q"))
    err = info.value
    assert err.attempts == 3 and err.prompt_name == "ask"
    assert err.raw_output == '{"answer": "x", "confidence": -1}'
    assert len(err.errors) == 3 and "confidence" in err.errors[0] and "greater than or equal to 0" in err.errors[2]
    assert judge.usage.stage("default").failures == 1


async def test_cut_off_reply_is_reported_as_such() -> None:
    judge = ScriptedJudge(['{"answer": "Paris is a very long'] * 2, settings=settings(max_reasks=1))
    with pytest.raises(JudgeOutputError):
        await judge.structured(ASK, Question(text="q"))
    # mock replies finish with "stop": the message names the JSON problem, not a token limit
    assert "token limit" not in judge.calls[1].messages[-1]["content"]


# -- timeout ------------------------------------------------------------------------------------------------------


async def test_slow_attempt_times_out_and_is_retried() -> None:
    judge = ScriptedJudge([Delayed(GOOD, 5.0), GOOD], settings=settings(timeout=0.2))
    started = time.monotonic()
    assert await judge.structured(ASK, Question(text="q")) == GOOD
    assert time.monotonic() - started < 2.0  # the 5 s reply was abandoned at the 0.2 s timeout
    assert len(judge.calls) == 2 and judge.usage.stage("default").retries == 1


async def test_timeout_on_every_attempt_raises_judge_timeout_error() -> None:
    judge = ScriptedJudge([Delayed(GOOD, 5.0)] * 3, settings=settings(timeout=0.1, max_retries=2))
    started = time.monotonic()
    with pytest.raises(JudgeTimeoutError) as info:
        await judge.structured(ASK, Question(text="q"))
    assert time.monotonic() - started < 2.0
    assert info.value.attempts == 3 and "timed out after 0.1 s" in str(info.value)


async def test_timeout_is_per_attempt_not_per_queue() -> None:
    """Waiting for a concurrency slot does not count against a call's timeout."""
    judge = ScriptedJudge(lambda call: Delayed(GOOD, 0.15), settings=settings(timeout=0.5, concurrency=1))
    results = await asyncio.gather(*(judge.structured(ASK, Question(text=f"q{i}")) for i in range(6)))
    assert results == [GOOD] * 6  # 6 x 0.15 s in a row = 0.9 s > timeout, yet nothing timed out
    assert judge.usage.stage("default").retries == 0


# -- cache --------------------------------------------------------------------------------------------------------


async def test_the_same_ask_in_flight_twice_is_one_call_and_one_reply() -> None:
    # two replies to one prompt: the second caller gets the first's, as a replay of the cache would give it
    judge = ScriptedJudge([Delayed(GOOD, 0.1), Answer(answer="Lyon", confidence=2)], settings=settings(), cache=False)
    first, second = await asyncio.gather(*(judge.structured(ASK, Question(text="Capital?")) for _ in range(2)))
    assert first == second == GOOD and first is not second  # a copy: a caller may change its own
    assert len(judge.calls) == 1 and judge.usage.stage("default").cache_hits == 1
    assert await judge.structured(ASK, Question(text="Capital?")) == Answer(answer="Lyon", confidence=2)  # not kept


async def test_a_caller_waiting_on_a_failed_ask_asks_on_its_own() -> None:
    broken = Delayed('{"answer": ', 0.1)
    judge = ScriptedJudge([broken, broken, broken, GOOD], settings=settings(), cache=False)
    failed, asked = await asyncio.gather(*(judge.structured(ASK, Question(text="Capital?")) for _ in range(2)),
                                         return_exceptions=True)
    assert isinstance(failed, JudgeOutputError) and asked == GOOD and len(judge.calls) == 4


async def test_identical_rerun_on_the_same_cache_file_makes_no_model_calls(tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    questions = [Question(text=f"question {i}") for i in range(5)]
    first = ScriptedJudge(lambda call: Answer(answer=call.data.text[-1], confidence=5),  # type: ignore[union-attr]
                          settings=settings(), cache=Cache(path))
    answers = [await first.structured(ASK, q) for q in questions]
    assert len(first.calls) == 5

    second = ScriptedJudge([], settings=settings(), cache=Cache(path))  # any model call would fail the test
    assert [await second.structured(ASK, q) for q in questions] == answers
    assert second.calls == []
    assert second.usage.total.cache_hits == 5 and second.usage.total.calls == 0


async def test_cache_key_covers_prompt_model_and_sampling(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "llm.sqlite")
    await ScriptedJudge([GOOD], settings=settings(), cache=cache).structured(ASK, Question(text="q"))
    for variant in (settings(temperature=0.5), settings(model="openai/other-model")):
        judge = ScriptedJudge([GOOD], settings=variant, cache=cache)
        await judge.structured(ASK, Question(text="q"))
        assert len(judge.calls) == 1
    judge = ScriptedJudge([GOOD, GOOD], settings=settings(), cache=cache)
    await judge.structured(ASK, Question(text="another question"))
    await judge.structured(ASK, Question(text="q"), max_tokens=32)
    assert len(judge.calls) == 2


async def test_failed_calls_are_not_cached(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "llm.sqlite")
    failing = ScriptedJudge([lt_error("AuthenticationError")], settings=settings(), cache=cache)
    with pytest.raises(JudgeUnavailableError):
        await failing.structured(ASK, Question(text="q"))
    judge = ScriptedJudge([GOOD], settings=settings(), cache=cache)
    assert await judge.structured(ASK, Question(text="q")) == GOOD
    assert len(judge.calls) == 1


async def test_only_a_validated_reply_is_cached_and_under_the_first_asks_key(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "llm.sqlite")
    judge = ScriptedJudge(['{"answer": "Paris"}', GOOD], settings=settings(), cache=cache)  # invalid, then re-asked
    assert await judge.structured(ASK, Question(text="q")) == GOOD
    assert cache.count("llm") == 1  # the invalid first reply was never written
    rerun = ScriptedJudge([], settings=settings(), cache=cache)  # any model call would fail the test
    assert await rerun.structured(ASK, Question(text="q")) == GOOD
    assert rerun.usage.total.cache_hits == 1 and rerun.usage.total.calls == 0


async def test_a_reply_that_never_validates_is_not_cached_and_a_resume_asks_again(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "llm.sqlite")
    bad = ScriptedJudge(['{"answer": "Paris"}'] * 3, settings=settings(max_reasks=2), cache=cache)
    with pytest.raises(JudgeOutputError):
        await bad.structured(ASK, Question(text="q"))
    assert cache.count("llm") == 0
    again = ScriptedJudge([GOOD], settings=settings(), cache=cache)
    assert await again.structured(ASK, Question(text="q")) == GOOD and len(again.calls) == 1


async def test_a_cached_entry_that_no_longer_validates_is_asked_again_and_replaced(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "llm.sqlite")
    await ScriptedJudge([GOOD], settings=settings(), cache=cache).structured(ASK, Question(text="q"))
    (key,) = [k for (k,) in cache._db.execute("SELECT key FROM entries WHERE namespace = 'llm'")]
    stale = b'{"text": "{\\"answer\\": 7}", "finish_reason": "stop", "logprobs": null}'  # e.g. from an old version
    cache.put("llm", key, stale)
    judge = ScriptedJudge([GOOD], settings=settings(), cache=cache)
    assert await judge.structured(ASK, Question(text="q")) == GOOD and len(judge.calls) == 1
    rerun = ScriptedJudge([], settings=settings(), cache=cache)
    assert await rerun.structured(ASK, Question(text="q")) == GOOD  # the valid reply replaced the bad entry


# -- usage --------------------------------------------------------------------------------------------------------


async def test_usage_totals_by_stage(tmp_path: Path) -> None:
    judge = ScriptedJudge(lambda call: GOOD, settings=settings(), cache=Cache(tmp_path / "c.sqlite"))
    with judge.stage("generate"):
        await judge.structured(ASK, Question(text="a"))
        await judge.structured(ASK, Question(text="b"))
    with judge.stage("evaluate"):
        await asyncio.gather(judge.structured(ASK, Question(text="c")), judge.text("Say hi."))
        await judge.structured(ASK, Question(text="a"))  # cached from the generate stage
    gen, ev = judge.usage.stages["generate"], judge.usage.stages["evaluate"]
    assert (gen.calls, gen.cache_hits) == (2, 0)
    assert (ev.calls, ev.cache_hits) == (2, 1)
    assert gen.prompt_tokens > 0 and gen.completion_tokens > 0 and gen.seconds >= 0
    total = judge.usage.total
    assert (total.calls, total.cache_hits) == (4, 1)
    assert total.prompt_tokens == gen.prompt_tokens + ev.prompt_tokens


async def test_stage_follows_tasks_started_inside_it() -> None:
    judge = ScriptedJudge(lambda call: GOOD, settings=settings())

    async def work() -> None:
        await judge.structured(ASK, Question(text="x"))

    with judge.stage("kg.enrich"):
        task = asyncio.create_task(work())
    await task
    assert judge.usage.stages["kg.enrich"].calls == 1
    assert "default" not in judge.usage.stages


async def test_text_call() -> None:
    judge = ScriptedJudge(["Hello there."], settings=settings())
    assert await judge.text("Say hello.") == "Hello there."
    assert judge.calls[0].messages == [{"role": "user", "content": "Say hello."}]
    assert judge.calls[0].prompt_name == "text"


# -- concurrency --------------------------------------------------------------------------------------------------


async def test_concurrency_limit_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    lt = litellm_module()
    real = lt.acompletion
    in_flight, peak = 0, 0

    async def counting(**kwargs: object) -> object:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            return await real(**kwargs)
        finally:
            in_flight -= 1

    monkeypatch.setattr(lt, "acompletion", counting)
    judge = ScriptedJudge(lambda call: Delayed(GOOD, 0.05), settings=settings(concurrency=2))
    started = time.monotonic()
    await asyncio.gather(*(judge.structured(ASK, Question(text=f"q{i}")) for i in range(8)))
    assert len(judge.calls) == 8
    assert peak == 2
    assert time.monotonic() - started >= 4 * 0.05  # four waves of two


async def test_judge_works_across_event_loops() -> None:
    judge = ScriptedJudge(lambda call: GOOD, settings=settings(concurrency=1))
    await judge.structured(ASK, Question(text="a"))

    def other_loop() -> Answer:
        return asyncio.run(judge.structured(ASK, Question(text="b")))

    assert await asyncio.to_thread(other_loop) == GOOD


async def test_scripted_judge_refuses_unscripted_calls() -> None:
    judge = ScriptedJudge([GOOD], settings=settings())
    await judge.structured(ASK, Question(text="a"))
    with pytest.raises(AssertionError, match="called more often than scripted"):
        await judge.structured(ASK, Question(text="b"))


async def test_choices_narrow_the_schema_a_string_field_is_decoded_under_and_the_cache_keeps_them_apart(tmp_path):
    from pydantic import BaseModel

    from ragkit.llm import Cache, Prompt
    from ragkit.testing import ScriptedJudge

    class In(BaseModel):
        text: str

    class Out(BaseModel):
        fact: str
        count: int

    prompt = Prompt("pick", "Pick a fact.", In, Out)
    schemas = []

    def script(call):
        schemas.append(call.schema)
        return {"fact": "b", "count": 1}

    judge = ScriptedJudge(script, cache=Cache(tmp_path / "c.sqlite"))
    await judge.structured(prompt, In(text="x"), choices={"fact": ["a", "b", "a"]})
    await judge.structured(prompt, In(text="x"))
    await judge.structured(prompt, In(text="x"), choices={"fact": ["a", "b"]})  # cached under its own key
    assert [s["properties"]["fact"].get("enum") for s in schemas] == [["a", "b"], None]
    assert prompt.schema() == Out.model_json_schema()
    assert prompt.schema({"fact": []}) == Out.model_json_schema()  # no values: the field stays free
    with pytest.raises(ValueError, match="'count', which is no string field"):
        prompt.schema({"count": ["1"]})
