"""The critic: cheap checks without an LLM, one LLM check, duplicates, nearest chunks."""

from __future__ import annotations

import pytest
from kg_builder import critic_reply

from ragkit.critic import Critic, copies_context
from ragkit.scenarios import language_matches
from ragkit.testing import ScriptedJudge
from ragkit.types import ContextRef, TestSample

CONTEXT = ("The Leeds bakery opened in 2010 on Kirkstall Road. It has 48 staff and bakes about 9,000 loaves a day "
           "in three deck ovens.")


@pytest.mark.parametrize(("question", "copied"), [
    ("The Leeds bakery opened in 2010 on Kirkstall Road.", True),
    ("Is it true that the Leeds bakery opened in 2010 on Kirkstall Road?", True),
    ("It has 48 staff and bakes about 9,000 loaves a day in three deck ovens, right?", True),
    ("When did the Leeds bakery open?", False),
    ("How many loaves does the Leeds site bake each day, and with which ovens?", False),
    ("leeds bakery staff", False),
])
def test_copies_context(question, copied):
    assert copies_context(question, [CONTEXT]) is copied


def test_copies_context_counts_cjk_characters():
    context = "龙坞茶园建于2010年，面积约320亩，由茶园主管何春生负责日常管理。"
    assert copies_context("龙坞茶园建于2010年，面积约320亩吗？", [context])
    assert not copies_context("龙坞茶园是哪一年建的？", [context])


@pytest.mark.parametrize(("expected", "text", "ok"), [
    ("zh", "龙坞茶园是哪一年建的？", True),
    ("zh", "When was the Longwu tea garden built?", False),
    ("zh", "Heron H6 的有效载荷是多少？", True),
    ("zh", "2010", True),
    ("en", "龙坞茶园是哪一年建的？", False),
    ("en", "When did the Leeds bakery open its doors to the public?", True),
    ("en", "Quand la boulangerie de Leeds a-t-elle ouvert ses portes au public ?", False),
    ("en", "leeds bakery opening", True),
    ("ko", "리즈 제과점은 언제 문을 열었습니까?", True),
    ("und", "anything at all", True),
])
def test_language_matches(expected, text, ok):
    assert language_matches(expected, text) is ok


def _sample(kg, question="When did the Leeds bakery open?", answer="In 2010.", lang="en", **meta):
    chunk = next(c for c in kg.chunks() if "Kirkstall" in c.text)
    return TestSample(id="s1", question=question, reference_answer=answer, language=lang, metadata=meta,
                      reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])


async def test_review_keeps_a_good_sample_with_one_llm_call(bakery, embeddings):
    judge = ScriptedJudge(lambda call: critic_reply(call.data))
    verdict = await Critic(bakery, judge, embeddings).review(_sample(bakery))
    assert verdict.ok and verdict.checks["answerable"] and len(judge.calls) == 1


@pytest.mark.parametrize(("reply", "reason"), [
    ({"evidence": "", "question_answerable": False, "answer_supported": False}, "not_answerable"),
    ({"evidence": "Made-up sentence that is not there.", "question_answerable": True, "answer_supported": True},
     "not_answerable"),
    ({"evidence": "The Leeds bakery opened in 2010 on Kirkstall Road.", "question_answerable": True,
      "answer_supported": False}, "unsupported_answer"),
])
async def test_review_drops_by_reason(bakery, embeddings, reply, reason):
    verdict = await Critic(bakery, ScriptedJudge([reply]), embeddings).review(_sample(bakery))
    assert not verdict.ok and verdict.reason == reason


async def test_cheap_checks_run_before_any_llm_call(bakery, embeddings):
    judge = ScriptedJudge([])  # any call would fail the test
    critic = Critic(bakery, judge, embeddings)
    assert (await critic.review(_sample(bakery, question="Leeds 面包店是哪一年开业的？"))).reason == "wrong_language"
    assert (await critic.review(_sample(bakery, answer="它于2010年开业。"))).reason == "wrong_language"
    copied = _sample(bakery, question="The Leeds bakery opened in 2010 on Kirkstall Road, did it not?")
    assert (await critic.review(copied)).reason == "copies_context"
    empty = _sample(bakery, answer=" ")
    assert (await critic.review(empty)).reason == "invalid_sample"
    bad_ref = _sample(bakery)
    bad_ref.reference_contexts[0].chunk_id = "nope"
    assert (await critic.review(bad_ref)).reason == "invalid_sample"
    critic.accept(_sample(bakery))
    paraphrase = _sample(bakery, question="When did the Leeds bakery open?")
    assert (await critic.review(paraphrase)).reason == "near_duplicate"
    assert judge.calls == []


async def test_unanswerable_checks_the_nearest_chunks(bakery, embeddings):
    judge = ScriptedJudge([{"evidence": "", "question_answerable": False, "answer_supported": True}])
    critic = Critic(bakery, judge, embeddings)
    sample = _sample(bakery, question="What will the Leeds bakery's energy bill be in 2031?",
                     answer="The documents do not say.", answerable=False)
    assert (await critic.review(sample)).ok
    passages = judge.calls[0].data.passages
    assert len(passages) >= 3  # its own context plus the nearest other chunks
    answered = ScriptedJudge([{"evidence": "It has 48 staff and bakes about 9,000 loaves a day in three deck ovens.",
                               "question_answerable": True, "answer_supported": False}])
    verdict = await Critic(bakery, answered, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "answerable"


def test_nearest_chunks_finds_the_topical_chunk(bakery, embeddings):
    critic = Critic(bakery, None, embeddings, nearest_k=2)
    near = critic.nearest_chunks("How much does the Oat Crown loaf weigh and cost?")
    assert any("Oat Crown weighs" in bakery.chunk(c).text for c in near)
