"""A judge that cannot be used stops the run with its reason and a non-zero exit, instead of failing every score
and exiting 0 (a dead endpoint, rejected credentials)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.testing import FakeOpenAIServer


def data(tmp_path: Path) -> Path:
    path = tmp_path / "d.jsonl"
    rows = [{"user_input": f"Q{i}?", "response": f"Answer {i}.", "retrieved_contexts": ["A context."]}
            for i in range(6)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_an_unreachable_judge_stops_the_run_with_the_endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "not-a-key")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")  # the discard port: nothing listens
    monkeypatch.setenv("RAGKIT_MAX_RETRIES", "1")
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["evaluate", str(data(tmp_path)), "-m", "faithfulness", "--model",
                                      "openai/gpt-4o-mini", "--no-progress"])
    assert result.exit_code == 1, result.output
    assert time.monotonic() - started < 30
    assert "cannot be reached" in result.output and "127.0.0.1', 9" in result.output  # the endpoint
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_rejected_credentials_stop_the_run_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    error = {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
    with FakeOpenAIServer([(401, error)]) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "wrong")
        monkeypatch.setenv("OPENAI_API_BASE", server.base_url)
        result = CliRunner().invoke(cli, ["evaluate", str(data(tmp_path)), "-m", "faithfulness", "--model",
                                          "openai/gpt-4o-mini", "--no-progress"])
        assert result.exit_code == 1, result.output
        assert "AuthenticationError" in result.output and "Incorrect API key" in result.output
        assert len(server.requests) <= 4  # no retries, and the run stops instead of asking for every sample


def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "plant.md").write_text("# Porto plant\n\nThe Porto plant builds the Wren W300 robot arm. It opened in "
                                     "2021 and employs 140 people.\n", encoding="utf-8")
    return folder


def benchmark_args(tmp_path: Path) -> list[str]:
    return ["benchmark", str(docs(tmp_path)), "--extractor", "fast", "-n", "2", "--target", "baseline",
            "-o", str(tmp_path / "run"), "--model", "openai/gpt-4o-mini", "--no-progress",
            "--cache-dir", str(tmp_path / "cache")]


def test_benchmark_names_the_stage_a_dead_judge_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "not-a-key")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("RAGKIT_MAX_RETRIES", "1")
    result = CliRunner().invoke(cli, benchmark_args(tmp_path))
    assert result.exit_code == 1, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: generate stage failed:") and "cannot be reached" in last, last
    assert "Traceback" not in result.output


def test_benchmark_says_why_no_sample_was_generated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragkit.testing import completion

    with FakeOpenAIServer([(200, completion("I cannot help with that."))]) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        monkeypatch.setenv("OPENAI_API_BASE", server.base_url)
        monkeypatch.setenv("RAGKIT_MAX_REASKS", "0")
        result = CliRunner().invoke(cli, benchmark_args(tmp_path))
    assert result.exit_code == 1, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: generate stage failed: no sample was generated:"), last
    assert "judge call(s) failed, the last with:" in last


def test_an_unreachable_http_target_stops_the_run_with_its_url(tmp_path: Path) -> None:
    from run_fixtures import write_testset

    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["run", str(testset), "--target", "http://127.0.0.1:9/ask",
                                      "-o", str(tmp_path / "answers"), "--no-progress"])
    assert result.exit_code == 1, result.output
    assert time.monotonic() - started < 30
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: target stage failed: target http://127.0.0.1:9/ask is unusable: connection "
                           "failed"), last
    assert "Traceback" not in result.output
