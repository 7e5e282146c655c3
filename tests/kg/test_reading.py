"""The ``llm`` extractor's reply format: names with their type in one string, summaries cut to whole sentences."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ragkit.kg._reading import NAME_CHARS, named_thing, reading_prompt
from ragkit.text import whole_sentences


@pytest.mark.parametrize(("item", "name", "kind"), [
    ("Porto Plant (place)", "Porto Plant", "place"),
    ("  Heron   H6 (product) ", "Heron H6", "product"),
    ("青岚茶业有限公司 (organization)", "青岚茶业有限公司", "organization"),
    ("산들차 (organization)", "산들차", "organization"),
    ("Acme Robotics: Annual Review 2023 (work)", "Acme Robotics: Annual Review 2023", "work"),
    ("Porto Plant", "Porto Plant", "other"),  # a model that is shown the pattern but not bound by it
    ("Porto Plant (city)", "Porto Plant", "other"),
    ("Porto Plant (Place)", "Porto Plant", "place"),
])
def test_a_named_thing_gives_its_name_and_type(item: str, name: str, kind: str) -> None:
    entity = named_thing(item)
    assert entity is not None and (entity.name, entity.type) == (name, kind)


@pytest.mark.parametrize("item", [
    "Guide > Setup > Porto (place)",  # a heading path copied from the passage
    'type: product}]} (event)',  # a reply that lost its way inside the string
    " (person)",
    "x" * (NAME_CHARS + 1) + " (other)",
])
def test_what_is_not_a_named_thing(item: str) -> None:
    assert named_thing(item) is None


def test_the_reply_schema_shows_the_pattern_and_wants_one_list_per_section() -> None:
    output = reading_prompt(2).output
    items = output.model_json_schema()["$defs"]["SectionEntities"]["properties"]["entities"]["items"]
    assert items["pattern"].startswith("^(") and "(person|organization|" in items["pattern"]
    reply = output.model_validate({"summary": "S.", "sections": [{"entities": ["Ada (person)"]}, {"entities": []}]})
    assert [s.entities for s in reply.sections] == [["Ada (person)"], []]
    with pytest.raises(ValidationError):  # one list per section, no more, no fewer
        output.model_validate({"summary": "S.", "sections": [{"entities": ["Ada (person)"]}]})


@pytest.mark.parametrize(("text", "kept"), [
    ("It opened in 2021. It builds the W300. Its team, led by Lu", "It opened in 2021. It builds the W300."),
    ("青岚茶业位于杭州。公司生产龙井茶，并", "青岚茶业位于杭州。"),
    ("One sentence the limit cut before its", "One sentence the limit cut before its"),
    ("Two whole sentences. Both end!", "Two whole sentences. Both end!"),
])
def test_a_summary_keeps_whole_sentences(text: str, kept: str) -> None:
    assert whole_sentences(text) == kept
