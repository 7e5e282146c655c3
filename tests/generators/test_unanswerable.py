"""unanswerable: a real question about one entity, asked of another entity of the same type."""

from __future__ import annotations

from random import Random

import pytest
from kg_builder import build_graph, default_script, qa_reply

from ragkit.generators.unanswerable import REFUSALS, Unanswerable, find_name
from ragkit.synthesis._scenarios import SkipScenario
from ragkit.testing import ScriptedJudge


def test_plan_pairs_entities_of_one_type(bakery):
    plan = Unanswerable().plan(bakery, 6, Random(0))
    assert len(plan.scenarios) == 6
    for s in plan.scenarios:
        target = {e.name for e in bakery.entities_of(s.chunk_ids[0])}
        source = {e.name for e in bakery.entities_of(s.source_chunk)}
        assert s.topic in target and s.topic not in source
        assert s.pattern in source and s.pattern not in target
        types = {e.type for e in bakery.entities() if e.name in (s.topic, s.pattern)}
        assert len(types) == 1 and not types & {"other"}
    assert len({s.topic for s in plan.scenarios}) == 6  # each entity asked about once


def test_plan_asks_of_the_same_kind_first_and_never_of_the_same_thing(graph_builder):
    # the tagger typed the H7 a person and both arms' neighbours of the H6 products; "Heron" alone is the H6's
    # maker's short name, and "Wren Lab" a place of the same type as nothing else
    kg = graph_builder({
        "h6.md": [("The Heron H6 arm carries 7 kg and reaches 900 mm. Heron ships it with the CB-3 controller.",
                   [("Heron H6", "product"), ("Heron", "product"), ("CB-3", "product")])],
        "h7.md": [("The Heron H7 arm carries 12 kg and is built at the Wren Lab in Porto.",
                   [("Heron H7", "person"), ("Wren Lab", "place"), ("Porto", "place")])],
        "tools.md": [("The Finch gripper and the Lark camera are sold as options for every arm.",
                      [("Finch", "product"), ("Lark", "product")])],
    })
    plan = Unanswerable().plan(kg, 4, Random(0))
    pairs = [(s.pattern, s.topic) for s in plan.scenarios]
    assert pairs[0] in {("Heron H6", "Heron H7"), ("Heron H7", "Heron H6")}  # plainly one kind, across types
    assert not {frozenset(p) for p in pairs} & {frozenset({"Heron", "Heron H6"})}  # one thing by two names


def test_plan_is_reproducible(bakery):
    one = [s.model_dump() for s in Unanswerable().plan(bakery, 4, Random(1)).scenarios]
    assert one == [s.model_dump() for s in Unanswerable().plan(bakery, 4, Random(1)).scenarios]


def test_says_why_without_two_named_entities_of_a_type():
    kg = build_graph({"a.md": [("Only Anna Berg works in this small laboratory, every single weekday.",
                                [("Anna Berg", "person")])]})
    plan = Unanswerable().plan(kg, 2, Random(0))
    assert plan.scenarios == [] and "no two such entities" in plan.notes[0]


async def test_the_question_about_a_is_asked_about_b(bakery):
    scenario = Unanswerable().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    sample = await Unanswerable().generate(scenario, bakery, judge)
    assert scenario.topic in sample.question and scenario.pattern not in sample.question
    assert scenario.pattern in sample.metadata["original_question"]
    assert sample.metadata["answerable"] is False and sample.reference_answer == REFUSALS["en"]
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    (call,) = judge.calls_for("generate.qa")
    assert call.data.topic == scenario.pattern and "passage [0]" in call.data.task
    assert '"answer"' not in call.messages[0]["content"]  # the question alone: the answer would not be kept


async def test_skips_when_the_question_does_not_name_the_entity(bakery):
    scenario = Unanswerable().plan(bakery, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(lambda call: {**qa_reply(call.data), "question": "How old is it?"})
    with pytest.raises(SkipScenario) as info:
        await Unanswerable().generate(scenario, bakery, judge)
    assert info.value.reason == "topic_not_named"


async def test_skips_a_question_that_the_other_name_makes_too_long(bakery):
    from ragkit.synthesis import QUESTION_CHARS

    scenario = Unanswerable().plan(bakery, 1, Random(0)).scenarios[0]
    scenario = scenario.model_copy(update={"topic": scenario.topic + " of the long-named kind" * 4})
    padded = f"What, in a few words and as plainly as possible, does {scenario.pattern} offer?"
    padded += " Please say." * ((QUESTION_CHARS - len(padded)) // 12)
    assert len(padded) <= QUESTION_CHARS
    judge = ScriptedJudge(lambda call: {**qa_reply(call.data), "question": padded})
    with pytest.raises(SkipScenario) as info:
        await Unanswerable().generate(scenario, bakery, judge)
    assert info.value.reason == "question_too_long"


@pytest.mark.parametrize(("name", "text", "found"), [
    ("Heron H6", "What is the payload of the heron h6?", "heron h6"),
    ("Heron H6", "What is the payload of the Heron-H6 arm?", "Heron-H6"),
    ("Kestrel K10", "When did the Kestral K10 ship?", "Kestral K10"),
    ("Heron H6", "What is the payload of the arm?", None),
    ("Leeds", "Where is Leeds?", "Leeds"),
    ("York", "Where is Yorkshire?", None),
    ("龙坞茶园", "龙坞茶园建于哪一年？", "龙坞茶园"),
    ("AB", "Where is ABC?", None),
    ("AB", "Where is AB's office?", "AB"),
    ("AB", "Where is it?", None),
])
def test_find_name(name, text, found):
    span = find_name(name, text)
    assert (text[span[0]:span[1]] if span else None) == found


async def test_chinese_refusal(tea):
    scenario = Unanswerable().plan(tea, 1, Random(0)).scenarios[0]
    sample = await Unanswerable().generate(scenario, tea, ScriptedJudge(default_script))
    assert sample.language == "zh" and sample.reference_answer == REFUSALS["zh"]
