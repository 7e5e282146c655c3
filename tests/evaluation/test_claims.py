"""The claim engine: one call per text and per (passage, claim group), memoised, bounded, padded, graded."""

from __future__ import annotations

import asyncio

import pytest

from ragkit.errors import JudgeError
from ragkit.evaluation._claims import ClaimDetails, ClaimStore, MetricContext, Verdict, check_prompt, claim_details
from ragkit.llm import CallInfo
from ragkit.settings import Settings
from ragkit.testing import Delayed, ScriptedJudge, WithLogprobs
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample


def labels_for(call: CallInfo, label: str = "supported") -> dict[str, str]:
    return {str(i): label for i in range(len(call.data.claims))}  # type: ignore[union-attr]


def responder(call: CallInfo) -> object:
    if call.prompt_name == "claims.split":
        text = call.data.text  # type: ignore[union-attr]
        return {"claims": [s.strip() + "." for s in text.split(".") if s.strip()], "entities": []}
    return labels_for(call)


async def test_split_is_one_call_per_text_and_memoised() -> None:
    judge = ScriptedJudge(responder)
    store = ClaimStore(judge)
    first = await store.split("A is B. C is D.", question="q")
    again = await store.split("A is B. C is D.", question="q")
    assert first == again == ["A is B.", "C is D."]
    assert len(judge.calls) == 1 and store.stats.split_calls == 1 and store.stats.memo_hits == 1


async def test_concurrent_requests_for_one_key_await_one_call() -> None:
    judge = ScriptedJudge(lambda call: Delayed(responder(call), 0.05))  # type: ignore[arg-type]
    store = ClaimStore(judge)
    results = await asyncio.gather(*(store.split("X is Y.") for _ in range(5)),
                                   *(store.check("X is Y.", ["X is Y."]) for _ in range(5)))
    assert all(r == ["X is Y."] for r in results[:5])
    assert len(judge.calls_for("claims.split")) == 1 and len(judge.calls_for("claims.check")) == 1


async def test_empty_texts_and_passages_cost_nothing() -> None:
    judge = ScriptedJudge([])
    store = ClaimStore(judge)
    assert await store.split("   ") == []
    assert await store.check("passage", []) == []
    assert [v.label for v in await store.check("  ", ["a", "b"])] == ["neutral", "neutral"]
    assert judge.calls == []


async def test_long_claim_lists_are_checked_in_groups_of_eight() -> None:
    judge = ScriptedJudge(lambda call: labels_for(call, "not_mentioned" if "odd" in call.data.claims[0]  # type: ignore[union-attr]
                                                  else "supported"))
    store = ClaimStore(judge)
    claims = [f"claim {i}" for i in range(8)] + [f"odd {i}" for i in range(3)]
    verdicts = await store.check("passage", claims)
    assert [len(c.data.claims) for c in judge.calls] == [8, 3]  # type: ignore[union-attr]
    assert [v.label for v in verdicts] == ["entailed"] * 8 + ["neutral"] * 3
    # the output schema of a group has exactly one required label per claim
    schema = check_prompt(3).schema()
    assert schema["required"] == ["0", "1", "2"] and set(schema["properties"]) == {"0", "1", "2"}


async def test_missing_verdicts_are_padded_as_neutral_and_counted() -> None:
    judge = ScriptedJudge([{"0": "supported", "2": "contradicted"}])
    store = ClaimStore(judge)
    verdicts = await store.check("passage", ["a", "b", "c"])
    assert [(v.label, v.padded) for v in verdicts] == [("entailed", False), ("neutral", True),
                                                        ("contradicted", False)]
    assert store.stats.padded_verdicts == 1


async def test_invalid_labels_are_reasked() -> None:
    judge = ScriptedJudge([{"0": "maybe"}, {"0": "contradicted"}])
    verdicts = await ClaimStore(judge).check("passage", ["a"])
    assert verdicts[0].label == "contradicted" and len(judge.calls) == 2


async def test_failures_are_not_memoised() -> None:
    settings = Settings(model="openai/scripted-judge", max_retries=0, max_reasks=0)
    judge = ScriptedJudge([{"0": "nonsense"}, {"0": "supported"}], settings=settings)
    store = ClaimStore(judge)
    with pytest.raises(JudgeError):
        await store.check("passage", ["a"])
    assert (await store.check("passage", ["a"]))[0].label == "entailed"


async def test_verdicts_are_graded_by_label_probabilities() -> None:
    text = '{"0": "supported", "1": "not_mentioned"}'
    tokens = [('{"0": "', 0.0), ("supported", -0.2, [("not", -1.9), ("contr", -3.0)]), ('", "1": "', 0.0),
              ("not", -0.1, [("supported", -2.5)]), ("_mentioned", 0.0), ('"}', 0.0)]
    judge = ScriptedJudge([WithLogprobs(text, tokens)])
    first, second = await ClaimStore(judge).check("passage", ["a", "b"])
    import math

    p1 = math.exp(-0.2) / (math.exp(-0.2) + math.exp(-1.9) + math.exp(-3.0))
    p2 = math.exp(-2.5) / (math.exp(-0.1) + math.exp(-2.5))
    assert first.label == "entailed" and first.support == pytest.approx(p1)
    assert second.label == "neutral" and second.support == pytest.approx(p2)
    assert 0 < second.support < 0.5 < first.support < 1


def test_binary_support_without_probabilities() -> None:
    assert Verdict(label="entailed").support == 1.0
    assert Verdict(label="contradicted").support == 0.0
    assert Verdict(label="neutral", padded=True).support == 0.0


def sample(answer: str = "A is B. C is D.", reference: str = "A is B. E is F.") -> EvalSample:
    return EvalSample(test=TestSample(id="s", question="q", reference_answer=reference),
                      response=RagResponse(answer=answer, retrieved_contexts=[
                          ContextRef(text="ctx one", chunk_id="c1"), ContextRef(text="ctx two", chunk_id="c2")]))


async def test_joint_context_checks_when_asked_for_and_both_context_matrices_are_needed() -> None:
    judge = ScriptedJudge(responder)
    ctx = MetricContext(judge=judge, claims=ClaimStore(judge, joint_contexts=True),
                        needs=frozenset({"response_vs_contexts", "reference_vs_contexts"}))
    view = ctx.sample_claims(sample())
    resp = await view.response_vs_contexts()
    ref = await view.reference_vs_contexts()
    assert len(resp) == 2 and len(ref) == 2 and all(len(row) == 2 for row in resp + ref)
    checks = judge.calls_for("claims.check")
    assert len(checks) == 2  # one per context, holding response and reference claims together
    assert all(c.data.claims == ["A is B.", "C is D.", "A is B.", "E is F."] for c in checks)  # type: ignore[union-attr]


async def test_separate_context_checks_by_default_so_reference_verdicts_ignore_the_answer() -> None:
    judge = ScriptedJudge(responder)
    needs = frozenset({"response_vs_contexts", "reference_vs_contexts"})
    ctx = MetricContext(judge=judge, needs=needs)
    await ctx.sample_claims(sample()).response_vs_contexts()
    await ctx.sample_claims(sample()).reference_vs_contexts()
    lists = [c.data.claims for c in judge.calls_for("claims.check")]  # type: ignore[union-attr]
    assert lists == [["A is B.", "C is D."]] * 2 + [["A is B.", "E is F."]] * 2
    # another answer to the same question with the same contexts reuses every reference-side check
    await ctx.sample_claims(sample(answer="X is Y.")).reference_vs_contexts()
    assert len(judge.calls_for("claims.check")) == 4


def test_claim_details_shape() -> None:
    s = sample()
    yes, no = Verdict(label="entailed"), Verdict(label="neutral")
    raw = claim_details(s, response_claims=["r1"], reference_claims=["g1"], response_vs_contexts=[[no, yes]],
                        response_vs_reference=[yes], reference_vs_response=[no])
    details = ClaimDetails.model_validate(raw)
    assert [(p.kind, p.chunk_id) for p in details.passages] == [("context", "c1"), ("context", "c2"),
                                                                 ("reference", None), ("response", None)]
    r1, g1 = details.claims
    assert r1.source == "response" and r1.supported_by == [1, 2]
    assert r1.verdicts[3] is None  # a response claim is never checked against the response
    assert g1.source == "reference" and g1.verdicts[:3] == [None, None, None] and g1.supported_by == []
    assert ClaimDetails.from_score({"claims": raw}) == details and ClaimDetails.from_score({}) is None
