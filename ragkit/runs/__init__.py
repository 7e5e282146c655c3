"""What runs read and write: the run directory and the test-set / answer file formats."""

from __future__ import annotations

from ragkit.runs._conversations import group_turns
from ragkit.runs._datasets import (
    EXPORTS,
    load_samples,
    parse_records,
    read_records,
    read_testset,
    save_jsonl,
    to_dataframe,
    to_hf_dataset,
    write_samples,
)
from ragkit.runs._records import FORMATS
from ragkit.runs._rundir import (
    FORMAT_VERSION,
    JsonlAppender,
    MetricMeta,
    RunDir,
    RunSpec,
    ScoreRecord,
    StageRecord,
    iter_jsonl,
    metric_keys,
    rewrite_jsonl,
    write_json_atomic,
)

__all__ = [
    "EXPORTS",
    "FORMATS",
    "FORMAT_VERSION",
    "JsonlAppender",
    "MetricMeta",
    "RunDir",
    "RunSpec",
    "ScoreRecord",
    "StageRecord",
    "group_turns",
    "iter_jsonl",
    "load_samples",
    "metric_keys",
    "parse_records",
    "read_records",
    "read_testset",
    "rewrite_jsonl",
    "save_jsonl",
    "to_dataframe",
    "to_hf_dataset",
    "write_json_atomic",
    "write_samples",
]
