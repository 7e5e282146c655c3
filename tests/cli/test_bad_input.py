"""Bad input, one class at a time: exit code 2, one line naming the file, line or field and what is wrong, no
traceback, and no file changed. Every command is covered: files (binary, not UTF-8, empty, wrong JSON types,
missing columns, not a graph, not a run), counts (zero, negative), thresholds outside a metric's range, unknown
names with the closest suggestion, malformed options, and outputs that would overwrite something."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {
        "binary": tmp_path / "binary.jsonl",
        "wrong_types": tmp_path / "wrong.jsonl",
        "testset": tmp_path / "testset.jsonl",
        "empty": tmp_path / "empty.jsonl",
        "answers": tmp_path / "answers.jsonl",
    }
    more = {
        "latin1": ("latin1.jsonl", "café".encode("latin-1")),
        "json_obj": ("obj.json", b'{"samples": []}'),
        "no_question": ("noq.csv", b"response,reference\nA.,A.\n"),
        "no_contexts": ("noctx.jsonl", b'{"user_input": "Q?", "response": "A."}\n'),
        "dupes": ("dupes.jsonl", b'{"id": "a", "user_input": "Q?", "response": "A."}\n'
                                 b'{"id": "a", "user_input": "Q2?", "response": "B."}\n'),
        "personas_bin": ("personas.yaml", bytes(range(256))),
        "personas_bad": ("personas.json", b'{"name": 5}'),
        "graph_bad": ("graph.json", b'{"nodes": "none"}'),
        "chunks_bin": ("chunks.jsonl", bytes(range(256)) * 4),
        "labels_none": ("labels.jsonl", b'{"user_input": "Q?", "response": "A.", "retrieved_contexts": ["A."]}\n'),
        "labels_big": ("labels7.jsonl", b'{"user_input": "Q?", "response": "A.", "retrieved_contexts": ["A."], '
                                        b'"labels": {"faithfulness": 7}}\n'),
    }
    for key, (name, data) in more.items():
        out[key] = tmp_path / name
        out[key].write_bytes(data)
    (tmp_path / "not_a_run").mkdir()
    (tmp_path / "not_a_run" / "notes.txt").write_text("hello")
    out["not_a_run_file"] = tmp_path / "not_a_run" / "notes.txt"
    out["binary"].write_bytes(bytes(range(256)) * 8)
    from run_fixtures import make_run

    out["a_run_spec"] = make_run(tmp_path / "a_run", n=2).path / "spec.json"
    out["wrong_types"].write_text(json.dumps({"user_input": 5, "response": [1]}) + "\n")
    out["testset"].write_text(json.dumps({"id": "q1", "question": "Who?", "reference_answer": "Ana."}) + "\n")
    out["empty"].write_text("")
    out["answers"].write_text(json.dumps({"user_input": "Q?", "response": "A.", "reference": "A."}) + "\n")
    return out


CASES = [
    (["evaluate", "{binary}", "-m", "bleu"], "binary.jsonl"),
    (["evaluate", "{wrong_types}", "-m", "exact_match"], "wrong.jsonl line 1"),
    (["evaluate", "{answers}", "-m", "faithfullness"], "Did you mean: faithfulness"),
    (["evaluate", "{answers}", "-m", "exact_match", "-A", "exact_match"], "expected NAME.ARG=VALUE"),
    (["evaluate", "{answers}", "-m", "exact_match", "--concurrency", "0"], "--concurrency"),
    (["evaluate", "{answers}", "-m", "exact_match", "--max-failed", "2"], "--max-failed"),
    (["evaluate", "{answers}", "-m", "exact_match", "--limit", "-1"], "--limit"),
    (["run", "{binary}", "--target", "{answers}", "-o", "{out}"], "binary.jsonl: not UTF-8 text"),
    (["run", "{empty}", "--target", "{answers}", "-o", "{out}"], "empty.jsonl: no samples"),
    (["run", "{testset}", "--target", "nope_module:answer", "-o", "{out}"], "nope_module"),
    (["generate", "{testset}", "-n", "2", "-o", "{testset}"], "exists; pass --overwrite"),
    (["generate", "{testset}", "-n", "0"], "-n"),
    (["generate", "{testset}", "-n", "2", "-g", "single_hop=lots", "-o", "{out}"], "the weight must be a number"),
    (["list", "metrics", "faithfullness"], "Did you mean: faithfulness"),
    (["list", "scorers"], "scorers"),
    # evaluate: files
    (["evaluate", "{tmp}/missing.jsonl", "-m", "bleu"], "missing.jsonl"),
    (["evaluate", "{latin1}", "-m", "bleu"], "latin1.jsonl"),
    (["evaluate", "{empty}", "-m", "bleu"], "empty.jsonl: no samples"),
    (["evaluate", "{json_obj}", "-m", "bleu"], "expected a JSON list of records"),
    (["evaluate", "{no_question}", "-m", "bleu"], "noq.csv line 2"),
    (["evaluate", "{no_contexts}", "-m", "faithfulness"], "retrieved_contexts"),
    (["evaluate", "{dupes}", "-m", "bleu"], "dupes.jsonl line 2: sample id 'a' is used twice"),
    # evaluate: options
    (["evaluate", "{answers}", "-m", "exact_match", "-A", "exact_match.nosuch=1"], "nosuch"),
    (["evaluate", "{answers}", "-m", "exact_match", "-A", "bleu.tokenize=zh"], "bleu"),
    (["evaluate", "{answers}", "-m", "exact_match", "--limit", "0"], "--limit"),
    (["evaluate", "{answers}", "-m", "exact_match", "--max-failed", "-0.1"], "--max-failed"),
    (["evaluate", "{answers}", "-m", "exact_match", "--limit", "ten"], "'ten' is not a valid integer"),
    (["evaluate", "{answers}", "-m", "exact_match", "-o", "{tmp}"], "is a folder that holds no run"),
    # run
    (["run", "{testset}", "--target", "{tmp}/nowhere.jsonl", "-o", "{out}"], "nowhere.jsonl"),
    (["run", "{testset}", "--target", "not a target", "-o", "{out}"], "cannot tell what target 'not a target' is"),
    (["run", "{testset}", "--target", "baseline", "-o", "{out}"], "baseline"),
    (["run", "{testset}", "--target", "baseline", "--kg", "{graph_bad}", "-o", "{out}"], "graph.json"),
    (["run", "{testset}", "--target", "baseline", "--docs", "{tmp}", "--top-k", "0", "-o", "{out}"], "--top-k"),
    (["run", "{testset}", "--target", "http://127.0.0.1:9/x", "--target-timeout", "0", "-o", "{out}"],
     "--target-timeout"),
    (["run", "{testset}", "--target", "http://127.0.0.1:9/x", "--target-retries", "-1", "-o", "{out}"],
     "--target-retries"),
    (["run", "{testset}", "--target", "http://127.0.0.1:9/x", "--header-env", "Authorization", "-o", "{out}"],
     "NAME=ENVVAR"),
    (["run", "{testset}", "--target", "http://127.0.0.1:9/x", "--header-env", "X-Key=RAGKIT_NOT_SET_ANYWHERE",
      "-o", "{out}"], "RAGKIT_NOT_SET_ANYWHERE is not set"),
    (["run", "{testset}", "--target", "{answers}", "--retrieval", "magic", "-o", "{out}"], "--retrieval"),
    (["run", "{testset}", "--target", "{answers}", "-o", "{answers}"], "exists"),
    # generate
    (["generate", "{testset}", "-n", "2", "-g", "single_hopp=1", "-o", "{out}"], "Did you mean: single_hop"),
    (["generate", "{testset}", "-n", "2", "-g", "single_hop=-1", "-o", "{out}"], "single_hop"),
    (["generate", "{testset}", "-n", "-3", "-o", "{out}"], "-n"),
    (["generate", "{tmp}/nowhere", "-n", "2", "-o", "{out}"], "nowhere"),
    (["generate", "{tmp}", "-n", "2", "--personas", "{personas_bin}", "-o", "{out}"], "personas.yaml"),
    (["generate", "{tmp}", "-n", "2", "--personas", "{personas_bad}", "-o", "{out}"], "personas.json"),
    (["generate", "{tmp}", "-n", "2", "--personas", "{tmp}/nobody.yaml", "-o", "{out}"], "nobody.yaml"),
    (["generate", "--from-chunks", "{chunks_bin}", "-n", "2", "-o", "{out}"], "chunks.jsonl"),
    (["generate", "{tmp}", "-n", "2", "--max-share", "0", "-o", "{out}"], "--max-share"),
    (["generate", "{tmp}", "-n", "2", "-k", "{graph_bad}", "-o", "{out}"], "graph.json"),
    (["generate", "{tmp}", "-n", "2", "-A", "single_hop.nosuch=1", "-o", "{out}"], "nosuch"),
    # kg
    (["kg", "build", "-o", "{tmp}/g.json"], "give at least one document folder"),
    (["kg", "build", "{tmp}", "-o", "{tmp}/g.json", "--max-tokens", "5"], "--max-tokens"),
    (["kg", "build", "{tmp}", "-o", "{tmp}/g.json", "--max-file-mb", "0"], "--max-file-mb"),
    (["kg", "build", "{tmp}", "-o", "{tmp}/g.json", "--max-pdf-pages", "0"], "--max-pdf-pages"),
    (["kg", "build", "{tmp}", "-o", "{graph_bad}", "--extractor", "fast"], "use --rebuild"),
    (["kg", "build", "{tmp}", "-o", "{tmp}/g.json", "--extractor", "regex"], "--extractor"),
    (["kg", "info", "{graph_bad}"], "graph.json"),
    (["kg", "info", "{binary}"], "binary.jsonl"),
    (["kg", "info", "{graph_bad}", "--top", "-1"], "--top"),
    # benchmark
    (["benchmark", "--testset", "{testset}", "--target", "{answers}", "-m", "faithfulness", "--fail-under",
      "faithfulness=7"], "faithfulness"),
    (["benchmark", "--testset", "{testset}", "--target", "{answers}", "-m", "faithfulness", "--fail-under",
      "recall=0.5"], "recall"),
    (["benchmark", "--testset", "{testset}", "--target", "{answers}", "-m", "faithfulness", "--fail-under",
      "faithfulness=high"], "faithfulness=high"),
    (["benchmark", "--testset", "{testset}", "--target", "{answers}", "-m", "faithfulness", "--fail-over",
      "faithfulness"], "expected METRIC=NUMBER"),
    (["benchmark", "{tmp}", "--target", "baseline", "-n", "0"], "-n"),
    (["benchmark", "--testset", "{binary}", "--target", "{answers}", "-m", "bleu"], "binary.jsonl"),
    (["benchmark", "--resume", "{tmp}/not_a_run"], "not_a_run"),
    (["benchmark", "--target", "{answers}", "-m", "bleu"], "DOCS"),
    (["benchmark", "--testset", "{testset}", "--target", "{answers}", "-m", "bleu", "-o", "{tmp}/a_run"],
     "already holds a run; resume it with --resume"),
    (["benchmark", "--testset", "{testset}", "--target", "{answers}", "-m", "bleu", "-o", "{answers}"], "-o"),
    # calibrate, compare, report, list
    (["calibrate", "{binary}"], "binary.jsonl"),
    (["calibrate", "{labels_none}"], "labels"),
    (["calibrate", "{labels_big}", "-m", "faithfulness"], "faithfulness"),
    (["calibrate", "{labels_big}", "-m", "faithfullness"], "Did you mean: faithfulness"),
    (["compare", "{tmp}/not_a_run", "{tmp}/not_a_run"], "not_a_run"),
    (["report", "{tmp}/not_a_run"], "not_a_run"),
    (["list", "generators", "single_hopp"], "Did you mean: single_hop"),
]


@pytest.mark.parametrize(("args", "message"), CASES)
def test_bad_input_exits_2_with_one_line(files: dict[str, Path], tmp_path: Path, args: list[str],
                                         message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a default output (runs/...) would land here
    names = {k: str(v) for k, v in files.items()} | {"out": str(tmp_path / "out.jsonl"), "tmp": str(tmp_path)}
    before = {p: p.read_bytes() for p in files.values()}
    result = CliRunner().invoke(cli, [a.format(**names) for a in args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.output
    assert {p: p.read_bytes() for p in files.values()} == before and not (tmp_path / "out.jsonl").exists()
    assert not (tmp_path / "g.json").exists() and not (tmp_path / "runs").exists()


def test_the_bad_input_table_covers_every_command_sixty_times() -> None:
    assert len(CASES) >= 60
    assert {args[0] for args, _ in CASES} >= {"evaluate", "run", "generate", "kg", "benchmark", "calibrate",
                                             "compare", "report", "list"}
