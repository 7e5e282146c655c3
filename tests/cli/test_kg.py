"""``ragkit kg build`` / ``ragkit kg info`` through the click runner."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("guide.md", "team.html", "delivery-notes.txt", "report.pdf", "bakery-zh.md"):
        shutil.copy(FIXTURES / "corpus" / name, root / name)
    shutil.copy(FIXTURES / "bad" / "truncated.pdf", root / "broken.pdf")
    return root


def test_build_info_and_incremental_rebuild(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "kg.json"
    res = invoke("kg", "build", str(corpus), "-o", str(out), "--extractor", "fast", "--no-progress")
    assert res.exit_code == 0, res.output
    assert "Built" in res.stderr and "documents" in res.stderr
    assert "broken.pdf: truncated PDF (no %%EOF marker at the end of the file)" in res.stderr
    assert out.exists()

    res = invoke("kg", "info", str(out), "--json")
    assert res.exit_code == 0, res.output
    info = json.loads(res.stdout)
    assert info["nodes"]["document"] == 5 and info["nodes"]["chunk"] >= 5
    assert info["documents_by_format"] == {"html": 1, "md": 2, "pdf": 1, "txt": 1}
    assert info["documents_by_language"] == {"en": 4, "zh": 1}
    reason = "truncated PDF (no %%EOF marker at the end of the file)"
    assert info["skipped"] == [{"path": "broken.pdf", "reason": reason}]
    assert info["entities_linking_documents"] >= 1
    top = info["top_entities"][0]
    assert top["documents"] >= 2 and top["chunks"] >= top["documents"]
    assert set(info["edges"]) >= {"has_chunk", "mentions"}

    res = invoke("kg", "info", str(out))
    assert res.exit_code == 0 and "Top entities" in res.stdout and "broken.pdf" in res.stdout

    # a second run on an existing output is incremental
    res = invoke("kg", "build", str(corpus), "-o", str(out), "--extractor", "fast", "--no-progress", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["documents"] == {"reused": 5, "added": 0, "changed": 0, "removed": 0}
    assert summary["skipped"][0]["path"] == "broken.pdf"


def test_strict_fails_with_one_line(corpus: Path, tmp_path: Path) -> None:
    res = invoke("kg", "build", str(corpus), "-o", str(tmp_path / "kg.json"), "--extractor", "fast", "--strict",
                 "--no-progress")
    assert res.exit_code == 2
    assert "strict mode: 1 file(s) skipped: broken.pdf: truncated PDF" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "kg.json").exists()


def test_corrupt_existing_output_is_a_clear_error(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "kg.json"
    out.write_text("{ not json", encoding="utf-8")
    res = invoke("kg", "build", str(corpus), "-o", str(out), "--extractor", "fast", "--no-progress")
    assert res.exit_code == 2 and "not a readable knowledge-graph JSON file" in res.output and "--rebuild" in res.output
    res = invoke("kg", "info", str(out))
    assert res.exit_code == 2 and "kg.json" in res.output


def test_include_exclude_and_llm_extractor(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def reply(call: CallInfo) -> Any:
        if call.prompt_name == "kg.document_summary":
            return {"summary": "A bakery document.", "themes": ["bakery"]}
        return {"summary": "About bread.", "topics": ["bread"],
                "sections": [{"entities": ["Ola Berg (person)"]} for _ in call.data.sections]}

    judges: list[ScriptedJudge] = []

    def make_judge(model: str | None = None, **_: Any) -> ScriptedJudge:
        judges.append(ScriptedJudge(reply))
        return judges[-1]

    monkeypatch.setattr("ragkit.llm.Judge", make_judge)
    out = tmp_path / "kg.json"
    res = invoke("kg", "build", str(corpus), "-o", str(out), "--include", "*.md", "--include", "*.txt",
                 "--exclude", "bakery-*", "--no-progress", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["documents"]["added"] == 2 and summary["skipped"] == []
    assert summary["llm_calls"] == len(judges[0].calls) > 0
    info = json.loads(invoke("kg", "info", str(out), "--json").stdout)
    assert info["extractor"] == "llm" and "Ola Berg" in [e["name"] for e in info["top_entities"]]


def test_nothing_to_build_is_a_usage_error(tmp_path: Path) -> None:
    res = invoke("kg", "build", "-o", str(tmp_path / "kg.json"))
    assert res.exit_code == 2 and "give at least one document folder" in res.output


def test_a_hostile_folder_builds_its_good_files_and_names_every_bad_one(tmp_path: Path) -> None:
    """Good files beside a zip bomb, a FIFO, a file named in Latin-1, an over-size file, a PDF over the page cap,
    a corrupt DOCX, an encrypted PDF and binary junk: the good ones are read, each bad one is named with its
    reason, and nothing crashes."""
    import os
    import zipfile

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("guide.md", "handbook.docx", "report.pdf"):
        shutil.copy(fixtures / "corpus" / name, docs / name)
    for name in ("corrupt.docx", "encrypted.pdf", "junk.txt"):
        shutil.copy(fixtures / "bad" / name, docs / name)
    with zipfile.ZipFile(docs / "bomb.docx", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b" " * 200_000_000)  # 200 MB inflated, ~200 KB on disk
    os.mkfifo(docs / "pipe.txt")
    with open(os.path.join(os.fsencode(docs), b"r\xe9sum\xe9.txt"), "wb") as fh:
        fh.write(b"Ana Lima wrote the summary of the Porto plant visit in March.")
    (docs / "huge.txt").write_text("word " * 3_000_000)  # 15 MB, over --max-file-mb 10
    out = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["kg", "build", str(docs), "-o", str(out), "--extractor", "fast", "--json",
                                      "--no-progress", "--max-file-mb", "10", "--max-pdf-pages", "1",
                                      "--cache-dir", str(tmp_path / "cache")])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    summary = json.loads(result.stdout)
    reasons = {s["path"]: s["reason"] for s in summary["skipped"]}
    assert reasons["bomb.docx"].startswith("DOCX inflates to 190.7 MB, over the 10.0 MB size limit")
    assert reasons["pipe.txt"].startswith("not a regular file")
    assert reasons["huge.txt"].startswith("file is 14.3 MB, over the 10.0 MB size limit")
    assert set(reasons) >= {"corrupt.docx", "encrypted.pdf", "junk.txt"}
    assert reasons["report.pdf"] == "PDF has 2 pages, over the 1-page limit"
    assert summary["documents"]["added"] == 3  # guide.md, handbook.docx and the Latin-1 named file
    assert not any(p.startswith("r") and "sum" in p for p in reasons)  # read, under its escaped name
    graph = json.loads(out.read_text(encoding="utf-8"))
    assert "r\\xe9sum\\xe9.txt" in {n.get("path") for n in graph["nodes"]}
