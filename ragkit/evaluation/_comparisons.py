"""A comparison of two siblings, settled by the passage's numbers: "The York plant has more staff than the Leeds
plant" against "The Leeds plant … has 140 staff. The York plant … has 320 staff."

The small judge checks a comparison by its topic: on 24 comparisons in four languages it called 11 of the 12 wrong
ones entailed, and two right ones below 0.5 (bench/README.md, session 45). The passage's numbers settle it without
a call, when the claim compares two siblings (names that share a head word: "Leeds plant" and "York plant",
"余杭加工厂" and "萧山加工厂"; see ``_siblings``), or two things it names otherwise ("Kestrel K10" and "Wren W300";
see ``_sides``), with a comparative word of one direction ("more", "earlier", "比…多", "보다 먼저", "より少ない"),
and the passage gives each of them one value of what is compared:
- for a comparison in time ("earlier", "before", "更早", "먼저", "先に"), the year of each;
- for an amount ("more", "fewer", "larger", "多", "많다", "高い"), the number whose clause shares the most words
  with the claim ("staff", "员工", "직원", "従業員").

A number belongs to the sibling named last before it in its sentence, or to the only one its sentence names. Where
the claim negates ("not more than"), names no such pair, or the passage's values are missing, equal or more than
one, nothing is settled and the judge reads the claim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ragkit.evaluation._claim_text import goes_on, korean_content
from ragkit.evaluation._polarity import read
from ragkit.evaluation._siblings import siblings
from ragkit.evaluation._sides import phrase_sides
from ragkit.text import (
    FUNCTION_WORDS,
    HANGUL,
    cjk_language,
    normalise,
    number_spans,
    number_value,
    numbers,
    search_terms,
    split_sentences,
    tables,
    tokens,
)

Settled = Literal["entailed", "contradicted"]
Kind = Literal["time", "amount"]

_MORE, _LESS = 1, -1
_EN_AMOUNT = {"more": _MORE, "greater": _MORE, "larger": _MORE, "bigger": _MORE, "higher": _MORE,
              "longer": _MORE, "heavier": _MORE, "wider": _MORE, "taller": _MORE, "fewer": _LESS, "less": _LESS,
              "smaller": _LESS, "lower": _LESS, "shorter": _LESS, "lighter": _LESS, "narrower": _LESS,
              "cheaper": _LESS}
_EN_TIME = {"earlier": _LESS, "sooner": _LESS, "older": _LESS, "before": _LESS, "later": _MORE, "newer": _MORE,
            "younger": _MORE, "after": _MORE}


def _words(more: str, less: str, earlier: str, later: str) -> dict[str, tuple[Kind, int]]:
    """Comparative words (space-separated) → (kind, direction)."""
    return {**{w: ("amount", _MORE) for w in more.split()}, **{w: ("amount", _LESS) for w in less.split()},
            **{w: ("time", _LESS) for w in earlier.split()}, **{w: ("time", _MORE) for w in later.split()}}


_ZH = _words("多 大 高 长 重 贵 宽", "少 小 低 短 轻 便宜 窄", "早", "晚 迟")
_KO = _words("많 크 큰 높 길 긴 무겁 넓", "적 작 낮 짧 가볍 좁", "먼저 일찍 앞서", "늦 나중")
"""Korean stems: "많다", "많이", "먼저"."""
_JA = _words("多 大き 高 長 重 広", "少な 小さ 低 短 軽 安 狭", "先に 早 前に", "後に 遅")

_EN_COMPARISON = re.compile(r"\b(" + "|".join(sorted({*_EN_AMOUNT, *_EN_TIME} - {"before", "after"})) +
                            r")\b(?:\s+[\w'-]+){0,4}?\s+than\b|\b(before|after)\b", re.IGNORECASE)
_HANGUL = re.compile(f"[{HANGUL}]")
_KO_ENDING = "다이은게습아어았었던니"
"""What may follow a Korean comparative stem within its word ("많다", "많이", "적게"; not "적용", "길이가")."""
_PARTICLES_ZH = "得了过着的地"
"""Chinese particles that the segmenter may join to a verb ("建得" of "建得晚")."""
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
_CLAUSE = re.compile(r"(?<!\d)[,，]|[,，](?!\d)|[、;；]|\band\b")
"""Where a clause ends: a comma (not one between digits: "12,000"), a semicolon, "and"."""


@dataclass(frozen=True)
class Comparison:
    """What a claim compares: ``first`` against ``second`` (sibling modifiers, or names as the claim writes them),
    in ``kind`` ("time": their years; "amount": a number), ``direction`` +1 when it says the first's value is the
    greater (later) one."""

    first: str
    second: str
    kind: Kind
    direction: int

    @property
    def pair(self) -> frozenset[str]:
        return frozenset((self.first, self.second))


def compared(passage: str, claim: str) -> Settled | None:
    """Whether ``passage``'s numbers show ``claim``'s comparison of two things right ("entailed") or wrong
    ("contradicted"); None when they cannot tell (see the module docstring)."""
    comparison = _comparison(passage, claim)
    if comparison is None:
        return None
    words = _attribute(passage, claim, comparison)
    given = {float(n) for n in numbers(claim)}  # "1日の出荷件数": a number the claim states qualifies, not compared
    values = [_value(passage, side, other, comparison.kind, words, given) for side, other in
              ((comparison.first, comparison.second), (comparison.second, comparison.first))]
    if values[0] is None or values[1] is None or values[0] == values[1]:
        return _as_stated(passage, comparison)
    if (1 if values[0] > values[1] else -1) != comparison.direction:
        return "contradicted"
    # right by the numbers; a claim that says more than the comparison ("… more staff, since it is newer";
    # "… 인기가 많다", more popular, read by a shared word) is the judge's
    return None if _unsaid(passage, claim, comparison) else "entailed"


def _as_stated(passage: str, comparison: Comparison) -> Settled | None:
    """Without the numbers, a comparison the passage states in words ("福岡支店の社員は札幌支店より多い。", the
    reference a factual-correctness check reads as its passage): the same one the other way round is contradicted.
    The same way round is left to the judge, which reads what else the claim says."""
    for sentence in split_sentences(passage):
        stated = _comparison(passage, sentence)
        if stated is not None and stated.pair == comparison.pair and stated.kind == comparison.kind \
                and _oriented(stated) != _oriented(comparison):
            return "contradicted"
    return None


def _unsaid(passage: str, claim: str, comparison: Comparison) -> list[str]:
    """The claim's words, but for the sides' names and head, that the passage does not use, other than function
    words, Korean endings and particles ("습니다", "은") and the words of comparison ("more", "than", "比", "多",
    "보다", "より"); a CJK word counts as used when a two-character part of it is ("发货量" beside "发货")."""
    language = cjk_language(claim) or "en"
    comparing = ({*_EN_AMOUNT, *_EN_TIME, "than"} if language == "en"
                 else {*{"zh": _ZH, "ko": _KO, "ja": _JA}[language], "比", "更", "还", "보다", "더", "より"})
    used, text = set(tokens(passage)), normalise(passage)
    return [t for t in _content_words(_without_names(passage, claim, comparison), language)
            if t not in FUNCTION_WORDS and not t.isdigit() and t not in used and not t.startswith(tuple(comparing))
            and (t.isascii() or not any(t[i : i + 2] in text for i in range(max(1, len(t) - 1))))]


def _content_words(text: str, language: str) -> list[str]:
    """Words of two characters or more; Chinese ones without a particle the segmenter joined to them ("建得" of
    "建得晚"); Korean ones only of a content morpheme (a noun, a verb or adjective stem, an adverb), not an ending."""
    if language == "ko" and (content := korean_content(text)) is not None:
        return [m for m in content if len(m) >= 2]
    words = [t for t in tokens(text) if len(t) >= 2]
    return [t.rstrip(_PARTICLES_ZH) for t in words] if language == "zh" else words


def _without_names(passage: str, claim: str, comparison: Comparison) -> str:
    """``claim`` with the sides' names blanked out, and the head word that follows both ("plant" of "the Leeds
    plant … than the York plant"), so that no Han bigram runs across a name ("东仓" of 城东仓库, "店早" of 滨江店早)."""
    sides = (comparison.first, comparison.second)
    heads = {h for h, mods in _family(passage).items() if set(sides) <= mods
             and all(re.search(rf"{re.escape(m)}\s*{re.escape(h)}", claim, re.IGNORECASE) for m in sides)}
    for name in sorted({*sides, *heads}, key=len, reverse=True):
        claim = re.sub(re.escape(name), " ", claim, flags=re.IGNORECASE)
    return claim


def as_compared_in(text: str, claims: Sequence[str]) -> list[str]:
    """``claims`` split from ``text``, each claim that compares two of its siblings the other way round from a
    sentence of ``text`` replaced by that sentence. The 1.5B split turned "福岡支店の社員は札幌支店より多い。" into
    "札幌支店の社員は福岡支店より多い。" (bench/README.md, session 45): a claim the text never made."""
    stated = [(s, c) for s in split_sentences(text) if (c := _comparison(text, s)) is not None]
    out = []
    for claim in claims:
        made = _comparison(text, claim) if stated else None
        same = [s for s, c in stated if made is not None and c.pair == made.pair and c.kind == made.kind]
        out.append(same[0] if same and all(_oriented(c) != _oriented(made) for s, c in stated if s in same)
                   else claim)
    return out


def comparison_witnesses(passages: Sequence[str], claim: str) -> list[int]:
    """The passages that give one of the two siblings a claim compares a value, or state the comparison in words:
    where a settled comparison stands. Empty when the passages read together do not settle it."""
    joined = "\n\n".join(passages)
    comparison = _comparison(joined, claim) if compared(joined, claim) else None
    if comparison is None:
        return []
    a, b = comparison.first, comparison.second
    return [k for k, p in enumerate(passages) if _candidates(p, a, b) or _candidates(p, b, a)
            or any((c := _comparison(joined, s)) is not None and c.pair == comparison.pair
                   for s in split_sentences(p))]


def _oriented(c: Comparison | None) -> tuple[str, str, int] | None:
    """A comparison as (one side, the other, direction), whichever way round it is written."""
    if c is None:
        return None
    return (c.first, c.second, c.direction) if c.first < c.second else (c.second, c.first, -c.direction)


def _comparison(passage: str, claim: str) -> Comparison | None:
    """The claim's comparison, when it compares two siblings of the passage, or two things it names
    (``phrase_sides``), and does not negate."""
    language = cjk_language(claim) or "en"
    if read(claim, language).scopes:  # a negation, read as the polarity rule reads it
        return None
    found = _marker(claim, language)
    if found is None:
        return None
    at, kind, direction = found
    # one pair of siblings, which may share more than one head ("Leeds plant", "Leeds ships"); else two names
    pairs = {(pair[0], pair[1]) for mods in _family(passage).values()
             if len(pair := sorted(m for m in mods if _position(claim, m) is not None)) == 2}
    if len(pairs) == 1:
        sides: tuple[str, str] | None = next(iter(pairs))
    elif language == "en" and claim[at:].lower().startswith(("before", "after")):
        return None  # "Acme's second plant after Sheffield": of two names no siblings, only "… than" compares
    else:
        sides = phrase_sides(passage, claim, language, at)
    if sides is None:
        return None
    mods = list(sides)
    spots = {m: _position(claim, m) or 0 for m in mods}
    if language in ("ko", "ja"):  # "A는 B보다 많다": the second side stands right before the marker
        before = [m for m in mods if spots[m] < at]
        second = max(before, key=spots.__getitem__) if before else None
    else:  # "A has more staff than B", "A比B多": the second side stands right after the marker
        after = [m for m in mods if spots[m] > at]
        second = min(after, key=spots.__getitem__) if after else None
    if second is None or not _next_to(claim, spots[second], second, at, language):
        return None
    first = next(m for m in mods if m != second)
    return Comparison(first, second, kind, direction)


@lru_cache(maxsize=64)
def _family(passage: str) -> dict[str, set[str]]:
    """The passage's siblings, read once for all the claims checked against it."""
    return siblings(passage)


def _next_to(claim: str, spot: int, name: str, at: int, language: str) -> bool:
    """Whether the second side stands right by the marker: only its head or an article between, no number
    ("more than 300 staff", "2018년보다" compare with a value, not with the sibling)."""
    gap = claim[spot + len(name) : at] if language in ("ko", "ja") else claim[at:spot]
    return len(gap.strip()) <= (12 if language == "en" else 6) and not any(c.isdigit() for c in gap)


def _marker(claim: str, language: str) -> tuple[int, Kind, int] | None:
    """Where the comparison's marker stands ("than", "before", "比", "보다", "より"), and its kind and direction."""
    if language == "en":
        m = _EN_COMPARISON.search(claim)
        if m is None:
            return None
        word = (m.group(1) or m.group(2)).lower()
        at = m.end() if m.group(1) else m.start(2)
        return (at, "time", _EN_TIME[word]) if word in _EN_TIME else (at, "amount", _EN_AMOUNT[word])
    marker = {"zh": "比", "ko": "보다", "ja": "より"}[language]
    at = claim.find(marker)
    if at < 0:
        return None
    table = {"zh": _ZH, "ko": _KO, "ja": _JA}[language]
    rest = claim[at + len(marker):]
    hits = [(i, word) for word in table for i in _starts(rest, word, language)]
    if not hits:
        return None
    kind, direction = table[min(hits)[1]]
    return at, kind, direction


def _starts(text: str, word: str, language: str) -> list[int]:
    """Where ``word`` stands in ``text``; a Korean stem only at a word's start and with an ending after it."""
    out = [m.start() for m in re.finditer(re.escape(word), text)]
    if language != "ko":
        return out
    return [i for i in out if (i == 0 or not _HANGUL.match(text[i - 1]))
            and (i + len(word) == len(text) or len(word) >= 2 or text[i + len(word)] in _KO_ENDING
                 or not _HANGUL.match(text[i + len(word)]))]


def _position(text: str, name: str) -> int | None:
    """Where a sibling's modifier stands in ``text`` (a Latin one as a whole word, in any case), or None."""
    if name.isascii():
        m = re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE)
        return m.start() if m else None
    at = text.find(name)
    return at if at >= 0 else None


def _attribute(passage: str, claim: str, comparison: Comparison) -> set[str]:
    """The claim's words that say what is compared ("staff", "员工"): not the sides' names, nor the head word that
    follows both in the claim (it stands in every clause that names either, whatever its number), not function
    words, not one character (a Korean particle, "은", "에")."""
    text = _without_names(passage, claim, comparison)
    return {t for t in search_terms(text) if t not in FUNCTION_WORDS and not t.isdigit() and len(t) >= 2}


def _value(passage: str, side: str, other: str, kind: str, words: set[str], given: set[float]) -> float | None:
    """The one value the passage gives ``side`` of what the claim compares: a year for "time", else the number
    whose clause shares the most of ``words`` (at least one); None when there is none, or several. Numbers in
    ``given`` (the claim's own) are not candidates."""
    found: list[tuple[int, float]] = []
    for clause, (text, year) in _candidates(passage, side, other):
        value = float(number_value(text))
        if year == (kind == "time") and value not in given:
            found.append((len(words & set(search_terms(clause))), value))
    if not found:
        return None
    best = max(score for score, _ in found)
    values = {v for score, v in found if score == best}
    if len(values) != 1 or (kind == "amount" and best == 0):
        return None
    return values.pop()


def _candidates(passage: str, side: str, other: str) -> list[tuple[str, tuple[str, bool]]]:
    """(the words that say what it is, (a number as written, whether it is a year)) for each number the passage
    gives ``side``: in prose, its clause; in a table row that names ``side``, the column's header."""
    out, previous = [], None
    for sentence in split_sentences(passage):
        if sentence.lstrip().startswith("|"):  # a table's row: read below, by its header
            continue
        names = (bool(_finds(sentence, side)), bool(_finds(sentence, other)))
        # "The Kestrel K10 … . It was launched in 2019.": the pronoun's sentence is of the one thing named before
        spans = number_spans(sentence) if names == (False, False) and previous == side and goes_on(sentence) \
            else _owned(sentence, side, other)
        out += [(_clause_of(sentence, a), (sentence[a:b], _year(sentence, a, b))) for a, b in spans]
        if names != (False, False):
            previous = side if names == (True, False) else other if names == (False, True) else None
    for table in tables(passage):
        for row in table.rows:
            named = [i for i, cell in enumerate(row) if _finds(cell, side)]
            if not named or any(_finds(cell, other) for cell in row):
                continue
            out += [(f"{header} {row[named[0]]}", (cell, _year(cell, 0, len(cell))))
                    for header, cell in zip(table.header, row, strict=True)
                    if [(0, len(cell))] == number_spans(cell)]
    return out


def _owned(sentence: str, side: str, other: str) -> list[tuple[int, int]]:
    """The spans of the numbers of ``sentence`` that belong to ``side``: each to the sibling named last before it,
    or, with none named before it, to the only one the sentence names."""
    names = sorted([(m.start(), side) for m in _finds(sentence, side)] +
                   [(m.start(), other) for m in _finds(sentence, other)])
    if not names:
        return []
    named = {n for _, n in names}
    out = []
    for start, end in number_spans(sentence):
        before = [n for at, n in names if at < start]
        owner = before[-1] if before else (next(iter(named)) if len(named) == 1 else None)
        if owner == side:
            out.append((start, end))
    return out


def _finds(text: str, name: str) -> list[re.Match[str]]:
    pattern = rf"\b{re.escape(name)}\b" if name.isascii() else re.escape(name)
    return list(re.finditer(pattern, text, re.IGNORECASE))


def _year(sentence: str, start: int, end: int) -> bool:
    """Whether the number at ``start:end`` is a year: four digits from 1800 to 2099, followed by "年" or "년", or
    in a Latin text by no word but a function word or a name ("in 2018 to …", "In 2018 York …"; not "2000
    staff")."""
    if _YEAR.fullmatch(sentence[start:end]) is None:
        return False
    after = sentence[end:].lstrip()
    if after.startswith(("年", "년")):
        return True
    if cjk_language(sentence):
        return False
    m = re.match(r"[^\W\d_]+", after)
    return m is None or m.group().lower() in FUNCTION_WORDS or m.group()[:1].isupper()


def _clause_of(sentence: str, at: int) -> str:
    """The clause of ``sentence`` holding offset ``at`` (cut at commas, semicolons and "and")."""
    starts = [0] + [m.end() for m in _CLAUSE.finditer(sentence) if m.end() <= at]
    ends = [m.start() for m in _CLAUSE.finditer(sentence) if m.start() > at] + [len(sentence)]
    return sentence[max(starts):min(ends)]
