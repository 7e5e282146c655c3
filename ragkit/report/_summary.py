"""A run's summary: aggregates with bootstrap CIs, breakdowns, slowest / worst samples, timing, advice.

Computed from the run directory alone (spec.json, the JSONL files, log.jsonl), so a resumed, partial or copied
run summarises the same way; written to summary.json and printed by ``summary_view``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from ragkit.calibration import load_calibration
from ragkit.report._advice import advise
from ragkit.report._model import (
    BREAKDOWNS,
    STAGES,
    CalibratedMetric,
    Counts,
    GroupRow,
    MetricSummary,
    NotScored,
    SampleBrief,
    StageTime,
    Summary,
)
from ragkit.report._stats import bootstrap_ci
from ragkit.runs import MetricMeta, RunDir, ScoreRecord, metric_keys
from ragkit.types import EvalSample, TestSample


def is_failure(score: Any) -> bool:
    """A None score caused by an error (judge, metric or target), not by the metric not applying."""
    return score.value is None and "error" in (score.details or {})


def quality(scores: dict[str, Any], meta: dict[str, MetricMeta]) -> float | None:
    """Mean of a sample's scores scaled to 0..1 with 1 = best (direction from the metric's meta)."""
    vals = []
    for name, score in scores.items():
        if score.value is None:
            continue
        m = meta.get(name, MetricMeta())
        lo, hi = m.range
        v = (score.value - lo) / (hi - lo) if hi > lo else score.value
        vals.append(v if m.higher_is_better else 1 - v)
    return sum(vals) / len(vals) if vals else None


def group_of(sample: TestSample, key: str) -> str:
    if key == "generator":
        return sample.generator.name if sample.generator else "(none)"
    value = getattr(sample, key, None)
    return str(value) if value else "(none)"


def metric_names(run: RunDir, scores: dict[str, ScoreRecord]) -> list[str]:
    """Metric names in spec order, then any others seen in scores.jsonl."""
    names = metric_keys(run.spec)
    for rec in scores.values():
        names += [n for n in rec.scores if n not in names]
    return list(dict.fromkeys(names))


def _values(name: str, records: list[ScoreRecord]) -> list[float]:
    """The scores of one metric over the records that have one."""
    return [v for r in records if name in r.scores and (v := r.scores[name].value) is not None]


def _aggregate(names: list[str], records: list[ScoreRecord], meta: dict[str, MetricMeta]) -> dict[str, MetricSummary]:
    out = {}
    for name in names:
        values = _values(name, records)
        nones = [r.scores[name] for r in records if name in r.scores and r.scores[name].value is None]
        failed = sum(1 for sc in nones if is_failure(sc))
        skipped = [r.error for r in records if r.error and name not in r.scores]
        ci = bootstrap_ci(values)
        hib = meta.get(name, MetricMeta()).higher_is_better
        out[name] = MetricSummary(mean=ci.mean if ci else None, low=ci.low if ci else None,
                                  high=ci.high if ci else None, scored=len(values), unscorable=len(nones) - failed,
                                  failed=failed, skipped=len(skipped), higher_is_better=hib,
                                  not_scored=_reasons(nones, skipped))
    return out


def _reasons(nones: list[Any], skipped: list[str], per_kind: int = 3) -> list[NotScored]:
    """The distinct reasons behind missing scores (the first line of each), counted per kind."""
    counts: Counter[tuple[str, str]] = Counter()
    found = [("failed" if is_failure(sc) else "unscorable", str(sc.explanation or sc.details.get("error") or ""))
             for sc in nones] + [("skipped", error) for error in skipped]
    for kind, text in found:
        line = " ".join(text.strip().splitlines()[0].split()) if text.strip() else "no reason given"
        counts[(kind, line[:200])] += 1
    out: list[NotScored] = []
    for kind in ("failed", "unscorable", "skipped"):
        ranked = sorted(((n, r) for (k, r), n in counts.items() if k == kind), key=lambda x: (-x[0], x[1]))
        out += [NotScored(kind=kind, reason=r, samples=n) for n, r in ranked[:per_kind]]  # type: ignore[arg-type]
    return out


def _breakdowns(
    samples: list[TestSample], scores: dict[str, ScoreRecord], names: list[str]
) -> dict[str, list[GroupRow]]:
    out: dict[str, list[GroupRow]] = {}
    for key in BREAKDOWNS:
        groups: dict[str, list[TestSample]] = defaultdict(list)
        for s in samples:
            groups[group_of(s, key)].append(s)
        if len(groups) < 2 and "(none)" in groups:
            continue
        rows = []
        for group, members in sorted(groups.items()):
            recs = [scores[s.id] for s in members if s.id in scores]
            means: dict[str, float | None] = {}
            for name in names:
                vals = [r.scores[name].value for r in recs if name in r.scores and r.scores[name].value is not None]
                means[name] = sum(vals) / len(vals) if vals else None  # type: ignore[arg-type]
            rows.append(GroupRow(group=group, n=len(members), means=means))
        out[key] = rows
    return out


def _stage_times(run: RunDir) -> dict[str, StageTime]:
    out: dict[str, StageTime] = {}
    for rec in run.stages():
        st = out.setdefault(rec.stage, StageTime())
        st.seconds += rec.seconds
        st.sessions += 1
        st.items += rec.items
        st.usage.add(rec.usage)
        for reason, n in rec.dropped.items():
            st.dropped[reason] = st.dropped.get(reason, 0) + n
    return {k: out[k] for k in STAGES if k in out}


def _briefs(samples: list[TestSample], responses: dict[str, EvalSample], scores: dict[str, ScoreRecord],
            meta: dict[str, MetricMeta], top: int) -> tuple[list[SampleBrief], list[SampleBrief]]:
    briefs = []
    for s in samples:
        resp = responses.get(s.id)
        rec = scores.get(s.id)
        error = (resp.response.error if resp else None) or (rec.error if rec else None)
        briefs.append(SampleBrief(
            id=s.id, question=s.question, generator=s.generator.name if s.generator else None,
            latency_s=resp.response.latency_s if resp else None,
            quality=quality(rec.scores, meta) if rec else None, error=error,
        ))
    slowest = sorted((b for b in briefs if b.latency_s is not None), key=lambda b: -(b.latency_s or 0))[:top]
    worst = sorted((b for b in briefs if b.quality is not None), key=lambda b: b.quality or 0)[:top]
    return slowest, worst


def summarize(run: RunDir, *, top: int = 5, complete: bool | None = None) -> Summary:
    """Summarise a run directory (partial runs too: ``complete`` says whether every stage finished)."""

    samples = run.samples()
    responses = run.responses()
    scores = run.scores()
    meta = run.spec.metric_meta
    names = metric_names(run, scores)
    records = [scores[s.id] for s in samples if s.id in scores]
    counts = Counts(
        requested=run.spec.n, samples=len(samples), responses=len(responses),
        target_errors=sum(1 for r in responses.values() if r.response.error),
        scored=sum(1 for r in records if not r.error),
        eval_errors=sum(1 for r in records if not r.error and any(is_failure(sc) for sc in r.scores.values())),
        unscorable=sum(1 for r in records for sc in r.scores.values() if sc.value is None and not is_failure(sc)),
    )
    stages = _stage_times(run)
    slowest, worst = _briefs(samples, responses, scores, meta, top)
    per_sample_calls = sum(stages[k].usage.calls for k in ("generate", "target", "evaluate") if k in stages)
    summary = Summary(
        run=str(run.path), target=run.spec.target.name, model=run.spec.model,
        complete=complete if complete is not None else (bool(samples) and run.finished("evaluate")),
        counts=counts, metrics=_aggregate(names, records, meta),
        breakdowns=_breakdowns(samples, scores, names), slowest=slowest, worst=worst, stages=stages,
        wall_seconds=sum(s.seconds for s in stages.values()),
        llm_calls=sum(s.usage.calls for s in stages.values()),
        llm_calls_per_sample=per_sample_calls / len(samples) if samples else None,
    )
    summary.advice = [a.model_dump() for a in advise(summary, samples, scores)]
    summary.calibration = _calibrated(run.spec.model, records)
    return summary


def _calibrated(judge: str, records: list[ScoreRecord]) -> dict[str, CalibratedMetric]:
    """The saved calibration of ``judge`` for the metrics of this run, with PPI means over its scores."""
    found = load_calibration(judge)
    if found is None:
        return {}
    out = {}
    for name, cal in found.metrics.items():
        values = _values(name, records)
        if not values:
            continue
        ppi = cal.ppi(values)
        out[name] = CalibratedMetric(
            labels=cal.kind, n_labels=cal.n, auc=cal.auc, kappa=cal.kappa, threshold=cal.threshold,
            spearman=cal.spearman, ppi_mean=ppi.mean if ppi else None, ppi_low=ppi.low if ppi else None,
            ppi_high=ppi.high if ppi else None, calibrated=f"{found.created} from {found.labels_file}")
    return out
