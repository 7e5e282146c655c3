#!/usr/bin/env python3
"""Build the .docx and .pdf files of the sample corpora from plain-text sources.

This script documents where the binary sample documents under ``corpora/``
come from. It is NOT a ragkit dependency and is not imported by ragkit.

Every ``*.txt`` file next to this script is one source document written in a
tiny markup:

    @output: acme/name.docx      target file, relative to corpora/ (.docx or .pdf)
    @title: / @author: / @subject:   document metadata
    # / ## / ###                heading levels 1-3
    - item                      bullet list item
    1. item                     numbered list item
    | a | b | c |               table row (the first row is the header)
    @pagebreak                  explicit page break
    anything else               paragraph text (consecutive lines are joined)

Usage (in a throwaway virtualenv outside the repo):

    python3 -m venv /tmp/corpora-venv
    /tmp/corpora-venv/bin/pip install python-docx fpdf2
    /tmp/corpora-venv/bin/python corpora/_source/make_binary_docs.py

The output is deterministic: fixed creation dates and zip timestamps, so
re-running the script does not change the files unless a source changed.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parent
FIXED_DATE = dt.datetime(2024, 9, 30, 12, 0, 0, tzinfo=dt.timezone.utc)


@dataclass
class Doc:
    source: Path
    output: Path
    meta: dict[str, str] = field(default_factory=dict)
    blocks: list[tuple] = field(default_factory=list)


def parse(path: Path) -> Doc:
    meta: dict[str, str] = {}
    blocks: list[tuple] = []
    para: list[str] = []

    def flush_para() -> None:
        if para:
            blocks.append(("p", " ".join(para)))
            para.clear()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip()
        m = re.match(r"@(\w+):\s*(.*)$", line)
        if m:
            flush_para()
            meta[m.group(1)] = m.group(2).strip()
            continue
        if line == "@pagebreak":
            flush_para()
            blocks.append(("pagebreak",))
            continue
        if not line.strip():
            flush_para()
            continue
        m = re.match(r"(#{1,3})\s+(.*)$", line)
        if m:
            flush_para()
            blocks.append(("h", len(m.group(1)), m.group(2)))
            continue
        if line.startswith("|"):
            flush_para()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if blocks and blocks[-1][0] == "table":
                blocks[-1][1].append(cells)
            else:
                blocks.append(("table", [cells]))
            continue
        m = re.match(r"(-|\d+\.)\s+(.*)$", line)
        if m:
            flush_para()
            kind = "ul" if m.group(1) == "-" else "ol"
            if blocks and blocks[-1][0] == kind:
                blocks[-1][1].append(m.group(2))
            else:
                blocks.append((kind, [m.group(2)]))
            continue
        para.append(line.strip())
    flush_para()
    if "output" not in meta:
        raise SystemExit(f"{path}: missing @output")
    return Doc(source=path, output=CORPORA / meta["output"], meta=meta, blocks=blocks)


# ---------------------------------------------------------------- docx

def normalise_zip(data: bytes) -> bytes:
    """Rewrite a zip (docx) with fixed timestamps so the build is reproducible."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(
        out, "w", zipfile.ZIP_DEFLATED
    ) as zout:
        for info in zin.infolist():
            new = zipfile.ZipInfo(info.filename, date_time=(2024, 9, 30, 12, 0, 0))
            new.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(new, zin.read(info.filename))
    return out.getvalue()


def build_docx(doc: Doc) -> None:
    import docx  # python-docx

    d = docx.Document()
    props = d.core_properties
    props.title = doc.meta.get("title", "")
    props.author = doc.meta.get("author", "")
    props.subject = doc.meta.get("subject", "")
    props.created = FIXED_DATE.replace(tzinfo=None)
    props.modified = FIXED_DATE.replace(tzinfo=None)
    props.last_modified_by = "ragkit corpora generator"
    props.revision = 1

    for block in doc.blocks:
        kind = block[0]
        if kind == "h":
            d.add_heading(block[2], level=block[1])  # styles Heading 1/2/3
        elif kind == "p":
            d.add_paragraph(block[1])
        elif kind in ("ul", "ol"):
            style = "List Bullet" if kind == "ul" else "List Number"
            for item in block[1]:
                d.add_paragraph(item, style=style)
        elif kind == "table":
            rows = block[1]
            ncols = max(len(r) for r in rows)
            table = d.add_table(rows=len(rows), cols=ncols)
            table.style = "Table Grid"
            for i, row in enumerate(rows):
                for j in range(ncols):
                    cell = table.cell(i, j)
                    cell.text = row[j] if j < len(row) else ""
                    if i == 0:
                        for run in cell.paragraphs[0].runs:
                            run.bold = True
            d.add_paragraph()
        elif kind == "pagebreak":
            d.add_page_break()

    buf = io.BytesIO()
    d.save(buf)
    doc.output.write_bytes(normalise_zip(buf.getvalue()))


# ---------------------------------------------------------------- pdf

_LATIN1_MAP = {
    "\u2013": "-", "\u2014": "-", "\u2018": "'", "\u2019": "'",
    "\u201c": '"', "\u201d": '"', "\u2026": "...", "\u2192": "->",
    "\u20ac": "EUR ", "\u2122": "(TM)",
}


def latin1(text: str) -> str:
    """The core Helvetica font only covers Latin-1; map the few other chars."""
    for k, v in _LATIN1_MAP.items():
        text = text.replace(k, v)
    text.encode("latin-1")  # fail loudly on anything unexpected
    return text


def build_pdf(doc: Doc) -> None:
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos

    title = latin1(doc.meta.get("title", ""))

    class PDF(FPDF):
        def header(self) -> None:
            if self.page_no() > 1:
                self.set_font("Helvetica", "I", 8)
                self.set_text_color(110)
                self.cell(0, 6, title, align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
                self.set_text_color(0)
                self.ln(2)

        def footer(self) -> None:
            self.set_y(-15)
            self.set_font("Helvetica", "I", 8)
            self.set_text_color(110)
            self.cell(0, 10, f"Acme Robotics Ltd - page {self.page_no()}/{{nb}}", align="C")
            self.set_text_color(0)

    pdf = PDF(format="A4")
    pdf.set_title(title)
    pdf.set_author(latin1(doc.meta.get("author", "")))
    pdf.set_subject(latin1(doc.meta.get("subject", "")))
    pdf.set_creator("ragkit corpora/_source/make_binary_docs.py")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_margins(20, 18, 20)
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_page()

    sizes = {1: 18, 2: 13, 3: 11}
    for block in doc.blocks:
        kind = block[0]
        if kind == "h":
            level, text = block[1], latin1(block[2])
            pdf.ln(3 if level > 1 else 0)
            pdf.set_font("Helvetica", "B", sizes[level])
            pdf.multi_cell(0, sizes[level] * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(1.5)
        elif kind == "p":
            pdf.set_font("Helvetica", "", 10)
            pdf.multi_cell(0, 5, latin1(block[1]), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(2)
        elif kind in ("ul", "ol"):
            pdf.set_font("Helvetica", "", 10)
            for n, item in enumerate(block[1], start=1):
                marker = "-" if kind == "ul" else f"{n}."
                pdf.set_x(pdf.l_margin + 3)
                pdf.cell(6, 5, marker)
                pdf.multi_cell(0, 5, latin1(item), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(2)
        elif kind == "table":
            pdf.set_font("Helvetica", "", 9)
            rows = block[1]
            with pdf.table(text_align="LEFT", line_height=5, padding=1.2) as table:
                for row in rows:
                    r = table.row()
                    for cell in row:
                        r.cell(latin1(cell))
            pdf.ln(3)
        elif kind == "pagebreak":
            pdf.add_page()

    pdf.output(str(doc.output))


def main() -> int:
    sources = sorted(HERE.glob("*.txt"))
    if not sources:
        print("no sources found", file=sys.stderr)
        return 1
    for src in sources:
        doc = parse(src)
        doc.output.parent.mkdir(parents=True, exist_ok=True)
        if doc.output.suffix == ".docx":
            build_docx(doc)
        elif doc.output.suffix == ".pdf":
            build_pdf(doc)
        else:
            raise SystemExit(f"{src}: unsupported output {doc.output}")
        size = doc.output.stat().st_size
        print(f"{src.name} -> {doc.output.relative_to(CORPORA)} ({size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
