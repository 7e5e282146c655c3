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


@pytest.mark.parametrize(("text", "language", "found", "claim"), [
    ("财务总监林晓燕负责公司的年度预算。", "zh", [("林晓燕", "财务总监")], "林晓燕是财务总监。"),
    ("青岚茶业的首席制茶师周立平负责采摘标准。", "zh", [("周立平", "首席制茶师")], "周立平是首席制茶师。"),
    ("品質保証部長の森田由美が会議を開く。", "ja", [("森田由美", "品質保証部長")], "森田由美は品質保証部長である。"),
    ("디자인팀장인 임수진은 2015년에 입사했습니다.", "ko", [("임수진", "디자인팀장")], "임수진은 디자인팀장이다."),
    ("개발팀장 송민호는 2015년에 입사했습니다.", "ko", [("송민호", "개발팀장")], "송민호는 개발팀장이다."),
    # no title before the name: a year, a verb, the title after it
    ("2019年林晓燕加入公司。", "zh", [], None),
    ("禾丰食品的财务总监是林晓燕。", "zh", [], None),
    ("회사를 세운 김도윤은 대표이다.", "ko", [], None),
])
def test_a_title_before_a_name(text: str, language: str, found: list[tuple[str, str]], claim: str | None) -> None:
    from ragkit.evaluation._appositions import titled

    assert titled(text, language) == found
    split = ["(a claim without the title)"]
    assert with_appositions(text, split) == split + ([claim] if claim else [])
    assert with_appositions(text, [text]) == [text]  # a claim that holds the title adds nothing
