"""comparison: same-type entity pairs."""

from __future__ import annotations

from random import Random

from kg_builder import build_graph, default_script

from ragkit.generators.comparison import Comparison, nested_names
from ragkit.testing import ScriptedJudge


def test_pairs_have_the_same_comparable_type(bakery):
    plan = Comparison().plan(bakery, 6, Random(0))
    assert len(plan.scenarios) == 6
    for s in plan.scenarios:
        a, b = s.entity_ids
        assert bakery.entity(a).type == bakery.entity(b).type == s.entity_type
        assert s.entity_type in {"person", "place", "product", "organization"}
        mentioned = {e.id for c in s.chunk_ids for e in bakery.entities_of(c)}
        assert {a, b} <= mentioned
    counts: dict[str, int] = {}
    for s in plan.scenarios:
        for e in s.entity_ids:
            counts[e] = counts.get(e, 0) + 1
    assert max(counts.values()) <= 2  # no entity dominates


def test_says_why_without_comparable_entities():
    kg = build_graph({"a.md": [("Sales rose in 2021 and again in 2022 by ten percent each year overall.",
                                [("2021", "date"), ("2022", "date"), ("ten percent", "percent")])]})
    plan = Comparison().plan(kg, 2, Random(0))
    assert plan.scenarios == []
    assert "no entity type has two entities to compare" in plan.notes[0]


def test_a_name_inside_another_is_not_a_pair():
    kg = build_graph({"a.md": [("安吉白茶 is a 白茶 grown in Anji; Longjing is grown in Longwu near Hangzhou.",
                                [("安吉白茶", "product"), ("白茶", "product"), ("Longjing", "product")])]})
    pairs = {tuple(s.entities) for s in Comparison().plan(kg, 3, Random(0)).scenarios}
    assert pairs and all(not nested_names(a, b) for a, b in pairs)
    assert nested_names("Kestrel K10", "kestrel") and not nested_names("Kestrel", "Heron")


async def test_generate_asks_to_compare_both(bakery):
    scenario = Comparison().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await Comparison().generate(scenario, bakery, judge)
    task = judge.calls_for("generate.qa")[0].data.task
    assert all(name in task for name in scenario.entities)
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
