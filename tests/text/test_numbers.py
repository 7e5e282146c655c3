"""Numbers standing on their own, in any script: the values claims and answers state."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ragkit.text import (
    as_written_in,
    in_digits,
    number_forms,
    number_spans,
    number_value,
    numbers,
    quantities,
    unit_after,
)


@pytest.mark.parametrize(("text", "expected"), [
    ("HS-5は1996年に発売", ["1996"]),
    ("K2307-03からK2307-21まで", []),
    ("1,000,000 won and 3.5 kg", ["1000000", "3.5"]),
    ("１９９６年", ["1996"]),
    ("W300 costs 40 dollars", ["40"]),
    ("第3章、INC-2023-014", ["3"]),
    ("근속 5년이 되는 해에 100만 원", ["5", "100"]),
    # a version is a number, whether written "v2.9.1" or "version 2.9.1"; "V8", with no dot, is a name
    ("tokenizers v0.15 이상, v1.2.0 이하", ["0.15", "1.2.0"]),
    ("version 2.9.1 and V8 engines, kv1.2", ["2.9.1"]),
    ("从 v3.2.0 开始，默认模型改为 base-v2", ["3.2.0"]),
    # a date written with dots is three numbers, as with hyphens; a version is not a date
    ("2024.03.18에 배포된 2.0.3 패치", ["2024", "03", "18", "2.0.3"]),
    ("Stand: 18.3.2024", ["18", "3", "2024"]),
    ("2024-03-18", ["2024", "03", "18"]),
    ("release 2019.12.40 and 1.12.2", ["2019.12.40", "1.12.2"]),
])
def test_numbers_are_found_and_codes_are_not(text: str, expected: list[str]) -> None:
    assert numbers(text) == expected


def test_each_value_once_in_order() -> None:
    assert numbers("1996, then 2004, then 1,996 again") == ["1996", "2004"]


def test_spans_point_at_the_number_as_written() -> None:
    text = "Opened in 1,996 rooms"
    ((a, b),) = number_spans(text)
    assert text[a:b] == "1,996" and number_value(text[a:b]) == "1996"


@pytest.mark.parametrize(("text", "written", "value"), [
    ("cost 1.2 million euros", "1.2 million", 1_200_000),
    ("cost 1,200,000 euros", "1,200,000", 1_200_000),
    ("年销量约30万盒", "30万", 300_000),
    ("营业收入约1亿2000万元", "1亿2000万", 120_000_000),
    ("1억 2천만 원", "1억 2천만", 120_000_000),
    ("매출은 약 146억 원", "146억", 14_600_000_000),
    ("売上高は8600百万円", "8600百万", 8_600_000_000),
    ("제3조(근무시간)", "3", 3),  # an article's number, not 3 trillion
])
def test_a_numbers_form_takes_its_scale_words(text: str, written: str, value: int) -> None:
    (form,) = number_forms(text)
    assert text[form.start:form.end] == written and form.value == value


def test_parts_join_only_when_smaller_and_adjacent() -> None:
    assert [f.value for f in number_forms("3万人，2023年")] == [30_000, 2023]
    assert [f.value for f in number_forms("2 bn and 3.5 kg")] == [2_000_000_000, 3.5]


def test_a_version_is_no_quantity() -> None:
    forms = number_forms("pyenv 2.5.2 builds Python 3.12 on 1.2.3.4 hosts, 5 of them")
    assert [f.value for f in forms] == [Decimal("3.12"), 5]


@pytest.mark.parametrize(("text", "expected"), [
    ("成人每次服用本药两片，每日三次，饭后服用。", ["2", "3"]),
    ("十二个月", ["12"]),
    ("一百零五人，三千二百元", ["105", "3200"]),
    ("二〇二三年", ["2023"]),
    ("一日三回、二錠ずつ服用する。", ["3", "2"]),  # 一日, "a day"
    ("每次一片，每日一次", ["1"]),  # 一次 is "once" after a period, else "each time"
    ("一回九十分の授業", ["90"]),
    ("十分钟，三十分", ["10", "30"]),
])
def test_chinese_and_japanese_numerals_before_a_counter_are_numbers(text: str, expected: list[str]) -> None:
    assert numbers(text) == expected


@pytest.mark.parametrize("text", [
    "一般来说十分重要", "四川的百度", "星期三", "第三次会议", "是一家公司，一个人", "上一年和下一次", "每一盒茶",
    "食堂一天大约提供午餐",
])
def test_numeral_characters_in_words_are_no_numbers(text: str) -> None:
    assert numbers(text) == []


def test_a_numeral_takes_its_scale_and_is_written_as_the_passage_writes_it() -> None:
    assert [f.value for f in number_forms("售价约为八万元")] == [80000]
    assert as_written_in("售价为80000元。", "售价约为八万元。") == "售价约为80000元。"
    # a claim's digits are written as the passage's numeral only before the numeral's own counter
    assert as_written_in("成人每次服用本药两片。", "成人每次2片。") == "成人每次两片。"
    assert as_written_in("일주일에 세 번 열린다.", "일주일에 3번 열린다.") == "일주일에 세번 열린다."
    assert as_written_in("일주일에 세 번 열린다.", "주 3회 열린다.") == "주 3회 열린다."  # never "주 세회"


def test_numerals_in_digits_for_the_cloze() -> None:
    assert in_digits("一回九十分の授業、定員は八人。") == "一回90分の授業、定員は8人。"
    assert in_digits("정원은 열두 명이다.") == "정원은 12 명이다."


@pytest.mark.parametrize(("text", "expected"), [
    ("성인은 하루 세 번, 한 번에 두 알씩 복용한다.", ["3", "2"]),  # 한 번에, "at a time"
    ("열두 살 미만, 스무 명, 서른 개, 스물다섯 명이", ["12", "20", "30", "25"]),
    ("대출 기간은 두 주이다. 석 달 동안", ["2", "3"]),
])
def test_native_korean_numerals_before_a_counter_are_numbers(text: str, expected: list[str]) -> None:
    assert numbers(text) == expected


@pytest.mark.parametrize("text", ["세계 두 주요 제품", "네, 맞습니다", "두 번째 회의", "두 개발팀", "한 달에 한 번에"])
def test_korean_words_that_start_like_numerals_are_no_numbers(text: str) -> None:
    assert numbers(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("The course runs for eight weeks, with two classes a week of three hours each.", ["8", "2", "3"]),
    ("twenty-five staff and three-hour classes", ["25", "3"]),
    ("three hundred pounds; one hundred and twenty staff", ["300", "120"]),
    ("Three plants make brakes.", ["3"]),  # capitalised at a sentence's start
])
def test_english_number_words_before_a_word_are_numbers(text: str, expected: list[str]) -> None:
    assert numbers(text) == expected


@pytest.mark.parametrize("text", ["two-thirds of the staff", "two of the plants", "one of them", "no one came",
                                  "the Three Rivers plant", "It has one tablet"])
def test_english_number_words_that_count_nothing_are_no_numbers(text: str) -> None:
    assert numbers(text) == []


def test_what_a_number_counts_is_read_only_where_the_text_says_it_for_certain() -> None:
    def unit(text: str) -> str:
        return unit_after(text, number_spans(text)[0][1])

    assert [unit(t) for t in ("高约8℃", "2号烘干机", "三次", "정원 12명", "16%")] == ["℃", "号", "次", "명", "%"]
    assert [unit(t) for t in ("40분", "1.5시간", "2 hours", "300米", "3 km")] == \
        ["duration", "duration", "duration", "length", "length"]
    # a multiplier is part of the amount, and a particle counts nothing
    assert [unit(t) for t in ("3.6亿元", "5만 명", "36000万元", "2008的", "5で")] == ["元", "명", "元", "", ""]
    # an English word after a number may be anything
    assert [unit(t) for t in ("in 2023 the sales", "sales in 2022 were", "410 people", "2023.")] == [""] * 4


def test_quantities_read_each_number_with_what_counts_it() -> None:
    assert quantities("The W300 carries 300 kg at 1.8 m/s, 20% faster.") == [("300", "kg"), ("1.8", "m"), ("20", "%")]
    assert quantities("重さ2.9 kgのモーター、10天、3명") == [("2.9", "kg"), ("10", "天"), ("3", "명")]
    assert quantities("a three-hour class in 2019") == [("3", ""), ("2019", "")]
