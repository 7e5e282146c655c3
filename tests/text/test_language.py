"""Language detection: CJK by script, others by seeded langdetect."""

from __future__ import annotations

import pytest

from ragkit.text._language import cjk_language, detect_language, language_name


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("青岚茶业成立于2008年，总部位于杭州市西湖区。", "zh"),
        ("青嵐茶業成立於2008年，總部位於杭州市西湖區。", "zh"),  # traditional characters are still zh
        ("東京は日本の首都です。人口は約1400万人です。", "ja"),
        ("漢字だけ", "ja"),  # a little kana among kanji means Japanese
        ("서울은 한국의 수도입니다. 인구는 약 천만 명입니다.", "ko"),
        ("The Kestrel K10 was launched in Chicago in April 2019.", "en"),
        ("Der Roboter wurde 2019 in Chicago vorgestellt und ist sehr schnell.", "de"),
        ("Le robot a été présenté à Chicago en 2019 et il est très rapide.", "fr"),
    ],
)
def test_detects_language(text: str, code: str) -> None:
    assert detect_language(text) == code


def test_cjk_inside_english_text_stays_english() -> None:
    text = "Our Hangzhou partner 青岚茶业 supplies green tea to the Manchester office every spring season."
    assert cjk_language(text) is None
    assert detect_language(text) == "en"


def test_mostly_chinese_with_latin_product_names_is_chinese() -> None:
    assert detect_language("岚山冷泡茶（Lanshan Cold Brew）于2022年上市，采用龙井与安吉白茶拼配。") == "zh"


def test_too_short_or_empty_is_undetermined() -> None:
    assert detect_language("") == "und"
    assert detect_language("OK 42") == "und"
    assert detect_language("Hi", default="en") == "en"


def test_deterministic() -> None:
    text = "Ceci est un petit texte, assez court, pour vérifier la détection."
    assert len({detect_language(text) for _ in range(5)}) == 1


def test_language_name() -> None:
    assert language_name("zh") == "Chinese"
    assert language_name("xx") == "xx"
