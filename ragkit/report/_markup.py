"""Markup primitives of the HTML report: escaping, number formats and the red-to-green cell shade."""

from __future__ import annotations

import html
from typing import Any

from ragkit.runs import MetricMeta


def esc(value: Any) -> str:
    """HTML-escape any value (quotes too, so it is safe inside attributes)."""
    return html.escape("" if value is None else str(value), quote=True)



def fmt(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def goodness(value: float | None, meta: MetricMeta) -> float | None:
    if value is None:
        return None
    lo, hi = meta.range
    v = (value - lo) / (hi - lo) if hi > lo else value
    v = min(1.0, max(0.0, v))
    return v if meta.higher_is_better else 1 - v


def shade(good: float | None) -> str:
    """A background colour from red (0) to green (1)."""
    if good is None:
        return ""
    return f' style="background:hsl({int(good * 120)},65%,88%)"'


# -- charts (inline SVG) -----------------------------------------------------------------------------
