"""A file of the user's own samples with human labels: any record ``ragkit evaluate`` reads, plus ``labels``.

    {"user_input": "...", "response": "...", "retrieved_contexts": [...], "reference": "...",
     "labels": {"faithfulness": 1, "answer_correctness": 4}}

A label is 0 / 1 (binary: the answer is faithful, right, ...) or an integer 1–5 (ordinal), per metric name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragkit.errors import DataError
from ragkit.runs import parse_record
from ragkit.types import EvalSample

Kind = Literal["binary", "ordinal"]


@dataclass(frozen=True)
class Labelled:
    """One labelled sample."""

    sample: EvalSample
    labels: dict[str, float]
    where: str


def _records(path: Path) -> list[tuple[Any, str]]:
    if not path.is_file():
        raise DataError(str(path), "no such file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), f"cannot read: {exc}") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise DataError(str(path), f"invalid JSON: {exc}") from None
        if not isinstance(data, list):
            raise DataError(str(path), "expected a JSON list of labelled records")
        return [(r, f"{path} item [{n}]") for n, r in enumerate(data)]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append((json.loads(line), f"{path} line {n}"))
            except ValueError as exc:
                raise DataError(f"{path} line {n}", f"invalid JSON: {exc}") from None
    return out


def _labels(record: dict[str, Any], where: str) -> dict[str, float]:
    raw = record.pop("labels", None)
    if not isinstance(raw, dict) or not raw:
        raise DataError(where, "field 'labels' must be an object of metric name → label (0/1, or 1–5)")
    out: dict[str, float] = {}
    for name, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value not in (0, 1, 2, 3, 4, 5):
            raise DataError(where, f"label '{name}' is {value!r}: use 0 or 1, or an integer from 1 to 5")
        out[str(name)] = float(value)
    return out


def read_labels(path: str | Path) -> list[Labelled]:
    """The labelled samples of ``path`` (JSONL, or a JSON list), checked before anything is scored."""
    path = Path(path)
    out: list[Labelled] = []
    seen: dict[str, str] = {}
    for n, (record, where) in enumerate(_records(path), 1):
        if not isinstance(record, dict):
            raise DataError(where, f"expected a JSON object, got {type(record).__name__}")
        record = dict(record)
        labels = _labels(record, where)
        sample = parse_record(record, where, f"row-{n}")
        if sample.id in seen:
            raise DataError(where, f"sample id '{sample.id}' is used twice (first at {seen[sample.id]})")
        seen[sample.id] = where
        out.append(Labelled(sample, labels, where))
    if not out:
        raise DataError(str(path), "no labelled samples")
    return out


def label_kind(metric: str, values: list[float]) -> Kind:
    """Binary when every label is 0 or 1, ordinal when every label is 1–5 (a file must not mix the two)."""
    if set(values) <= {0.0, 1.0}:
        return "binary"
    if 0.0 in values:
        raise DataError(metric, "labels mix 0 with values above 1: use 0/1 for every sample, or 1–5")
    return "ordinal"
