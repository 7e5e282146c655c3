"""The report's drill-down of one sample: its conversation so far, question, reference and answer, the claims
with the contexts that support or contradict them, its scores, and the retrieved and reference contexts."""

from __future__ import annotations

from ragkit.evaluation import ClaimRow, ClaimView, claim_view
from ragkit.report._markup import esc, fmt
from ragkit.runs import ScoreRecord
from ragkit.types import ContextRef, EvalSample, TestSample


def turn_mark(s: TestSample) -> str:
    """'↳ 2' before a follow-up turn's question in the samples table."""
    turn = s.conversation.turn if s.conversation else 1
    return "" if turn == 1 else f'<span class="muted" title="turn {turn} of a conversation">↳ {turn}</span> '


def _context_html(rank: int, ctx: ContextRef, ref_ids: set[str], view: ClaimView | None, col: int) -> str:
    relevant = ctx.chunk_id is not None and ctx.chunk_id in ref_ids
    tags = ('<span class="tag">in reference</span>' if relevant else "") + \
           ('<span class="tag">distractor</span>' if ctx.distractor else "")
    claims = ""
    if view is not None:
        sup = [c for c in view.answer_claims if col in c.supported_by]
        con = [c for c in view.answer_claims if col in c.contradicted_by]
        ref = [c for c in view.reference_claims if col in c.supported_by]
        items = [f'<li class="claim-entailed">supports answer claim: {esc(c.text)}</li>' for c in sup]
        items += [f'<li class="claim-contradicted">contradicts answer claim: {esc(c.text)}</li>' for c in con]
        items += [f"<li>holds reference claim: {esc(c.text)}</li>" for c in ref]
        claims = f'<ul class="claims">{"".join(items)}</ul>' if items else \
            '<div class="muted">supports no claim of the answer or the reference</div>'
    return (f'<div class="ctx{" relevant" if relevant else ""}"><div class="head"><b>#{rank}</b> '
            f"{esc(ctx.source or 'unknown source')} · chunk {esc(ctx.chunk_id or '–')}{tags}</div>"
            f'<div class="body">{esc(ctx.text)}</div>{claims}</div>')


def _ranks(ranks: list[int]) -> str:
    return ", ".join(f"#{r + 1}" for r in ranks)


def _claim_items(rows: list[ClaimRow], *, supported: str, missing: str, contradicted: str | None, cross: str,
                 mark_unsupported: bool) -> str:
    """``<li>`` items of claims tagged with the contexts (ranks) that support them or, when ``contradicted``
    names it, contradict them; ``mark_unsupported`` highlights checked claims no context supports."""
    items = []
    for c in rows:
        tags = []
        found = bool(c.supported_by) or c.together == "entailed"
        if c.supported_by:
            tags.append(f'<span class="tag ok">{supported} {_ranks(c.supported_by)}</span>')
        elif found:
            tags.append(f'<span class="tag ok">{supported} the contexts together</span>')
        elif c.checked:
            tags.append(f'<span class="tag bad">{missing}</span>')
        if contradicted and c.contradicted_by:
            tags.append(f'<span class="tag bad">{contradicted} {_ranks(c.contradicted_by)}</span>')
        if c.cross:
            tags.append(f'<span class="tag">{cross}: {esc(c.cross)}</span>')
        cls = ' class="unsupported"' if mark_unsupported and c.checked and not found else ""
        items.append(f"<li{cls}>{esc(c.text)} {''.join(tags)}</li>")
    return "".join(items)


def _claims_html(view: ClaimView) -> str:
    """Answer claims (unsupported ones highlighted) and reference claims (missing ones marked)."""
    out = []
    if view.answer_claims:
        items = _claim_items(view.answer_claims, supported="supported by", missing="no context supports it",
                             contradicted="contradicted by", cross="reference", mark_unsupported=True)
        n_bad = sum(1 for c in view.answer_claims if c.checked and not c.supported_by)
        note = f" ({n_bad} unsupported)" if n_bad else ""
        out.append(f'<h3>Answer claims{note}</h3><ul class="claims">{items}</ul>')
    if view.reference_claims:
        items = _claim_items(view.reference_claims, supported="retrieved in", missing="missing from the contexts",
                             contradicted=None, cross="answer", mark_unsupported=False)
        out.append(f'<h3>Reference claims</h3><ul class="claims">{items}</ul>')
    return "".join(out)


def drill(i: int, total: int, s: TestSample, resp: EvalSample | None, rec: ScoreRecord | None,
           names: list[str]) -> str:
    r = resp.response if resp else None
    view = claim_view(rec.scores) if rec else None
    ref_ids = {c.chunk_id for c in s.reference_contexts if c.chunk_id}
    prev = "" if i == 0 else f'<a href="#s-{i - 1}">← previous</a>'
    nxt = "" if i + 1 >= total else f'<a href="#s-{i + 1}">next →</a>'
    nav = f'<span class="drillnav">{prev}{nxt}<a href="#samples" title="close (Esc)">✕ close</a></span>'
    meta_bits = [f"generator {esc(s.generator.name)}" if s.generator else "", f"persona {esc(s.persona)}"
                 if s.persona else "", f"style {esc(s.style)}" if s.style else "",
                 f"language {esc(s.language)}" if s.language else "",
                 f"{r.latency_s:.1f} s" if r and r.latency_s is not None else ""]
    data = (f' data-prev="#s-{i - 1}"' if i else "") + (f' data-next="#s-{i + 1}"' if i + 1 < total else "")
    parts = [f'<section class="drill" id="s-{i}"{data}>{nav}<h2>{esc(s.id)}</h2>'
             f'<p class="muted">{" · ".join(b for b in meta_bits if b)}</p>', _history_html(resp.test if resp else s),
             f'<h3>Question</h3><div class="text">{esc(s.question)}</div><div class="grid"><div>'
             f'<h3>Reference answer</h3><div class="text">{esc(s.reference_answer or "(none)")}</div></div><div>'
             f'<h3>Answer</h3><div class="text">{esc(r.answer if r else "(no answer yet)")}</div>']
    if r and r.error:
        parts.append(f'<p class="err">target error: {esc(r.error)}</p>')
    if rec and rec.error:
        parts.append(f'<p class="err">{esc(rec.error)}</p>')
    parts.append("</div></div>")
    if view is not None:
        parts.append(_claims_html(view))
    if rec and rec.scores:
        rows = "".join(f"<tr><td>{esc(n)}</td><td class=\"num\">{fmt(sc.value)}</td><td>{esc(sc.explanation or '')}"
                       f"</td></tr>" for n, sc in rec.scores.items())
        parts.append(f"<h3>Scores</h3><table><tbody>{rows}</tbody></table>")
    contexts = r.retrieved_contexts if r else []
    parts.append(f"<h3>Retrieved contexts ({len(contexts)})</h3>")
    parts += [_context_html(k + 1, c, ref_ids, view, k) for k, c in enumerate(contexts)]
    if s.reference_contexts:
        parts.append(f"<h3>Reference contexts ({len(s.reference_contexts)})</h3>")
        parts += [_context_html(k + 1, c, set(), None, k) for k, c in enumerate(s.reference_contexts)]
    parts.append("</section>")
    return "".join(parts)


def _history_html(s: TestSample) -> str:
    """A conversation turn's place and the exchanges before it, as the target was sent them."""
    if s.conversation is None:
        return ""
    goal = f" · goal: {esc(s.conversation.goal)}" if s.conversation.goal else ""
    said = "".join(f'<div class="text"><b>User:</b> {esc(t.question)}</div>'
                   f'<div class="text muted"><b>Assistant:</b> {esc(t.reply)}</div>' for t in s.history)
    return (f'<h3>Conversation {esc(s.conversation.id)}, turn {s.conversation.turn}</h3>'
            f'<p class="muted">{len(s.history)} earlier turn(s){goal}</p>{said}')
