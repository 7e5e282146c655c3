"""abstract: groups of related chunks and their shared theme."""

from __future__ import annotations

from random import Random

from kg_builder import BAKERY, build_graph, default_script

from ragkit.generators.abstract import Abstract
from ragkit.testing import ScriptedJudge


def test_groups_related_chunks_preferring_other_documents(bakery):
    plan = Abstract().plan(bakery, 4, Random(0))
    assert len(plan.scenarios) == 4
    for s in plan.scenarios:
        assert 2 <= len(s.chunk_ids) <= 3 and len(set(s.chunk_ids)) == len(s.chunk_ids)
        assert len({bakery.chunk(c).doc_id for c in s.chunk_ids}) >= 2
        assert s.theme
    assert len({frozenset(s.chunk_ids) for s in plan.scenarios}) == 4


def test_works_without_similar_edges_or_embeddings():
    kg = build_graph(BAKERY, None)  # no embeddings, no similar edges: shares_entity edges relate chunks
    plan = Abstract().plan(kg, 3, Random(0))
    assert len(plan.scenarios) == 3


def test_says_why_when_nothing_is_related():
    kg = build_graph({
        "a.md": [("A long enough chunk about ovens and the baking schedule of the whole bakery in the early "
                  "morning hours before the shops open their doors to customers.", [])],
    })
    plan = Abstract().plan(kg, 2, Random(0))
    assert plan.scenarios == [] and "two or more chunks" in plan.notes[0]
    kg2 = build_graph({
        "a.md": [("A long enough chunk about ovens and the baking schedule of the whole bakery in the early "
                  "morning hours before the shops open their doors to customers.", [])],
        "b.md": [("Another long chunk on delivery vans, their drivers, routes and the fuel they use every "
                  "single week across the region and the neighbouring counties too.", [])],
    })
    plan2 = Abstract().plan(kg2, 2, Random(0))
    assert plan2.scenarios == [] and "no related chunks" in plan2.notes[0]


async def test_generate_cites_every_chunk(bakery):
    scenario = Abstract().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await Abstract().generate(scenario, bakery, judge)
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    assert judge.calls_for("generate.qa")[0].data.topic == scenario.theme
