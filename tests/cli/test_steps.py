"""Step by step: ``generate`` → ``run -o DIR`` → ``evaluate DIR`` → ``report`` → ``compare`` → ``gate``, and
``export`` / ``evaluate FILE -o DIR``: every path writes the same run directory (scripted judge)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from run_fixtures import rule_reply

import ragkit.llm
from ragkit.cli import cli
from ragkit.llm._embeddings import Embeddings
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generators"))
from kg_builder import BAKERY, build_graph, default_script  # noqa: E402

TARGET = '''
def answer(sample):
    """A RAG system that retrieves the reference passages{twist}."""
    contexts = [{{"id": c.chunk_id, "text": c.text}} for c in sample.reference_contexts]
    return {{"answer": sample.reference_answer, "contexts": {drop}contexts}}
'''


@pytest.fixture
def judges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ragkit.cli.generate.make_judge", lambda settings: ScriptedJudge(default_script))
    monkeypatch.setattr(ragkit.llm, "Judge", lambda *a, **k: ScriptedJudge(
        rule_reply, settings=Settings(model="openai/scripted-judge", concurrency=1, max_retries=0)))


def cli_run(*args: object) -> object:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_generate_run_evaluate_report_compare_gate(judges: None, tmp_path: Path) -> None:
    graph = tmp_path / "kg.json"
    build_graph(BAKERY, Embeddings(cache=False)).save(graph)
    testset = tmp_path / "testset.jsonl"
    res = cli_run("generate", graph, "-n", "4", "-o", testset, "--no-progress", "-g", "single_hop")
    assert res.exit_code == 0, res.output
    (tmp_path / "good.py").write_text(TARGET.format(twist="", drop=""))
    other = "[{'id': 'x', 'text': 'Nothing.'}] or "
    (tmp_path / "blind.py").write_text(TARGET.format(twist=" but returns others", drop=other))
    for name in ("good", "blind"):
        res = cli_run("run", testset, "--target", f"{tmp_path / name}.py:answer", "-o", tmp_path / name,
                      "--no-progress")
        assert res.exit_code == 0, res.output
        assert f"next: ragkit evaluate {tmp_path / name}" in res.stderr
        assert not (tmp_path / name / "scores.jsonl").exists()
        res = cli_run("evaluate", tmp_path / name, "-m", "hit_rate", "--no-progress", "--json")
        assert res.exit_code == 0, res.output
        assert (tmp_path / name / "report.html").exists()
    good = json.loads((tmp_path / "good" / "summary.json").read_text())
    assert good["metrics"]["hit_rate"]["mean"] == 1.0 and good["counts"]["scored"] == 4
    # a metric added later is computed and merged; the first one's scores stay
    res = cli_run("evaluate", tmp_path / "good", "-m", "faithfulness", "--no-progress")
    assert res.exit_code == 0, res.output
    scores = [json.loads(line) for line in (tmp_path / "good" / "scores.jsonl").read_text().splitlines()]
    assert {tuple(sorted(r["scores"])) for r in scores[-4:]} == {("faithfulness", "hit_rate")}
    res = cli_run("report", tmp_path / "good", "-o", tmp_path / "good.html")
    assert res.exit_code == 0 and (tmp_path / "good.html").exists()
    res = cli_run("compare", tmp_path / "good", tmp_path / "blind", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout[res.stdout.index("{"):])["metrics"]
    junit = tmp_path / "gate.xml"
    res = cli_run("gate", tmp_path / "good", "--fail-under", "hit_rate=0.9", "--junit", junit)
    assert res.exit_code == 0, res.output
    res = cli_run("gate", tmp_path / "blind", "--fail-under", "hit_rate=0.9", "--junit", junit)
    assert res.exit_code == 3 and "FAILED: hit_rate = 0.000 is below 0.9" in res.stderr
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1" and suite.get("tests") == "2"
    res = cli_run("gate", tmp_path / "blind", "--fail-under", "faithfulness=0.5")
    assert res.exit_code == 2 and "not in this run: faithfulness" in res.output


def test_export_and_import_answers(judges: None, tmp_path: Path) -> None:
    from run_fixtures import write_target, write_testset

    write_testset(tmp_path / "testset.jsonl")
    target = write_target(tmp_path / "rag_steps.py")
    res = cli_run("run", tmp_path / "testset.jsonl", "--target", target, "-o", tmp_path / "answers.jsonl",
                  "--no-progress")
    assert res.exit_code == 0, res.output
    for fmt, out in (("ragas", "a.csv"), ("deepeval", "a.json"), ("hf", "a_hf"), ("parquet", "a.parquet")):
        res = cli_run("export", tmp_path / "answers.jsonl", "--to", fmt, "-o", tmp_path / out)
        assert res.exit_code == 0 and "6 samples" in res.stderr, res.output
        res = cli_run("evaluate", tmp_path / out, "-m", "hit_rate", "-o", tmp_path / f"run-{fmt}", "--no-progress",
                      "--json")
        assert res.exit_code == 0, (fmt, res.output)
        assert json.loads(res.stdout)["metrics"]["hit_rate"]["mean"] == 1.0, fmt
    spec = json.loads((tmp_path / "run-ragas" / "spec.json").read_text())
    assert spec["testset"] == str(tmp_path / "a.csv")
    res = cli_run("export", tmp_path / "run-ragas", "--to", "giskard", "-o", tmp_path / "g.jsonl")
    assert res.exit_code == 0 and len((tmp_path / "g.jsonl").read_text().splitlines()) == 6


def test_benchmark_with_a_peer_testset_builds_no_graph(judges: None, tmp_path: Path) -> None:
    from run_fixtures import write_target, write_testset

    write_testset(tmp_path / "testset.jsonl")
    cli_run("export", tmp_path / "testset.jsonl", "--to", "giskard", "-o", tmp_path / "giskard.jsonl")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Never read\n\nA document the benchmark must not parse.\n")
    res = cli_run("benchmark", docs, "--testset", tmp_path / "giskard.jsonl", "--target",
                  write_target(tmp_path / "rag_peer.py"), "-m", "hit_rate", "-o", tmp_path / "run", "--no-progress")
    assert res.exit_code == 0, res.output
    assert not (tmp_path / "run" / "kg.json").exists()
    assert [r["stage"] for r in map(json.loads, (tmp_path / "run" / "log.jsonl").read_text().splitlines())][0] \
        == "generate"


PEERS = Path(__file__).resolve().parents[1] / "fixtures" / "peers"
ONE_ANSWER = '''
def answer(question):
    return {"answer": "Acme Robotics is based in Manchester.",
            "contexts": [{"id": "3", "text": "Acme Robotics is based in Manchester. It was founded in 2011."}]}
'''


@pytest.mark.parametrize(("name", "count"), [("ragas_testset.jsonl", 2), ("ragas_testset.csv", 2),
                                             ("deepeval_goldens.json", 2), ("giskard_testset.jsonl", 3),
                                             ("hf", 2)])
def test_peer_testsets_run_through_benchmark(judges: None, tmp_path: Path, name: str, count: int) -> None:
    source = PEERS / name
    if name == "hf":  # a save_to_disk folder of a ragas testset
        source = tmp_path / "hf_testset"
        cli_run("export", PEERS / "ragas_testset.jsonl", "--to", "hf", "-o", source)
    (tmp_path / "one.py").write_text(ONE_ANSWER)
    res = cli_run("benchmark", "--testset", source, "--target", f"{tmp_path / 'one.py'}:answer", "-m",
                  "faithfulness", "-m", "context_recall", "-o", tmp_path / "run", "--no-progress", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["counts"]["scored"] == count and summary["metrics"]["faithfulness"]["mean"] == 1.0
