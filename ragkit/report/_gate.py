"""The CI gate: ``--fail-under metric=value`` (and ``--fail-over`` for lower-is-better metrics)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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


def failures(summary: Summary, fail_under: dict[str, float], fail_over: dict[str, float] | None = None) -> list[str]:
    """One line per failed threshold; empty when the gate passes. A metric with no scored sample fails."""
    lines = []
    for bound, thresholds in (("under", fail_under), ("over", fail_over or {})):
        for name, limit in thresholds.items():
            m = summary.metrics.get(name)
            if m is None or m.mean is None:
                lines.append(f"{name}: no scored samples (needs {'>=' if bound == 'under' else '<='} {limit:g})")
            elif bound == "under" and m.mean < limit:
                lines.append(f"{name} = {m.mean:.3f} is below {limit:g} (--fail-under {name}={limit:g})")
            elif bound == "over" and m.mean > limit:
                lines.append(f"{name} = {m.mean:.3f} is above {limit:g} (--fail-over {name}={limit:g})")
    return lines
