"""The critic: cheap checks without an LLM, one LLM check, duplicates, nearest chunks."""

from __future__ import annotations

import pytest
from kg_builder import critic_reply

from ragkit.synthesis._critic import Critic, copies_context
from ragkit.synthesis._phrasing import language_matches
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


@pytest.mark.parametrize(("question", "mentions"), [
    ("What are the drop-off points mentioned in the passage about the Wren robot?", True),
    ("According to the text, who manages Porto?", True),
    ("文中提到的茶园建于哪一年？", True),
    ("What does the travel policy document say about rail travel?", False),
    ("Which passages of the Lark charter list risks?", False),
    ("龙坞茶园建于哪一年？", False),
])
def test_mentions_context(question, mentions):
    from ragkit.synthesis._critic import mentions_context

    assert mentions_context(question) is mentions


def test_copies_context_counts_cjk_characters():
    context = ("龙坞茶园建于2010年，面积约320亩，由茶园主管何春生负责日常管理。"
               "赵敏：市场总监，主导了岚山冷泡茶的产品策划与上市。")
    assert copies_context("龙坞茶园建于2010年，面积约320亩，由茶园主管何春生负责吗？", [context])
    assert not copies_context("龙坞茶园是哪一年建的？", [context])
    assert not copies_context("岚山冷泡茶的产品策划由谁主导？", [context])  # a shared noun phrase is no copy


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
    assert verdict.ok and verdict.checks["evidence_passages"] == [0] and len(judge.calls) == 1


@pytest.mark.parametrize(("answer", "question", "restates"), [
    ("Nadia Haddad is the product owner for Nadia Haddad's project.",
     "Who is the product owner for Nadia Haddad's project?", True),
    ("Mark Delaney is the product owner.", "Who is the product owner for Nadia Haddad's project?", False),
    ("In Leeds.", "Is the bakery in Leeds or in York?", False),
    ("Yes.", "Does the Leeds bakery open on Sundays?", False),
    ("龙坞茶园位于杭州。", "龙坞茶园位于杭州吗？", True),
    ("龙坞茶园建于1998年。", "龙坞茶园建于哪一年？", False),
])
def test_restates_question(answer, question, restates):
    from ragkit.synthesis._critic import restates_question

    assert restates_question(answer, question) is restates


@pytest.mark.parametrize(("reply", "reason"), [
    ({"evidence": [], "answer": ""}, "not_answerable"),
    ({"evidence": ["Made-up sentence that is not there."], "answer": "In 2010"}, "not_answerable"),
    ({"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": ""}, "not_answerable"),
    ({"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": "1999"}, "wrong_answer"),
    ({"evidence": ["It has 48 staff."], "answer": "48 staff members"}, "wrong_answer"),
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
    echo = _sample(bakery, question="Who is the manager of the Leeds bakery?", answer="The Leeds bakery manager.")
    assert (await critic.review(echo)).reason == "answer_restates_question"
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
    judge = ScriptedJudge([{"evidence": [], "answer": ""}])
    critic = Critic(bakery, judge, embeddings)
    sample = _sample(bakery, question="What will the Leeds bakery's energy bill be in 2031?",
                     answer="The documents do not say.", answerable=False)
    assert (await critic.review(sample)).ok
    passages = judge.calls[0].data.passages
    assert len(passages) >= 3  # its own context plus the nearest other chunks
    answered = ScriptedJudge([{"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
                               "answer": "9,000 loaves"}])
    verdict = await Critic(bakery, answered, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "answerable"


def test_nearest_chunks_finds_the_topical_chunk(bakery, embeddings):
    critic = Critic(bakery, None, embeddings, nearest_k=2)
    near = critic.nearest_chunks("How much does the Oat Crown loaf weigh and cost?")
    assert any("Oat Crown weighs" in bakery.chunk(c).text for c in near)


async def test_the_judge_never_sees_the_reference_answer(bakery, embeddings):
    judge = ScriptedJudge(lambda call: critic_reply(call.data))
    await Critic(bakery, judge, embeddings).review(_sample(bakery, answer="In 2010, on Kirkstall Road."))
    assert "2010, on Kirkstall" not in str(judge.calls[0].messages)


@pytest.mark.parametrize(("question", "own", "reference", "agree"), [
    ("What is the rated payload of the Kestrel K10?", "10 kg", "The Kestrel K10 has a rated payload of 10 kg.", True),
    ("How many arms did Sheffield build in 2023?", "3,150 robot arms", "4,000 robot arms.", False),
    ("Who manages Project Lark?", "Tom Whitaker", "Tom Whitaker, Engineering Manager for Motion Control.", True),
    ("Who manages Project Lark?", "Tom Whitaker", "Oliver Grant, Head of Safety & Quality.", False),
    ("Where is the plant?", "The plant is in Bristol.", "The plant is in Leeds.", False),
    ("How long is the K10 warranty?", "3 years", "It can be extended to five years with Premium Support.", False),
    ("Which carries more, the Kestrel K10 or the Heron H6?", "Kestrel K10",
     "The Kestrel K10: 10 kg against 6 kg for the Heron H6.", True),
    ("Which carries more, the Kestrel K10 or the Heron H6?", "Heron H6", "The Kestrel K10 carries more.", False),
    ("When did the Leeds bakery open?", "The Leeds bakery opened in 2010 on Kirkstall Road.", "In 2010.", True),
    ("岚山冷泡茶的产品策划由谁主导？", "市场总监赵敏", "赵敏。", True),
    ("线上销售约占总收入的多少？", "约45%", "约80%。", False),
    ("青岚茶业是哪一年由谁创立的？", "沈嘉禾，2009年4月", "2009年4月由沈嘉禾创立。", True),
    ("青岚茶业是哪一年由谁创立的？", "沈嘉禾", "林晓雯。", False),
])
def test_agreement(question, own, reference, agree, embeddings):
    from ragkit.synthesis._critic import agreement

    m = embeddings.embed([own, reference])
    assert agreement(own, reference, question, float(m[0] @ m[1]))[0] is agree


async def test_multi_hop_needs_evidence_from_both_passages(bakery, embeddings):
    leeds = next(c for c in bakery.chunks() if "Kirkstall" in c.text)
    rye = next(c for c in bakery.chunks() if "Harvest Rye weighs" in c.text)
    sample = TestSample(id="m", question="How many staff bake the 800 g loaf in Leeds?", language="en",
                        reference_answer="48 staff in Leeds bake the 800 g Harvest Rye.",
                        metadata={"needs_passages": 2},
                        reference_contexts=[ContextRef(chunk_id=c.id, text=c.text, source=c.source)
                                            for c in (leeds, rye)])
    one = ScriptedJudge([{"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
                          "answer": "48 staff"}])
    verdict = await Critic(bakery, one, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "single_passage"
    both = ScriptedJudge([{"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens.",
                                        "The Harvest Rye weighs 800 g, keeps for six days and costs 4.20 pounds."],
                           "answer": "48 staff bake the 800 g Harvest Rye"}])
    assert (await Critic(bakery, both, embeddings).review(sample)).ok
