"""Plain advice from the pattern of scores: what to fix first in the RAG system under test.

Each rule reads one or two aggregates (by whichever of its candidate metric names the run has) and fires past a
threshold. Thresholds are round numbers meant as "clearly weak", not tuned to any corpus. A rule whose whole 95%
interval lies past its threshold is stated firmly; one whose mean alone does is marked "likely".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

if TYPE_CHECKING:
    from ragkit.report._model import MetricSummary, Summary
    from ragkit.runs import ScoreRecord
    from ragkit.types import TestSample

Severity = Literal["high", "medium", "low"]


class Advice(BaseModel):
    """One finding: what the scores show, and what to change."""

    key: str
    severity: Severity
    title: str
    detail: str
    evidence: str


@dataclass(frozen=True)
class Rule:
    key: str
    metrics: tuple[str, ...]
    """Candidate metric names, first present wins."""
    threshold: float
    bad_when: Literal["below", "above"]
    title: str
    detail: str


RULES: tuple[Rule, ...] = (
    Rule("retrieval_recall", ("claim_recall", "context_recall", "recall_at_k", "hit_rate"), 0.7, "below",
         "Retrieve more or better chunks",
         "The retrieved contexts miss facts that the reference answer needs. Raise top-k, improve chunking (keep "
         "headings and tables with their text), try hybrid (keyword + embedding) retrieval or query rewriting."),
    Rule("retrieval_precision", ("context_precision", "ragchecker_context_precision", "precision_at_k"), 0.5,
         "below", "Retrieve fewer or better-ranked chunks",
         "Many retrieved chunks are irrelevant or ranked above the relevant ones. Add a reranker, lower top-k, or "
         "filter by metadata before ranking."),
    Rule("noise", ("noise_sensitivity", "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant"), 0.3,
         "above", "Make the generator ignore irrelevant text",
         "Answers pick up wrong claims from retrieved passages that do not answer the question. Tell the generator "
         "to use only passages that address the question, and retrieve less noise."),
    Rule("hallucination", ("hallucination",), 0.2, "above", "Constrain the generator to the contexts",
         "Answers contain claims found in no retrieved context. Instruct the generator to answer only from the "
         "contexts and to say when they do not contain the answer; lower its temperature."),
    Rule("faithfulness", ("faithfulness",), 0.7, "below", "Constrain the generator to the contexts",
         "Part of each answer is not supported by the retrieved contexts. Instruct the generator to answer only "
         "from them, cite them, and lower its temperature."),
    Rule("utilization", ("context_utilization",), 0.5, "below", "Make the generator use what it retrieved",
         "Relevant facts are in the contexts but missing from the answers. Put the most relevant chunks first, ask "
         "for complete answers, and check that contexts are not truncated by the prompt budget."),
    Rule("relevancy", ("answer_relevancy",), 0.7, "below", "Answer the question that was asked",
         "Answers drift off the question or are noncommittal. Restate the question in the generation prompt and "
         "ask for a direct answer first."),
    Rule("correctness", ("factual_correctness", "answer_correctness", "f1"), 0.5, "below",
         "Answers are often wrong",
         "Answers disagree with the reference answers. Look at the worst samples: if their contexts lack the fact, "
         "fix retrieval first; if the contexts have it, fix the generation prompt or model."),
)

REFUSAL_METRICS = ("refusal", "answer_correctness", "factual_correctness", "semantic_similarity")


def _pick(summary: Summary, names: Sequence[str]) -> tuple[str, MetricSummary] | None:
    for name in names:
        m = summary.metrics.get(name)
        if m is not None and m.mean is not None:
            return name, m
    return None


def _fires(m: MetricSummary, rule: Rule) -> tuple[bool, bool]:
    """(mean past threshold, whole interval past threshold)."""
    assert m.mean is not None
    if rule.bad_when == "below":
        return m.mean < rule.threshold, m.high is not None and m.high < rule.threshold
    return m.mean > rule.threshold, m.low is not None and m.low > rule.threshold


def _severity(m: MetricSummary, rule: Rule) -> Severity:
    gap = abs((m.mean or 0.0) - rule.threshold)
    return "high" if gap >= 0.25 else "medium" if gap >= 0.1 else "low"


def advise(summary: Summary, samples: list[TestSample], scores: dict[str, ScoreRecord]) -> list[Advice]:
    """Findings, most severe first."""
    out: list[Advice] = []
    c = summary.counts
    if c.target_errors:
        out.append(Advice(key="target_errors", severity="high" if c.target_errors * 5 >= c.responses else "medium",
                          title="Fix target failures first",
                          detail="Some questions got no answer from the target (errors or timeouts); their "
                                 "scores are missing or low. See the samples marked as errors.",
                          evidence=f"{c.target_errors} of {c.responses} target calls failed"))
    seen_titles: set[str] = set()
    for rule in RULES:
        picked = _pick(summary, rule.metrics)
        if picked is None or rule.title in seen_titles:
            continue
        name, m = picked
        mean_bad, sure = _fires(m, rule)
        if not mean_bad:
            continue
        seen_titles.add(rule.title)
        word = "below" if rule.bad_when == "below" else "above"
        ci = f" (95% CI {m.low:.2f}-{m.high:.2f})" if m.low is not None and m.high is not None else ""
        hedge = "" if sure else "Likely: "
        out.append(Advice(key=rule.key, severity=_severity(m, rule), title=hedge + rule.title, detail=rule.detail,
                          evidence=f"{name} = {m.mean:.2f}{ci}, {word} {rule.threshold:.2f}"))
    refusal = _refusal_advice(samples, scores)
    if refusal is not None:
        out.append(refusal)
    order = {"high": 0, "medium": 1, "low": 2}
    return sorted(out, key=lambda a: order[a.severity])


def _refusal_advice(samples: list[TestSample], scores: dict[str, ScoreRecord]) -> Advice | None:
    """Poor scores on ``unanswerable`` samples mean the system answers what the documents do not say."""
    ids = [s.id for s in samples if s.generator and s.generator.name == "unanswerable" and s.id in scores]
    if not ids:
        return None
    for name in REFUSAL_METRICS:
        vals = [v for i in ids if (sc := scores[i].scores.get(name)) is not None and (v := sc.value) is not None]
        if vals:
            mean = sum(vals) / len(vals)
            if mean >= 0.5:
                return None
            return Advice(key="refusal", severity="high" if mean < 0.25 else "medium",
                          title="Teach the system to refuse",
                          detail="On questions the documents cannot answer, the system answers anyway instead of "
                                 "saying it does not know. Tell the generator to refuse when the contexts lack the "
                                 "answer, and consider a retrieval-score cut-off.",
                          evidence=f"{name} = {mean:.2f} on {len(vals)} unanswerable question(s)")
    return None
