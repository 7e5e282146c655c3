"""PDF to typed elements with pdfminer.six (layout: fonts, positions) and pypdf (checks, fallback).

Layout rules, all relative to the document's own body font size: a row of one line in a larger (or bold, short)
font is a heading, its level given by its size rank; rows of two or more cells side by side are table rows;
rows starting with a bullet are list items; other lines join into paragraphs until a vertical gap wider than
most of a line. Page headers and footers (small text in the top or bottom row of a page that repeats across
pages, or reads "page N") are dropped.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ragkit.errors import CorpusError
from ragkit.kg._limits import FileLimits, check_pages
from ragkit.types import Element

_BULLET = re.compile(r"^([-–•●▪◦·*]|\(?\d{1,2}[.)]|[a-z][.)])\s*")
_PAGE_MARK = re.compile(r"\bpage\s*\d+|^\s*\d+\s*(/\s*\d+)?\s*$|^\s*-\s*\d+\s*-\s*$", re.I)


@dataclass
class _Line:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool


@dataclass
class _Row:
    cells: list[_Line]
    page: int
    cols: list[float] | None = None
    """Column positions when the row belongs to a table."""

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)

    @property
    def size(self) -> float:
        return max(c.size for c in self.cells)


def check_pdf(path: Path, data: bytes) -> tuple[int, dict[str, str]]:
    """Reject truncated, encrypted or unreadable PDFs with a clear reason; return (pages, metadata)."""
    if not data.lstrip()[:1024].startswith(b"%PDF-") and b"%PDF-" not in data[:1024]:
        raise CorpusError(path, "not a PDF file (no %PDF header)")
    if b"%%EOF" not in data[-2048:]:
        raise CorpusError(path, "truncated PDF (no %%EOF marker at the end of the file)")
    import io

    import pypdf

    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception:  # pypdf raises for unsupported ciphers; the file is unreadable to us either way
                ok = pypdf.PasswordType.NOT_DECRYPTED
            if ok == pypdf.PasswordType.NOT_DECRYPTED:
                raise CorpusError(path, "encrypted PDF (a password is needed to read it)")
        pages = len(reader.pages)
        meta = {k.lstrip("/").lower(): str(v) for k, v in (reader.metadata or {}).items() if isinstance(v, str)}
    except CorpusError:
        raise
    except Exception as exc:
        raise CorpusError(path, f"corrupt PDF ({type(exc).__name__}: {_short(exc)})") from None
    return pages, meta


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return text[:160]


def _lines(path: Path) -> list[list[_Line]]:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTChar, LTTextLine

    def walk(obj: object) -> list[LTTextLine]:
        out: list[LTTextLine] = []
        for child in obj:  # type: ignore[attr-defined]
            if isinstance(child, LTTextLine):
                out.append(child)
            elif hasattr(child, "__iter__"):
                out.extend(walk(child))
        return out

    pages: list[list[_Line]] = []
    for page in extract_pages(str(path), laparams=LAParams()):
        lines = []
        for ln in walk(page):
            text = " ".join(ln.get_text().split())
            chars = [c for c in ln if isinstance(c, LTChar) and c.get_text().strip()]
            if not text or not chars:
                continue
            bold = sum(1 for c in chars if re.search(r"bold|black|heavy|semibold", c.fontname, re.I)) > 0.6 * len(chars)
            size = round(statistics.median(c.size for c in chars), 1)
            lines.append(_Line(text, ln.x0, ln.x1, page.height - ln.y1, page.height - ln.y0, size, bold))
        pages.append(lines)
    return pages


def _group_rows(lines: list[_Line], page: int) -> list[_Row]:
    rows: list[_Row] = []
    for ln in sorted(lines, key=lambda ln: (ln.top, ln.x0)):
        mid = (ln.top + ln.bottom) / 2
        if rows:
            last = rows[-1].cells[0]
            if abs(mid - (last.top + last.bottom) / 2) < 0.4 * max(ln.size, last.size):
                rows[-1].cells.append(ln)
                continue
        rows.append(_Row([ln], page))
    for row in rows:
        row.cells.sort(key=lambda c: c.x0)
    return rows


def _two_columns(lines: list[_Line], rows: list[_Row]) -> float | None:
    """The gutter x of a two-column prose page (most rows: two long cells split at one x), else None."""
    pairs = [r for r in rows if len(r.cells) == 2 and min(len(c.text) for c in r.cells) >= 35]
    if len(rows) < 10 or len(pairs) < 0.5 * len(rows):
        return None
    gutter = statistics.median(r.cells[1].x0 for r in pairs)
    if sum(1 for r in pairs if abs(r.cells[1].x0 - gutter) < 10) < 0.8 * len(pairs):
        return None
    return gutter - 2


def _rows(pages: list[list[_Line]]) -> list[list[_Row]]:
    out = []
    for number, lines in enumerate(pages, 1):
        rows = _group_rows(lines, number)
        gutter = _two_columns(lines, rows)
        if gutter is not None:  # read the left column, then the right one
            rows = _group_rows([ln for ln in lines if ln.x0 < gutter], number) + \
                _group_rows([ln for ln in lines if ln.x0 >= gutter], number)
        out.append(_tables(rows))
    return out


def _tables(rows: list[_Row]) -> list[_Row]:
    """Find table zones (a row of 2+ cells, then lines that fit its columns) and merge wrapped cell lines."""
    out: list[_Row] = []
    cols: list[float] = []
    current: _Row | None = None

    def fits(row: _Row) -> bool:
        for cell in row.cells:
            i = next((i for i, x in enumerate(cols) if abs(cell.x0 - x) <= 4), None)
            if i is None or (i + 1 < len(cols) and cell.x1 > cols[i + 1] + 4):
                return False
        return True

    for row in rows:
        starts = len(row.cells) >= 2 and _bullet_row(row) is None and not all(len(c.text) > 60 for c in row.cells)
        if current is not None and fits(row):
            top = min(c.top for c in row.cells)
            bottom = max(c.bottom for c in current.cells)
            if top - bottom < 0.8 * row.size:  # a wrapped line of the same table row
                current.cells.extend(row.cells)
            else:
                current = row
                out.append(row)
            row.cols = cols
            continue
        current = None
        if starts:
            cols = [c.x0 for c in row.cells]
            current = row
            row.cols = cols
        out.append(row)
    for row in out:
        if row.cols:
            row.cells = _merge_columns(row.cells, row.cols)
    return out


def _merge_columns(cells: list[_Line], cols: list[float]) -> list[_Line]:
    """One cell per column: lines in the same column joined top to bottom."""
    by_col: dict[int, list[_Line]] = {}
    for cell in cells:
        i = min(range(len(cols)), key=lambda k: abs(cols[k] - cell.x0)) if cols else 0
        by_col.setdefault(i, []).append(cell)
    merged = []
    for i in sorted(by_col):
        part = sorted(by_col[i], key=lambda c: c.top)
        first = part[0]
        merged.append(_Line(" ".join(c.text for c in part), first.x0, max(c.x1 for c in part), first.top,
                            part[-1].bottom, first.size, first.bold))
    return merged


def _drop_margins(pages: list[list[_Row]], body: float, title: str | None) -> list[_Row]:
    """Remove running headers / footers: small text in a page's first or last row that repeats or is a page mark."""
    def key(row: _Row) -> str:
        return re.sub(r"\d+", "#", row.text.lower())

    margin = [r for rows in pages for r in (rows[:1] + rows[-1:]) if r.size < body * 0.95]
    repeats = Counter(key(r) for r in {id(r): r for r in margin}.values())
    doomed = {
        id(r) for r in margin
        if (len(pages) > 1 and repeats[key(r)] >= 2) or _PAGE_MARK.search(r.text)
        or (title and r.text.strip().lower() == title.strip().lower())
    }
    return [r for rows in pages for r in rows if id(r) not in doomed]


def _bullet_row(row: _Row) -> str | None:
    """The item text if the row starts with a bullet (as its own cell or inline), else None."""
    first = row.cells[0].text
    if len(row.cells) >= 2 and _BULLET.fullmatch(first + " ") and len(first) <= 4:
        return " ".join(c.text for c in row.cells[1:])
    if len(row.cells) == 1 and re.match(r"^([-–•●▪◦·*]|\d{1,2}[.)])\s+\S", first):
        return _BULLET.sub("", first, count=1)
    return None


def read_pdf(path: Path, data: bytes, limits: FileLimits) -> tuple[list[Element], dict[str, str]]:
    """Typed elements of a PDF and its metadata; raises CorpusError with the reason when it cannot be read."""
    n_pages, meta = check_pdf(path, data)
    check_pages(path, n_pages, limits)
    try:
        pages = _lines(path)
    except Exception as exc:
        raise CorpusError(path, f"corrupt PDF ({type(exc).__name__}: {_short(exc)})") from None
    all_lines = [ln for p in pages for ln in p]
    if not all_lines:
        raise CorpusError(path, f"no extractable text in {n_pages} page(s) (scanned PDF? OCR is not supported)")
    weights: Counter[float] = Counter()
    for ln in all_lines:
        weights[ln.size] += len(ln.text)
    body = weights.most_common(1)[0][0]
    rows = _drop_margins(_rows(pages), body, meta.get("title"))
    heading_sizes = sorted({r.size for r in rows if len(r.cells) == 1 and r.size >= body * 1.15}, reverse=True)
    blocks: list[_Block] = []
    for row in rows:
        _add_row(blocks, row, body, heading_sizes)
    if blocks and blocks[0].kind == "heading" and blocks[0].page == 1 and blocks[0].level == 1:
        blocks[0].kind = "title"
    elements = [
        Element(kind=b.kind, text=b.text.strip(), page=b.page,  # type: ignore[arg-type]
                level=b.level if b.kind in ("title", "heading") else None)
        for b in blocks if b.text.strip()
    ]
    return elements, meta


@dataclass
class _Block:
    kind: str
    text: str
    page: int
    level: int | None = None
    indent: float = 0.0
    bottom: float | None = None


def _add_row(blocks: list[_Block], row: _Row, body: float, heading_sizes: list[float]) -> None:
    text = row.text
    cell = row.cells[0]
    prev = blocks[-1] if blocks else None
    if len(row.cells) == 1 and (row.size in heading_sizes or (
            cell.bold and row.size >= body * 0.95 and len(text.split()) <= 12 and not text.endswith((".", ":")))):
        level = heading_sizes.index(row.size) + 1 if row.size in heading_sizes else len(heading_sizes) + 1
        blocks.append(_Block("heading", text, row.page, level=level))
        return
    item = _bullet_row(row)
    if item is not None:
        indent = row.cells[1].x0 if len(row.cells) > 1 else cell.x0
        blocks.append(_Block("list_item", item, row.page, indent=indent, bottom=row.cells[-1].bottom))
        return
    if row.cols or len(row.cells) >= 2:
        line = " | ".join(c.text for c in row.cells)
        if prev is not None and prev.kind == "table" and prev.page in (row.page, row.page - 1):
            if line != prev.text.split("\n", 1)[0]:  # a header row repeated on the next page
                prev.text += "\n" + line
        else:
            blocks.append(_Block("table", line, row.page))
        return
    if prev is not None and prev.kind in ("paragraph", "list_item") and _continues(prev, row, body):
        if prev.text.endswith("-") and text[:1].islower():
            prev.text = prev.text[:-1] + text
        else:
            prev.text += " " + text
        prev.bottom, prev.page = cell.bottom, row.page
        return
    blocks.append(_Block("paragraph", text, row.page, indent=cell.x0, bottom=cell.bottom))


def _continues(prev: _Block, row: _Row, body: float) -> bool:
    cell = row.cells[0]
    if prev.kind == "list_item" and abs(cell.x0 - prev.indent) > 3:
        return False
    if prev.page != row.page:  # a sentence running over a page break
        return not prev.text.rstrip().endswith((".", "!", "?", ":", "。", "！", "？"))
    if prev.bottom is None:
        return False
    return 0 <= cell.top - prev.bottom < 0.7 * max(cell.size, body)
