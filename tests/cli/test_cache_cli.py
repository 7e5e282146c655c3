"""``ragkit cache stats`` / ``ragkit cache clear``, on a cache the real Judge filled through the scripted model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner
from pydantic import BaseModel

from ragkit.cli import cli
from ragkit.llm import Cache, Prompt
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge


class _Q(BaseModel):
    text: str


class _A(BaseModel):
    answer: str


ASK = Prompt("test.cache_cli", "Answer.", _Q, _A, max_tokens=16)


def _fill(cache_dir: Path, model: str, n: int) -> None:
    settings = Settings.load(cache_dir=cache_dir, model=model)
    judge = ScriptedJudge(lambda call: _A(answer="yes"), settings=settings, cache=Cache(settings.llm_cache_path))
    for i in range(n):
        asyncio.run(judge.structured(ASK, _Q(text=f"q{i}")))


def test_stats_then_clear_one_model_then_all(tmp_path: Path) -> None:
    _fill(tmp_path, "openai/model-a", 3)
    _fill(tmp_path, "openai/model-b", 2)
    runner = CliRunner()
    shown = runner.invoke(cli, ["cache", "stats", "--cache-dir", str(tmp_path), "--json"])
    assert shown.exit_code == 0, shown.output
    rows = {(r["namespace"], r["model"]): r["entries"] for r in json.loads(shown.output)["entries"]}
    assert rows == {("llm", "openai/model-a"): 3, ("llm", "openai/model-b"): 2}

    table = runner.invoke(cli, ["cache", "stats", "--cache-dir", str(tmp_path)])
    assert "openai/model-a" in table.output and "5 entries" in table.output

    one = runner.invoke(cli, ["cache", "clear", "--model", "openai/model-a", "--cache-dir", str(tmp_path)])
    assert one.exit_code == 0 and "Deleted 3 entries of openai/model-a" in one.output
    unknown = runner.invoke(cli, ["cache", "clear", "--model", "openai/model-c", "--cache-dir", str(tmp_path)])
    assert unknown.exit_code == 2
    assert unknown.stderr.strip().endswith("cached models: openai/model-b")

    everything = runner.invoke(cli, ["cache", "clear", "--cache-dir", str(tmp_path)])
    assert everything.exit_code == 0 and "Deleted 2 entries" in everything.output
    assert "The cache is empty." in runner.invoke(cli, ["cache", "stats", "--cache-dir", str(tmp_path)]).output


def test_an_absent_cache_is_reported_empty_and_not_created(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["cache", "stats", "--cache-dir", str(tmp_path / "none")])
    assert result.exit_code == 0 and result.output.strip() == "The cache is empty."
    assert not (tmp_path / "none").exists()
