"""A file of the user's own samples with human labels: any record ``ragkit evaluate`` reads, plus ``labels``.

    {"user_input": "...", "response": "...", "retrieved_contexts": [...], "reference": "...",
     "labels": {"faithfulness": 1, "answer_correctness": 4}}

A label is 0 / 1 (binary: the answer is faithful, right, ...) or an integer 1–5 (ordinal), per metric name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragkit.errors import DataError
from ragkit.runs import parse_records, read_records
from ragkit.types import EvalSample

Kind = Literal["binary", "ordinal"]


@dataclass(frozen=True)
class Labelled:
    """One labelled sample."""

    sample: EvalSample
    labels: dict[str, float]
    where: str


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
    """The labelled samples of ``path`` (any file ``ragkit evaluate`` reads), checked before anything is scored."""
    records: list[tuple[dict[str, Any], str, str]] = []
    labels: list[dict[str, float]] = []
    for record, where, default_id in read_records(path):
        if not isinstance(record, dict):
            raise DataError(where, f"expected a JSON object, got {type(record).__name__}")
        record = dict(record)
        labels.append(_labels(record, where))
        records.append((record, where, default_id))
    if not records:
        raise DataError(str(path), "no labelled samples")
    samples = parse_records(records)
    return [Labelled(sample, lab, where) for sample, lab, (_, where, _) in zip(samples, labels, records, strict=True)]


def label_kind(metric: str, values: list[float]) -> Kind:
    """Binary when every label is 0 or 1, ordinal when every label is 1–5 (a file must not mix the two)."""
    if set(values) <= {0.0, 1.0}:
        return "binary"
    if 0.0 in values:
        raise DataError(metric, "labels mix 0 with values above 1: use 0/1 for every sample, or 1–5")
    return "ordinal"
