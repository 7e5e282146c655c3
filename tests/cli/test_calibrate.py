"""``ragkit calibrate``: labelled samples → agreement per metric, saved per judge, shown in later reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from run_fixtures import make_run

from ragkit.calibration import calibration_path, load_calibration
from ragkit.cli import cli
from ragkit.report import summarize
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge, claim_reply

GROUNDED = "The Porto plant builds the Wren W300 arm."
CONTEXT = "Porto site. The Porto plant builds the Wren W300 arm. It opened in 2021."


def world(call):  # sentences are claims; a context supports what it contains
    reply = claim_reply(call, claims=lambda text: [s.strip() + "." for s in text.split(".") if s.strip()])
    assert reply is not None, call.prompt_name
    return reply


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("ragkit.llm.Judge", lambda *a, **k: ScriptedJudge(
        world, settings=Settings(model="openai/scripted-judge", max_retries=0)))


def labelled(path: Path, rows: list[tuple[str, int]]) -> Path:
    records = [{"user_input": f"What does the Porto plant build? ({i})", "response": answer,
                "retrieved_contexts": [CONTEXT], "labels": {"faithfulness": label}}
               for i, (answer, label) in enumerate(rows)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


ROWS = [(GROUNDED, 1), (GROUNDED + " It is painted red.", 0), ("The Porto plant makes violins in Lyon.", 0),
        ("It opened in 2021. " + GROUNDED, 1), ("The plant is run by robots. It builds ships.", 0), (GROUNDED, 1)]


def test_calibrate_reports_agreement_saves_it_and_later_reports_show_it(tmp_path: Path, scripted: None) -> None:
    data = labelled(tmp_path / "labels.jsonl", ROWS)
    result = CliRunner().invoke(cli, ["calibrate", str(data), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Agreement with your labels" in result.stderr and "count a score ≥" in result.stderr
    saved = load_calibration("openai/scripted-judge")
    assert saved is not None and calibration_path("openai/scripted-judge").is_file()
    faith = saved.metrics["faithfulness"]
    assert faith.kind == "binary" and faith.n == 6 and faith.auc == 1.0 and faith.kappa == 1.0
    assert 0.0 < (faith.threshold or 0) <= 1.0 and len(faith.pairs) == 6

    run = make_run(tmp_path / "run")  # a run judged by the same model
    summary = summarize(run)
    shown = summary.calibration["faithfulness"]
    assert shown.n_labels == 6 and shown.auc == 1.0 and shown.ppi_mean is not None
    assert shown.ppi_low is not None and shown.ppi_high is not None
    assert shown.ppi_low <= shown.ppi_mean <= shown.ppi_high


def test_calibrate_json_leaves_out_the_pairs(tmp_path: Path, scripted: None) -> None:
    data = labelled(tmp_path / "labels.jsonl", ROWS)
    result = CliRunner().invoke(cli, ["calibrate", str(data), "--json", "--no-save", "--no-progress"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["metrics"]["faithfulness"]["auc"] == 1.0 and "pairs" not in out["metrics"]["faithfulness"]
    assert load_calibration("openai/scripted-judge") is None  # --no-save


@pytest.mark.parametrize(("labels", "message"), [
    ({"faithfulness": 7}, "label 'faithfulness' is 7: use 0 or 1, or an integer from 1 to 5"),
    (None, "field 'labels' must be an object"),
])
def test_bad_labels_are_one_line_naming_the_line(tmp_path: Path, scripted: None, labels: object,
                                                 message: str) -> None:
    data = tmp_path / "labels.jsonl"
    record = {"user_input": "q?", "response": "a.", "retrieved_contexts": ["c."]}
    if labels is not None:
        record["labels"] = labels
    data.write_text(json.dumps(record) + "\n")
    result = CliRunner().invoke(cli, ["calibrate", str(data)])
    assert result.exit_code == 2 and f"labels.jsonl line 1: {message}" in result.output
    assert len(result.output.strip().splitlines()) == 1
