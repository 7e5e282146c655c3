"""LangChain, LlamaIndex and Haystack targets: real objects from the real packages, benchmarked end to end
(scripted judge) with their context ids kept, so that id-based retrieval metrics work on them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from run_fixtures import DOCS, FACTS, rule_reply, write_testset

import ragkit.llm
from ragkit.cli import cli
from ragkit.settings import Settings
from ragkit.targets import FrameworkTarget, make_target
from ragkit.testing import ScriptedJudge
from ragkit.types import TestSample

os.environ.setdefault("HAYSTACK_TELEMETRY_ENABLED", "False")
pytest.importorskip("langchain_core")
pytest.importorskip("llama_index.core")
pytest.importorskip("haystack")

APPS = Path(__file__).with_name("framework_apps.py")


@pytest.fixture(autouse=True)
def scripted_judge(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("live"):
        return  # the live test scores with the embedded judge
    monkeypatch.setattr(ragkit.llm, "Judge", lambda *a, **k: ScriptedJudge(
        rule_reply, settings=Settings(model="openai/scripted-judge", concurrency=2, max_retries=0)))


@pytest.mark.parametrize(("framework", "attr"), [("langchain", "chain"), ("llamaindex", "engine"),
                                                  ("haystack", "pipeline")])
def test_benchmark_a_framework_app_keeps_its_context_ids(tmp_path: Path, framework: str, attr: str) -> None:
    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    run = tmp_path / "run"
    res = CliRunner().invoke(cli, ["benchmark", "--testset", str(testset), "--target", f"{framework}:{APPS}:{attr}",
                                   "-m", "hit_rate", "-m", "faithfulness", "-o", str(run), "--no-progress",
                                   "--json"])
    assert res.exit_code == 0, res.output
    spec = json.loads((run / "spec.json").read_text())
    assert spec["target"]["kind"] == framework and not (run / "kg.json").exists()  # a test set needs no graph
    responses = [json.loads(line) for line in (run / "responses.jsonl").read_text().splitlines()]
    assert len(responses) == len(FACTS) and not any(r["response"]["error"] for r in responses)
    for r in responses:
        contexts = r["response"]["retrieved_contexts"]
        assert len(contexts) == 2
        for c in contexts:
            assert DOCS[c["chunk_id"]] == c["text"]  # the framework's own ids, with their text
            assert c["source"] == f"{c['chunk_id']}.md"
    summary = json.loads(res.stdout)
    assert summary["metrics"]["hit_rate"]["mean"] == 1.0  # real retrieval, matched to the test set by id
    assert summary["metrics"]["faithfulness"]["mean"] == 1.0  # each answers from its best passage


async def test_python_objects_are_targets_too() -> None:
    import importlib.util
    import sys

    sys.path.insert(0, str(APPS.parent))
    spec = importlib.util.spec_from_file_location("framework_apps_api", APPS)
    assert spec and spec.loader
    apps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(apps)
    question, answer, key = FACTS[2]
    for obj, kind in ((apps.chain, "langchain"), (apps.engine, "llamaindex"), (apps.pipeline, "haystack")):
        target = make_target(obj)
        assert isinstance(target, FrameworkTarget) and target.spec.kind == kind
        response = await target.answer(TestSample(id="s", question=question))
        assert response.error is None and response.retrieved_contexts[0].chunk_id == key, kind
        assert response.answer == answer, kind
    scores = (await make_target(apps.engine).answer(TestSample(id="s", question=question))).metadata
    assert len(scores["context_scores"]) == 2


async def test_a_failing_app_is_recorded_per_sample() -> None:
    from langchain_core.runnables import RunnableLambda

    def broken(question: str) -> str:
        raise RuntimeError("vector store offline")

    response = await make_target(RunnableLambda(broken)).answer(TestSample(id="s", question="Q?"))
    assert response.error == "langchain target raised RuntimeError: vector store offline"


def test_a_wrong_object_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "notapp.py").write_text("thing = 42\n")
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "t.jsonl"), "--target",
                                   f"haystack:{tmp_path / 'notapp.py'}:thing", "-o", str(tmp_path / "out.jsonl")])
    assert res.exit_code == 2
    write_testset(tmp_path / "t.jsonl")
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "t.jsonl"), "--target",
                                   f"haystack:{tmp_path / 'notapp.py'}:thing", "-o", str(tmp_path / "out.jsonl")])
    assert res.exit_code == 2 and "int is not a haystack object (it has no run method)" in res.output, res.output


@pytest.mark.live
def test_a_langchain_app_step_by_step_on_the_embedded_judge(tmp_path: Path) -> None:
    """run -o DIR (a real LangChain chain) → evaluate DIR, scored by the embedded judge (no scripted seam)."""
    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    testset.write_text("\n".join(testset.read_text().splitlines()[:2]) + "\n")
    res = CliRunner().invoke(cli, ["run", str(testset), "--target", f"langchain:{APPS}:chain", "-o",
                                   str(tmp_path / "run"), "--no-progress"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["evaluate", str(tmp_path / "run"), "-m", "faithfulness", "-m", "hit_rate",
                                   "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["metrics"]["hit_rate"]["mean"] == 1.0 and summary["counts"]["scored"] == 2
    assert summary["metrics"]["faithfulness"]["mean"] >= 0.5  # answers are sentences of the retrieved passage
