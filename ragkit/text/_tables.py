"""The tables of a text: rows of cells joined by ``|``.

Documents' tables reach a chunk in that form (the partitioner's, for Markdown, HTML, PDF and CSV tables), and a
user's own contexts may hold Markdown tables, with their ``|---|`` rule under the header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RULE = re.compile(r"^:?-+:?$")  # a Markdown header rule's cell: ---, :-:, --:
_FENCE = re.compile(r"^\s*(```|~~~)")
_MAX_HEADER = 80  # a "header" cell longer than this is prose with a pipe in it, not a column name


def _cells(line: str) -> list[str] | None:
    """A table row's cells, or None for a line that is no row (no pipe, or a single cell)."""
    if "|" not in line:
        return None
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    cells = [c.strip() for c in inner.split("|")]
    return cells if len(cells) >= 2 else None


def _is_rule(cells: list[str]) -> bool:
    return all(_RULE.match(c) for c in cells if c) and any(cells)


@dataclass(frozen=True)
class Table:
    """A table of a text: its header row, and the rows of the header's width (a row of another width, a cell lost
    in extraction, is left out)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _table(run: list[list[str]]) -> Table | None:
    """The table of a run of ``|`` lines, or None: one line, no body, or a header that is not a row of names."""
    if len(run) < 2:
        return None
    header, body = run[0], [cells for cells in run[1:] if not _is_rule(cells)]
    if not body or any(len(h) > _MAX_HEADER for h in header):
        return None
    return Table(tuple(header), tuple(tuple(cells) for cells in body if len(cells) == len(header)))


def tables(text: str) -> list[Table]:
    """The tables of ``text``: two or more consecutive ``|`` rows, the first their header. Lines inside fenced
    code blocks are never tables."""
    found: list[Table] = []
    run: list[list[str]] = []
    fenced = False
    for line in [*text.split("\n"), ""]:
        if _FENCE.match(line):
            fenced = not fenced
        cells = None if fenced else _cells(line)
        if cells is not None:
            run.append(cells)
            continue
        if (table := _table(run)) is not None:
            found.append(table)
        run = []
    return found
