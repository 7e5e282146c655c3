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
