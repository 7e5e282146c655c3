"""comparison: same-type entity pairs."""

from __future__ import annotations

from random import Random

from kg_builder import build_graph, default_script

from ragkit.generators.comparison import Comparison, nested_names
from ragkit.synthesis._facts import comparison_choices
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
    # a CJK name written with a character left out is the same thing: 杭州市西湖区 and 杭州西湖区
    assert nested_names("杭州市西湖区", "杭州西湖区") and nested_names("湖州安吉县", "湖州市安吉县")
    assert not nested_names("龙坞茶园", "安吉茶园") and not nested_names("Porto Plant", "Sheffield Plant")
    assert not nested_names("浜松工場", "浜松第二工場")  # two plants


def test_names_of_one_kind_pair_whatever_the_tagger_typed_them_and_come_first():
    kg = build_graph({"a.md": [("The Heron H6 lifts 6 kg. Maria Okafor and Tom Reed run the Leeds site.",
                                [("Heron H6", "person"), ("Maria Okafor", "person"), ("Tom Reed", "person")])],
                      "b.md": [("The Heron H7 lifts 7 kg and ships in 2025, said Ana Costa.",
                                [("Heron H7", "organization"), ("Ana Costa", "person")])]})
    scenarios = Comparison().plan(kg, 4, Random(0)).scenarios
    assert scenarios[0].entities in (["Heron H6", "Heron H7"], ["Heron H7", "Heron H6"])
    assert scenarios[0].entity_type == "same kind by name"
    assert any(s.entity_type == "person" for s in scenarios[1:])  # typed pairs still follow


async def test_generate_asks_to_compare_both(bakery):
    scenario = Comparison().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await Comparison().generate(scenario, bakery, judge)
    call = judge.calls_for("generate.comparison_qa")[0]
    assert [call.data.first, call.data.second] == scenario.entities
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    assert sample.metadata["quotes"] and all(q in " ".join(call.data.passages) for q in sample.metadata["quotes"])


def test_each_fact_is_decoded_among_the_sentences_that_name_its_thing():
    two = ["(from: Specs)\nThe Wren W300 carries 300 kg. Its battery lasts 10 hours.",
           "The Kestrel K10 lifts 10 kg.\nPrice list\nThe Heron H6 lifts 6 kg."]
    choices = comparison_choices(two, "Wren W300", "Kestrel K10", headings={"Price list"})
    assert choices == {"fact_about_first": ["The Wren W300 carries 300 kg."],  # not the heading line "(from: …)"
                       "fact_about_second": ["The Kestrel K10 lifts 10 kg."]}  # not the other passage's
    one = ["The W300 carries 300 kg and the K10 lifts 10 kg. Both ship from Porto."]
    both = comparison_choices(one, "W300", "K10")
    assert both["fact_about_first"] == both["fact_about_second"] == [
        "The W300 carries 300 kg and the K10 lifts 10 kg."]  # one sentence naming both may serve for both
    unnamed = comparison_choices(["It carries 300 kg. It is blue.", "It lifts 10 kg."], "Wren W300", "Kestrel K10")
    assert unnamed["fact_about_first"] == ["It carries 300 kg.", "It is blue."]  # none names it: any sentence
