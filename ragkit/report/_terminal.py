"""The terminal summary of a run (rich tables on stderr): aggregates with CIs, breakdowns, samples, time, advice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragkit.calibration import Calibration
from ragkit.errors import redact
from ragkit.report._model import GroupRow, Summary
from ragkit.report._stats import SMALL_N
from ragkit.text import printable

MAX_BREAKDOWN_METRICS = 6


def safe(text: str) -> str:
    """Document- or model-derived text for a rich console: no control sequences, no markup."""
    return escape(printable(redact(text)))


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _short(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return safe(text if len(text) <= width else text[: width - 1] + "…")


def metrics_table(summary: Summary) -> Table:
    """Each metric's mean and interval, its name whole (four metrics start with "context_"); the unscorable,
    failed and skipped columns only when some metric has such samples."""
    table = Table(title="Scores (mean, 95% BCa bootstrap CI, n scored)", title_justify="left")
    counts = {col: [getattr(m, col) for m in summary.metrics.values()] for col in ("unscorable", "failed", "skipped")}
    shown = [col for col, values in counts.items() if any(values)]
    table.add_column("metric", no_wrap=True)
    for col in ("mean", "95% CI", "scored", *shown):
        table.add_column(col, justify="right")
    table.add_column("better", justify="center")
    for name, m in summary.metrics.items():
        ci = f"{fmt(m.low)}-{fmt(m.high)}" if m.low is not None else "-"
        extra = [str(v) if (v := getattr(m, col)) else "" for col in shown]
        table.add_row(safe(name), fmt(m.mean), ci, str(m.scored), *extra, "↑" if m.higher_is_better else "↓")
    small = [m.scored for m in summary.metrics.values() if 1 < m.scored < SMALL_N]
    if small:
        table.caption = (f"n < {SMALL_N} (as few as {min(small)}): the intervals are wide; a difference smaller "
                         "than them is noise")
        table.caption_justify = "left"
    return table


def breakdown_table(key: str, rows: list[GroupRow], names: list[str], width: int = 80) -> Table:
    """Mean per group for as many metrics as fit in ``width`` columns (at most ``MAX_BREAKDOWN_METRICS``), each
    header wrapped at its underscores rather than cut."""
    group_width = min(24, max(len(key), *(len(r.group) for r in rows)))
    used = 1 + (group_width + 3) + (len(str(max(r.n for r in rows))) + 3)  # a column: its text, padding, border
    shown: dict[str, int] = {}
    for name in names[:MAX_BREAKDOWN_METRICS]:
        need = max(4, *(len(w) for w in name.split("_")))  # the longest word: the header wraps at underscores
        if used + need + 3 > width:
            break
        shown[name] = need
        used += need + 3
    more = f" (first {len(shown)} of {len(names)} metrics)" if len(names) > len(shown) else ""
    table = Table(title=f"By {key}{more}", title_justify="left")
    table.add_column(key, width=group_width)
    table.add_column("n", justify="right")
    for name, need in shown.items():
        table.add_column(safe(name.replace("_", " ")), justify="right", width=need)
    for row in rows:
        table.add_row(safe(row.group), str(row.n), *(fmt(row.means.get(n)) for n in shown))
    return table


def samples_tables(summary: Summary) -> list[Table]:
    out = []
    if summary.worst:
        t = Table(title="Worst samples (mean score, 1 = best)", title_justify="left")
        for col in ("sample", "score", "generator", "question"):
            t.add_column(col, justify="right" if col == "score" else "left")
        for b in summary.worst:
            t.add_row(safe(b.id), fmt(b.quality), safe(b.generator or ""), _short(b.question))
        out.append(t)
    if summary.slowest:
        t = Table(title="Slowest answers", title_justify="left")
        for col in ("sample", "seconds", "question"):
            t.add_column(col, justify="right" if col == "seconds" else "left")
        for b in summary.slowest:
            t.add_row(safe(b.id), fmt(b.latency_s, 1), _short(b.question))
        out.append(t)
    return out


def stages_table(summary: Summary) -> Table:
    t = Table(title="Time and LLM calls by stage", title_justify="left")
    for col in ("stage", "seconds", "LLM calls", "cache hits", "tokens in/out", "failures"):
        t.add_column(col, justify="left" if col == "stage" else "right")
    for name, st in summary.stages.items():
        u = st.usage
        t.add_row(name, fmt(st.seconds, 1), str(u.calls), str(u.cache_hits),
                  u.tokens_text(), str(u.failures) if u.failures else "")
    per = f"{summary.llm_calls_per_sample:.1f}" if summary.llm_calls_per_sample is not None else "-"
    t.caption = f"total {summary.wall_seconds:.1f}s, {summary.llm_calls} LLM calls; {per} per sample " \
                "(generation + target + evaluation)"
    generate = summary.stages.get("generate")
    if generate and generate.dropped:
        t.caption += f"\ngeneration {generate.drops_text()}"
    return t


def calibration_table(summary: Summary) -> Table:
    """The metrics calibrated against the user's labels for this judge, with prediction-powered means."""
    t = Table(title="Calibrated against your labels (ragkit calibrate)", title_justify="left")
    for col in ("metric", "labels", "ROC-AUC", "threshold", "kappa", "PPI mean", "PPI 95% CI"):
        t.add_column(col, justify="left" if col == "metric" else "right")
    for name, c in summary.calibration.items():
        ci = f"{fmt(c.ppi_low)}-{fmt(c.ppi_high)}" if c.ppi_low is not None else "-"
        t.add_row(safe(name), f"{c.n_labels} {c.labels}", fmt(c.auc), fmt(c.threshold), fmt(c.kappa),
                  fmt(c.ppi_mean), ci)
    t.caption = ("PPI: the mean your labels would give over this run, estimated from the judge's scores corrected "
                 "by its error on your labelled samples")
    t.caption_justify = "left"
    return t


def print_calibration(calibration: Calibration, saved: Path | None, console: Console | None = None) -> None:
    """What ``ragkit calibrate`` found: agreement per metric, the threshold to use, and where it was saved."""
    console = console or Console(stderr=True)
    table = Table(title=f"Agreement with your labels · judge {safe(calibration.judge)}", title_justify="left")
    for col in ("metric", "labels", "n", "ROC-AUC", "best threshold", "kappa", "Spearman"):
        table.add_column(col, justify="left" if col in ("metric", "labels") else "right")
    for key, m in calibration.metrics.items():
        table.add_row(safe(key), m.kind, str(m.n), fmt(m.auc), fmt(m.threshold, 3), fmt(m.kappa), fmt(m.spearman))
    console.print(table)
    for key, m in calibration.metrics.items():
        if m.threshold is not None and m.kappa is not None:
            console.print(f"{safe(key)}: count a score ≥ {m.threshold:.3f} as good (Cohen's kappa {m.kappa:.2f} "
                          f"with your labels)", highlight=False)
        if m.auc is not None and m.auc < 0.7:
            console.print(f"[yellow]warning:[/] {safe(key)} ranks your good and bad samples little better than "
                          f"chance (ROC-AUC {m.auc:.2f}): do not trust its scores with this judge", highlight=False)
    if saved is not None:
        console.print(f"Saved to {safe(str(saved))}: later runs judged by {safe(calibration.judge)} show it in "
                      "their report, with prediction-powered means.", highlight=False)


def print_summary(summary: Summary, console: Console | None = None, *, gate: list[str] | None = None) -> None:
    """Print the whole terminal summary."""
    console = console or Console(stderr=True)
    c = summary.counts
    state = "" if summary.complete else " [yellow](incomplete: resume it with --resume)[/]"
    console.print(f"[bold]Run[/] {safe(summary.run)}{state}")
    console.print(f"target {safe(summary.target)} · judge {safe(summary.model)} · "
                  f"{c.samples} samples ({c.requested} requested) · {c.responses} answered, "
                  f"{c.target_errors} target errors · {c.scored} scored, {c.eval_errors} with judge errors")
    if summary.metrics:
        console.print(metrics_table(summary))
        print_not_scored(summary, console)
    names = list(summary.metrics)
    for key, rows in summary.breakdowns.items():
        if len(rows) > 1:
            console.print(breakdown_table(key, rows, names, console.width))
    for table in samples_tables(summary):
        console.print(table)
    if summary.stages:
        console.print(stages_table(summary))
    if summary.calibration:
        console.print(calibration_table(summary))
    print_advice(summary.advice, console)
    if gate:
        for line in gate:
            console.print(f"[red]FAIL[/] {safe(line)}")


def print_not_scored(summary: Summary, console: Console) -> None:
    """Why a metric has failed or unscorable samples: each reason with its count, under the scores table."""
    for name, m in summary.metrics.items():
        for r in m.not_scored:
            colour = {"failed": "red", "unscorable": "yellow"}.get(r.kind, "dim")
            console.print(f"  [{colour}]{safe(name)}: {r.samples} {r.kind}[/] - {_short(r.reason, 110)}")


def print_advice(advice: list[Any], console: Console) -> None:
    if not advice:
        return
    console.print("[bold]What to fix[/]")
    colour = {"high": "red", "medium": "yellow", "low": "cyan"}
    for a in advice:
        item = a if isinstance(a, dict) else a.model_dump()
        console.print(f" [{colour.get(item['severity'], 'white')}]●[/] [bold]{safe(item['title'])}[/] "
                      f"({safe(item['evidence'])}). {safe(item['detail'])}")
