"""Scoring on a real three-node Ray cluster (tests/ray/conftest.py): the run directory equals a local run's,
and killing a worker node mid-run loses nothing."""

from __future__ import annotations

import base64
import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ray_script import corpus_reply, slow_rule_reply
from run_fixtures import DOCS, rule_reply, write_target, write_testset

from ragkit import run_sync
from ragkit.pipeline import BenchmarkOptions, Pipeline, new_run
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge
from ragkit.types import PluginSpec

pytestmark = pytest.mark.ray

METRICS = [PluginSpec(name=n) for n in ("faithfulness", "context_recall", "factual_correctness", "hit_rate")]


def _settings(**kw: Any) -> Settings:
    return Settings(model="openai/scripted-judge", concurrency=2, max_retries=0, cache=False, **kw)


def _benchmark(tmp_path: Path, name: str, reply: Any, **kw: Any) -> Path:
    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    target = write_target(tmp_path / "rag_target.py", wrong=1, broken=4)
    return _run(tmp_path / name, BenchmarkOptions(testset=str(testset), target=target, metrics=METRICS), reply, **kw)


def _docs(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    if not docs.exists():
        docs.mkdir()
        for key, text in DOCS.items():
            (docs / f"{key}.md").write_text(f"# {key.title()}\n\n{text}\n", encoding="utf-8")
    return docs


def _corpus_benchmark(tmp_path: Path, name: str, **kw: Any) -> Path:
    """``ragkit benchmark DOCS --extractor fast -n 4 --target baseline``: graph, generation, target and scores."""
    opts = BenchmarkOptions(docs=str(_docs(tmp_path)), n=4, extractor="fast", target="baseline", metrics=METRICS)
    return _run(tmp_path / name, opts, corpus_reply, **kw)


def _run(path: Path, opts: BenchmarkOptions, reply: Any, **kw: Any) -> Path:
    """The benchmark pipeline into run directory ``path``, judged by ``reply``, with settings ``kw``."""
    settings = _settings(**kw)
    run = new_run(path, opts, settings, command=[])
    try:
        run_sync(Pipeline(run, judge=ScriptedJudge(reply, settings=settings), settings=settings,
                          progress=False).execute())
    finally:
        run.close()
    return run.path


def _samples(run: Path) -> list[Any]:
    return [json.loads(line) for line in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines()]


def _graph(run: Path) -> Any:
    return _timeless(json.loads((run / "kg.json").read_text(encoding="utf-8")))


class _Vector:
    """An embedding read from a graph's JSON, equal to another within float32 rounding: the embedded model's
    BLAS sums in an order that depends on its thread count, which a Ray worker sets to one."""

    def __init__(self, value: str) -> None:
        self.value = np.frombuffer(base64.b64decode(value), dtype=np.float32)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Vector) and bool(np.allclose(self.value, other.value, rtol=0, atol=1e-5))

    def __repr__(self) -> str:
        return f"_Vector({self.value[:3]}...)"


def _timeless(graph: dict[str, Any]) -> dict[str, Any]:
    """A graph's JSON without the build's stage times, its embeddings compared within float rounding."""
    graph["info"]["last_build"]["summary"].pop("seconds")
    for node in graph["nodes"]:
        for key in ("embedding", "summary_embedding"):
            if isinstance(node.get(key), str):
                node[key] = _Vector(node[key])
    return graph


def _scores(run: Path) -> dict[str, Any]:
    """Each sample's scores and error, by sample id (records land in completion order, which differs)."""
    out = {}
    for line in (run / "scores.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        out[rec["sample_id"]] = {"scores": rec["scores"], "error": rec.get("error")}
    return out


def _responses(run: Path) -> dict[str, Any]:
    out = {}
    for line in (run / "responses.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        rec["response"].pop("latency_s", None)
        out[rec["test"]["id"]] = rec
    return out


def test_a_ray_run_equals_a_local_run(tmp_path: Path, ray_cluster: Any) -> None:
    local = _benchmark(tmp_path, "local", rule_reply)
    remote = _benchmark(tmp_path, "ray", rule_reply, executor="ray", ray_address=ray_cluster.address,
                        ray_actors=2)
    assert _scores(remote) == _scores(local)
    assert len(_scores(local)) == 6
    assert _responses(remote) == _responses(local)
    summary = json.loads((remote / "summary.json").read_text())
    assert summary["metrics"] == json.loads((local / "summary.json").read_text())["metrics"]
    usage = summary["stages"]["evaluate"]["usage"]
    assert usage["calls"] > 0  # the actors' calls are counted on the driver


def test_a_benchmark_from_documents_on_ray_equals_a_local_one(tmp_path: Path, ray_cluster: Any) -> None:
    """Graph, generation and scores on the cluster's workers, each run with a cache of its own (a graph cached by
    the local run would otherwise be reused)."""
    local = _corpus_benchmark(tmp_path, "local", cache_dir=tmp_path / "local-cache")
    ray_cluster.trace.unlink(missing_ok=True)
    remote = _corpus_benchmark(tmp_path, "ray", executor="ray", ray_address=ray_cluster.address, ray_actors=2,
                               cache_dir=tmp_path / "ray-cache")
    assert len(_samples(local)) == 4
    assert _samples(remote) == _samples(local)
    assert _graph(remote) == _graph(local)
    assert _responses(remote) == _responses(local)
    assert _scores(remote) == _scores(local)
    assert all(rec["scores"] for rec in _scores(local).values())
    summary = json.loads((remote / "summary.json").read_text())
    assert summary["metrics"] == json.loads((local / "summary.json").read_text())["metrics"]
    assert summary["stages"]["generate"]["usage"]["calls"] == \
        json.loads((local / "summary.json").read_text())["stages"]["generate"]["usage"]["calls"]
    workers = {ray_cluster.node_with("first"), ray_cluster.node_with("victim")}
    traced = [line.split() for line in ray_cluster.trace.read_text(encoding="utf-8").splitlines()]
    made_there = {prompt for node, prompt in traced if node in workers}
    assert {"generate.qa", "generate.critic"} <= made_there  # the writer's and the critic's calls ran in the actors


def test_a_graph_built_on_ray_equals_a_local_one(tmp_path: Path, ray_cluster: Any) -> None:
    """The ``llm`` build: files parsed and chunked, documents read, summarised and embedded in the actors; the
    relations on the driver. An unchanged rebuild on Ray sends nothing."""
    from ray_script import corpus_reply

    from ragkit.executors import make_executor
    from ragkit.kg import BuildOptions, build_graph
    from ragkit.llm import Embeddings

    docs = _docs(tmp_path)
    options = BuildOptions(extractor="llm", max_tokens=60, min_tokens=20, progress=False)

    def build(executor: str, previous: Any = None) -> Any:
        settings = _settings(executor=executor, ray_address=ray_cluster.address, ray_actors=2)
        judge = ScriptedJudge(corpus_reply, settings=settings)
        result = run_sync(build_graph(docs, options, previous=previous, judge=judge, executor=make_executor(settings),
                                      embeddings=Embeddings(settings=settings, cache=False)))
        return result, judge

    local, _ = build("local")
    ray_cluster.trace.unlink(missing_ok=True)
    remote, judge = build("ray")
    traced = ray_cluster.trace.read_text(encoding="utf-8").splitlines()
    assert sum(line.endswith(" kg.read_document") for line in traced) == len(DOCS)  # one reading per document
    assert judge.calls == [] and remote.summary.llm_calls == len(DOCS)  # made there, counted here
    assert _timeless(remote.kg.to_json()) == _timeless(local.kg.to_json())
    again, _ = build("ray", previous=remote.kg)
    assert again.summary.documents.reused == len(DOCS) and again.summary.llm_calls == 0


def test_a_worker_node_killed_mid_run_loses_nothing(tmp_path: Path, ray_cluster: Any) -> None:
    local = _benchmark(tmp_path, "local", rule_reply)
    run_dir = tmp_path / "ray"
    victim = ray_cluster.raylet_pid("victim")
    victim_node, other_node = ray_cluster.node_with("victim"), ray_cluster.node_with("first")
    killed: list[int] = []  # the calls made before the kill

    def kill_when_scoring_started() -> None:
        scores = run_dir / "scores.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if scores.exists() and scores.read_text(encoding="utf-8").count("\n") >= 1 and \
                    ray_cluster.trace.exists() and victim_node in ray_cluster.trace.read_text(encoding="utf-8"):
                os.kill(victim, signal.SIGKILL)
                killed.append(len(ray_cluster.trace.read_text(encoding="utf-8").splitlines()))
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_scoring_started, daemon=True)
    killer.start()
    remote = _benchmark(tmp_path, "ray", slow_rule_reply, executor="ray", ray_address=ray_cluster.address,
                        ray_actors=2)
    killer.join(timeout=5)
    assert killed, "the worker node was not killed while it was scoring"
    assert _scores(remote) == _scores(local)
    after_kill = [line.split()[0] for line in ray_cluster.trace.read_text(encoding="utf-8").splitlines()[killed[0]:]]
    assert other_node in after_kill  # the surviving node finished the run


async def test_actors_start_in_the_settings_runtime_env(ray_cluster: Any) -> None:
    from ray_script import EnvProbe

    from ragkit.executors import make_executor

    settings = Settings(executor="ray", ray_address=ray_cluster.address, ray_actors=2,
                        ray_runtime_env={"env_vars": {"RAGKIT_PROBE": "from runtime_env"}})
    seen: dict[int, Any] = {}
    await make_executor(settings).map(EnvProbe(), ["RAGKIT_PROBE", "RAGKIT_PROBE"],
                                      on_result=seen.__setitem__, concurrency=1)
    assert seen == {0: "from runtime_env", 1: "from runtime_env"}
