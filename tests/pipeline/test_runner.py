"""The benchmark pipeline: stages written as they go, per-sample failures recorded, resume after a crash."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from run_fixtures import DOCS, rule_reply, write_target, write_testset

from ragkit import run_sync
from ragkit.errors import ConfigError, DataError, RunError, UnknownPluginError
from ragkit.llm._cache import Cache, content_key
from ragkit.pipeline import BenchmarkOptions, Pipeline, new_run, open_run
from ragkit.runs import read_testset
from ragkit.runs._rundir import RunDir, RunSpec
from ragkit.settings import Settings
from ragkit.targets._target import TargetOptions, TargetSpec
from ragkit.testing import ScriptedJudge
from ragkit.types import PluginSpec

METRICS = [PluginSpec(name=n) for n in ("faithfulness", "context_recall", "factual_correctness", "hit_rate")]


def settings() -> Settings:
    return Settings(model="openai/scripted-judge", concurrency=1, max_retries=0)


def options(tmp_path: Path, **kw) -> BenchmarkOptions:
    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    target = write_target(tmp_path / f"rag_{abs(hash(str(kw)))}.py", wrong=kw.pop("wrong", 1),
                          broken=kw.pop("broken", 4))
    return BenchmarkOptions(testset=str(testset), target=target, metrics=METRICS, **kw)


def run_pipeline(run: RunDir, judge) -> object:
    try:
        return run_sync(Pipeline(run, judge=judge, settings=settings(), progress=False).execute())
    finally:
        run.close()


def test_pipeline_from_testset(tmp_path: Path) -> None:
    run = new_run(tmp_path / "run", options(tmp_path), settings(), command=["test"])
    judge = ScriptedJudge(rule_reply, settings=settings())
    summary = run_pipeline(run, judge)
    for name in ("spec.json", "samples.jsonl", "responses.jsonl", "scores.jsonl", "log.jsonl", "summary.json",
                 "report.html"):
        assert (run.path / name).exists(), name
    scores = RunDir.open(run.path).scores()
    assert scores["t-4"].error.startswith("not scored: the target failed (target raised RuntimeError")
    assert scores["t-1"].scores["faithfulness"].value == 0.0  # "builds spaceships" is in no context
    assert all(scores[f"t-{i}"].scores["faithfulness"].value == 1.0 for i in (0, 2, 3, 5))
    assert all(scores[f"t-{i}"].scores["hit_rate"].value == 1.0 for i in (0, 1, 2, 3, 5))
    assert summary.counts.samples == 6 and summary.counts.target_errors == 1 and summary.counts.scored == 5
    assert summary.metrics["faithfulness"].mean == pytest.approx(0.8) and summary.complete
    assert set(summary.stages) == {"generate", "target", "evaluate", "report"}
    per_sample = sum(len(judge.calls_for(p)) for p in ("claims.split", "claims.attribute", "claims.check",
                                                            "claims.values"))
    assert summary.stages["evaluate"].usage.calls == len(judge.calls) == per_sample
    assert summary.llm_calls_per_sample == pytest.approx(len(judge.calls) / 6)
    spec = json.loads((run.path / "spec.json").read_text())
    assert [m["name"] for m in spec["metrics"]] == [m.name for m in METRICS]
    assert spec["metric_meta"]["faithfulness"]["higher_is_better"] is True and spec["seed"] == 0


def test_metric_variants_are_keyed_like_evaluate(tmp_path: Path) -> None:
    opts = options(tmp_path)
    opts.metrics = [PluginSpec(name="hit_rate"), PluginSpec(name="recall_at_k", args={"k": 1})]
    run = new_run(tmp_path / "run", opts, settings(), command=[])
    summary = run_pipeline(run, ScriptedJudge([], settings=settings()))
    assert list(summary.metrics) == ["hit_rate", "recall_at_k[k=1]"]
    assert summary.metrics["recall_at_k[k=1]"].mean == 1.0


CHILD = """
import os, signal, sys
sys.path.insert(0, {tests!r})
from run_fixtures import rule_reply
from ragkit.llm._cache import Cache, content_key
from ragkit import run_sync
from ragkit.pipeline import Pipeline, open_run
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge

log = open({log!r}, "a")
evaluated = 0

def reply(call):
    global evaluated
    if call.prompt_name.startswith("claims."):
        evaluated += 1
        if evaluated > {kill_after}:
            os.kill(os.getpid(), signal.SIGKILL)  # mid-evaluation, this call never completes
    log.write(content_key(call.prompt_name, call.messages) + "\\n")
    log.flush()
    os.fsync(log.fileno())
    return rule_reply(call)

settings = Settings(model="openai/scripted-judge", concurrency=1, max_retries=0)
judge = ScriptedJudge(reply, settings=settings, cache=Cache(__import__("pathlib").Path({cache!r})))
run = open_run({run!r})
run_sync(Pipeline(run, judge=judge, settings=settings, progress=False).execute())
"""


def test_resume_after_kill_9_mid_evaluation_repeats_no_finished_call(tmp_path: Path) -> None:
    # reference: the same run, uninterrupted
    ref = new_run(tmp_path / "ref", options(tmp_path), settings(), command=[])
    ref_judge = ScriptedJudge(rule_reply, settings=settings())
    ref_summary = run_pipeline(ref, ref_judge)
    ref_keys = [content_key(c.prompt_name, c.messages) for c in ref_judge.calls]

    run = new_run(tmp_path / "run", options(tmp_path), settings(), command=[])
    run.close()
    log, cache = tmp_path / "calls.log", tmp_path / "cache.sqlite"
    code = CHILD.format(tests=str(Path(__file__).parent.parent), log=str(log), cache=str(cache),
                        run=str(run.path), kill_after=6)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "RAGKIT_CACHE_DIR": str(tmp_path / "c")})
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    before = RunDir.open(run.path)
    done_before = {k for k, r in before.scores().items() if r.scores}
    assert 0 < len(done_before) < 5 and len(before.responses()) == 6  # killed inside evaluation
    child_calls = log.read_text().split()

    judge = ScriptedJudge(rule_reply, settings=settings(), cache=Cache(cache))
    summary = run_pipeline(open_run(run.path), judge)
    resumed = [content_key(c.prompt_name, c.messages) for c in judge.calls]
    assert not set(resumed) & set(child_calls)  # nothing finished is asked again
    assert sorted(child_calls + resumed) == sorted(ref_keys)  # and nothing is lost or doubled
    # the sample being scored when the child died re-asks its finished calls: the Judge cache answers them
    assert judge.usage.total.cache_hits > 0
    after = RunDir.open(run.path).scores()
    expected = RunDir.open(ref.path).scores()
    assert {k: {m: s.value for m, s in r.scores.items()} for k, r in after.items()} == \
           {k: {m: s.value for m, s in r.scores.items()} for k, r in expected.items()}
    assert summary.metrics["faithfulness"].mean == ref_summary.metrics["faithfulness"].mean
    assert [r.note for r in RunDir.open(run.path).stages() if r.stage == "evaluate"] == [None]


CRASHY = """
import json, os
from pathlib import Path
LOG = Path({log!r})
DOCS = {docs!r}

def answer(question):
    with LOG.open("a") as fh:
        fh.write(question + "\\n")
    n = len(LOG.read_text().splitlines())
    if os.environ.get("CRASH_AT") == str(n):
        raise KeyboardInterrupt
    key = sorted(DOCS)[n % len(DOCS)]
    return {{"answer": DOCS[key].split(". ")[0] + ".", "contexts": [{{"id": key, "text": DOCS[key]}}]}}
"""


def test_ctrl_c_in_target_stage_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "target.log"
    module = tmp_path / "crashy.py"
    module.write_text(CRASHY.format(log=str(log), docs=DOCS))
    opts = options(tmp_path)
    opts.target, opts.metrics = f"{module}:answer", [PluginSpec(name="hit_rate")]
    run = new_run(tmp_path / "run", opts, settings(), command=[])
    monkeypatch.setenv("CRASH_AT", "4")
    with pytest.raises(KeyboardInterrupt):
        run_pipeline(run, ScriptedJudge([], settings=settings()))
    assert len(RunDir.open(run.path).responses()) == 3
    assert [r.note for r in RunDir.open(run.path).stages() if r.stage == "target"] == ["interrupted"]
    monkeypatch.delenv("CRASH_AT")
    summary = run_pipeline(open_run(run.path), ScriptedJudge([], settings=settings()))
    asked = log.read_text().splitlines()
    assert len(asked) == 7 and len(set(asked)) == 6  # 3 answered, 1 interrupted (asked again), 3 new
    assert summary.counts.responses == 6 and summary.complete
    assert summary.stages["target"].sessions == 2


def test_failed_answers_are_retried_on_resume(tmp_path: Path) -> None:
    opts = options(tmp_path, broken=2)
    run = new_run(tmp_path / "run", opts, settings(), command=[])
    first = run_pipeline(run, ScriptedJudge(rule_reply, settings=settings()))
    assert first.counts.target_errors == 1
    fixed = write_target(Path(opts.target.rsplit(":", 1)[0]), wrong=1, broken=None)  # the user fixes the bug
    assert fixed == opts.target
    judge = ScriptedJudge(rule_reply, settings=settings())
    second = run_pipeline(open_run(run.path), judge)
    assert second.counts.target_errors == 0 and second.counts.scored == 6
    assert len((run.path / "responses.jsonl").read_text().splitlines()) == 6  # compacted: one line per sample
    assert {c.data.text for c in judge.calls_for("claims.split")} >= {"Acme Robotics is based in Manchester."}


def test_read_testset_errors(tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text('{"id": "a", "question": "q"}\n{"id": "a", "question": "q2"}\n')
    with pytest.raises(DataError, match=r"t.jsonl line 2: sample id 'a' is used twice"):
        read_testset(f)
    f.write_text('{"id": "a"}\n')
    with pytest.raises(DataError, match=r"t.jsonl line 1: unrecognised record"):
        read_testset(f)
    f.write_text("\n")
    with pytest.raises(DataError, match="no samples"):
        read_testset(f)


def test_new_run_refusals(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="DOCS"):
        new_run(tmp_path / "a", BenchmarkOptions(target="baseline", testset="x.jsonl"), settings(), command=[])
    with pytest.raises(UnknownPluginError, match="Unknown metric 'faithfullness'. Did you mean: faithfulness"):
        new_run(tmp_path / "b", BenchmarkOptions(target="m:f", testset="x",
                                                 metrics=[PluginSpec(name="faithfullness")]), settings(), command=[])
    with pytest.raises(DataError, match="no spec.json"):
        open_run(tmp_path / "nothing")
    plain = RunSpec(ragkit_version="0.1.0", model="m", target=TargetSpec(kind="callable", name="m:f"))
    RunDir.create(tmp_path / "plain", plain)
    with pytest.raises(RunError, match="does not describe a benchmark run"):
        open_run(tmp_path / "plain")


def test_baseline_over_docs_with_fast_graph(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for key, text in DOCS.items():
        (docs / f"{key}.md").write_text(f"# {key.title()}\n\n{text}\n")
    opts = options(tmp_path)
    opts.docs, opts.target, opts.extractor = str(docs), "baseline", "fast"
    opts.metrics = [PluginSpec(name="faithfulness")]
    opts.target_options = TargetOptions(top_k=2)
    run = new_run(tmp_path / "run", opts, settings(), command=[])
    judge = ScriptedJudge(rule_reply, settings=settings())
    summary = run_pipeline(run, judge)
    from ragkit.kg._graph import KnowledgeGraph

    kg = KnowledgeGraph.load(run.kg_path)
    ids = {c.id for c in kg.chunks()}
    responses = RunDir.open(run.path).responses()
    assert len(responses) == 6 and all(r.response.retrieved_contexts for r in responses.values())
    assert all(c.chunk_id in ids and c.source for r in responses.values() for c in r.response.retrieved_contexts)
    assert len(judge.calls_for("baseline_answer")) == 6 and summary.stages["target"].usage.calls == 6
    assert json.loads((run.path / "spec.json").read_text())["corpus_hash"]
    assert summary.metrics["faithfulness"].mean == 1.0  # the rule judge answers with a retrieved sentence


def test_generation_drops_reach_the_run_summary(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generators"))
    from kg_builder import default_script

    docs = tmp_path / "docs"
    docs.mkdir()
    for key, text in DOCS.items():
        (docs / f"{key}.md").write_text(f"# {key.title()}\n\n{text}\n")
    opts = options(tmp_path)
    opts.docs, opts.testset, opts.target, opts.extractor = str(docs), None, "baseline", "fast"
    opts.n, opts.generators, opts.metrics = 2, {"single_hop": 1.0}, [PluginSpec(name="faithfulness")]
    refused: list[int] = []

    def script(call: Any) -> Any:  # the critic's judge finds no answer to the first candidate only
        if call.prompt_name == "generate.critic" and not refused:
            refused.append(1)
            return {"evidence": [], "answer": ""}
        return default_script(call) if call.prompt_name.startswith("generate.") else rule_reply(call)

    run = new_run(tmp_path / "run", opts, settings(), command=[])
    summary = run_pipeline(run, ScriptedJudge(script, settings=settings()))
    generate = summary.stages["generate"]
    assert generate.items == 2 and generate.dropped.get("not_answerable") == 1
    logged = [json.loads(line) for line in (run.path / "log.jsonl").read_text().splitlines()]
    assert [r["dropped"] for r in logged if r["stage"] == "generate"] == [generate.dropped]
    (candidate,) = [json.loads(line) for line in (run.path / "dropped.jsonl").read_text().splitlines()]
    assert candidate["question"] and candidate["metadata"]["dropped"]["reason"] == "not_answerable"


def test_the_default_suite_takes_the_conversation_metrics_when_the_test_set_has_conversations(tmp_path: Path) -> None:
    from ragkit.pipeline import CONVERSATION_METRICS, DEFAULT_METRICS, import_answers
    from ragkit.types import Conversation, EvalSample, Turn

    single = options(tmp_path).model_copy(update={"metrics": None})
    names = [m.name for m in new_run(tmp_path / "single", single, settings(), command=[]).spec.metrics]
    assert names == list(DEFAULT_METRICS)
    samples = read_testset(single.testset)
    samples[1] = samples[1].model_copy(update={"conversation": Conversation(id="c", turn=2, turns=2),
                                               "history": [Turn(question=samples[0].question)]})
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(s.model_dump_json() + "\n" for s in samples))
    run = new_run(tmp_path / "chat", single.model_copy(update={"testset": str(chat)}), settings(), command=[])
    assert [m.name for m in run.spec.metrics] == [*DEFAULT_METRICS, *CONVERSATION_METRICS]
    assert set(CONVERSATION_METRICS) <= set(run.spec.metric_meta)
    chosen = single.model_copy(update={"testset": str(chat), "metrics": METRICS})  # -m: as asked, nothing added
    assert new_run(tmp_path / "m", chosen, settings(), command=[]).spec.metrics == METRICS
    generated = BenchmarkOptions(docs=str(tmp_path), target=single.target, generators={"conversational": 1.0})
    assert "knowledge_retention" in [m.name for m in new_run(tmp_path / "g", generated, settings(),
                                                                command=[]).spec.metrics]
    imported = import_answers(tmp_path / "i", [EvalSample(test=s) for s in samples], "answers.jsonl", settings(),
                              metrics=None, command=[])
    assert "conversation_completeness" in [m.name for m in imported.spec.metrics]
