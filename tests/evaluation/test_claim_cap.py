"""A claim the split's reply schema cut at its length is put back whole, and the pieces of its rest go; the text
after the most claims the schema lets the split write is checked as its sentences."""

from __future__ import annotations

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._claim_text import CLAIM_CHARS, MOST_CLAIMS, rest_at_cap, whole_at_cap
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge

BIRDS = ("Alder", "Birch", "Cedar", "Dunmore", "Elmstead", "Fernhill", "Glenrock", "Hawthorn", "Ivybridge",
         "Juniper Vale", "Kestrel Point", "Larchmont", "Marshfield", "Northmoor", "Oakhurst", "Pinewood",
         "Quarry Bank", "Rushmere", "Sallow Cross", "Thornbury", "Upper Wick", "Valley End", "Westfold", "Yarrow",
         "Zennor", "Ashcombe", "Bramley", "Coldharbour", "Dunwich", "Eastleigh", "Foxhole")
LONG = "The Kellan bird survey counted nesting kestrels at " + ", ".join(BIRDS[:-1]) + f" and {BIRDS[-1]}."
TEXT = f"{LONG} The survey ran from May to July."


def cut(sentence: str) -> tuple[str, str]:
    """The split's reply as the schema cut it: the first CLAIM_CHARS characters, inside a word, and the rest from
    the next word on as a claim of its own."""
    head = sentence[:CLAIM_CHARS]
    return head, sentence[sentence.find(" ", CLAIM_CHARS):].strip()


def test_the_fixture_sentence_is_longer_than_a_claim_may_be() -> None:
    assert len(LONG) > CLAIM_CHARS + 40
    assert LONG[CLAIM_CHARS - 1].isalpha() and LONG[CLAIM_CHARS].isalpha()  # the cut falls inside a word


async def test_a_sentence_longer_than_a_claim_is_one_claim_again() -> None:
    head, rest = cut(LONG)

    def split(call: CallInfo) -> object:
        return {"claims": [head, rest, "The survey ran from May to July."], "entities": []}

    claims = await ClaimStore(ScriptedJudge(split)).split(TEXT)
    assert claims == [LONG, "The survey ran from May to July."]


def test_a_cut_chinese_sentence_is_put_back_whole() -> None:
    places = "、".join(f"第{i}号茶园" for i in range(1, 61))
    sentence = f"青岚茶业的茶园包括{places}。"
    head = sentence[:CLAIM_CHARS]
    rest = sentence[CLAIM_CHARS + 3:]
    assert whole_at_cap([head, rest], sentence + "公司成立于2009年。") == [sentence]


def test_claims_the_cap_did_not_cut_are_left_alone() -> None:
    short = "The Kellan survey counted nesting kestrels at Alder."
    assert whole_at_cap([short, "Birch"], TEXT) == [short, "Birch"]  # under the cap: no piece to gather
    reworded = "Kestrels nested at " + ", ".join(BIRDS) + " in the Kellan survey, it found, over many weeks."
    claim = reworded[:CLAIM_CHARS]
    assert len(claim) == CLAIM_CHARS
    assert whole_at_cap([claim], TEXT) == [claim]  # written in the split's own words: no sentence to take


COUNTRIES = ("Austria", "Belgium", "Brazil", "Canada", "Chile", "Croatia", "Czechia", "Denmark", "Estonia", "Finland",
             "France", "Germany", "Greece", "Hungary", "Iceland", "India", "Ireland", "Italy", "Japan", "Latvia",
             "Lithuania", "Mexico", "Netherlands", "Norway", "Poland", "Portugal", "Romania", "Singapore",
             "Slovakia", "Slovenia", "Spain", "Sweden", "Switzerland", "Turkey", "Uruguay")
SHIPS = "Kellan Audio ships its K7 headphones to " + ", ".join(COUNTRIES[:-1]) + f" and {COUNTRIES[-1]}."


def one_per_country(count: int) -> list[str]:
    """The split's reply for SHIPS as the embedded judge wrote it: one claim per country, up to the schema's most."""
    return [f"Kellan Audio ships its K7 headphones to {c}." for c in COUNTRIES[:count]]


async def test_the_text_after_the_most_claims_is_checked_as_its_sentence() -> None:
    text = f"{SHIPS} Orders leave the Leeds warehouse within two working days."

    def split(call: CallInfo) -> object:
        return {"claims": one_per_country(MOST_CLAIMS), "entities": []}

    claims = await ClaimStore(ScriptedJudge(split)).split(text)
    # Switzerland, Turkey and Uruguay were in no claim: their sentence is one, and so is every sentence after it
    assert claims == [*one_per_country(MOST_CLAIMS), SHIPS, "Orders leave the Leeds warehouse within two working days."]


def test_a_split_that_ends_with_its_last_sentence_whole_gets_nothing_more() -> None:
    claims = one_per_country(MOST_CLAIMS - 1) + [SHIPS]
    assert rest_at_cap(claims, SHIPS) == claims  # every word of the last sentence is in a claim


async def test_a_split_under_the_most_claims_is_not_added_to() -> None:
    def split(call: CallInfo) -> object:
        return {"claims": one_per_country(20), "entities": []}

    # the split left out countries of its own accord: no cap cut it short, so no sentence is added
    assert await ClaimStore(ScriptedJudge(split)).split(SHIPS) == one_per_country(20)
