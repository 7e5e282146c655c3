"""multi_hop: bridge planning, quote checks, fallbacks."""

from __future__ import annotations

from random import Random

import pytest
from kg_builder import bridge_reply, build_graph, default_script

from ragkit.generators.multi_hop import MultiHop
from ragkit.synthesis._scenarios import SkipScenario
from ragkit.testing import ScriptedJudge


def test_pairs_are_bridged_by_a_shared_entity_across_documents(bakery):
    plan = MultiHop().plan(bakery, 8, Random(0))
    assert len(plan.scenarios) == 8
    for s in plan.scenarios:
        a, b = s.chunk_ids
        assert bakery.chunk(a).doc_id != bakery.chunk(b).doc_id
        assert s.bridge_id in {e.id for e in bakery.entities_of(a)} & {e.id for e in bakery.entities_of(b)}
        assert s.cross_document
    assert len({frozenset(s.chunk_ids) for s in plan.scenarios}) == 8  # no pair twice
    assert len({s.bridge for s in plan.scenarios}) >= 4  # bridges take turns


def test_plan_is_reproducible(bakery):
    one = [s.model_dump() for s in MultiHop().plan(bakery, 5, Random(3)).scenarios]
    two = [s.model_dump() for s in MultiHop().plan(bakery, 5, Random(3)).scenarios]
    assert one == two


def test_says_why_when_no_entity_spans_two_documents():
    kg = build_graph({
        "a.md": [("Anna Berg runs the lab in Oslo and hires two technicians every year for the spring season.",
                  [("Anna Berg", "person")]),
                 ("The lab has four rooms and one freezer that holds samples at minus eighty degrees.", []),
                 ("Anna Berg also teaches a course on microscopy every autumn term at the university.",
                  [("Anna Berg", "person")])],
        "b.md": [("The Bergen office sells microscopes and lenses to schools across western Norway.", [])],
    })
    plan = MultiHop().plan(kg, 3, Random(0))
    assert "no entity is mentioned in two different documents" in plan.notes[0]
    assert len(plan.scenarios) == 1 and not plan.scenarios[0].cross_document  # same-document fallback, said so
    assert any("same document" in n for n in plan.notes)
    assert MultiHop(same_document=False).plan(kg, 3, Random(0)).scenarios == []


def test_no_entities_at_all():
    kg = build_graph({"a.md": [("Plain text without any entity at all, long enough to ask about.", [])]})
    plan = MultiHop().plan(kg, 2, Random(0))
    assert plan.scenarios == [] and plan.notes


async def test_generate_needs_quotes_from_both_passages(bakery):
    scenario = MultiHop().plan(bakery, 1, Random(0)).scenarios[0]
    sample = await MultiHop().generate(scenario, bakery, ScriptedJudge(default_script))
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    assert len({c.source for c in sample.reference_contexts}) == 2
    assert sample.metadata["passages_quoted"] == [0, 1]

    def one_sided(call):  # both facts copied from passage [0]
        reply = bridge_reply(call.data)
        return {**reply, "fact_from_passage_1": reply["fact_from_passage_0"]}

    with pytest.raises(SkipScenario) as info:
        await MultiHop().generate(scenario, bakery, ScriptedJudge(one_sided))
    assert info.value.reason == "single_passage"

    def invented(call):
        nowhere = "a sentence that appears nowhere in the passages"
        return {**bridge_reply(call.data), "fact_from_passage_0": nowhere, "fact_from_passage_1": nowhere}

    with pytest.raises(SkipScenario) as info:
        await MultiHop().generate(scenario, bakery, ScriptedJudge(invented))
    assert info.value.reason == "quote_not_in_context"
