"""Bad input, one class at a time: exit code 2, one line naming the file, line or field and what is wrong, no
traceback, and no file changed. (Issue 13 asks for 60 such invocations; these are the classes handled so far.)"""

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
    out["binary"].write_bytes(bytes(range(256)) * 8)
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
    (["run", "{empty}", "--target", "{answers}", "-o", "{out}"], "the test set is empty"),
    (["run", "{testset}", "--target", "nope_module:answer", "-o", "{out}"], "nope_module"),
    (["generate", "{testset}", "-n", "2", "-o", "{testset}"], "exists; pass --overwrite"),
    (["generate", "{testset}", "-n", "0"], "-n"),
    (["generate", "{testset}", "-n", "2", "-g", "single_hop=lots", "-o", "{out}"], "the weight must be a number"),
    (["list", "metrics", "faithfullness"], "Did you mean: faithfulness"),
    (["list", "scorers"], "scorers"),
]


@pytest.mark.parametrize(("args", "message"), CASES)
def test_bad_input_exits_2_with_one_line(files: dict[str, Path], tmp_path: Path, args: list[str],
                                         message: str) -> None:
    names = {k: str(v) for k, v in files.items()} | {"out": str(tmp_path / "out.jsonl")}
    before = {p: p.read_bytes() for p in files.values()}
    result = CliRunner().invoke(cli, [a.format(**names) for a in args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "Traceback" not in result.output
    assert {p: p.read_bytes() for p in files.values()} == before and not (tmp_path / "out.jsonl").exists()
