"""What an apposition says of a name, kept as a claim of its own (``_appositions``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._appositions import appositions, with_appositions


@pytest.mark.parametrize(("text", "found"), [
    ("Nadia Haddad reports to Omar Kline, the head of sales.", [("Omar Kline", "the head of sales")]),
    ("Hannah Price, the coxswain, leads the Kelby lifeboat crew.", [("Hannah Price", "the coxswain")]),
    ("The crew is led by its coxswain, Hannah Price.", [("Hannah Price", "its coxswain")]),
    ("The museum's director, Clara Voss, joined in 2015.", [("Clara Voss", "The museum's director")]),
    ("We met Anna Berg, a teacher, and Tom Reed, a nurse.", [("Anna Berg", "a teacher"), ("Tom Reed", "a nurse")]),
    # no name beside the phrase, or a phrase that is a clause: nothing
    ("It supports PDF, the most common format, and HTML.", []),
    ("In 2019, the Leeds plant produced 4,000 units.", []),
    ("Acme ships to Germany, the Netherlands and Belgium.", []),
    ("The lease was signed in March by Leo Brandt.", []),
])
def test_an_apposition_is_a_name_beside_a_noun_phrase(text: str, found: list[tuple[str, str]]) -> None:
    assert appositions(text) == found


def test_an_apposition_the_split_dropped_becomes_a_claim() -> None:
    text = "Nadia Haddad reports to Omar Kline, the head of sales."
    assert with_appositions(text, ["Nadia Haddad reports to Omar Kline."]) == [
        "Nadia Haddad reports to Omar Kline.", "Omar Kline is the head of sales."]
    text = "The ship's namesake, Colonel Edwin Hart, served in the Northern Rifles."
    assert with_appositions(text, ["Colonel Edwin Hart served in the Northern Rifles."])[-1] == \
        "Colonel Edwin Hart is the ship's namesake."


def test_an_apposition_a_claim_holds_adds_nothing() -> None:
    text = "The lease was signed in March by Leo Brandt, the club's treasurer."
    assert with_appositions(text, [text]) == [text]
    assert with_appositions("Leo Brandt, the treasurer, signed it.", ["Leo Brandt is the treasurer.",
                                                                     "Leo Brandt signed the lease."]) == [
        "Leo Brandt is the treasurer.", "Leo Brandt signed the lease."]
    # Chinese, Japanese and Korean are not read
    assert with_appositions("财务总监林晓燕负责预算。", ["林晓燕负责预算。"]) == ["林晓燕负责预算。"]
