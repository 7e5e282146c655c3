"""Ellipsis: a later question that asks what the turn before asked, of another thing, asked by naming only that
thing; and the questions that are no such pair."""

from __future__ import annotations

import pytest

from ragkit.synthesis._ellipsis import frame_follow_up


@pytest.mark.parametrize(("earlier", "question", "asked"), [
    ("What is the code for the route blocked light?", "What is the code for the battery below 15% light?",
     "What about the battery below 15% light?"),
    ("What is the name of the course for robot operators?",
     "What is the name of the course for acme-motion SDK developers?", "What about acme-motion SDK developers?"),
    ("What is the capital of France?", "What is the capital of Spain?", "What about Spain?"),
])
def test_english_asks_of_the_thing_after_the_shared_preposition(earlier, question, asked):
    assert frame_follow_up(earlier, question, "en") == (asked.removeprefix("What about ").rstrip("?"), asked)


@pytest.mark.parametrize(("earlier", "question"), [
    ("What will Priya and Daniel do next?", "What will Daniel Reyes do next?"),  # no preposition shared
    ("What is the maximum room rate per night in London?", "What is the cost of a private car in the UK?"),
    ("What was the cost of replacing the upright?", "What was the speed of the robot at the upright?"),
    ("When did the Sheffield plant open?", "When did the Porto plant open?"),  # the frame says nothing
    ("What is the code for the route blocked light?", "What is the code for the route blocked light?"),
    ("What is in the box?", "What is in the crate?"),  # "What is in": no word that says something
])
def test_english_questions_that_ask_no_shared_frame(earlier, question):
    assert frame_follow_up(earlier, question, "en") is None


@pytest.mark.parametrize(("earlier", "question", "asked"), [
    ("河坊街旗舰店的负责人是谁？", "西溪店的负责人是谁？", "那西溪店呢？"),  # "店" ends both names: whole words
    ("安吉白茶基地预计何时开采？", "龙井基地预计何时开采？", "那龙井基地呢？"),
    ("2024年第一季度的销售额是多少？", "2024年第二季度的销售额是多少？", "那第二季度呢？"),
    ("龙井系列的价格是多少？", "冷泡系列的价格是多少？", "那冷泡系列呢？"),
    ("河坊街旗舰店有多少员工？", "西溪店有多少员工？", "那西溪店呢？"),
])
def test_chinese_asks_of_the_thing_before_the_shared_end(earlier, question, asked):
    assert frame_follow_up(earlier, question, "zh") == (asked[1:-2], asked)


@pytest.mark.parametrize(("earlier", "question"), [
    ("A是什么？", "B是什么？"),  # the end shared is question words only
    ("杭州市西湖区有哪些自有茶园？", "龙坞茶园位于哪里？"),
    ("河坊街旗舰店的店长是谁？", "河坊街旗舰店的员工人数是多少？"),  # one thing, two questions
])
def test_chinese_questions_that_ask_no_shared_frame(earlier, question):
    assert frame_follow_up(earlier, question, "zh") is None


@pytest.mark.parametrize(("earlier", "question", "language", "asked"), [
    ("서울 공장의 직원 수는 몇 명입니까?", "부산 공장의 직원 수는 몇 명입니까?", "ko", "부산 공장은요?"),
    ("서울 공장은 언제 문을 열었습니까?", "부산 공장은 언제 문을 열었습니까?", "ko", "부산 공장은요?"),
    ("한빛커피 취업규칙에서 리프레시 휴가는 며칠입니까?", "한빛커피 취업규칙에서 경조 휴가는 며칠입니까?", "ko",
     "경조 휴가는요?"),
    ("東京工場の従業員数は何人ですか？", "大阪工場の従業員数は何人ですか？", "ja", "大阪工場は？"),
])
def test_japanese_and_korean_ask_of_the_words_before_the_shared_particle(earlier, question, language, asked):
    framed = frame_follow_up(earlier, question, language)
    assert framed is not None and framed[1] == asked


@pytest.mark.parametrize(("earlier", "question", "language"), [
    ("東京タワーの高さは何メートルですか？", "東京タワーの重さは何トンですか？", "ja"),  # two questions of one thing
    ("서울 공장은 무엇입니까?", "부산 공장은 무엇입니까?", "ko"),  # the end shared is a question word only
    ("HB-100의 무게는 얼마입니까?", "HB-200의 무게는 얼마입니까?", "ko"),  # no Hangul to choose 은 or 는 by
    ("Quel est le code du voyant A ?", "Quel est le code du voyant B ?", "fr"),  # no form written yet
])
def test_japanese_korean_and_other_questions_that_are_not_asked_by_ellipsis(earlier, question, language):
    assert frame_follow_up(earlier, question, language) is None
