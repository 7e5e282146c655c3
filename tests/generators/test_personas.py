"""Personas from document clusters or a file; the phrasing plan."""

from __future__ import annotations

import json
from collections import Counter
from random import Random

import numpy as np
import pytest
from kg_builder import BAKERY, build_graph, persona_reply

from ragkit.errors import DataError
from ragkit.generators.single_hop import SingleHop
from ragkit.synthesis._personas import (
    PersonaOut,
    PersonaPool,
    Phrasing,
    cluster,
    common_subject,
    fallback_persona,
    load_personas,
    persona_prompt,
    personas_from_graph,
)
from ragkit.synthesis._phrasing import ANY_READER
from ragkit.testing import ScriptedJudge
from ragkit.types import Persona


def test_cluster_is_deterministic_and_separates_groups():
    rng = np.random.default_rng(0)
    a = rng.normal([5, 0, 0], 0.3, size=(6, 3))
    b = rng.normal([0, 5, 0], 0.3, size=(5, 3))
    m = np.vstack([a, b])
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    labels = cluster(m, 2)
    assert labels == cluster(m, 2)
    assert len(set(labels[:6])) == 1 and len(set(labels[6:])) == 1 and labels[0] != labels[6]
    assert cluster(m[:1], 3) == [0]


async def test_personas_from_graph_one_llm_call(bakery):
    judge = ScriptedJudge(lambda call: persona_reply(call.data))
    pool = await personas_from_graph(bakery, k=3, judge=judge)
    assert len(judge.calls) == 1 and len(pool.personas) == 3
    assert [p.name for p in pool.personas] == ["Analyst 1", "Analyst 2", "Analyst 3"]
    # described from the cluster's themes and titles, which say what the persona asks about
    fallback = await personas_from_graph(bakery, k=3)
    assert [p.description for p in pool.personas] == [p.description for p in fallback.personas]
    assert set(pool.by_document) == {d.id for d in bakery.documents()}


async def test_a_persons_name_is_no_persona(bakery, tea):
    # the Chinese naming call gave placeholder people (李四, 王五), whom the writer then asked about
    names = ["李四", "茶叶采购经理", "品质管理负责人"]

    def reply(call):
        return {"personas": [{"name": n} for n in names[: call.data.personas_needed]]}

    pool = await personas_from_graph(tea, k=3, judge=ScriptedJudge(reply))
    fallback = await personas_from_graph(tea, k=3)
    assert pool.personas[0].name == fallback.personas[0].name != "李四"
    assert [p.name for p in pool.personas[1:]] == names[1: len(pool.personas)]
    assert any("李四" in note and f"named {fallback.personas[0].name!r} instead" in note for note in pool.notes)
    # English roles are left alone, though spaCy calls "Flour Buyer" a person
    english = ScriptedJudge(lambda call: {"personas": [{"name": "Flour Buyer"}] * call.data.personas_needed})
    assert {p.name for p in (await personas_from_graph(bakery, k=3, judge=english)).personas} == {"Flour Buyer"}


async def test_the_naming_call_asks_for_exactly_one_persona_per_group(bakery):
    judge = ScriptedJudge(lambda call: persona_reply(call.data))
    await personas_from_graph(bakery, k=3, judge=judge)
    await personas_from_graph(bakery, k=1, judge=judge)
    schemas = [json.loads(call.messages[0]["content"].split("JSON schema:\n", 1)[1]) for call in judge.calls]
    counts = [(s["properties"]["personas"]["minItems"], s["properties"]["personas"]["maxItems"]) for s in schemas]
    assert counts == [(3, 3), (1, 1)]  # the grammar stops the model at the last group's persona
    # the reply's bound holds every persona at its longest, at a token a character (Chinese)
    longest = PersonaOut.model_fields["name"].metadata[0].max_length
    assert all(persona_prompt(n).max_tokens >= n * longest for n in (1, 3, 8))


async def test_personas_without_llm_or_when_it_fails(bakery):
    pool = await personas_from_graph(bakery, k=2)
    assert len(pool.personas) == 2
    # named as no one in particular: the writers see only the name, and took a theme in it for their subject
    assert all(p.name == ANY_READER for p in pool.personas)
    assert all("Needs specific facts about" in p.description for p in pool.personas)
    failing = ScriptedJudge(lambda call: "not json at all")
    pool2 = await personas_from_graph(bakery, k=2, judge=failing)
    assert [p.name for p in pool2.personas] == [p.name for p in pool.personas]
    assert "LLM call failed" in pool2.notes[0]


def test_a_persona_without_llm_reads_the_name_most_titles_share():
    # "Reader of Leeds" (a theme) made the writers ask about Leeds whatever their topic; the name the corpus's titles
    # share is what all of it is about (the company), and with none the persona is no one in particular
    spec = {f"brightloaf-bakeries-{path}": chunks for path, chunks in BAKERY.items()}
    spec["bakeries-news.md"] = [("Bakeries across the north raised bread prices in 2023.", [("Bakeries", "other")])]
    shared = build_graph(spec)
    assert common_subject(shared) == "Brightloaf Bakeries"  # the longest name in half the titles, not "Bakeries"
    docs = [d.id for d in shared.documents()]
    assert fallback_persona(shared, docs, common_subject(shared)).name == "Reader of Brightloaf Bakeries"
    one_title = build_graph({"brightloaf-bakeries.md": BAKERY["company.md"], **{k: v for k, v in BAKERY.items()
                                                                                if k != "company.md"}})
    assert common_subject(one_title) is None  # in one title of four: not what the corpus is about
    assert common_subject(build_graph(BAKERY)) is None
    # one character names nothing, though every title has it
    lettered = {f"q-{path}": [(text, [*ents, ("Q", "other")]) for text, ents in chunks]
                for path, chunks in BAKERY.items()}
    assert common_subject(build_graph(lettered)) is None


async def test_personas_without_any_embedding_use_the_embedding_model(embeddings):
    kg = build_graph(BAKERY, None, summaries=False)
    assert (await personas_from_graph(kg, k=2)).personas == []  # nothing to cluster on, and no model given
    pool = await personas_from_graph(kg, k=2, embeddings=embeddings)
    assert len(pool.personas) == 2


def test_load_personas_json_and_yaml(tmp_path):
    good = [{"name": "Auditor", "description": "Checks numbers."}]
    (tmp_path / "p.json").write_text(json.dumps(good))
    (tmp_path / "p.yaml").write_text("- name: Auditor\n  description: Checks numbers.\n")
    assert load_personas(tmp_path / "p.json") == load_personas(tmp_path / "p.yaml") == [Persona(**good[0])]
    (tmp_path / "bad.json").write_text(json.dumps([{"name": "No description"}]))
    with pytest.raises(DataError, match=r"bad.json: persona 0: description"):
        load_personas(tmp_path / "bad.json")
    (tmp_path / "broken.json").write_text("[{")
    with pytest.raises(DataError, match="not valid json"):
        load_personas(tmp_path / "broken.json")
    with pytest.raises(DataError, match="cannot read"):
        load_personas(tmp_path / "missing.json")


def test_phrasing_slots_rotate_every_style_and_length(bakery, tea):
    scenario = SingleHop(topics_per_chunk=3).plan(bakery, 1, Random(0)).scenarios[0]
    pool = PersonaPool([Persona(name="A", description="a"), Persona(name="B", description="b")])
    phrasing = Phrasing.seeded(pool, Random(0))
    out = [phrasing.apply(scenario, slot, bakery) for slot in range(12)]
    assert len({(s.style, s.length) for s in out}) == 12
    assert {s.persona.name for s in out} == {"A", "B"}
    assert out == [Phrasing.seeded(pool, Random(0)).apply(scenario, slot, bakery) for slot in range(12)]
    zh = SingleHop().plan(tea, 1, Random(0)).scenarios[0]
    assert "typos" not in {phrasing.apply(zh, slot, tea).style for slot in range(12)}  # Latin-letter edits


@pytest.mark.parametrize("languages", ["ezzezezz", "zzezzezz", "ezezezez", "zzzzzzzz", "eeeeeeee"])
def test_styles_of_two_languages_spread_as_the_samples_are_kept(bakery, tea, languages):
    """English slots may take typos and Chinese ones may not. By the walk alone the two met: 4 of 8 samples on one
    style, for every start (session 71's Chinese READMEs with English chunks). By least use, none has more than 3."""
    en = SingleHop(topics_per_chunk=3).plan(bakery, 1, Random(0)).scenarios[0]
    zh = SingleHop().plan(tea, 1, Random(0)).scenarios[0]
    pool = PersonaPool([Persona(name="A", description="a")])
    for start in range(12):
        phrasing, taken = Phrasing(pool, start), Counter[str]()
        for slot, lang in enumerate(languages):
            scenario, kg = (en, bakery) if lang == "e" else (zh, tea)
            style = phrasing.apply(scenario, slot, kg, taken).style
            assert not (lang == "z" and style == "typos")
            taken[style or ""] += 1
        assert max(taken.values()) <= (2 if languages == "eeeeeeee" else 3), (start, taken)
