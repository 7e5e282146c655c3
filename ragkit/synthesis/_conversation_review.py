"""The critic's review of a conversation candidate (``_conversation``): every turn, cheapest checks first.

1. The first turn passes the single-question checks without the LLM (``Critic.cheap_checks``): it must stand
   alone, and it is what near-duplicates are judged by.
2. Every later turn is written right (``written_checks``), does not point at its source, does not copy it, does not
   give a list item's facts under another item's name (``borrowed_record``), is not its standalone question
   unchanged (``follow_up_stands_alone``), and leaves out nothing the chat has not said (``follow_up_changed``: a
   rewrite that lost part of the question), and reads as English does ("the current it": ``broken_follow_up``).
3. LLM checks, turn by turn, each only when everything before passed: the judge answers the turn from its
   reference contexts (a later turn in the standalone form its writer gave, else with the earlier questions
   beside it), and must agree with its reference
   (``not_answerable`` / ``wrong_answer``); a later turn must not be clear on its own (``follow_up_stands_alone``:
   no call when the patterns already see it pointing back at something it does not name); the turn's reference
   answer must be supported by its contexts (``unsupported_reference``).
A drop names the turn: "turn 2: …". When turn 3 or later fails, the turns before it are kept: a conversation of
two turns or more is still one (``Verdict.kept``; the cut is in the critic's checks). When turn 2 fails, the first
and third turns are reviewed again as a chat of two (``_second_left_out``).
"""

from __future__ import annotations

import re
from typing import Any

from ragkit.synthesis._checks import copies_context, points_without_naming
from ragkit.synthesis._conversation import conversation_turns, shortened, without_second
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._critic_prompts import QUESTION_CHECK_PROMPT, QuestionCheckInput
from ragkit.synthesis._follow_up import left_out, shared_names, shared_subject
from ragkit.synthesis._pointers import mentions_context
from ragkit.synthesis._written import Verdict, written_checks
from ragkit.types import TestSample

_BROKEN = re.compile(r"\b(?:the|a|an|this|that|current|previous|former|new|old)\s+(?:it|its|there|they)\b",
                     re.IGNORECASE)
"""A rewrite that cut a name out of a longer phrase: "the name of the current it"."""


def _at(k: int, verdict: Verdict, checks: dict[str, Any] | None = None) -> Verdict:
    return Verdict(verdict.ok, verdict.reason, f"turn {k}: {verdict.detail}", checks or verdict.checks)


def resolved(turn: TestSample) -> str:
    """A later turn's question as the judge is asked it: its standalone form when the writer gave one, else the
    question with the earlier ones beside it."""
    standalone = turn.metadata.get("standalone_question")
    if isinstance(standalone, str) and standalone.strip():
        return standalone
    said = " ".join(f"'{t.question}'" for t in turn.history)
    return f"{turn.question} (Earlier in this chat the user asked: {said})"


def cheap_conversation_checks(critic: Critic, turns: list[TestSample], compare_with: int | None) -> tuple[
        Verdict, int]:
    """The checks without the LLM, and how many turns passed them (from the first, in order)."""
    verdict = critic.cheap_checks(turns[0], compare_with)
    if not verdict.ok:
        return _at(1, verdict), 0
    for k, turn in enumerate(turns[1:], 2):
        verdict = _cheap_later_turn(critic, turn)
        if not verdict.ok:
            return _at(k, verdict), k - 1
    return Verdict(True), len(turns)


def _cheap_later_turn(critic: Critic, turn: TestSample) -> Verdict:
    verdict = written_checks(turn)
    if not verdict.ok:
        return verdict
    if mentions_context(turn.question):
        return Verdict(False, "mentions_context", f"the question refers to its source: {turn.question[:80]!r}")
    if copies_context(turn.question, [r.text for r in turn.reference_contexts]):
        return Verdict(False, "copies_context", f"the question copies the context: {turn.question[:80]!r}")
    answer = turn.reference_answer or ""
    if any(repeats(answer, t.reply) for t in turn.history):
        return Verdict(False, "repeated_reference", f"the reference repeats an earlier turn's answer: "
                       f"{answer[:80]!r}")
    if borrowed := critic.borrowed_record(turn):
        return Verdict(False, "borrowed_record", f"the reference gives {borrowed}")
    standalone = resolved(turn)
    if _BROKEN.search(turn.question):
        return Verdict(False, "broken_follow_up", f"a pronoun stands where a name was cut out of a phrase: "
                       f"{turn.question[:80]!r}")
    if " ".join(turn.question.split()) == " ".join(standalone.split()):
        return Verdict(False, "follow_up_stands_alone", f"the follow-up is its standalone question again: "
                       f"{turn.question[:80]!r}")
    if not turn.metadata.get("standalone_question"):
        return Verdict(True)  # nothing to compare the follow-up with
    _, lost = left_out(turn.question, standalone, [t.question for t in turn.history])
    if lost:
        return Verdict(False, "follow_up_changed", f"the follow-up leaves out {' '.join(lost[:4])!r}, which the "
                       f"chat never said: {turn.question[:60]!r} for {standalone[:60]!r}")
    return Verdict(True)


def repeats(answer: str, earlier: str) -> bool:
    """Whether ``answer`` is mostly an earlier turn's answer: the whole of it (case aside), and at least half of
    ``answer``: "水分超标是因为" before the first turn's whole answer, for "为什么它超标？" after "…为什么会出现
    水分超标的情况？". A short earlier answer inside a longer one ("10人" in "共10人，其中…") is no repeat."""
    mine, theirs = "".join(answer.casefold().split()), "".join(earlier.casefold().split()).rstrip(".。")
    return bool(theirs) and theirs in mine and 2 * len(theirs) >= len(mine)


def corrects(turn: TestSample) -> bool:
    """Whether ``turn`` is a correction ("Sorry, I meant the Porto Plant, not the Sheffield Plant."): it names the
    subject the chat had by design; what it needs the chat for is the question it does not repeat."""
    return turn.conversation is not None and turn.metadata.get("correction_turn") == turn.conversation.turn


async def follows_on(critic: Critic, turn: TestSample, checks: dict[str, Any]) -> Verdict:
    """A later turn must need the chat: unclear alone. A follow-up rewritten from its standalone question needs it
    when the rewrite left out something an earlier question named (no call: on corpora/acme the 1.5B judge called
    "What is the capacity of its Wren robots?" clear on its own); otherwise the patterns see a pointer with no
    name, or the judge, shown the question alone, says it cannot tell what is asked."""
    standalone = turn.metadata.get("standalone_question")
    if isinstance(standalone, str) and standalone:
        earlier = [t.question for t in turn.history]
        again = None if corrects(turn) else shared_subject(earlier, turn.question, critic.entity_names(), cjk=False)
        # one shared name left out is enough: "沈嘉禾担任它的总经理吗？" after
        # "沈嘉禾是杭州青岚茶业有限公司的创始人吗？" needs the chat for 它, though it names 沈嘉禾 again
        if again and all(_still_named(name, again, turn.question)
                         for name in shared_names(earlier, standalone, critic.entity_names(), cjk=False)):
            return Verdict(False, "follow_up_stands_alone", f"the follow-up names {again!r} again: "
                           f"{turn.question[:80]!r}", {**checks, "needs_history": "no"})
        leans, _ = left_out(turn.question, standalone, earlier)
        if leans:
            return Verdict(True, checks={**checks, "needs_history": f"leaves out {' '.join(leans[:4])}"})
        return Verdict(False, "follow_up_stands_alone", f"the follow-up leaves out nothing the chat named: "
                       f"{turn.question[:80]!r}", {**checks, "needs_history": "no"})
    if points_without_naming(turn.question, critic.naming_words()):
        return Verdict(True, checks={**checks, "needs_history": "pattern"})
    assert critic.judge is not None
    out = await critic.judge.structured(QUESTION_CHECK_PROMPT, QuestionCheckInput(question=turn.question))
    checks = {**checks, "needs_history": "judge" if not out.self_contained else "no"}
    if out.self_contained:
        return Verdict(False, "follow_up_stands_alone", f"the question is clear without the chat: "
                       f"{turn.question[:80]!r}", checks)
    return Verdict(True, checks=checks)


def _still_named(name: str, again: str, question: str) -> bool:
    """Whether ``question`` still names ``name``: whole, or by ``again``, a name it shares with the earlier
    questions that is most of ``name``: "the Kestrel Firmware 4.0 release notes" left out only "'Lark'" of "the
    Kestrel Firmware 4.0 'Lark' release notes", and needs no chat ("Acme" is not "Acme Robotics Sheffield Plant")."""
    name, again = name.lower(), again.lower()
    return name in question.lower() or (again in name and 2 * len(again) > len(name))


async def review_turn(critic: Critic, turn: TestSample, k: int) -> Verdict:
    """The LLM checks of turn ``k``; a later turn's short no-document check runs first."""
    asked = turn if k == 1 else turn.model_copy(update={"question": resolved(turn)})
    verdict = Verdict(True) if k == 1 else await follows_on(critic, turn, {})
    if not verdict.ok:
        return verdict
    answered = await critic._answer_check(asked, [r.text for r in turn.reference_contexts])
    verdict = Verdict(answered.ok, answered.reason, answered.detail, {**verdict.checks, **answered.checks})
    if verdict.ok and k == 1:
        verdict = await critic._question_check(turn, verdict.checks)
    if verdict.ok:
        verdict = await critic._reference_check(asked, verdict.checks)
    return verdict


async def review_conversation(critic: Critic, sample: TestSample, compare_with: int | None = None) -> Verdict:
    """Every check of a conversation candidate (see the module docstring)."""
    turns = conversation_turns(sample)
    verdict, passed = cheap_conversation_checks(critic, turns, compare_with)
    if passed >= 2 and not verdict.ok:  # a later turn failed: the turns before it may still make a conversation
        turns = turns[:passed]
    elif not verdict.ok:
        return await _second_left_out(critic, sample, compare_with, verdict) if passed == 1 else verdict
    if not critic.llm_check or critic.judge is None:
        return _kept(sample, len(turns), verdict)
    per_turn: list[dict[str, Any]] = []
    for k, turn in enumerate(turns, 1):
        checked = await review_turn(critic, turn, k)
        per_turn.append(checked.checks)
        if not checked.ok:
            if k == 2:
                return await _second_left_out(critic, sample, compare_with, _at(k, checked, {"turns": per_turn}))
            if k < 2:
                return _at(k, checked, {"turns": per_turn})
            return _kept(sample, k - 1, _at(k, checked), {"turns": per_turn[:-1]})
    return _kept(sample, len(turns), verdict, {"turns": per_turn})


async def _second_left_out(critic: Critic, sample: TestSample, compare_with: int | None,
                           failed: Verdict) -> Verdict:
    """A chat whose second turn ``failed``, reviewed again as its first and third turns when it has a third that is
    no correction: the third may lean on the first alone ("它的业务上接受谁的指导？" after "河坊街旗舰店的店长是谁？",
    when "它的负责人是谁？" → 孙悦 in between was wrong). The later turn's checks then see that it leaves out only
    what the first turn said. Unlike a chat whose first turn failed, the first turn here passed: the topic holds.
    ``failed`` is the verdict when the shorter chat fails too."""
    assert sample.conversation is not None
    if sample.conversation.turn < 3 or sample.metadata.get("correction_turn") == 3:
        return failed
    shorter = without_second(sample)
    verdict = await review_conversation(critic, shorter, compare_with)
    if not verdict.ok:
        return failed
    checks = {**verdict.checks, "left_out": {"turn": 2, "reason": failed.reason, "detail": failed.detail}}
    return Verdict(True, checks=checks, kept=verdict.kept or shorter)


def _kept(sample: TestSample, k: int, failed: Verdict, checks: dict[str, Any] | None = None) -> Verdict:
    """The verdict for a candidate whose first ``k`` turns passed (the whole of it, or the part before ``failed``)."""
    checks = dict(checks or {})
    assert sample.conversation is not None
    if k == sample.conversation.turn:
        return Verdict(True, checks=checks)
    checks["cut"] = {"after_turn": k, "reason": failed.reason, "detail": failed.detail}
    return Verdict(True, checks=checks, kept=shortened(sample, k))


async def review_candidate(critic: Critic, sample: TestSample, compare_with: int | None = None) -> Verdict:
    """The critic's review of any candidate: a conversation turn by turn, a single question as one."""
    if sample.conversation is not None:
        return await review_conversation(critic, sample, compare_with)
    return await critic.review(sample, compare_with)
