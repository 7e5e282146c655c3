"""multi_hop: bridge planning, quote checks, fallbacks."""

from __future__ import annotations

from random import Random

import pytest
from kg_builder import bridge_reply, build_graph, default_script

from ragkit.generators.multi_hop import MultiHop
from ragkit.synthesis._phrasing import search_keywords
from ragkit.synthesis._scenarios import SkipScenario
from ragkit.synthesis._writer import both_asked
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


def test_an_entity_in_every_document_bridges_only_when_nothing_else_does():
    hanbit = ("Hanbit", "organization")
    spec = {
        "a.md": [("Hanbit roasts every order at its Gijang plant and ships it within two days of roasting.",
                  [hanbit, ("Gijang", "place")])],
        "b.md": [("Hanbit opened its Gijang plant in 2017 with one roaster and added a second one in 2020.",
                  [hanbit, ("Gijang", "place")])],
        "c.md": [("Hanbit staff work from nine to six on weekdays, with one hour for lunch at noon.", [hanbit])],
    }
    plan = MultiHop().plan(build_graph(spec), 4, Random(0))
    assert plan.scenarios and {s.bridge for s in plan.scenarios} == {"Gijang"}
    assert any("every document: Hanbit" in n for n in plan.notes)
    # with no other bridge, the company's name is still one
    spec["b.md"] = [("Hanbit's work rules took effect on 1 January 2024 for every member of its staff.", [hanbit])]
    assert {s.bridge for s in MultiHop().plan(build_graph(spec), 4, Random(0)).scenarios} == {"Hanbit"}


def test_no_entities_at_all():
    kg = build_graph({"a.md": [("Plain text without any entity at all, long enough to ask about.", [])]})
    plan = MultiHop().plan(kg, 2, Random(0))
    assert plan.scenarios == [] and plan.notes


async def test_generate_needs_quotes_from_both_passages(bakery):
    scenario = MultiHop().plan(bakery, 1, Random(0)).scenarios[0]
    replies = []

    def script(call):
        replies.append(default_script(call))
        return replies[-1]

    sample = await MultiHop().generate(scenario, bakery, ScriptedJudge(script))
    assert [c.chunk_id for c in sample.reference_contexts] == scenario.chunk_ids
    assert len({c.source for c in sample.reference_contexts}) == 2
    assert sample.metadata["passages_quoted"] == [0, 1]
    (reply,) = replies  # the question on each fact, asked together
    assert sample.question == f"{reply['question_about_fact_0']} {reply['question_about_fact_1']}"

    def same_twice(call):  # the second question asks the first again
        reply = bridge_reply(call.data)
        return {**reply, "question_about_fact_1": reply["question_about_fact_0"]}

    with pytest.raises(SkipScenario) as info:
        await MultiHop().generate(scenario, bakery, ScriptedJudge(same_twice))
    assert info.value.reason == "single_passage" and "both questions ask the same" in info.value.detail

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


async def test_two_questions_of_the_longest_length_are_asked_together(bakery):
    from ragkit.synthesis import QUESTION_CHARS
    from ragkit.synthesis._writer import SUB_QUESTION_CHARS

    base = MultiHop().plan(bakery, 1, Random(0)).scenarios[0].model_copy(update={"style": "formal"})

    def script(call):
        reply = bridge_reply(call.data)
        for key in ("question_about_fact_0", "question_about_fact_1"):
            asked = reply[key].rstrip("?") + ", as it is written in the documents of the company" * 4
            reply[key] = asked[: SUB_QUESTION_CHARS - 1] + "?"
        return reply

    sample = await MultiHop().generate(base, bakery, ScriptedJudge(script))
    assert len(sample.question) > QUESTION_CHARS  # the two joined are longer than one question may be written


async def test_each_question_is_put_in_the_style_and_recorded_apart(bakery, tea):
    base = MultiHop().plan(bakery, 1, Random(0)).scenarios[0]
    replies = []

    def script(call):
        replies.append(bridge_reply(call.data))
        return replies[-1]

    sample = await MultiHop().generate(base.model_copy(update={"style": "web_search"}), bakery, ScriptedJudge(script))
    first, second = replies[0]["question_about_fact_0"], replies[0]["question_about_fact_1"]
    # each question is cut to its keywords apart, so that the second is not lost to the first's word cap
    assert sample.metadata["questions"] == [search_keywords(first, "en"), search_keywords(second, "en")]
    assert sample.question == ", ".join(sample.metadata["questions"])
    assert sample.metadata["question_before_web_search"] == f"{first} {second}"

    # a CJK question is not cut to keywords: the two stay questions, asked together
    zh = MultiHop().plan(tea, 1, Random(0)).scenarios[0].model_copy(update={"style": "web_search"})
    replies.clear()
    sample = await MultiHop().generate(zh, tea, ScriptedJudge(script))
    parts = [replies[0]["question_about_fact_0"], replies[0]["question_about_fact_1"]]
    assert sample.metadata["questions"] == parts and sample.question == both_asked(*parts)

    sample = await MultiHop().generate(base.model_copy(update={"style": "typos"}), bakery, ScriptedJudge(script))
    assert sample.question == " ".join(sample.metadata["questions"]) != " ".join([first, second])
    assert all(q.endswith("?") for q in sample.metadata["questions"])


def test_each_fact_is_decoded_among_its_own_passage_s_sentences_that_name_the_bridge():
    from ragkit.synthesis._facts import fact_choices

    passages = ["(from: Guide > Arms)\nThe Heron H6 has a reach of 850 mm. The Heron H6 lifts 6 kg. Acme sells "
                "grippers.", "The Heron H6 runs on the CB-2 controller. Reach: 850 mm. Orders close in March."]
    choices = fact_choices(passages, "Heron H6")
    # the heading is no fact; the reach is in both passages (one would answer the question); only sentences that
    # name the bridge are offered
    assert choices["fact_from_passage_0"] == ["The Heron H6 lifts 6 kg."]
    assert choices["fact_from_passage_1"] == ["The Heron H6 runs on the CB-2 controller."]
    # a passage that never names the bridge offers its sentences, but those that state the other's fact again
    loose = fact_choices(passages, "Kestrel K10")
    assert loose["fact_from_passage_1"] == ["The Heron H6 runs on the CB-2 controller.", "Orders close in March."]
    # a passage whose every sentence is too long or repeats the other's leaves its fact free
    assert "fact_from_passage_0" not in fact_choices(["Reach: 850 mm.", passages[1]], "Heron H6")
    assert "fact_from_passage_1" not in fact_choices([passages[0], "x" * 201 + "."], "Heron H6")


def test_a_heading_is_never_offered_as_a_fact(bakery):
    from ragkit.synthesis import headings_of
    from ragkit.synthesis._facts import fact_choices

    passages = ["Milestones\n- 2015 – The Heron H6 is unveiled in Hannover.",
                "2. Main specifications\n\nReach | 850 mm"]
    # a bridge named in neither passage: every sentence is offered, but no heading
    choices = fact_choices(passages, "Acme", headings={"Milestones", "2. Main specifications"})
    assert choices == {"fact_from_passage_0": ["- 2015 – The Heron H6 is unveiled in Hannover."],
                       "fact_from_passage_1": ["Reach | 850 mm"]}
    before = fact_choices(passages, "Acme")
    assert "Milestones" in before["fact_from_passage_0"] and "2. Main specifications" in before["fact_from_passage_1"]
    # a heading recorded without its number is the numbered line still
    assert fact_choices(passages, "Acme", headings={"Milestones", "Main specifications"}) == choices
    # the graph's documents give their titles and section headings
    chunk = bakery.chunks()[0]
    headings = headings_of(bakery, [chunk.id])
    assert bakery.document(chunk.doc_id).title in headings
    assert set(chunk.heading_path) <= headings


def test_the_chinese_bridge_facts_are_sentences_of_each_passage():
    from ragkit.synthesis._facts import fact_choices

    passages = ["龙井茶产自杭州西湖。它的采摘期在清明前后。", "青岚茶业每年收购龙井茶五百斤。公司位于杭州。"]
    choices = fact_choices(passages, "龙井茶")
    assert choices == {"fact_from_passage_0": ["龙井茶产自杭州西湖。"],
                       "fact_from_passage_1": ["青岚茶业每年收购龙井茶五百斤。"]}


async def test_the_bridge_writer_is_decoded_under_the_choices_and_the_prompt_shows_the_plain_schema(bakery):
    scenario = MultiHop().plan(bakery, 1, Random(0)).scenarios[0]
    seen = []

    def script(call):
        if call.prompt_name == "generate.bridge_qa":
            seen.append(call)
        return default_script(call)

    await MultiHop().generate(scenario, bakery, ScriptedJudge(script))
    (call,) = seen
    props = call.schema["properties"]
    for k in (0, 1):
        options = props[f"fact_from_passage_{k}"]["enum"]
        assert options and all(o in call.data.model_dump()[f"passage_{k}"] for o in options)
    assert "enum" not in call.messages[0]["content"]  # the prompt shows the plain schema (and its hash stays)
    assert "enum" not in props["question_about_fact_0"]


@pytest.mark.parametrize(("first", "second", "joined"), [
    ("What does the Wren W300 carry?", "Where is the Wren W300 built?",
     "What does the Wren W300 carry? Where is the Wren W300 built?"),
    ("What does the Wren W300 carry", "Where is it built?", "What does the Wren W300 carry? Where is it built?"),
    ("龙井茶产自哪里", "青岚茶业每年收购多少龙井茶？", "龙井茶产自哪里？青岚茶业每年收购多少龙井茶？"),
    ("浜松工場では何を作りますか？", "従業員は何人ですか？", "浜松工場では何を作りますか？従業員は何人ですか？"),
    ("성수점은 어디에 있나요?", "성수점의 영업시간은 언제인가요?",
     "성수점은 어디에 있나요? 성수점의 영업시간은 언제인가요?"),
    ("Wren W300 payload", "Wren W300 factory", "Wren W300 payload Wren W300 factory"),  # keywords, run together
])
def test_two_questions_are_asked_together_in_any_language(first, second, joined):
    from ragkit.synthesis._writer import both_asked, questions_of

    assert both_asked(f" {first} ", second) == joined
    # the critic asks them apart again; keywords stay one query
    expected = [joined] if joined.startswith("Wren W300 payload") else [first.strip().rstrip("?？") + joined[
        len(first.strip().rstrip("?？"))], second]
    assert questions_of(joined) == expected
    assert questions_of(second) == [second]  # one mark: one question


def test_a_japanese_question_ending_in_a_full_stop_joins_with_no_space():
    from ragkit.synthesis._writer import both_asked, questions_of

    joined = both_asked("浜松工場では何を作りますか。", "従業員は何人ですか？")
    assert joined == "浜松工場では何を作りますか。従業員は何人ですか？"
    assert questions_of(joined) == ["浜松工場では何を作りますか。", "従業員は何人ですか？"]  # "か。" asks too
