"""A claim that says what the passage denies, and the reading of negations the other rules share.

The small judge reads a claim by its topic: on 18 such claims in four languages it called 13 entailed (bench/README.md,
session 46). "The Kestrel K10 supports PROFINET." passed against "The Kestrel K10 does not support PROFINET; it
supports Modbus TCP." (0.67 in Chinese, 0.63 in Korean), and "Drivers get 25 days of leave" against "Every employee
except drivers gets 25 days" (0.76–0.95).

Each text is read as its content words, and for each negation ("not", "never", "不", "没有", "않", "없", "ない")
or exception ("except", "除…外", "제외한", "を除く") the words it covers: in English and Chinese those after it up to
the end of the clause, in Korean and Japanese those before it back to the clause's start or its topic ("K10 로봇은
| PROFINET을 지원하지 않고"). An exception covers only the thing excepted. A claim is contradicted when a sentence of
the passage holds all its words and either denies, under one negation, words the claim asserts, or asserts every
word the claim denies; unless another sentence holding the claim says in its own words what the first denies. A
sentence that goes on about the last one's subject ("It cannot …", or in Korean and Japanese one with no subject
or topic) holds that sentence's words too. Antonyms ("closed" against "open") are left to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ragkit.evaluation._claim_text import goes_on, rule_language
from ragkit.evaluation._hedges import alike_hedged
from ragkit.text import (
    FUNCTION_WORDS,
    HIRAGANA,
    JAPANESE_NOT_A_THING,
    has_word,
    is_noun,
    morphemes,
    split_sentences,
)

_EN_TOKEN = re.compile(r"[A-Za-z0-9][\w./'’-]*|[,;:()]")
_EN_NEGATION = frozenset({"not", "never", "no", "none", "neither", "nor", "without", "cannot"})
_EN_NOT_NEGATING = frozenset({"only", "until", "before", "later", "earlier", "more", "less", "fewer", "just",
                              "merely", "longer"})
"""Words after which "not" / "no" negates nothing it stands before: "not only", "not until" (a time), "no more than"
(a bound, read by ``_bounds``), and "no longer" (which negates the words after "longer")."""
_EN_EXCEPT = re.compile(r"\b(?:except(?:\s+for)?|excluding|other\s+than|apart\s+from)\b", re.IGNORECASE)
_EN_BOUNDARY = frozenset({",", ";", ":", "(", ")", "but", "and", "while", "whereas", "although", "though", "because",
                          "since", "so", "which", "who", "when", "if", "unless", "instead", "rather"})

_ZH_NEGATION = re.compile(r"并非|并不|从不|从未|绝不|没有|没|无法|无须|无需|未(?!来)|"
                          r"不(?:再|予|得|能|会|可以|可|用|必)?(?!仅|但|只|少|久|断|过|锈|错|同|到|超|足|如|管|论|多|低于|高于)")
"""Chinese negations, with the modal or adverb they take ("不再", "不予", "不能"), which a claim that drops the
negation drops too; not "不仅" (not only), "不到" or "不超过" (bounds, ``_bounds``), "不断" (continually)."""
_ZH_EXCEPT = re.compile(r"除了?(.{1,12}?)(?:以外|之外|外)")
_ZH_BOUNDARY = re.compile(r"[，,；;：:（）()]|但是?|而且?|却")
_COMMAS = frozenset("，,、")
_ZH_FUNCTION = frozenset("的了是在和与及也都就将会被把对向从个这那其该此之于为所着过地得吗呢吧")

_KO_NEGATION = frozenset({"않", "못", "못하", "없", "아니", "안"})
_KO_CONTENT = ("NNG", "NNP", "SL", "SN", "SH", "XR", "VV", "VA")
"""Not adverbs: "더 이상" (any more) or "전혀" (at all) beside a negation, which a claim that drops it drops too."""
_KO_AUXILIARY_LINK = frozenset({"지", "게", "어", "아", "고"})
"""Connective endings before an auxiliary verb ("지원하지 않", "하게 되"): not the end of a clause there."""

_JA_NEGATION_BASES = frozenset({"ない", "ぬ", "ん"})
_JA_EXCEPT_BASES = frozenset({"除く", "以外", "除外"})
_KANA_ENDING = re.compile(f"[{HIRAGANA}]+$")
_JA_NOT_A_WORD = JAPANESE_NOT_A_THING | {"接尾"}  # a suffix belongs to the noun before it
_JA_LIGHT_VERBS = frozenset({"する", "できる", "ある", "いる", "なる", "おる"})
_JA_BOUNDARY_PARTICLES = frozenset({"が", "けれど", "けど", "ので", "から", "のに", "し"})


class Negation(NamedTuple):
    """One negation of a text: the words it covers; its head, the words of its clause that stand outside it (in
    English and Chinese those before it back to a clause boundary other than a comma, or to "and"; in Korean and
    Japanese the clause's topic); and every word of the text before it."""

    head: list[str]
    scope: list[str]
    before: list[str]


@dataclass
class Reading:
    """A text's content words, and the words each of its negations and exceptions covers."""

    words: list[str] = field(default_factory=list)
    scopes: list[list[str]] = field(default_factory=list)
    negations: list[Negation] = field(default_factory=list)
    """The negations among ``scopes`` (not the exceptions), each with its head."""
    plain: list[list[str]] = field(default_factory=list)
    """The words of each clause with no negation or exception in it."""
    named: bool = True
    """Whether the text names what it speaks of: not a sentence that goes on about the last one's subject ("It
    does not …", "它不…", or in Korean and Japanese one with no subject or topic)."""

    def denied(self) -> set[str]:
        return {w for scope in self.scopes for w in scope}


def _read_en(text: str) -> Reading:
    text = _EN_EXCEPT.sub(" except ", text)
    out, scope, open_scope, excepting = Reading(), list[str](), False, False
    clause, marked, lead = list[str](), False, list[str]()  # lead: the words a negation's head may hold
    tokens = [t.lower().rstrip(".") for t in _EN_TOKEN.findall(text)] + [";"]
    for i, token in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token == "and":  # ends a negation ("does not ship on Sundays and closes at 5"), not a list
            open_scope = excepting = False
            lead = []
            continue
        if token in _EN_BOUNDARY:
            out.plain += [clause] if clause and not marked else []
            open_scope, excepting, clause, marked = False, False, [], False
            lead = lead if token == "," else []  # "In the free plan, the app does not …": the plan is its head
            continue
        if token == "except":
            scope, excepting, marked = [], True, True
            out.scopes.append(scope)
            continue
        if token == "longer" and tokens[i - 1] == "no":  # "no longer stops": the negation covers what follows
            continue
        if (token in _EN_NEGATION or token.endswith(("n't", "n’t"))) and \
                (after not in _EN_NOT_NEGATING or token == "no" and after == "longer"):
            scope, open_scope, marked = [], True, True
            out.scopes.append(scope)
            out.negations.append(Negation(list(lead), scope, list(out.words)))
            continue
        if token in FUNCTION_WORDS:
            continue
        out.words.append(token)
        clause.append(token)
        lead.append(token)
        if open_scope or excepting:
            scope.append(token)
            excepting = False  # an exception covers the one thing it names
    return out


def _read_zh(text: str) -> Reading:
    out, lead = Reading(), list[str]()  # lead: the words a negation's head may hold
    pieces = re.split(f"({_ZH_BOUNDARY.pattern})", text)
    for clause, mark in zip(pieces[::2], [*pieces[1::2], ""], strict=True):
        exceptions = list(_ZH_EXCEPT.finditer(clause))
        excepted = [m.span(1) for m in exceptions]
        markers = {i for m in exceptions for i in range(*m.span()) if not m.start(1) <= i < m.end(1)}
        negation = _ZH_NEGATION.search(clause)
        starts = negation.end() if negation else len(clause)
        kept = [(i, u) for i, u in _zh_units(clause)
                if not (negation and negation.start() <= i < negation.end() or i in markers)]
        scope = [u for i, u in kept if i >= starts]
        head = lead + [u for i, u in kept if i < starts]
        if negation and scope:
            out.scopes.append(scope)
            out.negations.append(Negation(head, scope, out.words + head[len(lead):]))
        out.words += [u for _, u in kept]
        out.scopes += [[u for i, u in _zh_units(clause) if a <= i < b] for a, b in excepted]
        out.plain += [[u for _, u in _zh_units(clause)]] if not negation and not exceptions else []
        lead = lead + [u for _, u in kept] if mark in _COMMAS else []  # "周一，书店不营业": Monday is its head
    return out


ZH_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9./-]*|[\u4e00-\u9fff]")
"""A Chinese text's tokens as the claim engine's word rules read them: each Han character, each Latin word or
number."""


def _zh_units(text: str) -> list[tuple[int, str]]:
    """(offset, word) of a Chinese text: each Han character but function ones, and each Latin word or number."""
    found = ZH_TOKEN.finditer(text)
    return [(m.start(), m.group().lower()) for m in found if m.group() not in _ZH_FUNCTION]


def _ko_word(surface: str, features: list[str]) -> str | None:
    """A Korean morpheme's content word (a verb by its stem: "연다" → "열"), or None."""
    tag = features[0].split("+")[0]
    if tag not in _KO_CONTENT:
        return None
    if "+" in features[0] and len(features) > 7 and "/" in features[7]:
        return features[7].split("/")[0]
    return surface.lower()


def _read_ko(text: str) -> Reading:
    parsed = morphemes(text, "ko") or []
    # "더 이상" is "any more", beside a negation ("더 이상 서지 않는다"), not the bound "이상"
    parsed = [m for i, m in enumerate(parsed) if not (m[0] == "이상" and i and parsed[i - 1][0] == "더")]
    # "받지는 않는다", "가지도 않는다": a particle between "-지" and the negation, which still negates the verb
    parsed = [m for i, m in enumerate(parsed) if not (0 < i < len(parsed) - 1 and m[1][0].startswith("J") and
                                                      parsed[i - 1][0] == "지" and parsed[i + 1][0] in _KO_NEGATION)]
    return _read_sov(_only(parsed, "밖에", _ko_marker), _ko_word, _ko_marker, _ko_boundary)


def _ko_marker(surface: str, features: list[str]) -> str | None:
    tag = features[0].split("+")[0]
    stem = _ko_word(surface, features) if tag in ("VV", "VA") else surface
    if tag in ("VX", "VA", "VCN", "MAG") and stem in _KO_NEGATION:
        return "negation"
    if tag == "NNG" and surface == "제외" or tag == "NNB" and surface == "외":
        return "except"
    return None


def _ko_boundary(surface: str, features: list[str], following: str) -> str | None:
    tag = features[0].split("+")[-1]
    if tag in ("SF", "SC", "SY") or tag == "EC" and not (surface in _KO_AUXILIARY_LINK and following in
                                                          _KO_NEGATION | {"하", "되", "보", "있"}):
        return "clause"
    return "topic" if tag == "JX" and surface in ("은", "는") else None


def _ja_word(surface: str, features: list[str]) -> str | None:
    pos, sub = features[0], features[1] if len(features) > 1 else ""
    base = features[6] if len(features) > 6 and features[6] != "*" else surface
    if is_noun(features, "ja", skip=_JA_NOT_A_WORD) or pos in ("動詞", "形容詞") and sub == "自立":
        if base in _JA_NEGATION_BASES or base in _JA_LIGHT_VERBS:
            return None
        return _KANA_ENDING.sub("", base).lower() or base  # "払い戻し" (a noun) and "払い戻す" (a verb): one word
    return None


def _read_ja(text: str) -> Reading:
    return _read_sov(_only(morphemes(text, "ja") or [], "しか", _ja_marker), _ja_word, _ja_marker, _ja_boundary)


def _only(parsed: Parsed, particle: str, marker: Marker) -> Parsed:
    """``parsed`` without the negation that follows ``particle`` ("本しか借りられない", "책밖에 없다"): together they
    say "only", and deny nothing."""
    out, waiting = list(parsed), False
    for i, (surface, features, spaced) in enumerate(out):
        if surface == particle:
            waiting = True
        elif waiting and marker(surface, features) == "negation":
            out[i], waiting = (surface, ["*"] * 9, spaced), False
    return out


def _ja_marker(surface: str, features: list[str]) -> str | None:
    base = features[6] if len(features) > 6 else surface
    if features[0] in ("助動詞", "形容詞") and base in _JA_NEGATION_BASES:
        return "negation"
    return "except" if base in _JA_EXCEPT_BASES else None


def _ja_boundary(surface: str, features: list[str], following: str) -> str | None:
    if features[0] == "記号" or features[:2] == ["助詞", "接続助詞"] and surface in _JA_BOUNDARY_PARTICLES:
        return "clause"
    return "topic" if features[:2] == ["助詞", "係助詞"] and surface == "は" else None


Parsed = list[tuple[str, list[str], bool]]
Marker = Callable[[str, list[str]], str | None]


def _read_sov(parsed: Parsed, word_of: Callable[[str, list[str]], str | None], marker: Marker,
              boundary: Callable[[str, list[str], str], str | None]) -> Reading:
    """Korean and Japanese, where a negation follows what it covers: the words since the clause's start or its
    topic. An exception ("운전기사를 제외한", "運転手を除く") covers the nouns right before it."""
    out, since = Reading(named=False), list[str]()  # since: this clause's words after its topic
    clause, marked, lead = list[str](), False, list[str]()  # lead: the words a negation's head may hold
    for i, (surface, features, _) in enumerate(parsed):
        following = parsed[i + 1][0] if i + 1 < len(parsed) else ""
        kind = marker(surface, features)
        marked = marked or kind is not None
        if kind == "negation" and since:
            out.scopes.append(list(since))
            out.negations.append(Negation(lead[: len(lead) - len(since)], out.scopes[-1],
                                          out.words[: len(out.words) - len(since)]))
        elif kind == "except":
            out.scopes.append(_nouns_before(parsed, i, word_of))
        elif (word := word_of(surface, features)) is not None:
            out.words.append(word)
            since.append(word)
            clause.append(word)
            lead.append(word)
        edge = boundary(surface, features, following)
        if edge == "topic" and i and _particle(parsed[i - 1][1]):
            edge = None  # a contrast, not the topic: "PDF로는 내보낼 수 없다", "PDFには書き出せない"
        if edge is not None:
            since = []
        if edge == "clause" or i == len(parsed) - 1:
            out.plain += [clause] if clause and not marked else []
            clause, marked = [], False
            lead = lead if surface in _COMMAS else []  # "月曜日は、…許可していません": Monday is its head
        out.named = out.named or edge == "topic" or features[0] == "JKS" or \
            features[:2] == ["助詞", "格助詞"] and surface == "が"
    return out


def _particle(features: list[str]) -> bool:
    return features[0].startswith("J") or features[0] == "助詞"


def _nouns_before(parsed: Parsed, i: int, word_of: Callable[[str, list[str]], str | None]) -> list[str]:
    """The nouns right before position ``i``, over the particles between."""
    j = i - 1
    while j >= 0 and parsed[j][1][0] in ("JKO", "JKS", "JKB", "助詞"):
        j -= 1
    nouns: list[str] = []
    while j >= 0 and parsed[j][1][0] in ("NNG", "NNP", "SL", "名詞"):
        if (w := word_of(*parsed[j][:2])) is not None:  # not a suffix ("手" of "運転手")
            nouns.insert(0, w)
        j -= 1
    return nouns


_READERS = {"en": _read_en, "zh": _read_zh, "ko": _read_ko, "ja": _read_ja}


def read(text: str, language: str) -> Reading:
    return _READERS[language](text)


def _opposed(claim: Reading, sentence: Reading) -> bool:
    """Whether the sentence denies, under one negation, words the claim all asserts, or asserts in one clause every
    word of one of the claim's negations (and denies none of them). A claim that denies of a thing what the sentence
    says of all but that thing says what the sentence says, not its opposite."""
    if denies_the_excepted(claim, sentence):
        return False
    denied_by_claim, denied_by_sentence = claim.denied(), sentence.denied()
    asserted = [w for w in claim.words if not has_word(denied_by_claim, w)]
    if any(_asserts(asserted, scope) for scope in sentence.scopes):
        return True
    return any(scope and not any(has_word(denied_by_sentence, w) for w in scope) and
               any(all(has_word(clause, w) for w in scope) for clause in sentence.plain) for scope in claim.scopes)


def denies_the_excepted(claim: Reading, sentence: Reading) -> bool:
    """Whether a negation of the claim is said of the thing an exception of the sentence names ("Drivers do not get
    25 days" against "everyone except drivers gets 25 days"; bench/README.md, session 63)."""
    negated = [n.scope for n in sentence.negations]
    exceptions = [scope for scope in sentence.scopes if scope and scope not in negated]
    return any(all(has_word(n.head, w) for w in scope) for n in claim.negations for scope in exceptions)


def _asserts(asserted: list[str], scope: list[str]) -> bool:
    """Whether the claim asserts every word one negation of the passage covers."""
    return bool(scope) and all(has_word(asserted, w) for w in scope)


@lru_cache(maxsize=64)
def readings(passage: str, language: str) -> tuple[tuple[str, Reading, list[str]], ...]:
    """Each sentence of ``passage``, its reading, and the words it speaks of: its own, and the sentence before's when
    it goes on about that one's subject ("Docuvault imports Word files. It cannot import PDF files."). Read once for
    all the claims checked against the passage; the readings are not to be changed."""
    out: list[tuple[str, Reading, list[str]]] = []
    for sentence in split_sentences(passage):
        reading = read(sentence, language)
        if language in ("en", "zh"):
            reading.named = not goes_on(sentence)
        before = out[-1][2] if out and not reading.named else []
        out.append((sentence, reading, reading.words + before))
    return tuple(out)


def holds(words: list[str], wanted: list[str]) -> bool:
    return bool(wanted) and all(has_word(words, w) for w in wanted)


def denied(passage: str, claim: str) -> bool:
    """Whether every sentence of ``passage`` that holds the words of ``claim`` says the opposite of it: a negation
    the claim drops ("supports PROFINET" against "does not support PROFINET"), adds, or an exception it ignores
    ("Drivers get 25 days" against "everyone except drivers gets 25 days"). A sentence under another condition than the
    claim's, or either denying a need, opposes nothing (``_hedges``)."""
    language = rule_language(passage, claim)
    reading = read(claim, language)
    holding = [(s, r) for s, r, words in readings(passage, language) if holds(words, reading.words)]
    opposing = [r for s, r in holding if alike_hedged(claim, s, language) and _opposed(reading, r)]
    if not opposing:
        return False
    others = [r for _, r in holding if not any(r is o for o in opposing)]
    # another sentence that holds the claim stands against them when it says, in its own words, what they deny
    denied_there = set().union(*(r.denied() for r in opposing))
    at_issue = [w for w in reading.words if has_word(denied_there, w)] or reading.words
    return not any(holds(r.words, at_issue) for r in others)
