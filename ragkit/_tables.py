"""Small HTML tables for notebooks (``_repr_html_`` of results, summaries and runs): escaped, no styling needed."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return html.escape(str(value))


def html_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: str | None = None) -> str:
    """An HTML table: numbers to three decimals, None as a dash, every text escaped."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
