"""An amount of several things together, said of one of them: "The Ashby warehouse has 300,000 square feet" against
"the Kettering warehouse and the Ashby warehouse, with about 300,000 square feet together".

The number cloze (``_values``) finds the claim's number in the passage, and the small judge reads the rest by its
topic: the passage names the thing and the amount in one sentence (bench/README.md, session 50). The sentence's own
words tell a total: a word of adding up beside the amount (together, combined, in total; 合计, 共, 总共; 合わせて,
合計; 합계, 모두 합쳐, 총), and two things joined by a coordinator (and; 和, 与, 及, 、; と, や; 과, 와, 및). A claim
that holds the amount with every distinguishing word of one of the two things and not those of the other says of
one what the passage says of both together, and is neutral without a call, when no other sentence of the passage
gives that amount. A claim that itself adds up ("… 120 seats together") is left to the judge: it may name one thing
and still give the total as a total, as a split of a right answer that names both might.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ragkit.evaluation._bindings import ZH_AND
from ragkit.text import (
    FUNCTION_WORDS,
    JAPANESE_NOT_A_THING,
    chinese_tagged,
    cjk_language,
    is_noun,
    joins_items,
    morphemes,
    number_spans,
    number_value,
    split_sentences,
    unspaced,
)

_TOTAL = re.compile(
    r"\b(?:together|combined|altogether|in\s+total|in\s+all|a\s+total\s+of|between\s+them)\b"
    r"|合计|共计|总共|一共|总计|加起来|共(?!同)|合わせて|あわせて|合計|総計|합계|합쳐|합해|통틀어|도합|총(?=\s*[0-9])",
    re.IGNORECASE)
_EN_STOP = re.compile(r"^(?:together|combined|altogether|total|all)$", re.IGNORECASE)
_EN_WORD = re.compile(r"[A-Za-z][\w'’-]*|[0-9][\d,.]*|[^\w\s]")
_ZH_AND = frozenset({*ZH_AND, "跟"})  # 跟 joins two things too, though never the items of a list of places
_KO_NOUN = ("NNG", "NNP", "SL", "SN", "XSN", "NNB")
_JA_SKIP = JAPANESE_NOT_A_THING | {"数"}
Item = tuple[str, ...]
"""A thing of the pair as its words: lower-case English words, or the written pieces of a Chinese, Japanese or Korean
noun phrase."""


def total_of_part(passage: str, claim: str) -> bool:
    """Whether ``claim`` says of one thing an amount that ``passage`` gives only for it and another together."""
    if _TOTAL.search(claim):  # a claim that adds up itself speaks of a total, whatever it names: the judge's
        return False
    values = {number_value(claim[s:e]) for s, e in number_spans(claim)}
    if not values:  # most claims: the passage's totals need not be read for them
        return False
    language = cjk_language(passage) or "en"
    totals = _totals(passage, language)
    for value in values:
        pairs = totals.get(value)
        if pairs is None:  # the passage gives the value on its own somewhere, or not at all
            continue
        if any(_one_of(claim, language, a, b) or _one_of(claim, language, b, a) for a, b in pairs):
            return True
    return False


@lru_cache(maxsize=256)
def _totals(passage: str, language: str) -> dict[str, tuple[tuple[Item, Item], ...]]:
    """Each amount the passage gives only as a total → the pairs of things the total's sentences join, each thing
    by the words that tell it from the other. Read once per passage."""
    found: dict[str, list[tuple[Item, Item]]] = {}
    alone: set[str] = set()
    for sentence in split_sentences(passage):
        spans = number_spans(sentence)
        total = _total_span(sentence, spans)
        pairs = _pairs(sentence, language) if total else []
        for start, end in spans:
            value = number_value(sentence[start:end])
            if (start, end) == total and pairs:
                found.setdefault(value, []).extend(pairs)
            else:
                alone.add(value)
    return {v: tuple(p) for v, p in found.items() if v not in alone}


def _total_span(sentence: str, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The number a word of adding up belongs to: the one nearest it in the sentence."""
    marks = [m.span() for m in _TOTAL.finditer(sentence)]
    if not marks or not spans:
        return None
    return min(spans, key=lambda s: min(abs(s[0] - m[1]) if s[0] >= m[1] else abs(m[0] - s[1]) for m in marks))


def _pairs(text: str, language: str) -> list[tuple[Item, Item]]:
    """The two things each coordinator of ``text`` joins, each by the words the other does not share."""
    if language == "zh":
        out = _zh_pairs(text)
    elif language in ("ja", "ko"):
        out = _sov_pairs(text, language)
    else:
        out = _en_pairs(text)
    return [(a, b) for left, right in out if (a := _apart(left, right)) and (b := _apart(right, left))]


def _apart(item: Item, other: Item) -> Item:
    return tuple(w for w in item if w not in other and w.lower() not in FUNCTION_WORDS)


def _zh_pairs(text: str) -> list[tuple[Item, Item]]:
    """jieba's nouns before and after 和 / 与 / 及 / 、; after it, the head past the last 的
    ("安吉县的安吉白茶基地")."""
    tagged = chinese_tagged(text)
    out = []
    for i, (word, _) in enumerate(tagged):
        if word not in _ZH_AND:
            continue
        left = _run(tagged, i - 1, -1, lambda w, t: _zh_noun(t))
        right = _run(tagged, i + 1, 1, lambda w, t: _zh_noun(t) or w == "的")
        if "的" in right:
            right = right[len(right) - right[::-1].index("的"):]
        out.append((left, right))
    return out


def _zh_noun(tag: str) -> bool:
    return tag.startswith(("n", "j")) and tag != "nx" or tag == "vn"


def _sov_pairs(text: str, language: str) -> list[tuple[Item, Item]]:
    """MeCab's nouns before and after a coordinating particle (Korean 과 / 와, 및; Japanese 並立助詞 と / や)."""
    parsed = [(m, f) for m, f, _ in morphemes(text, language) or []]

    def noun(_: str, features: list[str]) -> bool:
        return is_noun(features, language, korean=_KO_NOUN, skip=_JA_SKIP)

    out = []
    for i, (word, features) in enumerate(parsed):
        if joins_items(features, language) or language == "ko" and word == "및":
            out.append((_run(parsed, i - 1, -1, noun), _run(parsed, i + 1, 1, noun)))
    return out


def _en_pairs(text: str) -> list[tuple[Item, Item]]:
    """The words before and after "and" / "&" up to a function word, a number or a mark; a thing named with
    capitals keeps only its capitalised words ("Market Square" of "Market Square branches hold")."""
    words = _EN_WORD.findall(text)
    tagged = [(w, "") for w in words]

    def plain(word: str, _: str) -> bool:
        return word[0].isalpha() and word.lower() not in FUNCTION_WORDS and not _EN_STOP.match(word)

    out = []
    for i, word in enumerate(words):
        if word.lower() not in ("and", "&"):
            continue
        j = i + 1
        while j < len(words) and words[j].lower() in FUNCTION_WORDS:
            j += 1  # "and the Ashby warehouse"
        out.append((_capitals(_run(tagged, i - 1, -1, plain)), _capitals(_run(tagged, j, 1, plain))))
    return [(tuple(w.lower() for w in a), tuple(w.lower() for w in b)) for a, b in out]


def _capitals(item: Item) -> Item:
    if not item or not item[0][0].isupper():
        return item
    end = next((k for k, w in enumerate(item) if not w[0].isupper()), len(item))
    return item[:end]


def _run(tagged: Sequence[tuple[str, Any]], start: int, step: int, keep: Callable[[str, Any], bool]) -> Item:
    """The words from ``start`` on, one way, while ``keep(word, tag)`` holds, in the text's order."""
    out: list[str] = []
    i = start
    while 0 <= i < len(tagged) and keep(*tagged[i]):
        out.append(tagged[i][0])
        i += step
    return tuple(out if step == 1 else reversed(out))


def _one_of(claim: str, language: str, item: Item, other: Item) -> bool:
    """Whether ``claim`` names ``item`` by every word that tells it from ``other``, and not ``other`` so."""
    return _names(claim, language, item) and not _names(claim, language, other)


def _names(claim: str, language: str, item: Item) -> bool:
    if language == "en":
        words = {w.lower().removesuffix("s") for w in _EN_WORD.findall(claim)}
        return all(w.removesuffix("s") in words for w in item)
    flat = unspaced(claim)
    return len("".join(item)) >= 2 and all(w in flat for w in item)
