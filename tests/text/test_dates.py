"""Whole calendar dates as written (``_dates``), and claims rewritten in the passage's form of them."""

from __future__ import annotations

import datetime

import pytest

from ragkit.text import as_written_in, date_of, month_forms, year_and_month
from ragkit.text._dates import date_forms


@pytest.mark.parametrize(("text", "day"), [
    ("released 2024.03.18", (2024, 3, 18)),
    ("released 2024-03-18", (2024, 3, 18)),
    ("2024. 3. 18. 출시", (2024, 3, 18)),
    ("am 18.03.2024 eröffnet", (2024, 3, 18)),
    ("2024年3月18日发布", (2024, 3, 18)),
    ("2024년 3월 18일에", (2024, 3, 18)),
    ("on March 18th, 2024", (2024, 3, 18)),
    ("on 18 March 2024", (2024, 3, 18)),
    ("on Sept. 2, 2021", (2021, 9, 2)),
])
def test_a_whole_date_is_read_in_any_form(text: str, day: tuple[int, int, int]) -> None:
    assert [f.day for f in date_forms(text)] == [datetime.date(*day)]


@pytest.mark.parametrize("text", [
    "03/04/2024",  # a day or a month first, by country
    "2024.13.40",  # no such day
    "version 2.0.3, March 2024",  # a version; no day
    "2024-03-18-01",  # a code
    "in 2024, 3 of 18 passed",
])
def test_what_is_no_whole_date_is_left_alone(text: str) -> None:
    assert date_forms(text) == []


@pytest.mark.parametrize(("passage", "claim", "written"), [
    ("The warehouse opened on 2019.04.01.", "It opened on April 1, 2019.", "It opened on 2019.04.01."),
    ("한빛 분석기 2.0은 2024.03.18에 출시되었다.", "2024년 3월 18일에 출시되었다.", "2024.03.18에 출시되었다."),
    ("Released March 18, 2024.", "Released on 2024-03-18.", "Released on March 18, 2024."),
    # another day keeps its form: the cloze reads it
    ("The warehouse opened on 2019.04.01.", "It opened on April 15, 2019.", "It opened on April 15, 2019."),
])
def test_a_claims_date_is_written_as_the_passage_writes_it(passage: str, claim: str, written: str) -> None:
    assert as_written_in(passage, claim) == written


@pytest.mark.parametrize(("text", "written", "year_month"), [
    ("The bridge reopened in February 2023.", "February 2023", (2023, 2)),
    ("It opened in Sept. 2020 and again in May of 2021.", "Sept. 2020", (2020, 9)),
    ("该馆于2022年12月扩建。", "2022年12月", (2022, 12)),
    ("第二ラインは2024年4月に加わった。", "2024年4月", (2024, 4)),
    ("새 열람실은 2023년 3월에 열었다.", "2023년 3월", (2023, 3)),
])
def test_a_month_of_a_year_is_read_with_its_year_and_month(text: str, written: str,
                                                           year_month: tuple[int, int]) -> None:
    first = month_forms(text)[0]
    assert text[first.start:first.end] == written and (first.year, first.month) == year_month
    assert year_and_month(written) == year_month


@pytest.mark.parametrize("text", ["reopened on 2023.02.14", "on 14 February 2023", "2023年2月14日", "2023년 2월 14일",
                                  "it may 2023 be", "in 2023 and 2024", "2023年13月"])
def test_a_whole_date_a_lower_case_word_or_a_year_alone_is_no_month_of_a_year(text: str) -> None:
    assert month_forms(text) == []


def test_a_value_is_one_whole_date_only_when_the_date_is_all_of_it() -> None:
    assert date_of("2024.03.18") == datetime.date(2024, 3, 18)
    assert date_of("on 2024.03.18") is None and date_of("March 2024") is None and date_of("2024") is None
