"""Summary, terminal view and HTML report of a (synthetic) run directory."""

from __future__ import annotations

import base64
import hashlib
import io
import re
from html import escape
from pathlib import Path

import pytest
from rich.console import Console
from run_fixtures import PAYLOAD, make_run

from ragkit.report._html import bars_svg, histogram_svg, render_report
from ragkit.report._summary import summarize
from ragkit.report._terminal import print_summary


@pytest.fixture
def run(tmp_path: Path):
    return make_run(tmp_path / "run", n=12)


def test_summary_numbers(run) -> None:
    s = summarize(run)
    assert s.complete is True  # samples exist and the evaluate stage finished
    assert s.counts.samples == 12 and s.counts.target_errors == 1 and s.counts.scored == 11
    scored = [r for r in run.scores().values() if not r.error]
    faith = [r.scores["faithfulness"].value for r in scored]
    m = s.metrics["faithfulness"]
    assert m.mean == pytest.approx(sum(faith) / len(faith)) and m.scored == 11
    assert m.low is not None and m.low < m.mean < m.high
    assert s.metrics["context_recall"].unscorable == 1 and s.metrics["context_recall"].scored == 10
    assert s.metrics["hallucination"].higher_is_better is False
    gens = {g.group: g.n for g in s.breakdowns["generator"]}
    assert gens == {"single_hop": 4, "multi_hop": 4, "unanswerable": 4}
    assert s.slowest[0].id == "q-011" and s.slowest[0].latency_s == pytest.approx(1.6)
    assert s.worst[0].quality is not None and s.worst[0].quality <= s.worst[-1].quality
    assert s.wall_seconds == pytest.approx(91.0) and s.llm_calls == 120
    assert s.llm_calls_per_sample == pytest.approx(10.0)  # (36 + 12 + 72) / 12


def test_terminal_summary_prints_everything(run) -> None:
    buf = io.StringIO()
    print_summary(summarize(run), Console(file=buf, width=160, color_system=None))
    out = buf.getvalue()
    for needle in ("faithfulness", "95% CI", "By generator", "unanswerable", "Worst samples", "Slowest answers",
                   "evaluate", "per sample", "What to fix"):
        assert needle in out, needle


def test_report_is_self_contained_and_escaped(run) -> None:
    html = render_report(run, summarize(run))
    # everything inline: no external resource of any kind
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html
    # the payload appears only escaped: no tag from it reaches the DOM
    assert PAYLOAD not in html and "<img" not in html
    assert html.count("<script") == 1 and "<script>document" not in html
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in html
    # CSP allows exactly the page's own script
    script = html.split("<script>")[1].split("</script>")[0]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in html and "default-src 'none'" in html
    # table, drill-downs, charts, advice, Chinese text
    assert html.count('<tr data-drill="s-') == 12 and html.count('<section class="drill" id="s-') == 12
    assert html.count("<svg") == 3 + 3  # 3 histograms + 3 per-generator bar charts
    assert "龙井茶产自杭州西湖" in html and "What to fix" in html


def test_drill_down_shows_claims_and_unsupported(run) -> None:
    html = render_report(run, summarize(run))
    drill = html.split('id="s-0"')[1].split('<section class="drill"')[0]
    assert "Reference answer 0." in drill and "Answer 0: the plant builds" in drill
    assert "Retrieved contexts (2)" in drill and "in reference" in drill and "plant-porto.html" in drill
    rows = run.scores()["q-000"].scores["faithfulness"].details["claims"]["claims"]
    for row in rows:
        if row["supported_by"]:
            ranks = ", ".join(f"#{j + 1}" for j in row["supported_by"])
            assert f"{escape(row['text'])} <span class=\"tag ok\">supported by {ranks}</span>" in drill
        else:
            assert f'<li class="unsupported">{escape(row["text"])} ' in drill
    ref = run.scores()["q-000"].scores["context_recall"].details["claims"]["claims"][0]
    assert escape(ref["text"]) in drill and f"answer: {ref['verdicts'][-1]['label']}" in drill
    error_drill = html.split('id="s-5"')[1].split('<section class="drill"')[0]
    assert "target error: HTTP 503" in error_drill


def test_svg_helpers() -> None:
    svg = histogram_svg([0.0, 0.05, 0.5, 1.0, 1.0], 0.0, 1.0, 0.51)
    assert svg.count("<rect") == 10 and "mean 0.510" in svg
    assert ">2<" in svg  # two scores in the last bin (1.0 is included in it)
    bars = bars_svg([("<b>x</b>", 0.5, 3), ("y", None, 0)], 0.0, 1.0)
    assert "&lt;b&gt;" in bars and "<b>" not in bars


def test_claim_view_merges_metrics() -> None:
    from ragkit.evaluation._claim_view import claim_view
    from ragkit.types import Score

    ctx = [{"kind": "context", "index": 0, "chunk_id": "a"}, {"kind": "context", "index": 1, "chunk_id": "b"}]
    faith = {"passages": ctx, "claims": [
        {"text": "A1", "source": "response", "verdicts": [{"label": "neutral"}, {"label": "entailed"}],
         "supported_by": [1]},
        {"text": "A2", "source": "response", "verdicts": [{"label": "contradicted"}, {"label": "neutral"}]}]}
    factual = {"passages": [*ctx, {"kind": "reference"}], "claims": [
        {"text": "A2", "source": "response", "verdicts": [None, None, {"label": "entailed"}], "supported_by": [2]}]}
    recall = {"passages": ctx, "claims": [{"text": "R1", "source": "reference", "verdicts": [None, None]}]}
    view = claim_view({"f": Score(value=0.5, details={"claims": faith}),
                       "fc": Score(value=1.0, details={"claims": factual}),
                       "cr": Score(value=0.0, details={"claims": recall}),
                       "junk": Score(value=0.1, details={"claims": {"passages": 3}})})
    assert view is not None
    a1, a2 = view.answer_claims
    assert (a1.text, a1.supported_by, a1.checked, a1.cross) == ("A1", [1], True, None)
    assert (a2.supported_by, a2.contradicted_by, a2.cross) == ([], [0], "entailed")
    assert view.reference_claims[0].checked is False  # never checked against the contexts: not "missing"
    assert claim_view({"x": Score(value=1.0)}) is None


def test_every_metric_says_why_samples_have_no_score(run) -> None:
    from ragkit.runs import ScoreRecord
    from ragkit.types import Score

    failed = Score(value=None, explanation="judge error: Reply did not validate after 2 re-asks\n(details)",
                   details={"error": "JudgeError"})
    run.add_scores(ScoreRecord(sample_id="q-009", scores={
        "faithfulness": failed, "context_recall": Score(value=None, explanation="no reference claims"),
        "hallucination": Score(value=0.2)}))
    s = summarize(run)
    faith, recall = s.metrics["faithfulness"], s.metrics["context_recall"]
    assert (faith.scored, faith.failed, faith.unscorable, faith.skipped) == (10, 1, 0, 1)
    assert [(r.kind, r.reason, r.samples) for r in faith.not_scored] == [
        ("failed", "judge error: Reply did not validate after 2 re-asks", 1),
        ("skipped", "not scored: the target failed (HTTP 503: busy (after 3 attempts))", 1)]
    assert [(r.kind, r.reason, r.samples) for r in recall.not_scored][0] == ("unscorable", "no reference claims", 2)
    buf = io.StringIO()
    print_summary(s, Console(file=buf, width=160, color_system=None))
    out = buf.getvalue()
    assert "faithfulness: 1 failed - judge error: Reply did not validate after 2 re-asks" in out
    assert "context_recall: 2 unscorable - no reference claims" in out
    html = render_report(run, s)
    assert "2 unscorable &mdash; no reference claims" in html


def test_generation_drops_are_summed_over_sessions_and_shown(run) -> None:
    from ragkit.runs._rundir import StageRecord
    from ragkit.types import StageUsage

    for dropped in ({"not_answerable": 2, "single_passage": 1}, {"not_answerable": 1}):  # a resumed generation
        run.add_stage(StageRecord(stage="generate", seconds=5.0, items=2, usage=StageUsage(calls=4),
                                  dropped=dropped))
    s = summarize(run)
    generate = s.stages["generate"]
    assert generate.dropped == {"not_answerable": 3, "single_passage": 1} and generate.items == 12 + 4
    text = "dropped 4 of 20 candidates (not_answerable 3, single_passage 1)"
    assert generate.drops_text() == text and s.stages["evaluate"].drops_text() == ""
    buf = io.StringIO()
    print_summary(s, Console(file=buf, width=160, color_system=None))
    assert f"generation {text}" in buf.getvalue()
    assert f"Generation {escape(text)}." in render_report(run, s)


def test_a_conversation_is_shown_turn_by_turn(tmp_path: Path) -> None:
    from ragkit.report import summarize as summarize_run
    from ragkit.runs._rundir import ScoreRecord
    from ragkit.types import Conversation, EvalSample, RagResponse, Score, TestSample, Turn

    run = make_run(tmp_path / "run", n=3)
    first = TestSample(id="chat-t1", question=f"Which plant builds the Wren W300? {PAYLOAD}",
                       reference_answer="Porto.", conversation=Conversation(id="chat", turn=1, goal="Plan a visit"))
    second = TestSample(id="chat-t2", question="And how many people work there?", reference_answer="180.",
                        conversation=Conversation(id="chat", turn=2, goal="Plan a visit"),
                        history=[Turn(question=first.question, reference_answer="Porto.")])
    sent = second.model_copy(update={"history": [second.history[0].model_copy(update={"answer": "In Porto."})]})
    for test, asked, answer in ((first, first, "In Porto."), (second, sent, "About 180.")):
        run.add_sample(test)
        run.add_response(EvalSample(test=asked, response=RagResponse(answer=answer)))
        run.add_scores(ScoreRecord(sample_id=test.id, scores={"faithfulness": Score(value=1.0)}))
    html = render_report(run, summarize_run(run))
    assert PAYLOAD not in html  # the history is escaped like every other text
    assert "Conversation chat, turn 2" in html and "1 earlier turn(s) · goal: Plan a visit" in html
    assert "<b>Assistant:</b> In Porto." in html  # the target's own reply, as it was sent
    assert "↳ 2</span> And how many people work there?" in html
