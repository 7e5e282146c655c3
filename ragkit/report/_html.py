"""The HTML report: one self-contained file (inline CSS, JS and SVG; no network) for a run or a comparison.

Every piece of document, question and answer text goes through ``esc`` (HTML-escaped, quotes included); the page
carries a Content-Security-Policy that allows only its own script (by hash) and no network access at all, so even
a text that slipped through could not run or fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
from importlib import resources

from ragkit.report._drill import drill, turn_mark
from ragkit.report._markup import esc, fmt, goodness, shade
from ragkit.report._model import Summary
from ragkit.report._summary import quality
from ragkit.runs import MetricMeta, RunDir, ScoreRecord
from ragkit.types import EvalSample, TestSample


def _asset(name: str) -> str:
    return (resources.files("ragkit.report") / "assets" / name).read_text(encoding="utf-8")


def page(title: str, body: str) -> str:
    """A complete HTML document with the inline stylesheet and script and a strict CSP."""
    script = _asset("report.js")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{digest}'; "
           "base-uri 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{esc(title)}</title><style>{_asset('report.css')}</style></head>\n<body>\n{body}\n"
        f"<script>{script}</script>\n</body></html>\n"
    )



def histogram_svg(values: list[float], lo: float, hi: float, mean: float | None, *, bins: int = 10) -> str:
    """Distribution of one metric's scores: ``bins`` bars over [lo, hi] and a line at the mean."""
    w, h, pad = 240, 110, 18
    counts = [0] * bins
    span = (hi - lo) or 1.0
    for v in values:
        counts[min(bins - 1, max(0, int((v - lo) / span * bins)))] += 1
    top = max(counts) or 1
    bw = (w - 2 * pad) / bins
    parts = [f'<svg viewBox="0 0 {w} {h}" role="img" aria-label="distribution, {len(values)} scores">']
    for i, c in enumerate(counts):
        bh = (h - 2 * pad) * c / top
        x, y = pad + i * bw, h - pad - bh
        parts.append(f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bw - 2:.1f}" height="{bh:.1f}" fill="#5b8def">'
                     f'<title>{c} sample(s) in [{lo + i * span / bins:.2f}, {lo + (i + 1) * span / bins:.2f}'
                     f'{"]" if i == bins - 1 else ")"}</title></rect>')
        if c:
            parts.append(f'<text x="{x + bw / 2:.1f}" y="{y - 2:.1f}" text-anchor="middle">{c}</text>')
    parts.append(f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#9aa5b1"/>')
    parts.append(f'<text x="{pad}" y="{h - 4}">{lo:g}</text>'
                 f'<text x="{w - pad}" y="{h - 4}" text-anchor="end">{hi:g}</text>')
    if mean is not None:
        mx = pad + (mean - lo) / span * (w - 2 * pad)
        parts.append(f'<line x1="{mx:.1f}" y1="{pad - 6}" x2="{mx:.1f}" y2="{h - pad}" stroke="#c0392b" '
                     f'stroke-dasharray="3,2"><title>mean {mean:.3f}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def bars_svg(rows: list[tuple[str, float | None, int]], lo: float, hi: float) -> str:
    """Horizontal bars: one per (label, value, n), scaled to [lo, hi]."""
    row_h, label_w, w = 20, 130, 340
    h = row_h * len(rows) + 8
    span = (hi - lo) or 1.0
    parts = [f'<svg viewBox="0 0 {w} {h}" role="img" aria-label="means by group">']
    for i, (label, value, n) in enumerate(rows):
        y = 4 + i * row_h
        short = label if len(label) <= 18 else label[:17] + "…"
        parts.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{esc(short)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{w - label_w - 40}" height="{row_h - 6}" '
                     'fill="#eef1f5"/>')
        if value is not None:
            bw = (w - label_w - 40) * min(1.0, max(0.0, (value - lo) / span))
            parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{bw:.1f}" height="{row_h - 6}" fill="#5b8def">'
                         f'<title>{esc(label)}: {value:.3f} (n={n})</title></rect>')
        parts.append(f'<text x="{w - 34}" y="{y + 13}">{fmt(value)}</text>')
    parts.append("</svg>")
    return "".join(parts)


# -- sections ----------------------------------------------------------------------------------------


def _header(run: RunDir, summary: Summary) -> str:
    c = summary.counts
    badge = "" if summary.complete else '<span class="badge">incomplete</span>'
    spec = run.spec
    return (
        f'<header><h1>ragkit report: {esc(run.path.name)}{badge}</h1><div class="meta">'
        f"target <b>{esc(summary.target)}</b> · judge {esc(spec.model)} · {c.samples} samples "
        f"({c.requested} requested) · {c.target_errors} target errors · {c.eval_errors} with judge errors · "
        f"seed {spec.seed} · corpus {esc(spec.corpus_hash or '–')} · ragkit {esc(spec.ragkit_version)} · "
        f"{esc(spec.created)}</div></header>"
        '<nav><a href="#overview">Scores</a><a href="#advice">What to fix</a><a href="#distributions">'
        'Distributions</a><a href="#breakdown">By generator</a><a href="#timing">Time</a>'
        '<a href="#samples">Samples</a></nav>'
    )


def _overview(summary: Summary) -> str:
    rows = []
    for name, m in summary.metrics.items():
        ci = f"{fmt(m.low)} – {fmt(m.high)}" if m.low is not None else "–"
        rows.append(f"<tr><td>{esc(name)}</td><td class=\"num\">{fmt(m.mean)}</td><td class=\"num\">{ci}</td>"
                    f"<td class=\"num\">{m.scored}</td><td class=\"num\">{m.unscorable or ''}</td>"
                    f"<td class=\"num\">{m.failed or ''}</td><td class=\"num\">{m.skipped or ''}</td>"
                    f"<td>{'higher' if m.higher_is_better else 'lower'} is better</td></tr>")
    return ('<section id="overview"><h2>Scores</h2><table><thead><tr><th>metric</th><th class="num">mean</th>'
            '<th class="num">95% CI</th><th class="num">scored</th><th class="num">unscorable</th>'
            '<th class="num">failed</th><th class="num">skipped</th><th></th></tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table>{_not_scored(summary)}{_calibration(summary)}</section>')


def _not_scored(summary: Summary) -> str:
    """Why some samples have no score, per metric and reason."""
    items = [f'<li class="{r.kind}"><b>{esc(name)}</b>: {r.samples} {r.kind} &mdash; {esc(r.reason)}</li>'
             for name, m in summary.metrics.items() for r in m.not_scored]
    return f'<ul class="not-scored">{"".join(items)}</ul>' if items else ""


def _calibration(summary: Summary) -> str:
    """The metrics calibrated against the user's labels for this judge, with prediction-powered means."""
    if not summary.calibration:
        return ""
    rows = []
    for name, c in summary.calibration.items():
        ci = f"{fmt(c.ppi_low)} – {fmt(c.ppi_high)}" if c.ppi_low is not None else "–"
        rows.append(f"<tr><td>{esc(name)}</td><td class=\"num\">{c.n_labels} {esc(c.labels)}</td>"
                    f"<td class=\"num\">{fmt(c.auc)}</td><td class=\"num\">{fmt(c.threshold)}</td>"
                    f"<td class=\"num\">{fmt(c.kappa)}</td><td class=\"num\">{fmt(c.ppi_mean)}</td>"
                    f"<td class=\"num\">{ci}</td><td class=\"muted\">{esc(c.calibrated)}</td></tr>")
    return ('<h3>Calibrated against your labels</h3><p class="muted">From <code>ragkit calibrate</code> with this '
            "judge. PPI: the mean your labels would give over this run, estimated from the judge's scores "
            "corrected by its error on your labelled samples (prediction-powered inference).</p><table><thead>"
            '<tr><th>metric</th><th class="num">labels</th><th class="num">ROC-AUC</th><th class="num">threshold'
            '</th><th class="num">kappa</th><th class="num">PPI mean</th><th class="num">PPI 95% CI</th><th>'
            f'</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _advice(summary: Summary) -> str:
    if not summary.advice:
        return ('<section id="advice"><h2>What to fix</h2><p class="muted">No score is past a warning '
                "threshold.</p></section>")
    items = []
    for a in summary.advice:
        a = a if isinstance(a, dict) else a.model_dump()
        items.append(f'<li><span class="sev sev-{esc(a["severity"])}"></span><b>{esc(a["title"])}</b> '
                     f'<span class="evidence">({esc(a["evidence"])})</span><br>{esc(a["detail"])}</li>')
    return f'<section id="advice"><h2>What to fix</h2><ul class="advice">{"".join(items)}</ul></section>'


def _distributions(summary: Summary, records: list[ScoreRecord], meta: dict[str, MetricMeta]) -> str:
    cards = []
    for name, m in summary.metrics.items():
        values = [r.scores[name].value for r in records if name in r.scores and r.scores[name].value is not None]
        lo, hi = meta.get(name, MetricMeta()).range
        cards.append(f'<div class="card"><h3>{esc(name)}</h3>'
                     f'{histogram_svg(values, lo, hi, m.mean)}</div>')  # type: ignore[arg-type]
    return ('<section id="distributions"><h2>Score distributions</h2>'
            f'<div class="cards">{"".join(cards)}</div></section>')


def _breakdown(summary: Summary, meta: dict[str, MetricMeta]) -> str:
    out = ['<section id="breakdown"><h2>By generator</h2>']
    rows = summary.breakdowns.get("generator", [])
    if len(rows) < 2:
        out.append('<p class="muted">All samples come from one generator.</p>')
    else:
        cards = []
        for name in summary.metrics:
            lo, hi = meta.get(name, MetricMeta()).range
            data = [(r.group, r.means.get(name), r.n) for r in rows]
            cards.append(f'<div class="card"><h3>{esc(name)}</h3>{bars_svg(data, lo, hi)}</div>')
        out.append(f'<div class="cards">{"".join(cards)}</div>')
    for key in ("persona", "style"):
        groups = summary.breakdowns.get(key, [])
        if len(groups) > 1:
            head = "".join(f'<th class="num">{esc(n)}</th>' for n in summary.metrics)
            body = "".join(f"<tr><td>{esc(g.group)}</td><td class=\"num\">{g.n}</td>" +
                           "".join(f'<td class="num">{fmt(g.means.get(n))}</td>' for n in summary.metrics) +
                           "</tr>" for g in groups)
            out.append(f'<h3>By {key}</h3><div class="scroll"><table><thead><tr><th>{key}</th><th class="num">n'
                       f"</th>{head}</tr></thead><tbody>{body}</tbody></table></div>")
    out.append("</section>")
    return "".join(out)


def _timing(summary: Summary) -> str:
    rows = "".join(
        f"<tr><td>{esc(k)}</td><td class=\"num\">{s.seconds:.1f}</td><td class=\"num\">{s.usage.calls}</td>"
        f"<td class=\"num\">{s.usage.cache_hits}</td><td class=\"num\">{esc(s.usage.tokens_text())}</td>"
        f"<td class=\"num\">{s.sessions}</td></tr>"
        for k, s in summary.stages.items())
    per = fmt(summary.llm_calls_per_sample, 1)
    generate = summary.stages.get("generate")
    drops = f" Generation {esc(generate.drops_text())}." if generate and generate.dropped else ""
    return ('<section id="timing"><h2>Time and LLM calls</h2><table><thead><tr><th>stage</th>'
            '<th class="num">seconds</th><th class="num">LLM calls</th><th class="num">cache hits</th>'
            '<th class="num">tokens in/out</th><th class="num">sessions</th></tr></thead>'
            f'<tbody>{rows}</tbody></table><p class="muted">Total {summary.wall_seconds:.1f} s, '
            f"{summary.llm_calls} LLM calls; {per} calls per sample for generation, target and evaluation.{drops}"
            "</p></section>")


def _table(samples: list[TestSample], responses: dict[str, EvalSample], scores: dict[str, ScoreRecord],
           names: list[str], meta: dict[str, MetricMeta]) -> str:
    head = ("<tr><th>#</th><th>sample</th><th>generator</th><th>question</th><th class=\"num\">score</th>" +
            "".join(f'<th class="num">{esc(n)}</th>' for n in names) + '<th class="num">latency s</th></tr>')
    rows = []
    for i, s in enumerate(samples):
        resp = responses.get(s.id)
        rec = scores.get(s.id)
        q = quality(rec.scores, meta) if rec else None
        error = (resp.response.error if resp else None) or (rec.error if rec else None)
        cells = [f'<td class="num" data-v="{i}">{i + 1}</td>',
                 f'<td><a href="#s-{i}">{esc(s.id)}</a></td>',
                 f"<td>{esc(s.generator.name if s.generator else '')}</td>",
                 f'<td class="q">{turn_mark(s)}{esc(s.question)}' + (' <span class="err">error</span>' if error
                                                                        else "") +
                 "</td>",
                 f'<td class="num" data-v="{"" if q is None else f"{q:.4f}"}"{shade(q)}>{fmt(q)}</td>']
        for n in names:
            sc = rec.scores.get(n) if rec else None
            v = sc.value if sc else None
            cells.append(f'<td class="num" data-v="{"" if v is None else f"{v:.4f}"}"'
                         f'{shade(goodness(v, meta.get(n, MetricMeta())))}>{fmt(v)}</td>')
        lat = resp.response.latency_s if resp else None
        cells.append(f'<td class="num" data-v="{"" if lat is None else f"{lat:.3f}"}">{fmt(lat, 1)}</td>')
        rows.append(f'<tr data-drill="s-{i}">{"".join(cells)}</tr>')
    return ('<section id="samples"><h2>Samples</h2><div class="tools"><input id="filter" type="search" '
            'placeholder="Filter by text, id, generator…" aria-label="filter samples"><span id="shown" '
            'class="muted"></span><span class="muted">Click a column to sort, a row to open it.</span></div>'
            f'<div class="scroll"><table id="sample-table"><thead>{head}</thead><tbody>{"".join(rows)}</tbody>'
            "</table></div></section>")



def render_report(run: RunDir, summary: Summary) -> str:
    """The whole report page of a run."""
    samples = run.samples()
    responses = run.responses()
    scores = run.scores()
    meta = run.spec.metric_meta
    names = list(summary.metrics)
    records = [scores[s.id] for s in samples if s.id in scores]
    drills = "".join(drill(i, len(samples), s, responses.get(s.id), scores.get(s.id), names)
                     for i, s in enumerate(samples))
    body = (_header(run, summary) + "<main>" + _overview(summary) + _advice(summary) +
            _distributions(summary, records, meta) + _breakdown(summary, meta) + _timing(summary) +
            _table(samples, responses, scores, names, meta) + drills + "</main>")
    return page(f"ragkit report: {run.path.name}", body)
