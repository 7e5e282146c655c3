"""Text made safe for a terminal: document- and model-derived text never carries control sequences to it."""

from __future__ import annotations

import re
from collections.abc import Mapping

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls (ESC, BEL, backspace, carriage return ...; tab and newline kept) and the invisible
bidirectional overrides that can make printed text read differently from what it is."""


def printable(text: str) -> str:
    """``text`` without control characters (each replaced by a space where it separated words)."""
    return _CONTROL.sub(lambda m: " " if m.group() in "\r\x0b\x0c" else "", text)


def counts_text(counts: Mapping[str, int]) -> str:
    """Counts by name, the largest first (ties in the given order), for a line of a report.

    Examples:
        >>> counts_text({"single_passage": 1, "not_answerable": 3})
        'not_answerable 3, single_passage 1'
    """
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda item: -item[1]))


def size_text(n: float) -> str:
    """A byte count for people: "512 bytes", "24.4 KB", "10.0 MB", "1.2 GB" (binary multiples).

    Examples:
        >>> size_text(25000), size_text(10 * 1024 * 1024)
        ('24.4 KB', '10.0 MB')
    """
    if n < 1024:
        return f"{int(n)} bytes"
    for unit in ("KB", "MB", "GB"):
        n /= 1024
        if n < 1024 or unit == "GB":
            break
    return f"{n:.1f} {unit}"
