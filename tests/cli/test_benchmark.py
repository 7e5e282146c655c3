"""`ragkit benchmark` (gate exit codes, --json, --resume checks) and `ragkit run` → `ragkit evaluate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from run_fixtures import rule_reply, write_target, write_testset

import ragkit.llm
from ragkit.cli import cli
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge

JUDGES: list[ScriptedJudge] = []


@pytest.fixture(autouse=True)
def scripted_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The LLM seam: commands build their Judge through ragkit.llm.Judge."""
    JUDGES.clear()

    def make(*args, **kwargs) -> ScriptedJudge:
        judge = ScriptedJudge(rule_reply, settings=Settings(model="openai/scripted-judge", concurrency=1,
                                                            max_retries=0))
        JUDGES.append(judge)
        return judge

    monkeypatch.setattr(ragkit.llm, "Judge", make)


def bench(tmp_path: Path, *extra: str, wrong: int | None = 1):
    testset = tmp_path / "testset.jsonl"
    if not testset.exists():
        write_testset(testset)
    target = write_target(tmp_path / "rag_cli.py", wrong=wrong, broken=None)
    args = ["benchmark", "--testset", str(testset), "--target", target, "-m", "faithfulness", "-m", "hit_rate",
            "--no-progress", *extra]
    return CliRunner().invoke(cli, args)


def test_gate_passes_and_prints_json(tmp_path: Path) -> None:
    res = bench(tmp_path, "-o", str(tmp_path / "run"), "--json", "--fail-under", "hit_rate=1",
                "--fail-under", "faithfulness=0.8")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["gate"] == {"passed": True, "failures": []}
    assert data["metrics"]["faithfulness"]["mean"] == pytest.approx(5 / 6)
    assert (tmp_path / "run" / "report.html").exists() and "Report:" in res.stderr


def test_gate_fails_with_one_line_per_threshold(tmp_path: Path) -> None:
    res = bench(tmp_path, "-o", str(tmp_path / "run"), "--fail-under", "faithfulness=0.9", "--fail-under",
                "hit_rate=0.5", "--fail-over", "faithfulness=0.5")
    assert res.exit_code == 3  # the gate did not pass
    failed = [line for line in res.stderr.splitlines() if line.startswith("FAILED:")]
    assert failed == ["FAILED: faithfulness = 0.833 is below 0.9 (--fail-under faithfulness=0.9)",
                      "FAILED: faithfulness = 0.833 is above 0.5 (--fail-over faithfulness=0.5)"]


def test_gate_on_unknown_metric_is_refused_before_any_work(tmp_path: Path) -> None:
    res = bench(tmp_path, "-o", str(tmp_path / "run"), "--fail-under", "faithfullness=0.9")
    assert res.exit_code == 2 and "not in this run: faithfullness" in res.output  # a usage error
    res = bench(tmp_path, "-o", str(tmp_path / "run"), "--fail-under", "faithfulness=7")
    assert res.exit_code == 2 and "outside the metric's range [0, 1]" in res.output
    assert not (tmp_path / "run").exists()
    res = bench(tmp_path, "-o", str(tmp_path / "run"), "--fail-under", "faithfulness")
    assert res.exit_code == 2 and "expected METRIC=NUMBER" in res.output


def test_resume_finished_run_costs_nothing_and_refuses_changed_options(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert bench(tmp_path, "-o", str(run)).exit_code == 0
    first_calls = len(JUDGES[0].calls)
    assert first_calls > 0
    res = CliRunner().invoke(cli, ["benchmark", "--resume", str(run), "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    assert len(JUDGES[-1].calls) == 0 and json.loads(res.stdout)["counts"]["scored"] == 6
    res = CliRunner().invoke(cli, ["benchmark", "--resume", str(run), "-n", "50", "--seed", "0"])
    assert res.exit_code == 2 and "these differ: n (run: 6, given: 50)" in res.output
    res = CliRunner().invoke(cli, ["benchmark", "--resume", str(run), "--fail-under", "nope=1"])
    assert res.exit_code == 2 and "not in this run: nope" in res.output  # a usage error
    again = bench(tmp_path, "-o", str(run))
    assert again.exit_code == 2 and "already holds a run; resume it with --resume" in again.output


def test_usage_errors(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["benchmark", str(tmp_path)])
    assert res.exit_code == 2 and "--target is required" in res.output


def test_run_then_evaluate(tmp_path: Path) -> None:
    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    target = write_target(tmp_path / "rag_run.py", wrong=None, broken=2)
    out = tmp_path / "responses.jsonl"
    res = CliRunner().invoke(cli, ["run", str(testset), "--target", target, "-o", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "6 asked (0 already answered), 1 failed" in res.stderr
    res = CliRunner().invoke(cli, ["run", str(testset), "--target", target, "-o", str(out)])
    assert res.exit_code == 2 and "already exists; pass --resume" in res.output
    write_target(tmp_path / "rag_run.py", wrong=None, broken=None)
    res = CliRunner().invoke(cli, ["run", str(testset), "--target", target, "-o", str(out), "--resume",
                                   "--no-progress"])
    assert res.exit_code == 0 and "1 asked (5 already answered), 0 failed" in res.stderr
    # the responses file is what `ragkit evaluate` reads (EvalSample lines; the failed line is superseded)
    res = CliRunner().invoke(cli, ["evaluate", str(out), "-m", "hit_rate", "-o", str(tmp_path / "res.json")])
    assert res.exit_code == 0, res.output
    result = json.loads((tmp_path / "res.json").read_text())
    assert result["aggregates"]["hit_rate"]["mean"] == 1.0
