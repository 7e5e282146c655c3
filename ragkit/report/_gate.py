"""The CI gate: ``--fail-under metric=value`` (and ``--fail-over`` for lower-is-better metrics)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from ragkit.errors import ConfigError
from ragkit.report._model import Summary
from ragkit.runs import MetricMeta


def parse_thresholds(items: Iterable[str], flag: str = "--fail-under") -> dict[str, float]:
    """``["faithfulness=0.8", ...]`` → ``{"faithfulness": 0.8}``; a one-line ConfigError on a bad item."""
    out: dict[str, float] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        try:
            if not sep or not name:
                raise ValueError
            out[name] = float(value)
        except ValueError:
            raise ConfigError(f"{flag} {item!r}: expected METRIC=NUMBER, for example {flag} faithfulness=0.8") from None
    return out


def check_known(thresholds: Mapping[str, float], meta: Mapping[str, MetricMeta]) -> None:
    """Refuse, before any work is done, thresholds on metrics the run does not compute and thresholds outside a
    metric's range (``faithfulness=7`` can never pass)."""
    unknown = [t for t in thresholds if t not in meta]
    if unknown:
        raise ConfigError(f"threshold on metric(s) not in this run: {', '.join(unknown)} "
                          f"(the run computes: {', '.join(meta)})")
    for name, value in thresholds.items():
        low, high = meta[name].range
        if not low <= value <= high:
            raise ConfigError(f"threshold {name}={value:g} is outside the metric's range [{low:g}, {high:g}]")


def failed_share(counts: Iterable[tuple[int, int]]) -> float:
    """The share of scores that failed (judge or metric error), from (failed, attempted) per metric; scores that
    do not apply to a sample count as attempted, not as failed."""
    failed = attempted = 0
    for f, a in counts:
        failed, attempted = failed + f, attempted + a
    return failed / attempted if attempted else 0.0


def too_many_failed(share: float, max_failed: float) -> str | None:
    """One line when more than ``max_failed`` of the scores failed, else None."""
    if share > max_failed:
        return (f"{share:.0%} of the scores failed (judge or metric errors), more than --max-failed "
                f"{max_failed:g}: the means above are not trustworthy")
    return None


class Check(NamedTuple):
    """One threshold of the gate: its name (``faithfulness>=0.8``), whether it passed, and why not."""

    name: str
    passed: bool
    message: str
    value: float | None


def checks(summary: Summary, fail_under: dict[str, float], fail_over: dict[str, float] | None = None) -> list[Check]:
    """Every threshold, passed or not. A metric with no scored sample fails."""
    out = []
    for bound, thresholds in (("under", fail_under), ("over", fail_over or {})):
        for name, limit in thresholds.items():
            m = summary.metrics.get(name)
            sign = ">=" if bound == "under" else "<="
            mean = None if m is None else m.mean
            if mean is None:
                message = f"{name}: no scored samples (needs {sign} {limit:g})"
            elif bound == "under" and mean < limit:
                message = f"{name} = {mean:.3f} is below {limit:g} (--fail-under {name}={limit:g})"
            elif bound == "over" and mean > limit:
                message = f"{name} = {mean:.3f} is above {limit:g} (--fail-over {name}={limit:g})"
            else:
                message = ""
            out.append(Check(f"{name}{sign}{limit:g}", not message, message, mean))
    return out


def failures(summary: Summary, fail_under: dict[str, float], fail_over: dict[str, float] | None = None) -> list[str]:
    """One line per failed threshold; empty when the gate passes."""
    return [c.message for c in checks(summary, fail_under, fail_over) if not c.passed]


def junit_xml(gate: list[Check], *, suite: str = "ragkit", unreliable: str | None = None) -> str:
    """A JUnit XML report of the gate: one test case per threshold (and one for the share of failed scores),
    for CI systems that show test results (GitLab, Jenkins, GitHub's test reporters)."""
    import xml.etree.ElementTree as ET

    cases = [(c.name, c.message if not c.passed else "", c.value) for c in gate]
    cases.append(("failed_scores", unreliable or "", None))
    root = ET.Element("testsuites")
    node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)),
                         failures=str(sum(1 for _, msg, _ in cases if msg)), errors="0")
    for name, message, value in cases:
        case = ET.SubElement(node, "testcase", classname=suite, name=name)
        if value is not None:
            ET.SubElement(case, "system-out").text = f"mean = {value:.4f}"
        if message:
            ET.SubElement(case, "failure", message=message, type="threshold").text = message
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
