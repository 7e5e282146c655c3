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


def test_code_words_are_no_prose() -> None:
    table = ("rec_model_name | PyTorch 版本 | ONNX 版本 | 模型原始来源 | 支持语言\n"
             "multi_PP-OCRv6_tiny | X | √ | ppocr | 多语种（不含日文）\n"
             "arabic_PP-OCRv3 | X | √ | ppocr | 阿拉伯文、英文、数字\n"
             "PP-OCRv6 的 multi_PP-OCRv6_small 支持的 lang_type 包括：ch, chinese_cht, en, japan, af, az, bs, ca, cs")
    assert detect_language(table) == "zh"  # langdetect read its identifiers as Catalan or Romanian
    assert detect_language("db_shufflenet_v2_small 的 PyTorch 版本是多少？") == "zh"
    code = ("점수 사전을 만든 뒤 토크나이저에 넘기면 됩니다. 아래처럼 작업할 수 있습니다.\n\n"
            "from mylib.scoring import build_scores_v2\nscores = build_scores_v2(corpus, min_count=5)\n"
            "merged = {word: score + bonus.get(word, 0) for word, score in scores.items()}\n"
            "tokenizer = SpaceTokenizer(scores=merged)")
    assert detect_language(code) == "ko"
    # prose stays prose: an English sentence keeps its words, a Chinese one its numbers' characters
    assert detect_language("The Kestrel K10 was launched in Chicago in 2019 at https://example.com/k10.") == "en"
    assert detect_language("青禾7号于2008年推出。") == "zh"


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


@pytest.mark.parametrize(("text", "grammar"), [
    ("pip install pypinyin", False),  # a command: no function word
    ("cd to/dir", False),  # "to" is inside a path, which is code
    ("使用 `set_to_default` 与 matplotlib。", False),  # Latin terms in Chinese prose
    ("沈嘉禾 is the founder.", True),
    ("The package can also be installed from PyPI.", True),
    ("Install It", True),  # function words in any case
])
def test_english_grammar_is_read_outside_code(text: str, grammar: bool) -> None:
    from ragkit.text import english_grammar

    assert english_grammar(text) is grammar
