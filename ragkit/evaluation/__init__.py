"""Answers to scores: the evaluation runner and the shared claim engine that metrics read from."""

from __future__ import annotations

from ragkit.evaluation._claim_view import ClaimRow, ClaimView, claim_view
from ragkit.evaluation._claims import ClaimStore
from ragkit.evaluation._evaluate import evaluate, evaluate_sync
from ragkit.evaluation._metric_context import MetricContext
from ragkit.evaluation._metric_keys import build_metric, check_requirements, check_unique, key_of, parse_value
from ragkit.evaluation._results import Aggregate, EvalResult, SampleResult
from ragkit.evaluation._scoring import ScoreWork
from ragkit.evaluation._verdicts import Attribution, ClaimDetails, Matrix, Verdict, claim_details

__all__ = [
    "Aggregate",
    "Attribution",
    "ClaimDetails",
    "ClaimRow",
    "ClaimStore",
    "ClaimView",
    "EvalResult",
    "Matrix",
    "MetricContext",
    "SampleResult",
    "ScoreWork",
    "Verdict",
    "build_metric",
    "check_requirements",
    "check_unique",
    "claim_details",
    "claim_view",
    "evaluate",
    "evaluate_sync",
    "key_of",
    "parse_value",
]
