"""A claim of several amounts, one of them not the passage's (``_amounts``); the claim engine asks the judge
nothing about it."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._amounts import amount_differs, counted
from ragkit.testing import ScriptedJudge

EN = "The Harbour Gym opens at 6 am, has 40 machines and 3 studios, and charges 35 pounds a month."
KO = "초급반은 일주일에 세 번 열리며, 정원은 열두 명이다. 수업은 한 번에 두 시간씩 진행된다."


def test_each_amount_is_read_with_its_counter() -> None:
    assert counted(KO) == {"번": {"3"}, "명": {"12"}, "시": {"2"}}
    assert counted("in 2019 the plant had 40 machines")["machine"] == {"40"}
    assert "the" not in counted("in 2019 the plant had 40 machines")  # a function word counts nothing


@pytest.mark.parametrize(("passage", "claim", "asked", "differs"), [
    (EN, "The Harbour Gym has 40 machines, 2 studios and charges 35 pounds a month.", "", True),
    (EN, "The Harbour Gym has 40 machines and 3 studios and charges 35 pounds a month.", "", False),
    (EN, "The Harbour Gym has 50 machines and 3 studios.", "", False),  # two numbers: the cloze's
    (EN, "It has 40 machines, 3 studios and 12 trainers.", "", False),  # trainers: the passage counts none
    (KO, "초급반은 일주일에 두 번 열리고, 정원은 스무 명이며, 수업은 세 시간씩 진행됩니다.", "", True),
    (KO, "초급반은 주 3회, 회당 2시간이고 한 반에 12명까지 들을 수 있습니다.", "", False),
    ("2022年营业收入约1.2亿元，员工80人，门店5家。", "2023年营业收入约1.2亿元，员工80人，门店5家。",
     "2023年营业收入是多少？", False),  # the question's year
    # other hours than the passage's: the claim's topic (標準) is neither in the passage nor in the question
    ("熊本工場の製造部門の勤務時間は午前6時から午後2時30分まで、遅番は午後2時から午後10時30分までです。",
     "標準の勤務時間は午前8時30分から午後5時30分まで、休憩は正午から1時間です。",
     "熊本工場の製造部門の勤務時間はどのようになりますか？", False),
    ("熊本工場の製造部門の勤務時間は午前6時から午後2時30分まで、遅番は午後2時から午後10時30分までです。",
     "熊本工場の製造部門の勤務時間は午前7時から午後3時30分まで、遅番は午後3時から午後11時30分までです。",
     "熊本工場の製造部門の勤務時間はどのようになりますか？", True),
])
def test_an_amount_the_passage_counts_otherwise(passage: str, claim: str, asked: str, differs: bool) -> None:
    assert amount_differs(passage, claim, asked) is differs


async def test_the_engine_contradicts_it_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(EN, ["It has 40 machines, 2 studios and charges 35 pounds a month."])
    assert verdict.label == "contradicted" and judge.calls == []
