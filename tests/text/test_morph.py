"""The segmenters: one loader per language, and characters when a segmenter cannot be loaded."""

import logging
import sys

import pytest

import ragkit.text._morph as morph
from ragkit.text import JAPANESE_NOT_A_THING, chinese_keywords, chinese_tagged, is_noun, morphemes, word_bounds


def test_mecab_parses_to_morphemes_with_features():
    parsed = morphemes("서울에서 만납니다", "ko")
    assert parsed is not None
    assert parsed[0][:1] == ("서울",) and parsed[0][1][0] == "NNP"
    assert [spaced for _, _, spaced in parsed][:3] == [False, False, True]  # 서울 | 에서 | ␣만나…
    japanese = morphemes("豊田章男は社長です", "ja")
    assert japanese is not None and japanese[0][1][:2] == ["名詞", "固有名詞"]


def test_a_noun_is_one_reading_for_every_rule_with_what_each_adds_or_leaves_out():
    korean = morphemes("공장 3곳을 세웠다", "ko") or []
    assert [m for m, f, _ in korean if is_noun(f, "ko")] == ["공장", "곳"]
    assert [m for m, f, _ in korean if is_noun(f, "ko", korean={"NNG", "SN"})] == ["공장", "3", "곳"]
    japanese = morphemes("これは工場の三つ目の建物だ", "ja") or []
    assert [m for m, f, _ in japanese if is_noun(f, "ja")] == ["工場", "三つ", "目", "建物"]
    without_suffixes = JAPANESE_NOT_A_THING | {"接尾"}
    assert [m for m, f, _ in japanese if is_noun(f, "ja", skip=without_suffixes)] == ["工場", "三つ", "建物"]
    assert [m for m, f, _ in japanese if is_noun(f, "ja", skip=())] == ["これ", "工場", "三つ", "目", "建物"]


def test_jieba_tags_and_keywords():
    tagged = chinese_tagged("周立平在杭州工作")
    assert ("杭州", "ns") in tagged
    assert "杭州" in chinese_keywords("杭州的龙井茶。杭州的西湖。", 3)


def test_a_segmenter_that_cannot_load_leaves_characters(monkeypatch, caplog):
    # a platform without the wheels: the import fails, and the real loader warns and gives None
    for name in ("jieba", "jieba.posseg", "jieba.analyse", "mecab_ko", "MeCab"):
        monkeypatch.setitem(sys.modules, name, None)
    morph._library.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="ragkit"):
            assert morph.chinese_words("龙井 茶") == ["龙", "井", "茶"]
            assert morph.korean_morphemes("서울에") == ["서", "울", "에"]
            assert morphemes("서울에", "ko") is None
            assert chinese_tagged("杭州") == [] and chinese_keywords("杭州", 3) == []
            assert word_bounds("龙井茶", "zh") == [0, 1, 2, 3]
    finally:
        morph._library.cache_clear()
    assert "the Chinese segmenter is unavailable" in caplog.text
    assert "the Korean segmenter is unavailable" in caplog.text


@pytest.mark.parametrize("language", ["zh", "ja", "ko"])
def test_each_segmenter_is_loaded_once(language):
    assert morph._library(language) is morph._library(language)
