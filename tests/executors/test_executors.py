"""The executor interface without a cluster: the local executor, the choice from settings, and the pickling
that a Ray executor relies on (a Judge travels as its recipe; the scoring work as metric specs)."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

import pytest
from run_fixtures import rule_reply

from ragkit.errors import ConfigError
from ragkit.evaluation import ScoreWork, build_metric
from ragkit.executors import LocalExecutor, RayExecutor, make_executor
from ragkit.llm import Judge
from ragkit.registry import spec_of
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge


class Doubling:
    """Work that records its setups and doubles numbers, slowly in reverse order."""

    def __init__(self) -> None:
        self.setups = 0

    async def setup(self) -> None:
        self.setups += 1

    async def __call__(self, item: int, /) -> int:
        await asyncio.sleep(0.01 * (5 - item))
        return item * 2

    def report(self) -> Any:
        return {"setups": self.setups}


async def test_local_executor_sets_up_once_and_streams_results_in_completion_order() -> None:
    seen: list[tuple[int, int]] = []
    reports = await LocalExecutor().map(Doubling(), [1, 2, 3, 4], on_result=lambda i, r: seen.append((i, r)),
                                        concurrency=4)
    assert reports == [{"setups": 1}]
    assert seen == [(3, 8), (2, 6), (1, 4), (0, 2)]


async def test_local_executor_keeps_to_its_concurrency() -> None:
    running, peak = [0], [0]

    class Counting(Doubling):
        async def __call__(self, item: int, /) -> int:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
            await asyncio.sleep(0.01)
            running[0] -= 1
            return item

    await LocalExecutor().map(Counting(), list(range(10)), on_result=lambda i, r: None, concurrency=3)
    assert peak[0] == 3


def test_make_executor_follows_the_settings() -> None:
    assert isinstance(make_executor(Settings()), LocalExecutor)
    ray = make_executor(Settings(executor="ray", ray_address="10.0.0.1:6379", ray_actors=8, ray_cpus_per_actor=2,
                                 ray_memory_mb=2500))
    assert ray == RayExecutor(address="10.0.0.1:6379", actors=8, cpus_per_actor=2, memory_mb=2500)
    with pytest.raises(ConfigError, match="executor"):
        Settings.load(executor="spark")


def test_a_judge_pickles_as_its_recipe() -> None:
    settings = Settings(model="openai/gpt-4o-mini", concurrency=3, cache=False)
    judge = Judge(settings=settings, api_base="http://127.0.0.1:9/v1", backoff=0.5)
    copy = pickle.loads(pickle.dumps(judge))
    assert type(copy) is Judge and copy.settings == settings and copy.backoff == 0.5
    assert copy.litellm_params == {"api_base": "http://127.0.0.1:9/v1"}
    assert copy.usage.stages == {}


def test_a_scripted_judge_pickles_with_its_script() -> None:
    judge = ScriptedJudge(rule_reply)
    copy = pickle.loads(pickle.dumps(judge))
    assert isinstance(copy, ScriptedJudge) and copy._responder is rule_reply and copy.calls == []


async def test_score_work_travels_as_metric_specs() -> None:
    judge = ScriptedJudge(rule_reply)
    work = ScoreWork([build_metric("faithfulness"), build_metric("context_recall", {"reference": "ids"})], judge,
                     reference_ids=frozenset({"c1"}))
    copy = pickle.loads(pickle.dumps(work))
    assert [spec_of(f) for f in copy.fns] == [spec_of(f) for f in work.fns]
    assert copy.reference_ids == frozenset({"c1"}) and copy.ctx is None
    await copy.setup()
    assert copy.ctx is not None and copy.report()["usage"].calls == 0


def test_settings_travel_without_the_machines_own_default_directories(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Any) -> None:
    for name in ("RAGKIT_CACHE_DIR", "RAGKIT_MODEL_DIR"):  # the suite's own isolation sets them
        monkeypatch.delenv(name, raising=False)
    sent = Settings(model="openai/judge", concurrency=3, ray_runtime_env={"pip": ["ragkit[local]"]})
    explicit = Settings(cache_dir=tmp_path / "shared")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "worker-home"))  # the machine that unpickles
    got, got_explicit = pickle.loads(pickle.dumps(sent)), pickle.loads(pickle.dumps(explicit))
    assert got.cache_dir == tmp_path / "worker-home" / "ragkit"
    assert got.model_dir == tmp_path / "worker-home" / "ragkit" / "models"
    assert got.model_dump(exclude={"cache_dir", "model_dir"}) == sent.model_dump(exclude={"cache_dir", "model_dir"})
    assert got_explicit.cache_dir == tmp_path / "shared"
