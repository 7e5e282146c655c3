"""Plain-text inputs: decoding (UTF-8, UTF-16, legacy encodings), plain-text blocks, CSV / TSV tables, JSON."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from ragkit.errors import CorpusError
from ragkit.text import cjk_language
from ragkit.types import Element, ElementKind

_LATIN_FAMILY = re.compile(r"^(cp125\d|iso8859_\d+|latin_1|mac_\w+|cp437|cp850|ascii)$")


def _looks_binary(data: bytes) -> bool:
    head = data[:8192]
    if b"\x00" in head:
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    return controls > 0.05 * len(head)


def decode_text(path: Path, data: bytes) -> tuple[str, str]:
    """Text and encoding of a text file: UTF-8 (with or without BOM), UTF-16 with BOM, else a detected legacy
    encoding (GB18030, Shift_JIS, EUC-KR, Big5 ...; Western single-byte code pages read as cp1252)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            raise CorpusError(path, "invalid UTF-16 text") from None
    if _looks_binary(data):
        raise CorpusError(path, f"binary content, not text (a '{path.suffix}' file with NUL or control bytes)")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None or best.chaos > 0.3:
        raise CorpusError(path, "not UTF-8, and its encoding could not be detected")
    encoding = best.encoding
    if _LATIN_FAMILY.match(encoding):
        encoding = "cp1252"
    try:
        return data.decode(encoding), encoding
    except (UnicodeDecodeError, LookupError):
        return data.decode("latin-1"), "latin-1"


_RULER = re.compile(r"^\s*([=\-*_~#+])\1{2,}\s*$")
_BULLET = re.compile(r"^\s*(?:[-*•·▪‣◦]|\(?\d{1,3}[.)]|[a-z][.)])\s+")
_FIELD = re.compile(r"^\s*[^\W\d][\w .()/&-]{0,30}:\s")
_END_PUNCT = (".", ",", ";", ":", "!", "?", "。", "，", "；", "：", "！", "？", "、")


def plain_text_elements(text: str) -> list[Element]:
    """Blocks of a plain-text file: blank-line separated; short unpunctuated lines (or lines underlined with
    ``===`` / ``---``) are headings, bulleted or numbered lines are list items, hard-wrapped lines are joined."""
    out: list[Element] = []
    blocks: list[list[str]] = [[]]
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if _RULER.match(line):
            if len(blocks[-1]) == 1 and len(blocks[-1][0].split()) <= 12:  # setext underline: a heading
                out_line = blocks[-1].pop()
                blocks[-1].append("\x00" + out_line)
            blocks.append([])
        elif not line.strip():
            blocks.append([])
        else:
            blocks[-1].append(line.rstrip())
    for block in (b for b in blocks if b):
        first = block[0]
        if first.startswith("\x00") or (len(block) == 1 and _is_heading_line(first)):
            head = first.lstrip("\x00").strip()
            head_kind: ElementKind = "title" if not out else "heading"
            out.append(Element(kind=head_kind, text=head, level=1 if head_kind == "title" else 2))
            continue
        if sum(1 for ln in block if _BULLET.match(ln)) >= max(1, len(block) // 2) and _BULLET.match(first):
            for ln in block:
                if _BULLET.match(ln) or not out or out[-1].kind != "list_item":
                    out.append(Element(kind="list_item", text=_BULLET.sub("", ln, count=1).strip()))
                else:
                    out[-1].text += _joiner(out[-1].text) + ln.strip()
            continue
        short = sum(1 for ln in block if len(ln) < 50)
        fields = sum(1 for ln in block if _FIELD.match(ln))
        if len(block) >= 3 and (short >= 0.7 * len(block) or fields >= 0.5 * len(block)):
            # a record, address or table-like block: keep its lines
            out.append(Element(kind="paragraph", text="\n".join(" ".join(ln.split()) for ln in block)))
            continue
        para = ""
        for ln in block:
            para += (_joiner(para) if para else "") + ln.strip()
        out.append(Element(kind="paragraph", text=para))
    return out


def _joiner(text: str) -> str:
    return "" if text and cjk_language(text[-1]) in ("zh", "ja") else " "


def _is_heading_line(line: str) -> bool:
    words = line.split()
    stripped = line.strip()
    if not words or len(words) > 10 or len(stripped) > 80 or stripped.endswith(_END_PUNCT):
        return False
    if _FIELD.match(stripped):  # "Signed: A. Person" is a field, not a heading
        return False
    letters = [c for c in stripped if c.isalpha()]
    return bool(letters) and (stripped.isupper() or bool(re.match(r"^(\d+(\.\d+)*\.?|[A-Z]\.)\s+\S", stripped))
                              or stripped[0].isupper() or cjk_language(stripped) is not None)


def html_title(fmt: str, data: bytes) -> str | None:
    if fmt != "html":
        return None
    m = re.search(rb"<title[^>]*>(.*?)</title>", data[:20000], re.I | re.S)
    if not m:
        return None
    return " ".join(m.group(1).decode("utf-8", "replace").split()) or None


def csv_table(text: str, delimiter: str) -> list[Element]:
    rows = [" | ".join(c.strip() for c in row) for row in csv.reader(io.StringIO(text), delimiter=delimiter)]
    rows = [r for r in rows if r.replace("|", "").strip()]
    return [Element(kind="table", text="\n".join(rows))] if rows else []


TEXT_FIELDS = ("text", "content", "body", "page_content", "markdown", "article")
"""The fields a JSON record's text is read from, first found first; a record with none of them is flattened."""
TITLE_FIELDS = ("title", "name", "heading", "id")


def json_elements(text: str, *, lines: bool) -> list[Element]:
    """A ``.json`` document (one object, or a list of them) or a ``.jsonl`` one (an object per line). Each record
    is a section: its title (``title`` / ``name`` / ``heading`` / ``id``) as the heading, then its text field (one
    of ``TEXT_FIELDS``) read as plain text; a record without one is flattened into ``key.sub: value`` lines."""
    if lines:
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
    else:
        data = json.loads(text)
        records = data if isinstance(data, list) else [data]
    elements: list[Element] = []
    for record in records:
        if isinstance(record, str):
            elements += plain_text_elements(record)
            continue
        if not isinstance(record, dict):
            continue
        title = next((str(record[k]) for k in TITLE_FIELDS if isinstance(record.get(k), str | int)), None)
        body = next((record[k] for k in TEXT_FIELDS if isinstance(record.get(k), str) and record[k].strip()), None)
        if title:
            elements.append(Element(kind="heading", text=title[:200]))
        if body is not None:
            elements += plain_text_elements(body)
        else:
            flat = [f"{key}: {value}" for key, value in _flatten(record) if key not in TITLE_FIELDS or not title]
            if flat:
                elements.append(Element(kind="paragraph", text="\n".join(flat)))
    return elements


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in _flatten(v, f"{prefix}.{k}" if prefix else str(k))]
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            return [(prefix, ", ".join(str(v) for v in value))] if value else []
        return [pair for i, v in enumerate(value) for pair in _flatten(v, f"{prefix}[{i}]")]
    return [] if value is None or value == "" else [(prefix, str(value))]
