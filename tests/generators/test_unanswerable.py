"""unanswerable: on-topic questions without an answer in the corpus."""

from __future__ import annotations

from random import Random

from kg_builder import default_script

from ragkit.generators.unanswerable import Unanswerable
from ragkit.testing import ScriptedJudge


def test_plan_adds_an_on_topic_neighbour(bakery):
    plan = Unanswerable().plan(bakery, 4, Random(0))
    assert len(plan.scenarios) == 4
    for s in plan.scenarios:
        assert len(s.chunk_ids) == 2 and s.chunk_ids[0] != s.chunk_ids[1]


async def test_sample_is_marked_unanswerable_with_a_refusal(bakery):
    scenario = Unanswerable().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await Unanswerable().generate(scenario, bakery, judge)
    assert sample.metadata["answerable"] is False
    assert "do not say" in sample.reference_answer
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    assert judge.calls_for("generate.unanswerable")


async def test_chinese_refusal(tea):
    scenario = Unanswerable().plan(tea, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await Unanswerable().generate(scenario, tea, judge)
    assert "Chinese (zh)" in judge.calls[0].data.language
    assert "没有" in sample.reference_answer
