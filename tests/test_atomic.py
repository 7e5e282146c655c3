"""Outputs are written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragkit._atomic import open_atomic, write_atomic
from ragkit.runs._datasets import save_jsonl


def test_a_failure_mid_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "testset.jsonl"
    out.write_text("old content\n")
    with pytest.raises(RuntimeError), open_atomic(out) as fh:
        fh.write("half of the new ")
        raise RuntimeError("disk full")
    assert out.read_text() == "old content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["testset.jsonl"]


def test_text_and_bytes_replace_the_file(tmp_path: Path) -> None:
    write_atomic(tmp_path / "sub" / "a.html", "<p>é</p>")
    assert (tmp_path / "sub" / "a.html").read_text(encoding="utf-8") == "<p>é</p>"
    write_atomic(tmp_path / "sub" / "a.html", b"\x00\x01")
    assert (tmp_path / "sub" / "a.html").read_bytes() == b"\x00\x01"


def test_a_writer_that_fails_on_a_sample_keeps_the_previous_export(tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    out.write_text("previous export\n")

    def samples():  # type: ignore[no-untyped-def]
        raise ValueError("a sample cannot be serialised")
        yield

    with pytest.raises(ValueError):
        save_jsonl(samples(), out)
    assert out.read_text() == "previous export\n"
