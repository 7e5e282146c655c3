"""The generation runner with a scripted model: exact counts, replacement of rejected candidates, spread,
redistribution, and saying why when fewer samples come out."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generators"))
from kg_builder import BAKERY, TEA_ZH, bridge_reply, build_graph, critic_reply, default_script, qa_reply  # noqa: E402

from ragkit.errors import ConfigError, UnknownPluginError  # noqa: E402
from ragkit.llm._embeddings import Embeddings  # noqa: E402
from ragkit.synthesis import DEFAULT_DISTRIBUTION, GenerateOptions, generate  # noqa: E402
from ragkit.synthesis._result import largest_remainder  # noqa: E402
from ragkit.testing import ScriptedJudge  # noqa: E402
from ragkit.types import Persona, TestSample  # noqa: E402


@pytest.fixture(scope="module")
def emb() -> Embeddings:
    return Embeddings(cache=False)


@pytest.fixture(scope="module")
def bakery(emb: Embeddings):
    return build_graph(BAKERY, emb)


@pytest.fixture(scope="module")
def tea(emb: Embeddings):
    return build_graph(TEA_ZH, emb, language="zh")


def test_largest_remainder_is_exact():
    assert largest_remainder({"a": 0.5, "b": 0.3, "c": 0.2}, 10) == {"a": 5, "b": 3, "c": 2}
    assert largest_remainder({"a": 1, "b": 1, "c": 1}, 10) == {"a": 4, "b": 3, "c": 3}
    assert largest_remainder({"a": 1, "b": 0}, 3) == {"a": 3, "b": 0}
    for n in range(0, 40):
        assert sum(largest_remainder(DEFAULT_DISTRIBUTION, n).values()) == n
    assert largest_remainder(DEFAULT_DISTRIBUTION, 10) == {"single_hop": 3, "multi_hop": 2, "abstract": 2,
                                                           "noisy_context": 1, "comparison": 1, "unanswerable": 1}


async def test_exact_count_every_sample_complete(bakery, emb):
    seen: list[TestSample] = []
    judge = ScriptedJudge(default_script)
    result = await generate(bakery, 10, GenerateOptions(progress=False), judge=judge, embeddings=emb,
                            on_sample=seen.append)
    assert result.complete and len(result.samples) == 10 and seen == result.samples
    assert {k: r.kept for k, r in result.report.items()} == largest_remainder(DEFAULT_DISTRIBUTION, 10)
    for s in result.samples:
        assert s.question and s.reference_answer and s.persona and s.style and s.length and s.language == "en"
        assert s.generator.name == s.scenario["generator"]
        for ref in s.reference_contexts:
            assert ref.chunk_id in bakery.g and ref.source
    assert len({s.id for s in result.samples}) == 10
    assert result.usage.total.calls == len(judge.calls)
    assert result.usage.stages["generate/personas"].calls == 1
    assert sum(r.usage.calls for r in result.report.values()) == len(judge.calls) - 1
    # personas once; per candidate one generation call; each LLM check only after every check before it passed
    dropped = sum(r.dropped_total for r in result.report.values())
    calls = Counter(c.prompt_name for c in judge.calls)
    written = calls["generate.qa"] + calls["generate.bridge_qa"] + calls["generate.comparison_qa"]
    assert written == 10 + dropped and calls["generate.personas"] == 1
    # a multi-hop question asked as two (a keyword query run together) is answered part by part: two critic calls
    assert written + calls["generate.bridge_qa"] >= calls["generate.critic"] >= 10
    assert calls["generate.critic"] >= calls["claims.split"] >= 10 - result.report["unanswerable"].kept
    assert calls["generate.question_check"] <= calls["generate.critic"]  # only questions with a pointing word


async def test_same_seed_same_samples(bakery, emb):
    one = await generate(bakery, 6, GenerateOptions(progress=False, seed=7), judge=ScriptedJudge(default_script),
                         embeddings=emb)
    two = await generate(bakery, 6, GenerateOptions(progress=False, seed=7), judge=ScriptedJudge(default_script),
                         embeddings=emb)
    other = await generate(bakery, 6, GenerateOptions(progress=False, seed=8), judge=ScriptedJudge(default_script),
                           embeddings=emb)
    assert [s.model_dump() for s in one.samples] == [s.model_dump() for s in two.samples]
    assert [s.id for s in one.samples] != [s.id for s in other.samples]


async def test_rejected_candidates_are_replaced(bakery, emb):
    """The critic rejects every other candidate; the run still ends with n, and says what it dropped."""
    critic_calls = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.critic":
            critic_calls["n"] += 1
            if critic_calls["n"] % 2 == 1:
                return critic_reply(call.data, answerable=False)
        return default_script(call)

    result = await generate(bakery, 6,
                            GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=1.5),
                            judge=ScriptedJudge(script), embeddings=emb)
    report = result.report["single_hop"]
    assert len(result.samples) == 6 and report.kept == 6
    assert report.dropped == {"not_answerable": 6}
    assert "no passage sentence" in report.examples["not_answerable"]
    assert len(result.dropped_samples) == 6  # each dropped candidate kept whole, with its reason
    assert all(s.metadata["dropped"]["reason"] == "not_answerable" for s in result.dropped_samples)
    assert not {s.id for s in result.dropped_samples} & {s.id for s in result.samples}


async def test_styles_spread_over_kept_samples_whatever_is_dropped(bakery, emb):
    """A replacement takes the dropped candidate's slot and its style: 8 kept samples walk 8 consecutive style x
    length pairs (each of the 4 styles twice), however the drops fall."""
    def pattern(drop_every: int):
        critic_calls = Counter[str]()

        def script(call):
            if call.prompt_name == "generate.critic":
                critic_calls["n"] += 1
                if critic_calls["n"] % drop_every == 0:
                    return critic_reply(call.data, answerable=False)
            return default_script(call)
        return script

    kept = []
    for drop_every in (2, 3, 1000):
        options = GenerateOptions(progress=False, seed=3, distribution={"single_hop": 1.0}, max_drops_per_sample=3)
        result = await generate(bakery, 8, options, judge=ScriptedJudge(pattern(drop_every)), embeddings=emb)
        assert len(result.samples) == 8
        assert Counter(s.style for s in result.samples) == {"formal": 2, "conversational": 2, "web_search": 2,
                                                            "typos": 2}
        kept.append(sorted((s.style, s.length) for s in result.samples))
    assert result.report["single_hop"].dropped_total == 0 and kept[0] == kept[1] == kept[2]


async def test_chinese_styles_spread_without_typos(tea, emb):
    """CJK questions take no typos: 8 kept Chinese samples spread over the other three styles, none on more than 3."""
    options = GenerateOptions(progress=False, seed=3, distribution={"single_hop": 1.0}, max_drops_per_sample=3)
    result = await generate(tea, 8, options, judge=ScriptedJudge(default_script), embeddings=emb)
    styles = Counter(s.style for s in result.samples)
    assert "typos" not in styles and max(styles.values()) <= 3, styles


async def test_language_copy_and_duplicate_drops(tea, emb):
    turn = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.qa":
            turn["qa"] += 1
            reply = qa_reply(call.data)
            if turn["qa"] == 1:
                return {**reply, "question": "What is the situation of the tea garden today?"}  # English
            if turn["qa"] == 2:
                return {**reply, "question": reply["answer"]}  # copies the chunk
            if turn["qa"] in (4, 5):
                return {**reply, "question": "青岚茶业的基本情况是怎样的？"}  # the second is a duplicate
        return default_script(call)

    result = await generate(tea, 3, GenerateOptions(progress=False, distribution={"single_hop": 1.0}),
                            judge=ScriptedJudge(script), embeddings=emb)
    dropped = result.report["single_hop"].dropped
    assert dropped == {"wrong_language": 1, "copies_context": 1, "near_duplicate": 1}
    assert len(result.samples) == 3 and all(s.language == "zh" for s in result.samples)


async def test_judge_errors_and_broken_outputs_are_counted_not_fatal(bakery, emb):
    broken: list[object] = []

    def script(call):
        if call.prompt_name == "generate.qa" and (not broken or call.data == broken[0]):
            broken[:1] = [call.data]
            return "this is not JSON"  # on every re-ask too: a JudgeOutputError for this one candidate
        return default_script(call)

    judge = ScriptedJudge(script)
    result = await generate(bakery, 3, GenerateOptions(progress=False, distribution={"single_hop": 1}), judge=judge,
                            embeddings=emb)
    assert len(result.samples) == 3
    assert result.report["single_hop"].dropped == {"judge_error": 1}
    assert "invalid output" in result.report["single_hop"].examples["judge_error"]
    assert len([c for c in judge.calls if c.data == broken[0]]) == judge.settings.max_reasks + 1


async def test_a_candidate_the_critics_call_fails_on_is_kept_with_its_reason(bakery, emb):
    failed: list[object] = []

    def script(call):
        if call.prompt_name == "generate.critic" and (not failed or call.data == failed[0]):
            failed[:1] = [call.data]
            return "this is not JSON"  # the candidate was written; the critic's call fails on every re-ask
        return default_script(call)

    result = await generate(bakery, 2, GenerateOptions(progress=False, distribution={"single_hop": 1}),
                            judge=ScriptedJudge(script), embeddings=emb)
    assert len(result.samples) == 2 and result.report["single_hop"].dropped == {"judge_error": 1}
    (record,) = result.dropped_samples  # written before the call failed: kept for --dropped, not lost
    assert record.metadata["dropped"]["reason"] == "judge_error" and record.question and record.reference_answer


async def test_unsupported_generator_share_is_redistributed_with_a_note(emb):
    kg = build_graph({k: v for k, v in BAKERY.items() if k in ("company.md", "products.md")}, emb)
    for entity in kg.entities():
        entity.type = "other"  # nothing comparable
    result = await generate(kg, 4, GenerateOptions(progress=False, distribution={"single_hop": 0.5, "comparison": 0.5}),
                            judge=ScriptedJudge(default_script), embeddings=emb)
    assert len(result.samples) == 4
    assert result.report["comparison"].kept == 0 and result.report["single_hop"].kept == 4
    assert any(n.startswith("comparison: cannot run on this graph (no entity type") for n in result.notes)


async def test_spread_across_documents(bakery, emb):
    result = await generate(bakery, 5,
                            GenerateOptions(progress=False, distribution={"single_hop": 1}, max_share_per_document=0.2),
                            judge=ScriptedJudge(default_script), embeddings=emb)
    docs = Counter(s.reference_contexts[0].source for s in result.samples)
    assert len(docs) == 5 and set(docs.values()) == {1}
    assert not result.notes or all("per-document" not in n for n in result.notes)


async def test_small_corpus_relaxes_the_share_and_says_so(emb):
    kg = build_graph({k: v for k, v in BAKERY.items() if k in ("leeds-bakery.md", "bristol-bakery.md")}, emb)
    result = await generate(kg, 4, GenerateOptions(progress=False, distribution={"single_hop": 1}),
                            judge=ScriptedJudge(default_script), embeddings=emb)
    assert len(result.samples) == 4
    assert any("2 documents with text: each may provide up to 2" in n for n in result.notes)


async def test_graph_runs_out_and_says_how_many_and_why(emb):
    kg = build_graph({"one.md": [("The Leeds bakery opened in 2010 and has forty eight staff members.",
                                  [("Leeds", "place")])]}, emb)
    result = await generate(kg, 5, GenerateOptions(progress=False, distribution={"single_hop": 1}),
                            judge=ScriptedJudge(default_script), embeddings=emb)
    assert len(result.samples) == 1 and not result.complete
    assert any(n.startswith("generated 1 of 5 samples") for n in result.notes)
    assert result.report["single_hop"].planned == 1


async def test_empty_graph_gives_a_reason_not_an_exception(emb):
    from ragkit.kg._graph import KnowledgeGraph, SkippedFile

    kg = KnowledgeGraph()
    kg.info.skipped.append(SkippedFile(path="a.pdf", reason="encrypted"))
    result = await generate(kg, 3, GenerateOptions(progress=False), judge=ScriptedJudge([]), embeddings=emb)
    assert result.samples == [] and "no chunks" in result.notes[0] and "1 files were skipped" in result.notes[0]


async def test_user_personas_and_shortfall_moves(bakery, emb):
    personas = [Persona(name="Buyer", description="Buys bread wholesale.")]
    judge = ScriptedJudge(default_script)
    result = await generate(bakery, 4,
                            GenerateOptions(progress=False, personas=personas, distribution={"single_hop": 1}),
                            judge=judge, embeddings=emb)
    assert {s.persona for s in result.samples} == {"Buyer"} and not judge.calls_for("generate.personas")
    assert result.personas == personas


async def test_exhausted_generator_moves_its_count(emb):
    kg = build_graph(BAKERY, emb)
    turn = Counter[str]()

    def script(call):  # every multi-hop candidate quotes one passage only: multi_hop runs dry
        if call.prompt_name == "generate.bridge_qa":
            turn["mh"] += 1
            nowhere = "nothing like the passages at all"
            return {**bridge_reply(call.data), "fact_from_passage_0": nowhere, "fact_from_passage_1": nowhere}
        return default_script(call)

    result = await generate(kg, 4,
                            GenerateOptions(progress=False, distribution={"single_hop": 0.5, "multi_hop": 0.5},
                                            max_drops_per_sample=100),
                            judge=ScriptedJudge(script), embeddings=emb)
    assert len(result.samples) == 4 and result.report["single_hop"].kept == 4
    mh = result.report["multi_hop"]
    assert mh.kept == 0 and mh.dropped == {"quote_not_in_context": mh.planned} and turn["mh"] == mh.planned
    assert any("moved to single_hop" in n for n in mh.notes)


async def test_bad_distribution(bakery, emb):
    with pytest.raises(UnknownPluginError, match="Did you mean: single_hop"):
        await generate(bakery, 2, GenerateOptions(distribution={"single_hopp": 1}), judge=ScriptedJudge([]),
                       embeddings=emb)
    with pytest.raises(ConfigError, match="weight"):
        await generate(bakery, 2, GenerateOptions(distribution={"single_hop": -1}), judge=ScriptedJudge([]),
                       embeddings=emb)
    with pytest.raises(ConfigError, match="every generator weight is 0"):
        await generate(bakery, 2, GenerateOptions(distribution={"single_hop": 0}), judge=ScriptedJudge([]),
                       embeddings=emb)
    with pytest.raises(ConfigError, match="bad arguments for generator 'single_hop'"):
        await generate(bakery, 2,
                       GenerateOptions(distribution={"single_hop": 1}, generator_args={"single_hop": {"nope": 1}}),
                       judge=ScriptedJudge([]), embeddings=emb)


async def test_broken_plugin_generator_is_isolated(bakery, emb):
    from dataclasses import dataclass

    from ragkit.registry import REGISTRY, generator
    from ragkit.synthesis._scenarios import Plan

    @generator(name="test/broken")
    @dataclass(frozen=True)
    class Broken:
        def plan(self, kg, n, rng):
            return Plan([s.model_copy(update={"generator": "test/broken"}) for s in
                         __import__("ragkit.generators.single_hop", fromlist=["x"]).SingleHop().plan(
                             kg, n, rng).scenarios], [])

        async def generate(self, scenario, kg, judge):
            raise RuntimeError("boom")

    try:
        result = await generate(bakery, 3,
                                GenerateOptions(progress=False, distribution={"single_hop": 0.5, "test/broken": 0.5}),
                                judge=ScriptedJudge(default_script), embeddings=emb)
        assert len(result.samples) == 3
        assert result.report["test/broken"].dropped["generator_error"] >= 1
        assert "RuntimeError: boom" in result.report["test/broken"].examples["generator_error"]
    finally:
        REGISTRY.items["generator"].pop("test/broken", None)


async def test_a_generator_that_keeps_failing_is_stopped(bakery, emb):
    def script(call):  # every multi-hop candidate fails the critic: it gives up early, not after every scenario
        if call.prompt_name == "generate.critic" and len(call.data.passages) == 2:
            return critic_reply(call.data, answerable=False)
        return default_script(call)

    judge = ScriptedJudge(script)
    result = await generate(bakery, 4,
                            GenerateOptions(progress=False, distribution={"single_hop": 0.5, "multi_hop": 0.5}),
                            judge=judge, embeddings=emb)
    mh = result.report["multi_hop"]
    assert len(result.samples) == 4 and mh.kept == 0
    # 2 asked: 2 x 2 + 1 drops allowed; candidates already running when it stops may still finish
    assert 5 <= mh.dropped["not_answerable"] <= 5 + judge.settings.concurrency - 1
    assert mh.planned > mh.dropped_total and any(n.startswith("stopped after 5 dropped") for n in mh.notes)
    assert any("moved to single_hop" in n for n in mh.notes)


async def test_when_every_generator_is_stopped_the_best_one_is_reopened_once(bakery, emb):
    """The first four candidates fail: single_hop (alone) is stopped at its allowance, then reopened for the
    missing samples with an allowance of its own; the run still ends with n."""
    critic_calls = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.critic":
            critic_calls["n"] += 1
            if critic_calls["n"] <= 4:
                return critic_reply(call.data, answerable=False)
        return default_script(call)

    options = GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=1)
    result = await generate(bakery, 3, options, judge=_one_at_a_time(script), embeddings=emb)
    report = result.report["single_hop"]
    assert len(result.samples) == 3 and report.dropped == {"not_answerable": 4}
    assert any(n.startswith("stopped after 4 dropped") for n in report.notes)
    assert any("reopened for the last 3 missing samples" in n for n in report.notes)


async def test_a_reopened_generator_is_stopped_again_at_its_new_allowance(bakery, emb):
    def script(call):  # nothing passes: stopped at 3 drops, reopened for 2 samples (3 more drops), stopped
        if call.prompt_name == "generate.critic":
            return critic_reply(call.data, answerable=False)
        return default_script(call)

    judge = _one_at_a_time(script)
    options = GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=1)
    result = await generate(bakery, 2, options, judge=judge, embeddings=emb)
    report = result.report["single_hop"]
    assert result.samples == [] and report.planned > 6 and report.dropped == {"not_answerable": 6}
    assert len(judge.calls_for("generate.critic")) == 6
    assert "stopped after 6 dropped candidates" in report.notes[-2]


async def test_a_generator_that_used_up_its_plan_plans_more(bakery, emb):
    """Every candidate of the first plan fails, with drops to spare: the generator plans twice as many scenarios,
    runs only the new ones, and the run ends with n."""
    from random import Random

    from ragkit.registry import lookup

    # the run's first plan: n = 2 asks single_hop for max(3 * 2, 2 + 5) = 7 scenarios, seeded by name
    first = lookup("generator", "single_hop")().plan(bakery, 7, Random("0:single_hop")).scenarios
    first_keys = {(tuple(s.chunk_ids), s.topic) for s in first}
    critic_calls = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.critic":
            critic_calls["n"] += 1
            if critic_calls["n"] <= len(first):
                return critic_reply(call.data, answerable=False)
        return default_script(call)

    options = GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=10)
    result = await generate(bakery, 2, options, judge=_one_at_a_time(script), embeddings=emb)
    report = result.report["single_hop"]
    assert len(result.samples) == 2 and report.dropped == {"not_answerable": len(first)}
    assert report.planned > len(first)
    assert any(n == f"planned {report.planned - len(first)} more scenarios: the first {len(first)} were used up "
               "with samples missing" for n in report.notes), report.notes
    # the new scenarios ran, not the first plan's again
    assert all((tuple(s.scenario["chunk_ids"]), s.scenario.get("topic")) not in first_keys for s in result.samples)


async def test_a_plan_that_runs_out_at_the_drop_allowance_is_reopened_like_a_stopped_one(bakery, emb):
    """The first plan's 7 candidates all fail, and the 7th drop reaches the allowance (3 x 2 + 1) as the plan runs
    out: the generator was never stopped, yet it gets the last resort a stopped one gets (plan more, reopen)."""
    critic_calls = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.critic":
            critic_calls["n"] += 1
            if critic_calls["n"] <= 7:
                return critic_reply(call.data, answerable=False)
        return default_script(call)

    options = GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=3)
    result = await generate(bakery, 2, options, judge=_one_at_a_time(script), embeddings=emb)
    report = result.report["single_hop"]
    assert len(result.samples) == 2 and report.dropped == {"not_answerable": 7} and report.planned > 7
    assert any(n.startswith("planned ") for n in report.notes)
    assert any("reopened for the last 2 missing samples" in n for n in report.notes), report.notes


async def test_a_generator_plans_again_while_its_plan_grows_and_drops_are_left(bakery, emb):
    """The first plan (7 scenarios) and the second (14: 7 new) all fail; the third (28 asked, the bakery's 16 given:
    2 new) passes, and the run ends with n. Then the plan cannot grow: no fourth."""
    critic_calls = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.critic":
            critic_calls["n"] += 1
            if critic_calls["n"] <= 14:
                return critic_reply(call.data, answerable=False)
        return default_script(call)

    options = GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=10)
    result = await generate(bakery, 2, options, judge=_one_at_a_time(script), embeddings=emb)
    report = result.report["single_hop"]
    assert len(result.samples) == 2 and report.dropped == {"not_answerable": 14} and report.planned == 16
    assert [n for n in report.notes if n.startswith("planned")] == [
        "planned 7 more scenarios: the first 7 were used up with samples missing",
        "planned 2 more scenarios: the first 14 were used up with samples missing"]


async def test_replanning_ends_when_the_plan_cannot_grow(bakery, emb):
    def script(call):  # nothing passes, drops to spare: every one of the bakery's 16 scenarios is tried once
        if call.prompt_name == "generate.critic":
            return critic_reply(call.data, answerable=False)
        return default_script(call)

    judge = _one_at_a_time(script)
    options = GenerateOptions(progress=False, distribution={"single_hop": 1.0}, max_drops_per_sample=20)
    result = await generate(bakery, 2, options, judge=judge, embeddings=emb)
    assert result.samples == [] and result.report["single_hop"].dropped == {"not_answerable": 16}
    assert len(judge.calls_for("generate.critic")) == 16


async def test_a_generator_that_ran_out_plans_again_before_its_samples_move(bakery, emb):
    """single_hop's first plan (6 scenarios) fails and multi_hop never passes: single_hop plans again and keeps both
    samples. Passing its owed sample to multi_hop first lost it: multi_hop was stopped, then reopened, and kept
    none."""
    single_critic = Counter[str]()

    def script(call):
        if call.prompt_name == "generate.critic":
            if len(call.data.passages) == 2:
                return critic_reply(call.data, answerable=False)
            single_critic["n"] += 1
            if single_critic["n"] <= 6:
                return critic_reply(call.data, answerable=False)
        return default_script(call)

    options = GenerateOptions(progress=False, distribution={"single_hop": 0.5, "multi_hop": 0.5},
                              max_drops_per_sample=10)
    result = await generate(bakery, 2, options, judge=_one_at_a_time(script), embeddings=emb)
    single = result.report["single_hop"]
    assert len(result.samples) == 2 and single.kept == 2 and result.report["multi_hop"].kept == 0
    assert single.dropped == {"not_answerable": 6}
    assert "planned 6 more scenarios: the first 6 were used up with samples missing" in single.notes


def _one_at_a_time(script):
    """A scripted judge with one call in flight, so that no candidate is still running when a generator stops."""
    from ragkit.settings import Settings

    return ScriptedJudge(script, settings=Settings(model="openai/scripted-judge", max_retries=3, concurrency=1))
