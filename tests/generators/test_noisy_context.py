"""noisy_context: distractors from other documents, marked, never about the topic."""

from __future__ import annotations

from random import Random

from kg_builder import build_graph, default_script

from ragkit.generators.noisy_context import NoisyContext
from ragkit.testing import ScriptedJudge


def test_distractors_come_from_other_documents_and_avoid_the_topic(bakery):
    plan = NoisyContext().plan(bakery, 6, Random(0))
    assert len(plan.scenarios) == 6
    for s in plan.scenarios:
        real = bakery.chunk(s.chunk_ids[0])
        assert len(s.distractor_ids) == 2 and real.id not in s.distractor_ids
        assert sorted(s.context_order) == sorted([real.id, *s.distractor_ids])
        for d in s.distractor_ids:
            assert bakery.chunk(d).doc_id != real.doc_id
            assert not s.topic or s.topic.lower() not in bakery.chunk(d).text.lower()


def test_single_document_uses_distant_chunks_and_says_so():
    text = "Paragraph {} of the manual explains step {} of the installation in plain, careful detail."
    kg = build_graph({"manual.md": [(text.format(i, i), []) for i in range(5)]})
    plan = NoisyContext().plan(kg, 2, Random(0))
    assert plan.scenarios and any("one document" in n for n in plan.notes)
    for s in plan.scenarios:
        real = kg.chunk(s.chunk_ids[0])
        assert all(abs(kg.chunk(d).index - real.index) > 1 for d in s.distractor_ids)


async def test_sample_marks_distractors(bakery):
    scenario = NoisyContext().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await NoisyContext().generate(scenario, bakery, judge)
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.context_order
    marked = {c.chunk_id for c in sample.reference_contexts if c.distractor}
    assert marked == set(scenario.distractor_ids)
    assert len(judge.calls_for("generate.qa")[0].data.passages) == 1  # the question sees the real chunk only
