"""A question that names a thing its documents never name: the writer's false premise.

A small writer given the topic "Colombia" and a catalog of blends asks about the "콜롬비아 블렌드" (Colombia blend).
The catalog names two blends, 해운대 블렌드 and 달맞이 블렌드, of which Colombian beans are a part; there is no
Colombia blend, and the reference answer gives another blend's facts as its own. The critic's judge, reading the
same passage, answers in kind.

The pattern is a compound of two nouns, modifier and head, that no chunk of the corpus contains, while the sample's
contexts use both: the modifier somewhere, the head with other modifiers. A compound the corpus names anywhere is
not a false name, and a head the contexts never qualify says nothing. Japanese and Korean only, where MeCab gives
the nouns; elsewhere nothing is flagged. On the 130 labelled samples the check flags the four blends of this kind
(Colombia three times, Kenya once) and none of the good Japanese or Korean samples (bench/README.md, session 30).

A person is the other false name: asked for a question, the writer sometimes puts in a placeholder person ("李四在
什么情况下可以退款？", "王五，你对…有什么看法？"), whom no document names and no answer can be about. A person the
tagger finds in the question (spaCy, jieba, MeCab: ``ragkit.kg.named_entities``) and the corpus never names is
flagged, in any language (``unattested_person``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragkit.kg import named_entities
from ragkit.text import JAPANESE_NOT_A_THING, is_noun, morphemes, trailing_particle, unspaced

_JAPANESE_NOT_A_NAME = JAPANESE_NOT_A_THING | {"数", "接尾"}
"""IPAdic noun classes that name no thing: numbers, suffixes, dependent nouns (こと), pronouns."""


def _noun(features: list[str], language: str, head: bool) -> bool:
    return is_noun(features, language, skip=_JAPANESE_NOT_A_NAME - {"接尾"} if head else _JAPANESE_NOT_A_NAME)


def noun_pairs(text: str, language: str) -> list[tuple[str, str]]:
    """Adjacent (modifier, head) nouns of ``text`` by MeCab: "콜롬비아 블렌드" → ("콜롬비아", "블"), as mecab-ko-dic
    cuts the loanword (and cuts "블렌드는" and "블렌드:" differently after it, so only the first piece is compared).
    Empty for a language without MeCab, or when MeCab is not installed."""
    if language not in ("ja", "ko"):
        return []
    parsed = morphemes(text, language) or []
    return [(a, b) for (a, fa, _), (b, fb, _) in zip(parsed, parsed[1:], strict=False)
            if _noun(fa, language, head=False) and _noun(fb, language, head=True)]


def _shown(texts: Iterable[str], modifier: str, head: str, language: str) -> str:
    """How ``texts`` write the compound: the modifier and the whole word its head starts, without a particle or
    punctuation after it ("콜롬비아 블렌드", not "콜롬비아 블")."""
    for text in texts:
        found = re.search(re.escape(modifier) + r"\s*" + re.escape(head) + r"\w*", text)
        if found:
            word = found.group(0)
            return word[: len(word) - len(trailing_particle(word, language))]
    return modifier + head


_POSSESSIVE = re.compile(r"['’]s$")


def unattested_person(question: str, corpus: str, language: str) -> str | None:
    """The first person ``question`` names whom the corpus never names (``corpus``: all chunk text, ``unspaced`` and
    lower-cased), or None. A name is looked for as written, without a possessive "'s", case and spaces aside."""
    for mention in named_entities(question, language):
        name = _POSSESSIVE.sub("", mention.name.strip())
        if mention.type == "person" and name and unspaced(name).lower() not in corpus:
            return name
    return None


def unattested_name(question: str, contexts: Iterable[str], corpus: str, language: str) -> str | None:
    """The compound of ``question`` that no chunk of the corpus contains (``corpus`` is all chunk text, ``unspaced``)
    while its contexts qualify the same head otherwise, with those other names: "콜롬비아 블렌드 (the contexts
    name 달맞이 블렌드, 해운대 블렌드)". None when there is none."""
    texts = list(contexts)
    joined = unspaced("".join(texts))
    used = {pair for text in texts for pair in noun_pairs(text, language)}
    for modifier, head in noun_pairs(question, language):
        if modifier + head in corpus or modifier not in joined:
            continue
        others = sorted({_shown(texts, m, h, language) for m, h in used if h == head and m != modifier})
        if others:
            return f"{_shown([question], modifier, head, language)} (the contexts name {', '.join(others[:3])})"
    return None
