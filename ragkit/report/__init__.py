"""Scores to people: the run summary, terminal table, HTML report, advice, comparison and the CI gate."""

from __future__ import annotations

from ragkit.report._comparison import compare_runs, print_comparison, render_comparison
from ragkit.report._gate import (
    Check,
    check_known,
    checks,
    failed_share,
    failures,
    junit_xml,
    parse_thresholds,
    too_many_failed,
)
from ragkit.report._html import render_report
from ragkit.report._model import NOT_SCORED, Summary
from ragkit.report._summary import summarize
from ragkit.report._terminal import print_calibration, print_summary, safe

__all__ = [
    "Check",
    "NOT_SCORED",
    "Summary",
    "check_known",
    "checks",
    "compare_runs",
    "failed_share",
    "failures",
    "junit_xml",
    "parse_thresholds",
    "print_calibration",
    "print_comparison",
    "print_summary",
    "render_comparison",
    "render_report",
    "safe",
    "summarize",
    "too_many_failed",
]
