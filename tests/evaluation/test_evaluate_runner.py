"""The evaluation runner: validation before any call, shared claim work, failures recorded, results."""

from __future__ import annotations

import asyncio
import json
import math

import pytest

from ragkit.errors import ConfigError, MissingFieldError, UnknownPluginError
from ragkit.evaluation import EvalResult, SampleResult, build_metric, evaluate, evaluate_sync
from ragkit.evaluation._metric_keys import metric_key
from ragkit.llm import CallInfo
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge, claim_reply
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

CLAIM_FAMILY = ["faithfulness", "context_recall", "factual_correctness", "noise_sensitivity",
                "noise_sensitivity[mode=irrelevant]", "ragchecker_precision", "ragchecker_recall", "ragchecker_f1",
                "claim_recall", "ragchecker_context_precision", "context_utilization",
                "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant", "hallucination",
                "self_knowledge", "ragchecker_faithfulness", "context_precision", "answer_correctness[weights=[1,0]]"]


def world(call: CallInfo) -> object:
    """Sentences are claims; a passage supports a claim when it contains it (case-insensitive)."""
    reply = claim_reply(call, claims=lambda text: [s.strip() + "." for s in text.split(".") if s.strip()])
    if reply is None:
        raise AssertionError(call.prompt_name)
    return reply


FACT = "Ada Lovelace wrote code for the analytical engine."


def sample(sid: str = "s1", *, answer: str = f"{FACT} Ada liked tea.",
           reference: str | None = FACT,
           contexts: tuple[str, ...] = (f"{FACT[:-1]} in 1843.", "Tea is a drink."), error: str | None = None,
           ids: bool = False) -> EvalSample:
    refs = [ContextRef(text=c, chunk_id=f"{sid}-{i}" if ids else None) for i, c in enumerate(contexts)]
    return EvalSample(test=TestSample(id=sid, question="What did Ada do?", reference_answer=reference,
                                      reference_contexts=refs[:1]),
                      response=RagResponse(answer=answer, retrieved_contexts=refs, error=error))


async def test_claim_family_splits_each_text_once_and_checks_each_pair_once() -> None:
    judge = ScriptedJudge(world)
    result = await evaluate([sample()], CLAIM_FAMILY, judge=judge, progress=False)
    splits = [c.data.text for c in judge.calls_for("claims.split")]  # type: ignore[union-attr]
    checks = [(c.data.passage, tuple(c.data.claims)) for c in judge.calls_for("claims.check")]  # type: ignore[union-attr]
    assert sorted(splits) == sorted([f"{FACT} Ada liked tea.", FACT])
    # per claim list, one check against the contexts joined. Context precision and noise sensitivity ask which
    # context states each claim they state: the fact's words are all in the first context, so no call names it
    # ("Ada liked tea." is in no context). One cross check: the answer's claim equal to the reference's needs no
    # call, and so does the reference's claim, which the answer states word for word
    assert judge.calls_for("claims.attribute") == []
    joined = f"{FACT[:-1]} in 1843.\n\nTea is a drink."
    expected = [(joined, (FACT, "Ada liked tea.")), (joined, (FACT,)), (FACT, ("Ada liked tea.",))]
    assert sorted(checks) == sorted(expected)
    assert len(judge.calls) == 5
    assert result.claim_stats["split_calls"] == 2 and result.claim_stats["check_calls"] == 3
    assert all(s.value is not None for s in result.samples[0].scores.values()), result.samples[0].scores
    assert result.samples[0].scores["faithfulness"].value == 0.5  # "Ada liked tea." is in no context


async def test_the_setting_name_by_words_false_has_the_judge_name_every_claim() -> None:
    judge = ScriptedJudge(world, settings=Settings(model="openai/scripted-judge", name_by_words=False))
    await evaluate([sample()], CLAIM_FAMILY, judge=judge, progress=False)
    assert len(judge.calls_for("claims.attribute")) == 1  # the fact, which its words would have placed


async def test_missing_fields_are_reported_at_once_before_any_call() -> None:
    judge = ScriptedJudge([])
    samples = [sample("a"), sample("b", reference=None), sample("c", reference=None)]
    with pytest.raises(MissingFieldError) as err:
        await evaluate(samples, ["faithfulness", "context_recall", "hit_rate"], judge=judge, progress=False)
    message = str(err.value)
    assert "metric 'context_recall' needs test.reference_answer, missing on 2 of 3 samples (first: b, c)" in message
    assert "metric 'hit_rate' needs test.reference_contexts[].chunk_id, missing on 3 of 3 samples" in message
    assert "faithfulness" not in message
    assert judge.calls == []


async def test_an_empty_response_field_is_data_unless_the_whole_column_is_missing() -> None:
    judge = ScriptedJudge(world)
    result = await evaluate([sample("a"), sample("b", contexts=())], ["context_recall"], judge=judge, progress=False)
    assert [s.scores["context_recall"].value for s in result.samples] == [1.0, 0.0]
    with pytest.raises(MissingFieldError, match="response.retrieved_contexts, missing on 2 of 2"):
        await evaluate([sample("a", contexts=()), sample("b", contexts=())], ["faithfulness"], judge=judge,
                       progress=False)


async def test_failures_are_recorded_per_sample_and_never_abort() -> None:
    def flaky(call: CallInfo) -> object:
        if call.prompt_name == "claims.split" and "boom" in call.data.text:  # type: ignore[union-attr]
            return ValueError("model exploded")
        return world(call)

    judge = ScriptedJudge(flaky)
    samples = [sample("ok"), sample("bad", answer="boom. boom."), sample("down", error="HTTP 500 from target")]
    seen: list[SampleResult] = []
    result = await evaluate(samples, ["faithfulness", "context_recall"], judge=judge, progress=False,
                            on_result=seen.append)
    assert sorted(r.sample_id for r in seen) == ["bad", "down", "ok"]
    by_id = {s.sample_id: s for s in result.samples}
    assert [s.sample_id for s in result.samples] == ["ok", "bad", "down"]
    assert by_id["ok"].scores["faithfulness"].value == 0.5
    bad = by_id["bad"].scores["faithfulness"]
    assert bad.value is None and bad.explanation.startswith("judge error:") and "error" in bad.details
    assert by_id["bad"].scores["context_recall"].value == 1.0  # the other metric of that sample survives
    assert by_id["down"].error == "HTTP 500 from target"
    assert by_id["down"].scores["context_recall"].explanation == "target failed: HTTP 500 from target"
    agg = result.aggregates["faithfulness"]
    assert (agg.count, agg.failed, agg.unscorable, agg.mean) == (1, 2, 0, 0.5)
    assert result.aggregates["context_recall"].failed == 1


async def test_aggregates_usage_and_unscorable_counts() -> None:
    judge = ScriptedJudge(world)
    samples = [sample("a"), sample("b", answer=FACT), sample("c", answer="...")]
    result = await evaluate(samples, ["faithfulness"], judge=judge, progress=False)
    agg = result.aggregates["faithfulness"]
    assert (agg.count, agg.unscorable, agg.failed) == (2, 1, 0)
    assert agg.mean == pytest.approx(0.75) and agg.min == 0.5 and agg.max == 1.0
    assert agg.std == pytest.approx(math.sqrt(((0.5 - 0.75) ** 2 + (1 - 0.75) ** 2) / 1))
    assert agg.higher_is_better and agg.range == (0.0, 1.0)
    assert result.usage.stages["evaluate"].calls == len(judge.calls) == judge.usage.stages["evaluate"].calls
    assert result.metrics[0].name == "faithfulness"


def test_metric_keys_name_non_default_arguments() -> None:
    assert metric_key(build_metric("context_precision").spec) == "context_precision"  # type: ignore[attr-defined]
    fn = build_metric("context_precision", {"reference": "ids"})
    assert metric_key(fn.spec, fn.info) == "context_precision[reference=ids]"  # type: ignore[attr-defined]
    fn = build_metric("factual_correctness[mode=precision, beta=0.5]")
    assert metric_key(fn.spec, fn.info) == "factual_correctness[beta=0.5,mode=precision]"  # type: ignore[attr-defined]
    fn = build_metric("answer_correctness[weights=[0.5,0.5]]")
    assert metric_key(fn.spec, fn.info) == "answer_correctness[weights=[0.5,0.5]]"  # type: ignore[attr-defined]
    fn = build_metric("answer_correctness[weights=[0.75,0.25]]")
    assert metric_key(fn.spec, fn.info) == "answer_correctness"  # type: ignore[attr-defined]


def test_bad_metric_names_and_arguments() -> None:
    with pytest.raises(UnknownPluginError, match="Did you mean: faithfulness"):
        build_metric("faithfullness")
    with pytest.raises(ConfigError, match="no argument colour"):
        build_metric("faithfulness[colour=red]")
    with pytest.raises(ConfigError, match="name=value"):
        build_metric("context_recall[ids]")


async def test_duplicate_metrics_are_refused() -> None:
    with pytest.raises(ConfigError, match="chosen twice: faithfulness"):
        await evaluate([sample()], ["faithfulness", "faithfulness"], judge=ScriptedJudge([]), progress=False)


async def test_id_variants_run_without_llm() -> None:
    judge = ScriptedJudge([])
    result = await evaluate([sample(ids=True)], ["context_precision[reference=ids]", "context_recall[reference=ids]",
                                                 "hit_rate", "mrr", "ndcg_at_k[k=1]"], judge=judge, progress=False)
    scores = {k: v.value for k, v in result.samples[0].scores.items()}
    assert scores == {"context_precision[reference=ids]": 1.0, "context_recall[reference=ids]": 1.0,
                      "hit_rate": 1.0, "mrr": 1.0, "ndcg_at_k[k=1]": 1.0}
    assert judge.calls == []


async def test_result_round_trips_through_json_and_pandas(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = await evaluate([sample("a"), sample("b", answer="...")], ["faithfulness"], judge=ScriptedJudge(world),
                            progress=False)
    path = tmp_path / "r.json"
    result.to_json(path)
    again = EvalResult.from_json(path)
    assert again == result and EvalResult.from_json(result.to_json()) == result
    assert json.loads(path.read_text())["format_version"] == 1
    frame = result.to_pandas()
    assert list(frame.columns) == ["sample_id", "error", "faithfulness"]
    assert frame["faithfulness"].tolist()[0] == 0.5 and frame["faithfulness"].isna().tolist() == [False, True]


def test_evaluate_sync_works_inside_and_outside_a_loop() -> None:
    result = evaluate_sync([sample()], ["faithfulness"], judge=ScriptedJudge(world), progress=False)
    assert result.aggregates["faithfulness"].mean == 0.5

    async def inside() -> EvalResult:
        return evaluate_sync([sample()], ["faithfulness"], judge=ScriptedJudge(world), progress=False)

    assert asyncio.run(inside()).aggregates["faithfulness"].mean == 0.5
