"""The text wing's tokenisers: one definition of the CJK scripts, used by every stage."""

from __future__ import annotations

import pytest

from ragkit.text import (
    CJK_CHAR,
    FUNCTION_WORDS,
    IDEOGRAPHIC,
    count_tokens,
    is_yes_or_no,
    opens_with_yes_or_no,
    search_terms,
    split_sentences,
    stop_words,
    units,
)


def test_units_count_words_and_ideographs() -> None:
    assert units("The Porto plant, 2019!") == ["the", "porto", "plant", "2019"]
    assert units("龙井茶") == ["龙", "井", "茶"]
    assert units("カタカナ") == ["カ", "タ", "カ", "ナ"]
    assert units("서울에 갑니다") == ["서울에", "갑니다"]  # Korean separates its words


def test_search_terms_drop_stop_words_and_index_ideograph_bigrams() -> None:
    assert search_terms("Where is the Porto plant?") == ["porto", "plant"]
    assert search_terms("西湖龙井") == ["西湖", "龙井", "西湖", "湖龙", "龙井"]  # jieba words, then bigrams
    assert search_terms("한빛교는 누가") == ["한빛", "교", "는", "누가"]  # the particle comes off the noun


def test_scripts_are_defined_once() -> None:
    assert CJK_CHAR.match("한") and not IDEOGRAPHIC.match("한")
    assert IDEOGRAPHIC.match("𠀀")  # CJK Extension B
    assert count_tokens("青岚茶业 makes tea") == 4 + 3


def test_sentences_split_after_cjk_terminators_and_not_after_abbreviations() -> None:
    assert split_sentences("第一句。第二句！Third one.") == ["第一句。", "第二句！", "Third one."]
    assert split_sentences("See Dr. Smith. He is in.") == ["See Dr. Smith.", "He is in."]
    # the number of a numbered heading or list item ends no sentence; a number ending a sentence does
    assert split_sentences("2. Main specifications") == ["2. Main specifications"]
    assert split_sentences("3.1. Root cause\n1. Unpack it. 2. Plug it in.") == [
        "3.1. Root cause", "1. Unpack it.", "2. Plug it in."]
    assert split_sentences("2. 주요 사양") == ["2. 주요 사양"]
    assert split_sentences("Sales grew in 2023. We sold 5. Then we stopped.") == [
        "Sales grew in 2023.", "We sold 5.", "Then we stopped."]


def test_printable_drops_control_sequences() -> None:
    from ragkit.text import printable

    assert printable("Title\x1b[2J\x07 rest\rmore\u202etxt.exe") == "Title[2J rest moretxt.exe"
    assert printable("line one\n\tline two") == "line one\n\tline two"


def test_one_list_of_function_words_and_spacy_stop_words_by_language() -> None:
    assert {"the", "what", "please", "的", "の"} <= FUNCTION_WORDS
    assert search_terms("Please tell me the Porto plant's staff") == ["me", "porto", "plant", "staff"]
    assert "the" in stop_words("en") and "und" in stop_words("de")
    assert all(w == w.lower() for w in stop_words("de"))  # compared with lower-cased words
    assert stop_words("qq") == frozenset()  # no such list: nothing is set aside


def test_particles_and_word_bounds_of_korean_and_japanese() -> None:
    from ragkit.text import leading_particles, trailing_particle, word_bounds

    assert trailing_particle("취업규칙에서", "ko") == "에서" and trailing_particle("휴가", "ko") == ""  # 가 of the noun
    assert trailing_particle("東京タワーの", "ja") == "の" and trailing_particle("お知らせ", "ja") == ""
    assert leading_particles("에서는 어떻게", "ko") == "에서는" and leading_particles("어떻게", "ko") == ""
    assert leading_particles("では何が", "ja") == "では" and leading_particles("高さは", "ja") == ""
    assert word_bounds("お知らせの対象", "ja") == [0, 4, 5, 7]
    assert word_bounds("青岚茶业的龙井", "zh")[-1] == 7


@pytest.mark.parametrize(("answer", "bare"), [
    ("Yes.", True), ("no", True), ("네", True), ("아니요.", True), ("是的", True), ("不是", True), ("はい。", True),
    ("Yes, in 2010", False), ("Yesterday", False), ("네, 2017년입니다", False), ("是2010年", False), ("Noel", False),
])
def test_a_bare_yes_or_no(answer: str, bare: bool) -> None:
    assert is_yes_or_no(answer) is bare


@pytest.mark.parametrize(("text", "opens"), [
    ("네, 품질관리팀장이었습니다.", True), ("No, it is not.", True), ("是的，2010年开业。", True),
    ("いいえ、違います。", True), ("Yes.", True),
    ("Yesterday it rained.", False), ("Nobody came.", False), ("네", False),
])
def test_a_text_that_opens_with_yes_or_no(text: str, opens: bool) -> None:
    assert opens_with_yes_or_no(text) is opens
