"""The docs' examples are files that the tests run: every code block that names a file is that file, verbatim, and
the toy plugin's generator and metrics work through their entry points."""

from __future__ import annotations

import copy
import importlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.registry import REGISTRY, available
from ragkit.testing import ScriptedJudge, claim_reply

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted((REPO / "docs").glob("*.md"))
PLUGIN_SRC = REPO / "tests" / "plugin_pkg"
BLOCK = re.compile(r"```python\n# file: (?P<path>\S+)\n(?P<code>.*?)```", re.S)


def quoted_files() -> list[tuple[str, str, str]]:
    return [(doc.name, m["path"], m["code"]) for doc in DOCS for m in BLOCK.finditer(doc.read_text())]


def test_the_docs_quote_example_files() -> None:
    quoted = {path for _, path, _ in quoted_files()}
    assert {"tests/plugin_pkg/ragkit_toy/glossary.py", "tests/plugin_pkg/ragkit_toy/metrics.py"} <= quoted
    assert (REPO / "docs" / "architecture.md").exists()


@pytest.mark.parametrize(("doc", "path", "code"), quoted_files())
def test_a_quoted_file_is_the_file_verbatim(doc: str, path: str, code: str) -> None:
    assert code == (REPO / path).read_text(), f"{doc} quotes {path}, which has changed: copy it again"


@pytest.fixture
def toy_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """tests/plugin_pkg made visible to importlib.metadata through a temporary dist-info: no pip, no network."""
    available("metric"), available("generator")
    info = tmp_path / "site" / "ragkit_toy-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ragkit-toy\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[ragkit.metrics]\ntoy = ragkit_toy.metrics\n"
                                           "[ragkit.generators]\ntoy = ragkit_toy.glossary\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(PLUGIN_SRC))
    monkeypatch.delenv("RAGKIT_PLUGINS", raising=False)
    importlib.invalidate_caches()
    saved = copy.copy(REGISTRY.items["metric"]), copy.copy(REGISTRY.items["generator"])
    loaded = set(REGISTRY.loaded_entry_points)
    yield
    REGISTRY.items["metric"], REGISTRY.items["generator"] = saved
    REGISTRY.loaded_entry_points = loaded
    for name in ("ragkit_toy.metrics", "ragkit_toy.glossary", "ragkit_toy"):
        sys.modules.pop(name, None)


def test_the_toy_metrics_run_through_their_entry_point(toy_plugin: None, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def split_and_check(call):  # the answer's two claims; the first context supports the first claim only
        return claim_reply(call, claims=lambda text: ["Ana runs the plant.", "The plant opened in 1990."])

    monkeypatch.setattr("ragkit.llm.Judge", lambda *a, **k: ScriptedJudge(split_and_check))
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"user_input": "Who runs it?", "response": "Ana runs the plant. It opened in 1990.",
                                "retrieved_contexts": ["Ana runs the plant.", "Weather report."]}) + "\n")
    result = CliRunner().invoke(cli, ["evaluate", str(data), "-m", "toy/answer_length", "-m", "toy/grounded_share",
                                      "-A", "toy/answer_length.max_words=16", "--json"])
    assert result.exit_code == 0, result.output
    aggregates = json.loads(result.stdout)["aggregates"]
    assert aggregates["toy/answer_length[max_words=16]"]["mean"] == 0.5  # 8 of 16 words
    assert aggregates["toy/grounded_share"]["mean"] == 0.5  # one of two claims grounded
    listed = json.loads(CliRunner().invoke(cli, ["list", "metrics", "--json"]).stdout)
    row = next(r for r in listed if r["name"] == "toy/grounded_share")
    assert row["uses"] == ["response_vs_contexts"] and row["calls_per_sample"] == 2.0
