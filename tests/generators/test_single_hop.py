"""single_hop: planning on hand-built graphs, generation with a scripted model."""

from __future__ import annotations

import asyncio
from random import Random

import pytest
from kg_builder import BAKERY, TEA_ZH, build_graph, default_script, qa_reply

from ragkit.generators.single_hop import SingleHop, SingleHopScenario
from ragkit.testing import ScriptedJudge
from ragkit.types import Persona


def test_plan_is_reproducible_and_seed_dependent(bakery):
    gen = SingleHop()
    a = gen.plan(bakery, 6, Random(1)).scenarios
    b = gen.plan(bakery, 6, Random(1)).scenarios
    c = gen.plan(bakery, 6, Random(2)).scenarios
    assert [s.model_dump() for s in a] == [s.model_dump() for s in b]
    assert [(s.chunk_ids, s.topic) for s in a] != [(s.chunk_ids, s.topic) for s in c]


def test_plan_spreads_across_documents_before_repeating(bakery):
    plan = SingleHop().plan(bakery, 5, Random(0))
    docs = [bakery.chunk(s.chunk_ids[0]).doc_id for s in plan.scenarios]
    assert len(plan.scenarios) == 5 and len(set(docs)) == 5  # five documents, one scenario each
    every = SingleHop().plan(bakery, 9, Random(0)).scenarios
    assert len({s.chunk_ids[0] for s in every}) == 9  # every chunk once before any chunk twice


def test_plan_asks_about_entities_and_records_language(tea):
    plan = SingleHop().plan(tea, 3, Random(0))
    for s in plan.scenarios:
        names = [e.name for e in tea.entities_of(s.chunk_ids[0])]
        assert s.topic in names
        assert s.language == "zh"


def test_plan_says_why_when_chunks_are_too_short():
    kg = build_graph({"tiny.md": [("Too short.", [])]})
    plan = SingleHop().plan(kg, 3, Random(0))
    assert plan.scenarios == []
    assert "no chunk has 8 or more words" in plan.notes[0]


def test_plan_returns_fewer_with_a_note_on_a_small_graph():
    kg = build_graph({"a.md": [("The Leeds bakery opened in 2010 and has forty eight staff members.", [])]})
    plan = SingleHop().plan(kg, 5, Random(0))
    assert len(plan.scenarios) == 1  # one chunk, no topic: asked once
    assert plan.scenarios[0].topic is None
    assert "only 1 chunk has enough text" in plan.notes[0]


async def test_generate_builds_a_complete_sample(bakery):
    scenario = SingleHop().plan(bakery, 1, Random(0)).scenarios[0].model_copy(
        update={"persona": Persona(name="Auditor", description="Checks facts."), "style": "formal"})
    judge = ScriptedJudge(default_script)
    sample = await SingleHop().generate(scenario, bakery, judge)
    assert isinstance(scenario, SingleHopScenario)
    assert sample.question and sample.reference_answer
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    assert sample.reference_contexts[0].source.endswith(".md")
    assert sample.generator.name == "single_hop" and sample.generator.args["min_tokens"] == 8
    assert sample.scenario["topic"] == scenario.topic and sample.persona == "Auditor"
    assert sample.language == "en" and sample.style == "formal"
    (call,) = judge.calls_for("generate.qa")
    assert "English (en)" in call.data.language and scenario.topic in call.data.topic


def test_the_writer_calling_its_asker_by_name_is_not_kept_in_the_question(bakery):
    scenario = SingleHop().plan(bakery, 1, Random(0)).scenarios[0].model_copy(
        update={"persona": Persona(name="Bakery auditor", description="Checks facts."), "style": "formal"})

    def called(question: str) -> str:
        judge = ScriptedJudge(lambda call: {**qa_reply(call.data), "question": question})
        return asyncio.run(SingleHop().generate(scenario, bakery, judge)).question

    assert called("Bakery auditor, when did the Leeds bakery open?") == "When did the Leeds bakery open?"
    # a question about the asker stays as written, for the critic's addresses_persona
    assert called("Bakery auditor, when did you visit Leeds?") == "Bakery auditor, when did you visit Leeds?"


async def test_chinese_chunks_ask_for_chinese(tea):
    scenario = SingleHop().plan(tea, 1, Random(0)).scenarios[0]
    judge = ScriptedJudge(default_script)
    await SingleHop().generate(scenario, tea, judge)
    (call,) = judge.calls_for("generate.qa")
    assert "Chinese (zh)" in call.data.language and "中文" in call.data.language


def test_typos_style_edits_the_question_deterministically(bakery):
    scenario = SingleHop().plan(bakery, 1, Random(0)).scenarios[0].model_copy(update={"style": "typos"})
    one = asyncio.run(SingleHop().generate(scenario, bakery, ScriptedJudge(default_script)))
    two = asyncio.run(SingleHop().generate(scenario, bakery, ScriptedJudge(default_script)))
    assert one.question == two.question
    assert one.question != one.metadata["question_before_typos"]


async def test_web_search_style_keeps_the_content_words(bakery, tea):
    scenario = SingleHop().plan(bakery, 1, Random(0)).scenarios[0].model_copy(update={"style": "web_search"})
    full = "How many loaves does the Leeds bakery bake each day?"
    judge = ScriptedJudge(lambda call: {**qa_reply(call.data), "question": full})
    sample = await SingleHop().generate(scenario, bakery, judge)
    assert sample.question == "loaves Leeds bakery bake day"
    assert sample.metadata["question_before_web_search"] == full
    zh = SingleHop().plan(tea, 1, Random(0)).scenarios[0].model_copy(update={"style": "web_search"})
    sample = await SingleHop().generate(zh, tea, ScriptedJudge(default_script))
    assert "question_before_web_search" not in sample.metadata  # Chinese questions are left as written


@pytest.mark.parametrize(("question", "language", "keywords"), [
    ("What is Acme Robotics' headquarters location?", "en", "Acme Robotics headquarters location"),
    ("When was Firmware 4.0 released for the Kestrel K10?", "en", "Firmware 4.0 released Kestrel K10"),
    ("Wo ist der Hauptsitz von Acme Robotics?", "de", "Hauptsitz Acme Robotics"),
    ("What is it?", "en", "What is it?"),
    ("龙坞茶园建于哪一年？", "zh", "龙坞茶园建于哪一年？"),
    ("What is it about?", "xx", "What is it about?"),
])
def test_search_keywords(question, language, keywords):
    from ragkit.synthesis._phrasing import search_keywords

    assert search_keywords(question, language) == keywords


@pytest.mark.parametrize(("question", "language", "expected"), [
    ("리프레시 휴가는 어떻게 계산됩니다?", "ko", "리프레시 휴가는 어떻게 계산됩니까?"),
    ("경조 휴가는 어떻게 정의되어 있습니다？", "ko", "경조 휴가는 어떻게 정의되어 있습니까？"),
    ("직원은 몇 명입니까?", "ko", "직원은 몇 명입니까?"),
    ("직원은 85명입니다.", "ko", "직원은 85명입니다."),  # a statement stays one (the critic's business)
    ("What is it? ", "en", "What is it?"),
])
def test_a_korean_question_gets_the_question_ending(question, language, expected):
    from ragkit.synthesis._phrasing import asked

    assert asked(question, language) == expected


def test_registered_name():
    from ragkit.registry import lookup

    assert lookup("generator", "single_hop") is SingleHop


def test_tea_spec_has_one_cross_document_entity():
    kg = build_graph(TEA_ZH)
    assert {len({c.doc_id for c in kg.chunks_mentioning(e.id)}) for e in kg.entities()} == {1, 2}
    assert BAKERY  # the English corpus is the default fixture
