"""`ragkit compare` and `ragkit report` on synthetic run directories."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from run_fixtures import make_run

from ragkit.cli import cli


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_compare_known_difference(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", n=15, seed=3)
    better = make_run(tmp_path / "b", n=15, seed=3, shift=0.15, target="new:rag")
    out = tmp_path / "cmp.html"
    res = invoke("compare", str(a.path), str(better.path), "-o", str(out), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    by = {m["metric"]: m for m in data["metrics"]}
    assert data["shared"] == 15 and data["matched_by"] == "id"
    assert by["faithfulness"]["verdict"] == "better" and by["faithfulness"]["low"] > 0
    # identical scores otherwise: no difference detected
    assert by["context_recall"]["verdict"] == "no significant difference" and by["context_recall"]["diff"] == 0
    assert by["hallucination"]["verdict"] == "no significant difference"
    assert "better" in out.read_text() and "B − A per metric" in res.stderr

    res = invoke("compare", str(better.path), str(a.path), "--json")
    assert json.loads(res.stdout)["metrics"][0]["verdict"] == "worse"


def test_compare_lower_is_better_and_question_matching(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", n=12, seed=5)
    b = make_run(tmp_path / "b", n=12, seed=5)
    # B hallucinates less on every sample, and its sample ids differ (matched by question instead)
    lines = [json.loads(x) for x in (b.path / "scores.jsonl").read_text().splitlines()]
    for rec in lines:
        if rec["scores"]:
            rec["scores"]["hallucination"]["value"] = max(0.0, rec["scores"]["hallucination"]["value"] - 0.1)
        rec["sample_id"] = "b-" + rec["sample_id"]
    (b.path / "scores.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    for name in ("samples.jsonl",):
        rows = [json.loads(x) for x in (b.path / name).read_text().splitlines()]
        for r in rows:
            r["id"] = "b-" + r["id"]
        (b.path / name).write_text("".join(json.dumps(x) + "\n" for x in rows))
    res = invoke("compare", str(a.path), str(b.path), "--json")
    data = json.loads(res.stdout)
    by = {m["metric"]: m for m in data["metrics"]}
    assert data["matched_by"] == "question" and data["shared"] == 12
    assert by["hallucination"]["diff"] < 0 and by["hallucination"]["verdict"] == "better"


def test_compare_refuses_non_runs(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", n=3)
    (tmp_path / "empty").mkdir()
    res = CliRunner().invoke(cli, ["compare", str(a.path), str(tmp_path / "empty")])
    assert res.exit_code == 2 and "not a ragkit run directory" in res.output


def test_report_command(tmp_path: Path) -> None:
    run = make_run(tmp_path / "r", n=6)
    out = tmp_path / "out.html"
    res = invoke("report", str(run.path), "-o", str(out), "--json")
    assert res.exit_code == 0
    assert json.loads(res.stdout)["counts"]["samples"] == 6
    assert out.read_text().startswith("<!DOCTYPE html>") and "Scores (mean, 95% BCa bootstrap CI" in res.stderr
