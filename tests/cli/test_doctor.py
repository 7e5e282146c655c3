"""``ragkit doctor``: clean one-line failures, and a full run against a model server the test starts."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.testing import FakeOpenAIServer, completion


def test_nonexistent_local_model_fails_with_one_line() -> None:
    result = CliRunner().invoke(cli, ["doctor", "--model", "local/no-such-model"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    last = result.output.strip().splitlines()[-1]
    assert last == ("Error: unknown local model 'local/no-such-model'; available: local/qwen2.5-coder-1.5b, "
                    "local/smollm2-135m")
    assert "Traceback" not in result.output
    assert "LLM                   local/no-such-model" in result.output  # what was checked is still shown


def test_nonexistent_local_model_json() -> None:
    result = CliRunner().invoke(cli, ["doctor", "--model", "local/no-such-model", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["ok"] is False and "unknown local model" in report["reason"]
    assert report["versions"]["ragkit"] and report["versions"]["python"]


def test_missing_local_runtime_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llama_cpp" else real(name, *a))
    result = CliRunner().invoke(cli, ["doctor", "--model", "local/smollm2-135m"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "Error: local model runtime (llama-cpp-python) not installed: pip install 'ragkit[local]'")


def test_bad_setting_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGKIT_TIMEOUT", "soon")
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 1
    assert "RAGKIT_TIMEOUT='soon'" in result.output.strip().splitlines()[-1]


def test_doctor_against_an_openai_compatible_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any litellm model works with doctor; the embedding check uses the real embedded model."""
    reply = completion('{"city": "Lyon", "country": "France"}')
    with FakeOpenAIServer([(200, reply)]) as server:
        monkeypatch.setenv("OPENAI_API_BASE", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "x")
        result = CliRunner().invoke(cli, ["doctor", "--model", "openai/some-model", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True and report["model"] == "openai/some-model"
    assert report["structured_result"] == {"city": "Lyon", "country": "France"}
    assert set(report["timings_s"]) >= {"structured_call", "embedding_load", "embedding"}
    check = report["embedding_check"]
    assert check["dimensions"] == 384 and check["paraphrase"] > check["unrelated"]
    [request] = server.requests
    assert "Lyon" in request["messages"][-1]["content"]


def test_version_and_help() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("ragkit, version ")
    result = runner.invoke(cli, ["doctor", "--help"])
    assert result.exit_code == 0 and "--json" in result.output


@pytest.mark.parametrize("sig", ["SIGILL", "SIGSEGV"])
def test_a_runtime_that_dies_on_an_instruction_the_cpu_refuses_is_named_with_the_fix(
        monkeypatch: pytest.MonkeyPatch, sig: str) -> None:
    # the child process really dies by the signal, as a llama.cpp built for another CPU did on VMs refusing AMX
    from ragkit.cli import doctor

    monkeypatch.setattr(doctor, "_EVAL", f"import os, signal\nos.kill(os.getpid(), signal.{sig})\n")
    result = CliRunner().invoke(cli, ["doctor", "--model", "local/smollm2-135m"])
    assert result.exit_code == 1
    last = result.output.strip().splitlines()[-1]
    assert last.startswith(f"Error: llama.cpp died ({sig}) on its first prompt, as a build for instructions this CPU")
    assert "-DGGML_NATIVE=OFF" in last and "reinstall" in last


def test_the_runtime_check_evaluates_a_real_batch_on_the_smoke_model() -> None:
    from ragkit.cli.doctor import _runs_here
    from ragkit.llm import model_path
    from ragkit.settings import Settings

    _runs_here(model_path("smollm2-135m", Settings().model_dir))  # raises on any failure of the child
