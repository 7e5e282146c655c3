"""Compare two runs: per-metric differences (B − A) on shared samples, with paired bootstrap CIs and a verdict."""

from __future__ import annotations

from pydantic import BaseModel, Field
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragkit.report._html import page
from ragkit.report._markup import esc, fmt
from ragkit.report._stats import SMALL_N, paired_bootstrap, verdict
from ragkit.runs import MetricMeta, RunDir, metric_keys


class MetricDiff(BaseModel):
    metric: str
    n: int
    """Shared samples scored by this metric in both runs."""
    mean_a: float | None = None
    mean_b: float | None = None
    diff: float | None = None
    low: float | None = None
    high: float | None = None
    verdict: str = "not enough data"
    higher_is_better: bool = True


class Comparison(BaseModel):
    run_a: str
    run_b: str
    target_a: str
    target_b: str
    shared: int
    only_a: int
    only_b: int
    matched_by: str
    metrics: list[MetricDiff] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


def _keys(run: RunDir, by: str) -> dict[str, str]:
    """Match key → sample id."""
    return {(s.id if by == "id" else " ".join(s.question.split()).casefold()): s.id for s in run.samples()}


def compare_runs(a: RunDir, b: RunDir, *, seed: int = 0) -> Comparison:
    """Per-metric paired comparison of run B against run A (samples matched by id, else by question)."""
    by = "id"
    ka, kb = _keys(a, "id"), _keys(b, "id")
    if not set(ka) & set(kb):
        by = "question"
        ka, kb = _keys(a, "question"), _keys(b, "question")
    shared = [k for k in ka if k in kb]
    sa, sb = a.scores(), b.scores()
    warnings = []
    if a.spec.model != b.spec.model:
        warnings.append(f"the runs were scored by different judges ({a.spec.model} vs {b.spec.model}): "
                        "differences may come from the judge, not the system")
    if a.spec.corpus_hash and b.spec.corpus_hash and a.spec.corpus_hash != b.spec.corpus_hash:
        warnings.append("the runs used different document sets (corpus hashes differ)")
    if not shared:
        warnings.append("the runs share no sample (by id or question): nothing to compare")
    names = list(dict.fromkeys(metric_keys(a.spec) + metric_keys(b.spec)))
    diffs = []
    for name in names:
        pairs = []
        for k in shared:
            ra, rb = sa.get(ka[k]), sb.get(kb[k])
            va = ra.scores.get(name) if ra else None
            vb = rb.scores.get(name) if rb else None
            if va is not None and vb is not None and va.value is not None and vb.value is not None:
                pairs.append((va.value, vb.value))
        meta = a.spec.metric_meta.get(name) or b.spec.metric_meta.get(name) or MetricMeta()
        if not pairs:
            diffs.append(MetricDiff(metric=name, n=0, higher_is_better=meta.higher_is_better))
            continue
        ci = paired_bootstrap([p[0] for p in pairs], [p[1] for p in pairs], seed=seed)
        diffs.append(MetricDiff(
            metric=name, n=len(pairs), mean_a=sum(p[0] for p in pairs) / len(pairs),
            mean_b=sum(p[1] for p in pairs) / len(pairs), diff=ci.mean if ci else None,
            low=ci.low if ci else None, high=ci.high if ci else None,
            verdict=verdict(ci, higher_is_better=meta.higher_is_better), higher_is_better=meta.higher_is_better,
        ))
    return Comparison(run_a=str(a.path), run_b=str(b.path), target_a=a.spec.target.name, target_b=b.spec.target.name,
                      shared=len(shared), only_a=len(ka) - len(shared), only_b=len(kb) - len(shared), matched_by=by,
                      metrics=diffs, warnings=warnings + _small_n(diffs))


def _ci(d: MetricDiff) -> str:
    return f"{d.low:+.3f} … {d.high:+.3f}" if d.low is not None and d.high is not None else "–"


def _small_n(diffs: list[MetricDiff]) -> list[str]:
    small = [d.n for d in diffs if 1 < d.n < SMALL_N]
    if not small:
        return []
    return [f"only {min(small)} shared samples for some metrics (n < {SMALL_N}): the intervals are wide, and only "
            "a large difference can show as better or worse"]


def print_comparison(c: Comparison, console: Console | None = None) -> None:
    console = console or Console(stderr=True)
    console.print(f"[bold]A[/] {escape(c.run_a)} ({escape(c.target_a)})\n[bold]B[/] {escape(c.run_b)} "
                  f"({escape(c.target_b)})\n{c.shared} shared samples (matched by {c.matched_by}); "
                  f"{c.only_a} only in A, {c.only_b} only in B")
    table = Table(title="B − A per metric (paired bootstrap, 95% CI)", title_justify="left")
    for col in ("metric", "n", "A", "B", "B − A", "95% CI", "verdict for B"):
        table.add_column(col, justify="left" if col in ("metric", "verdict for B") else "right")
    colour = {"better": "green", "worse": "red"}
    for d in c.metrics:
        diff = "–" if d.diff is None else f"{d.diff:+.3f}"
        v = f"[{colour[d.verdict]}]{d.verdict}[/]" if d.verdict in colour else d.verdict
        table.add_row(escape(d.metric), str(d.n), fmt(d.mean_a), fmt(d.mean_b), diff, _ci(d), v)
    console.print(table)
    for w in c.warnings:
        console.print(f"[yellow]warning:[/] {escape(w)}")


def render_comparison(c: Comparison) -> str:
    """The comparison as a self-contained HTML page."""
    rows = []
    for d in c.metrics:
        diff = "–" if d.diff is None else f"{d.diff:+.3f}"
        rows.append(f"<tr><td>{esc(d.metric)}</td><td class=\"num\">{d.n}</td><td class=\"num\">{fmt(d.mean_a)}</td>"
                    f"<td class=\"num\">{fmt(d.mean_b)}</td><td class=\"num\">{diff}</td><td class=\"num\">"
                    f"{esc(_ci(d))}</td><td class=\"verdict-{esc(d.verdict.split()[0])}\">{esc(d.verdict)}</td>"
                    f"<td>{'higher' if d.higher_is_better else 'lower'} is better</td></tr>")
    warn = "".join(f'<p class="err">{esc(w)}</p>' for w in c.warnings)
    body = (f'<header><h1>ragkit comparison</h1><div class="meta">A: {esc(c.run_a)} ({esc(c.target_a)}) · '
            f"B: {esc(c.run_b)} ({esc(c.target_b)})</div></header><main><section><h2>B − A per metric</h2>"
            f"<p>{c.shared} shared samples (matched by {esc(c.matched_by)}); {c.only_a} only in A, {c.only_b} only "
            "in B. Differences are means over shared samples scored in both runs; the interval is a paired "
            f"bootstrap 95% CI.</p>{warn}<table><thead><tr><th>metric</th><th class=\"num\">n</th>"
            '<th class="num">A</th><th class="num">B</th><th class="num">B − A</th><th class="num">95% CI</th>'
            f'<th>verdict for B</th><th></th></tr></thead><tbody>{"".join(rows)}</tbody></table></section></main>')
    return page("ragkit comparison", body)
