"""Parsing: every format, every kind of bad file (with its reason), globs, symlinks, pre-chunked JSONL."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from ragkit.errors import CorpusError, DataError
from ragkit.kg._corpus import ParseResult, decode_text, load_chunks_jsonl, parse_file, parse_folder
from ragkit.kg._graph import SkippedFile
from ragkit.kg._limits import FileLimits

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GOOD = FIXTURES / "corpus"
BAD = FIXTURES / "bad"


@pytest.fixture(scope="module")
def good() -> ParseResult:
    return parse_folder(GOOD)


def by_path(result: ParseResult) -> dict[str, object]:
    return {d.path: d for d in result.documents}


def test_every_format_parses(good: ParseResult) -> None:
    assert good.skipped == []
    formats = {d.format for d in good.documents}
    assert formats == {"md", "html", "txt", "rst", "csv", "pdf", "docx", "pptx", "epub"}
    for d in good.documents:
        assert d.elements, d.path
        assert len(d.content_hash) == 64 and d.id.startswith("d")
        assert d.title


def kinds(doc: object) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in doc.elements]  # type: ignore[attr-defined]


def test_markdown_elements(good: ParseResult) -> None:
    md = by_path(good)["guide.md"]
    k = kinds(md)
    assert k[0] == ("title", "Harbour Lights Bakery")
    assert ("heading", "Products") in k
    table = next(t for kind, t in k if kind == "table")
    assert table.split("\n")[0] == "Product | Price (NOK) | Baked on"
    assert "Rye crackers | 49 | Tuesday" in table
    code = next(t for kind, t in k if kind == "code")
    assert code.startswith("import requests") and "\n" in code
    assert ("list_item", "Saturday: 08:00 to 14:00") in k
    assert md.language == "en"  # type: ignore[attr-defined]


def test_html_keeps_header_and_drops_nav(good: ParseResult) -> None:
    html = by_path(good)["team.html"]
    texts = [t for _, t in kinds(html)]
    assert texts[0] == "The Harbour Lights team"
    assert "Updated May 2024 by Ingrid Solberg." in texts
    assert not any("Home" in t for t in texts)
    assert "Supplier | Goods\nNordmel | Rye flour\nFjord Dairy | Butter" in texts


def test_plain_text_headings_records_and_lists(good: ParseResult) -> None:
    k = kinds(by_path(good)["delivery-notes.txt"])
    assert k[0] == ("title", "HARBOUR LIGHTS DELIVERY NOTES")
    assert ("paragraph", "Reference: DN-2024-07\nDriver: Ola Berg\nVehicle: electric van EV-3") in k
    assert ("heading", "1. ROUTE") in k
    assert any(kind == "paragraph" and t.startswith("The van leaves") and "next day." in t for kind, t in k)
    assert ("list_item", "Ola Berg signs every delivery note.") in k


def test_pdf_headings_tables_pages_and_no_footers(good: ParseResult) -> None:
    pdf = by_path(good)["report.pdf"]
    els = pdf.elements  # type: ignore[attr-defined]
    assert (els[0].kind, els[0].text, els[0].page) == ("title", "Harbour Lights Annual Report", 1)
    assert [(e.text, e.level) for e in els if e.kind == "heading"] == [("1. Sales", 2), ("2. Figures", 2),
                                                                       ("3. Outlook", 2)]
    para = next(e for e in els if e.text.startswith("Sales grew"))
    assert para.text.endswith("terminal in June.")  # wrapped lines joined into one paragraph
    table = next(e for e in els if e.kind == "table")
    assert table.text == "Measure | 2022 | 2023\nLoaves sold | 41,000 | 45,900\nStaff | 9 | 11"
    assert els[-1].page == 2 and els[-1].text.endswith("lead the new early shift.")
    assert not any("page 1/2" in e.text for e in els)
    assert pdf.metadata["author"] == "ragkit tests"  # type: ignore[attr-defined]


def test_docx_pptx_epub_rst_csv(good: ParseResult) -> None:
    docs = by_path(good)
    assert ("table", "Shift | Hours\nNight | 02:00-10:00\nDay | 08:00-16:00") in kinds(docs["handbook.docx"])
    assert ("list_item", "Every baker gets one free loaf per shift.") in kinds(docs["handbook.docx"])
    assert any("ferry terminal" in t for _, t in kinds(docs["slides.pptx"]))
    assert any("opened in 2015" in t for _, t in kinds(docs["history.epub"]))
    assert ("list_item", "500 g wheat flour") in kinds(docs["recipes.rst"])
    assert kinds(docs["prices.csv"]) == [("table", "product | price\nsourdough | 65\ncinnamon bun | 38")]


def test_chinese_document(good: ParseResult) -> None:
    zh = by_path(good)["bakery-zh.md"]
    assert zh.language == "zh"  # type: ignore[attr-defined]
    assert zh.title == "海港灯光面包店"  # type: ignore[attr-defined]


def test_bad_files_are_skipped_with_reasons_and_the_rest_parse() -> None:
    result = parse_folder(BAD)
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons == {
        "blank.md": "empty file",
        "empty.txt": "empty file",
        "junk.txt": "binary content, not text (a '.txt' file with NUL or control bytes)",
        "junk.md": "binary content, not text (a '.md' file with NUL or control bytes)",
        "encrypted.pdf": "encrypted PDF (a password is needed to read it)",
        "truncated.pdf": "truncated PDF (no %%EOF marker at the end of the file)",
        "notes.xyz": "unsupported file type '.xyz'",
        "corrupt.docx": reasons["corrupt.docx"],
    }
    assert reasons["corrupt.docx"].startswith("corrupt DOCX (")
    # legacy encodings are decoded, not skipped
    docs = by_path(result)
    assert docs["gbk.txt"].elements[0].text.startswith("面包店的黑麦粉来自诺德面粉公司。")  # type: ignore[attr-defined]
    assert docs["gbk.txt"].metadata["encoding"] == "gb18030"  # type: ignore[attr-defined]
    assert docs["gbk.txt"].language == "zh"  # type: ignore[attr-defined]
    assert "Crème fraîche et pâtisserie" in docs["latin1.txt"].elements[0].text  # type: ignore[attr-defined]


def test_parse_file_raises_one_line_error_naming_the_file() -> None:
    with pytest.raises(CorpusError) as err:
        parse_file(BAD / "encrypted.pdf")
    assert str(err.value) == f"{BAD / 'encrypted.pdf'}: encrypted PDF (a password is needed to read it)"
    assert "\n" not in str(err.value)


def test_undecodable_text_is_reported() -> None:
    with pytest.raises(CorpusError, match="binary content"):
        decode_text(Path("x.txt"), bytes(range(1, 32)) * 20)
    assert decode_text(Path("x.txt"), "é".encode("utf-16")) == ("é", "utf-16")
    assert decode_text(Path("x.txt"), b"\xef\xbb\xbfhello") == ("hello", "utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "drafts").mkdir()
    shutil.copy(GOOD / "guide.md", root / "guide.md")
    shutil.copy(GOOD / "team.html", root / "sub" / "team.html")
    shutil.copy(GOOD / "delivery-notes.txt", root / "sub" / "deeper" / "notes.txt")
    shutil.copy(GOOD / "guide.md", root / "drafts" / "draft.md")
    (root / ".hidden.md").write_text("# secret\n\nNot for parsing.", encoding="utf-8")
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nThis file is not in the corpus.", encoding="utf-8")
    os.symlink(outside, root / "link-outside.md")
    os.symlink(root / "loop-b.md", root / "loop-a.md")
    os.symlink(root / "loop-a.md", root / "loop-b.md")
    os.symlink(root, root / "sub" / "up")
    os.symlink(root / "guide.md", root / "alias.md")
    os.symlink(tmp_path / "missing.md", root / "broken.md")
    return root


def test_folder_walk_symlinks(tree: Path) -> None:
    result = parse_folder(tree)
    assert sorted(d.path for d in result.documents) == [
        "drafts/draft.md", "guide.md", "sub/deeper/notes.txt", "sub/team.html",
    ]
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons["link-outside.md"].startswith("symlink points outside the corpus folder")
    assert reasons["loop-a.md"] == "symlink loop (the link resolves to itself)"
    assert reasons["loop-b.md"] == "symlink loop (the link resolves to itself)"
    assert reasons["sub/up"] == "symlink loop (the link points to a folder that contains it)"
    assert reasons["alias.md"] == "symlink to another file of the corpus (read once, at its real path)"
    assert reasons["broken.md"].startswith("broken symlink")
    assert len(reasons) == 6


def test_include_and_exclude_globs(tree: Path) -> None:
    only_md = parse_folder(tree, include=["*.md"], exclude=["drafts"])
    assert [d.path for d in only_md.documents] == ["guide.md"]
    assert {s.path for s in only_md.skipped} == {"link-outside.md", "loop-a.md", "loop-b.md", "alias.md",
                                                "broken.md"}
    sub = parse_folder(tree, include=["sub/**"])
    assert sorted(d.path for d in sub.documents) == ["sub/deeper/notes.txt", "sub/team.html"]
    no_html = parse_folder(tree, exclude=["**/*.html", "*.md"])
    assert [d.path for d in no_html.documents] == ["sub/deeper/notes.txt"]


def test_size_limit(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("word " * 5000, encoding="utf-8")
    (tmp_path / "small.txt").write_text("A small file with a sentence in it.", encoding="utf-8")
    result = parse_folder(tmp_path, limits=FileLimits(max_bytes=10_000))
    assert [d.path for d in result.documents] == ["small.txt"]
    reason = "file is 24.4 KB, over the 9.8 KB size limit"
    assert result.skipped == [SkippedFile(path="big.txt", reason=reason)]


def test_single_file_and_missing_root(tmp_path: Path) -> None:
    one = parse_folder(GOOD / "guide.md")
    assert [d.path for d in one.documents] == ["guide.md"]
    with pytest.raises(CorpusError, match="no such file or folder"):
        parse_folder(tmp_path / "nope")


def test_pandocs_notes_on_rst_markup_are_not_printed(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                                     caplog: pytest.LogCaptureFixture) -> None:
    # pandoc notes an unresolved reference under a temporary file's name; printed twice, it named no file of ours
    (tmp_path / "notes.rst").write_text("Notes\n=====\n\nSee `nowhere`_ and \"fatal\"_ for the levels.\n",
                                        encoding="utf-8")
    with caplog.at_level("DEBUG"):
        (doc,) = parse_folder(tmp_path).documents
    assert any("nowhere" in e.text for e in doc.elements)
    assert "Reference not found" not in capfd.readouterr().err
    assert not [r for r in caplog.records if r.name.startswith("pypandoc") and r.levelno >= 30]


def test_document_ids_are_stable_and_content_hash_tracks_content(tmp_path: Path) -> None:
    shutil.copy(GOOD / "guide.md", tmp_path / "guide.md")
    first = parse_folder(tmp_path).documents[0]
    (tmp_path / "guide.md").write_text((GOOD / "guide.md").read_text() + "\nOne more line.\n", encoding="utf-8")
    second = parse_folder(tmp_path).documents[0]
    assert first.id == second.id and first.content_hash != second.content_hash


def test_load_chunks_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "chunks.jsonl"
    rows = [
        {"id": "a-1", "text": "The bakery opened in 2015.", "doc_id": "a", "source": "a.md"},
        {"id": "a-2", "text": "It sells rye crackers. " * 300, "doc_id": "a", "heading_path": ["Products"]},
        {"id": "b-1", "text": "面包店每天早上七点开门。", "source": "b.md"},
        {"id": "a-1", "text": "duplicate id"},
        {"text": "no id"},
        {"id": "c", "text": "  "},
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\nnot json\n", encoding="utf-8")
    skipped: list[SkippedFile] = []
    chunks = load_chunks_jsonl(path, skipped=skipped)
    assert [c.id for c in chunks] == ["a-1", "a-2", "b-1"]
    assert chunks[1].text == rows[1]["text"] and chunks[1].tokens > 1000  # never re-split
    assert chunks[1].heading_path == ["Products"] and chunks[1].index == 1
    assert chunks[2].language == "zh" and chunks[2].source == "b.md" and chunks[2].doc_id != "a"
    assert [(s.path, s.reason) for s in skipped] == [
        ("chunks.jsonl:4", "duplicate chunk id 'a-1'"),
        ("chunks.jsonl:5", "missing field 'id'"),
        ("chunks.jsonl:6", "missing or empty field 'text'"),
        ("chunks.jsonl:7", "invalid JSON (Expecting value)"),
    ]
    with pytest.raises(DataError, match="cannot read chunks file"):
        load_chunks_jsonl(tmp_path / "missing.jsonl")


def _pdf(tmp_path: Path, pages: list[list[tuple[float, float, float, bool, str]]]) -> Path:
    import sys

    sys.path.insert(0, str(FIXTURES))
    from make_fixtures import simple_pdf

    path = tmp_path / "doc.pdf"
    path.write_bytes(simple_pdf(pages, "Test"))
    return path


def test_pdf_two_columns_read_left_then_right(tmp_path: Path) -> None:
    left = [(50, 780 - 14 * i, 10, False, f"Left column line {i} of the first column goes on and") for i in range(14)]
    right = [(310, 780 - 14 * i, 10, False, f"Right column line {i} of the second column goes on") for i in range(14)]
    doc = parse_file(_pdf(tmp_path, [left + right]))
    texts = [e.text for e in doc.elements]
    assert len(texts) == 2
    assert texts[0].startswith("Left column line 0") and texts[0].endswith("line 13 of the first column goes on and")
    assert texts[1].startswith("Right column line 0")


def test_pdf_without_text_is_reported(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no extractable text in 1 page"):
        parse_file(_pdf(tmp_path, [[]]))


def test_fifos_are_skipped_and_undecodable_names_read(tmp_path: Path) -> None:
    shutil.copy(GOOD / "guide.md", tmp_path / "guide.md")
    os.mkfifo(tmp_path / "pipe.md")  # opening it would block the build forever
    bad = os.path.join(os.fsencode(tmp_path), b"caf\xe9-notes.txt")  # Latin-1 bytes in a UTF-8 world
    with open(bad, "wb") as fh:
        fh.write(b"Some notes about the cafe.")
    result = parse_folder(tmp_path)
    assert [d.path for d in result.documents] == ["caf\\xe9-notes.txt", "guide.md"]  # the byte shown escaped
    assert result.documents[0].elements[0].text == "Some notes about the cafe."
    assert {s.path: s.reason for s in result.skipped} == {
        "pipe.md": "not a regular file (a FIFO, socket or device file): not read"}
    for doc in result.documents:  # printable and writable as JSON
        doc.model_dump_json().encode("utf-8")


def _zip_docx(path: Path, body: bytes) -> Path:
    """A zip container shaped like a DOCX whose one XML part is ``body``."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", body)
    return path


def test_zip_containers_are_judged_by_their_inflated_size(tmp_path: Path) -> None:
    shutil.copy(GOOD / "handbook.docx", tmp_path / "handbook.docx")
    _zip_docx(tmp_path / "bomb.docx", b"<w:t>" + b" " * 30_000_000 + b"</w:t>")  # ~30 KB on disk
    _zip_docx(tmp_path / "dense.docx", b"<w:t>" + b"ab" * 200_000 + b"</w:t>")  # small, but 1000:1
    assert (tmp_path / "bomb.docx").stat().st_size < 100_000
    result = parse_folder(tmp_path, limits=FileLimits(max_bytes=10 * 1024 * 1024))
    assert [d.path for d in result.documents] == ["handbook.docx"]
    reasons = {s.path: s.reason for s in result.skipped}
    assert reasons["bomb.docx"] == "DOCX inflates to 28.6 MB, over the 10.0 MB size limit"
    assert re.fullmatch(r"DOCX compresses \d+:1, over the 100:1 limit \(a zip bomb\?\)", reasons["dense.docx"])


def test_a_zip_container_that_is_not_a_zip_is_named(tmp_path: Path) -> None:
    (tmp_path / "fake.pptx").write_bytes(b"plain text pretending to be slides")
    with pytest.raises(CorpusError, match=r"corrupt PPTX \(not a readable zip container"):
        parse_file(tmp_path / "fake.pptx")


def test_pdf_page_cap(tmp_path: Path) -> None:
    page = [(50, 780, 10, False, "A line of text on this page.")]
    path = _pdf(tmp_path, [page, page, page])
    assert len(parse_file(path, limits=FileLimits(max_pages=3)).elements) >= 1
    with pytest.raises(CorpusError, match="PDF has 3 pages, over the 2-page limit"):
        parse_file(path, limits=FileLimits(max_pages=2))


def test_json_and_jsonl_documents(tmp_path: Path) -> None:
    (tmp_path / "faq.json").write_text(json.dumps([
        {"id": "returns", "title": "Returns", "content": "Orders can be returned within 30 days.\n\nRefunds take "
                                                          "five days."},
        {"title": "Shipping", "text": "We ship to 40 countries."}]))
    (tmp_path / "products.jsonl").write_text(
        json.dumps({"name": "Wren W300", "specs": {"payload_kg": 6, "reach_mm": 900}, "tags": ["arm", "6-axis"]})
        + "\n" + json.dumps({"name": "Finch", "body": "The Finch is a gripper. It fits both arms."}) + "\n")
    zh = {"标题": "退货", "text": "订单可在三十天内退货。"}
    (tmp_path / "zh.json").write_text(json.dumps(zh, ensure_ascii=False))
    (tmp_path / "broken.json").write_text('{"text": "unterminated')
    result = parse_folder(tmp_path)
    docs = {d.path: d for d in result.documents}
    faq = [(e.kind, e.text) for e in docs["faq.json"].elements]
    assert faq == [("heading", "Returns"), ("paragraph", "Orders can be returned within 30 days."),
                   ("paragraph", "Refunds take five days."), ("heading", "Shipping"),
                   ("paragraph", "We ship to 40 countries.")]
    assert docs["faq.json"].title == "Returns" and docs["faq.json"].format == "json"
    products = [e.text for e in docs["products.jsonl"].elements]
    assert products[:2] == ["Wren W300", "specs.payload_kg: 6\nspecs.reach_mm: 900\ntags: arm, 6-axis"]
    assert "The Finch is a gripper. It fits both arms." in products[3]
    assert docs["zh.json"].language == "zh" and docs["zh.json"].elements[0].text == "订单可在三十天内退货。"
    (skipped,) = result.skipped
    assert skipped.path == "broken.json" and skipped.reason.startswith("invalid JSON (JSONDecodeError: ")


def test_the_unstructured_spacy_hook_is_still_there() -> None:
    """ragkit points unstructured's private spaCy loader at the installed model (no download): an upgrade of
    unstructured that drops the hook fails here, not silently in a user's offline run."""
    import unstructured.nlp.tokenize as tokenize

    from ragkit.kg._partition import _unstructured

    _unstructured()
    assert hasattr(tokenize, "_load_spacy_model") and hasattr(tokenize, "_SPACY_EXCLUDE")
    assert tokenize._load_spacy_model.__module__ == "ragkit.kg._partition"
