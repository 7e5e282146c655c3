"""The run directory: versioned spec, append-only JSONL that survives kill -9, clear refusals."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragkit.errors import ConfigError, DataError, RunError
from ragkit.runs._rundir import (
    FORMAT_VERSION,
    JsonlAppender,
    RunDir,
    RunSpec,
    ScoreRecord,
    iter_jsonl,
    repair_tail,
)
from ragkit.targets._target import TargetSpec
from ragkit.types import EvalSample, RagResponse, Score, TestSample


def spec() -> RunSpec:
    return RunSpec(ragkit_version="0.1.0", model="openai/scripted-judge", n=3, seed=7,
                   target=TargetSpec(kind="callable", name="m:f"))


def test_create_open_roundtrip(tmp_path: Path) -> None:
    run = RunDir.create(tmp_path / "r", spec())
    raw = json.loads((tmp_path / "r" / "spec.json").read_text())
    assert next(iter(raw)) == "format_version" and raw["format_version"] == FORMAT_VERSION
    s = TestSample(id="a", question="q?")
    run.add_sample(s)
    run.add_response(EvalSample(test=s, response=RagResponse(answer="x")))
    run.add_scores(ScoreRecord(sample_id="a", scores={"m": Score(value=0.5)}))
    run.close()
    again = RunDir.open(tmp_path / "r")
    assert again.spec.seed == 7 and again.samples()[0].id == "a"
    assert again.responses()["a"].response.answer == "x" and again.scores()["a"].scores["m"].value == 0.5
    with pytest.raises(ConfigError, match="already holds a run"):
        RunDir.create(tmp_path / "r", spec())


def test_open_refusals(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no spec.json"):
        RunDir.open(tmp_path)
    (tmp_path / "spec.json").write_text(json.dumps({"model": "x"}))
    with pytest.raises(RunError, match="no format_version"):
        RunDir.open(tmp_path)
    newer = spec().model_dump() | {"format_version": FORMAT_VERSION + 1, "ragkit_version": "9.0"}
    (tmp_path / "spec.json").write_text(json.dumps(newer))
    with pytest.raises(RunError, match=r"ragkit 9.0 in run format 2.*Upgrade ragkit"):
        RunDir.open(tmp_path)
    older = spec().model_dump() | {"format_version": 0, "ragkit_version": "0.0.1"}
    (tmp_path / "spec.json").write_text(json.dumps(older))
    with pytest.raises(RunError, match=r"format 0, which this ragkit no longer reads.*Rerun the benchmark"):
        RunDir.open(tmp_path)


def test_truncated_last_line_is_skipped_then_repaired(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "scores.jsonl"
    w = JsonlAppender(path)
    for i in range(3):
        w.append(ScoreRecord(sample_id=f"s{i}", scores={"m": Score(value=i / 10)}))
    w.close()
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"sample_id": "s3", "scores": {"m": {"val')  # a crash mid-write
    with caplog.at_level(logging.WARNING, logger="ragkit"):
        got = [r.sample_id for r in iter_jsonl(path, ScoreRecord)]
    assert got == ["s0", "s1", "s2"] and "incomplete last record" in caplog.text
    w = JsonlAppender(path)  # opening for append cuts the partial record off
    assert path.read_bytes() == whole
    w.append(ScoreRecord(sample_id="s3"))
    w.close()
    assert [r.sample_id for r in iter_jsonl(path, ScoreRecord)] == ["s0", "s1", "s2", "s3"]


def test_whole_record_missing_only_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"sample_id": "a"}\n{"sample_id": "b"}')
    assert repair_tail(path) is True
    assert path.read_bytes().endswith(b'"b"}\n')
    assert [r.sample_id for r in iter_jsonl(path, ScoreRecord)] == ["a", "b"]


def test_corrupt_middle_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "scores.jsonl"
    path.write_text('{"sample_id": "a"}\n{"sample_id": 12, "scores": 3}\n{"sample_id": "c"}\n')
    with pytest.raises(RunError, match=r"scores.jsonl:2: invalid ScoreRecord"):
        list(iter_jsonl(path, ScoreRecord))


WRITER = """
import sys
from pathlib import Path
from ragkit.runs._rundir import JsonlAppender, ScoreRecord
w = JsonlAppender(Path(sys.argv[1]))
i = 0
while True:
    w.append(ScoreRecord(sample_id=f"s{i}", error="x" * 20000))
    i += 1
    if i == 20:
        print("ready", flush=True)
"""


def test_kill_9_while_appending_loses_no_finished_record(tmp_path: Path) -> None:
    path = tmp_path / "scores.jsonl"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(0.05)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    ids = [r.sample_id for r in iter_jsonl(path, ScoreRecord)]
    assert len(ids) >= 20 and ids == [f"s{i}" for i in range(len(ids))]
    w = JsonlAppender(path)  # and the file takes new records cleanly
    w.append(ScoreRecord(sample_id="after"))
    w.close()
    assert [r.sample_id for r in iter_jsonl(path, ScoreRecord)][-1] == "after"
