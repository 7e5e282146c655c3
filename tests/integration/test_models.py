"""The real embedded models: the default LLM through the Judge, the embedding model, and ``ragkit doctor``."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Literal

import pytest
from click.testing import CliRunner
from pydantic import BaseModel, Field

from ragkit import Judge, JudgeTimeoutError, Settings
from ragkit.cli import cli
from ragkit.llm._embeddings import Embeddings
from ragkit.llm._prompts import Prompt

pytestmark = pytest.mark.live


class Passage(BaseModel):
    text: str


class Place(BaseModel):
    city: str = Field(max_length=40)
    country: str = Field(max_length=40)


PLACE = Prompt("test.place", "Name the city and the country that the text is about. Answer in the language of "
               "the text.", Passage, Place, max_tokens=40)


class Check(BaseModel):
    passage: str
    claim: str


class Verdict(BaseModel):
    verdict: Literal["supported", "contradicted", "unrelated"]


VERIFY = Prompt("test.verify", "Does the passage support the claim, contradict it, or say nothing about it?",
                Check, Verdict, max_tokens=16)


async def test_default_model_returns_a_valid_object(live_settings: Settings) -> None:
    assert live_settings.model == "local/qwen2.5-coder-1.5b"
    judge = Judge(settings=live_settings)
    place = await judge.structured(PLACE, Passage(text="Lyon is a large city in the south-east of France."))
    assert isinstance(place, Place)
    assert "France" in place.country and "Lyon" in place.city
    zh = await judge.structured(PLACE, Passage(text="杭州是中国浙江省的省会，以西湖闻名。"))
    assert "杭州" in zh.city and "中国" in zh.country

    rerun = Judge(settings=live_settings)  # same cache file: free
    assert await rerun.structured(PLACE, Passage(text="Lyon is a large city in the south-east of France.")) == place
    assert rerun.usage.total.calls == 0 and rerun.usage.total.cache_hits == 1


async def test_default_model_label_probabilities(live_settings: Settings) -> None:
    judge = Judge(settings=live_settings)
    scored = await judge.structured_scored(
        VERIFY, Check(passage="The Eiffel Tower is in Paris.", claim="The Eiffel Tower is in Paris."))
    assert scored.output.verdict == "supported"
    assert scored.tokens, "llama.cpp returned no token logprobs"
    [label] = scored.labels
    assert label.path == ("verdict",) and label.value == "supported"
    assert 0.5 < label.prob <= 1.0
    assert sum(label.distribution.values()) == pytest.approx(1.0)
    assert label.distribution["supported"] > 0.5


def test_embeddings_rank_paraphrases_above_unrelated_text(live_settings: Settings) -> None:
    emb = Embeddings(settings=live_settings)
    english = emb.embed(["The meeting was moved to Friday afternoon.",
                         "The meeting has been rescheduled for Friday after lunch.",
                         "Penguins live mostly in the southern hemisphere."])
    assert english.shape == (3, 384) and english.dtype.name == "float32"
    assert abs(float(english[0] @ english[0]) - 1.0) < 1e-5  # unit rows
    assert float(english[0] @ english[1]) > float(english[0] @ english[2]) + 0.2
    chinese = emb.embed(["会议改到星期五下午了。", "会议已经改到周五下午举行。", "企鹅主要生活在南半球。"])
    assert float(chinese[0] @ chinese[1]) > float(chinese[0] @ chinese[2])


async def test_local_timeout_stops_generation_and_frees_the_model(live_settings: Settings) -> None:
    """A call past its timeout stops between tokens; the next call gets the model at once."""
    fast = live_settings.model_copy(update={"model": "local/smollm2-135m", "timeout": 0.5, "cache": False})
    judge = Judge(settings=fast, cache=False)
    patient = Judge(settings=fast.model_copy(update={"timeout": 120.0}), cache=False)
    story = [{"role": "user", "content": "Write a very long story about a lighthouse keeper."}]
    await patient.text([{"role": "user", "content": "Say hi."}], max_tokens=4)  # load the model first
    started = time.monotonic()
    with pytest.raises(JudgeTimeoutError) as info:
        await judge.text(story, max_tokens=2000)
    assert info.value.attempts == 1  # a local timeout would repeat: not retried
    assert time.monotonic() - started < 15

    task = asyncio.create_task(patient.text(story, max_tokens=2000))
    await asyncio.sleep(1.0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    started = time.monotonic()
    assert await patient.text([{"role": "user", "content": "Say hi."}], max_tokens=4)
    assert time.monotonic() - started < 30  # the cancelled 2000-token story did not keep the model busy


def test_doctor_succeeds_with_the_embedded_defaults(caplog: pytest.LogCaptureFixture) -> None:
    result = CliRunner().invoke(cli, ["doctor", "--json"])
    assert result.exit_code == 0, result.output
    # doctor loads the model with the settings a run uses, so its own call warns of none left unapplied
    assert "already loaded" not in caplog.text
    report = json.loads(result.output)
    assert report["ok"] is True and report["model"] == "local/qwen2.5-coder-1.5b"
    assert report["structured_result"]["country"]
    for key in ("model_load", "structured_call", "embedding_load", "embedding"):
        assert report["timings_s"][key] >= 0
