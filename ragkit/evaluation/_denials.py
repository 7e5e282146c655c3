"""A claim that denies what the passage denies, of the same thing, is entailed; one without its time, neutral.

The small judge reads a denial by its topic, and misreads it both ways (bench/README.md, session 54): "The Osprey
ferry cannot carry cars." scored 0.30 against "It does not carry cars", and "한빛 도서관은 … 허용하지 않습니다."
against the passage's own "…허용하지 않는다" 0.60; while a claim that drops the denial's qualifier, "The Mira app does
not sync notes over mobile data" where the passage says so only "in the free plan", scored 0.79.

A claim of one clause and one negation is entailed when a sentence of the passage holding its words has a negation
that it says again whole:
- every word of that negation's clause, what it covers and its head (the subject or topic, and what stands before
  it back to a clause boundary other than a comma), is a word of the claim; so a claim that drops a qualifier
  ("in the free plan", "after 30 days", 離島への) is left to the judge, and one that adds a word to what is denied
  ("does not carry cars from Kirkwall") says less than the passage and stands;
- every word the claim says of its subject is in that head, or, where the clause has none ("It does not …", a
  Korean or Japanese clause without a topic), in the words before it or the sentence before's;
- no two words change sides: a claim's subject word that the passage denies, with a word the claim denies that is the
  passage's subject, is two names turned round ("Bob does not pay Alice" against "Alice does not pay Bob").
A claim that joins two things ("cars or bicycles", 送货服务或礼品包装, 写真撮影やロッカー) denies each of them, and is
left to the judge; so is a sentence or claim that says there is no need ("don't have to pay", 不用, 않아도 된다,
なくてもよい), which denies no act, and a sentence under a condition ("… unless the event is cancelled", 如果…, 비가
오면), which a claim without the condition overstates.

A claim that denies only words of such a negation, of its subject, but without a time or an amount the negation
holds ("Refunds are not issued" against "Refunds are never issued after 30 days", 本诊所不接诊 against 本诊所周日不接诊)
denies more than the passage, and is neutral: the judge gave such claims 0.52–0.93. A year, or a time that is a
start ("since March", 从…起, 부터, から), is no such limit: after a start the denial holds to this day, and years are
the status rules'.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._hedges import hedged, no_need
from ragkit.evaluation._polarity import Negation, holds, read, readings
from ragkit.text import has_word, joins_items, morphemes

_JOINS = {
    "en": re.compile(r"\b(?:or|and|nor|either|both)\b|&", re.IGNORECASE),
    "zh": re.compile(r"或|还是|和|与|及|、"),
}
_UNITS = {  # times and amounts, one or more in a row: "晚上八点", "오후 9시"
    "zh": r"(?<!\d)\d{1,3}(?!\d)[点时天]?|(?:周|星期|礼拜)[一二三四五六日天末]|节假日|假日|工作日|[冬夏春秋](?:季|天)|"
          r"夜间|晚上|早上|上午|下午|中午|凌晨|深夜|午夜|[一二三四五六七八九十两]+(?:天|个月|周|点|小时)",
    "ko": r"(?<!\d)\d{1,3}(?!\d)(?:시|일|세)?|[월화수목금토일]요일|주말|평일|공휴일|휴일|오전|오후|야간|새벽|자정|"
          r"정오|아침|저녁|겨울|여름",
    "ja": r"(?<!\d)\d{1,3}(?!\d)(?:時|日|歳)?|[月火水木金土日]曜日?|週末|平日|祝日|休日|午前|午後|夜間?|深夜|夕方|"
          r"[冬夏]季?",
}
_BETWEEN_UNITS = {"zh": r"到|至|-|~|～", "ko": r"부터|에서|-|~|～", "ja": r"から|-|~|～|〜"}
"""What joins two times into one span ("两点到五点", "2時から5時まで")."""
_AFTER_UNITS = {"zh": r"以后|之后|以前|之前|以内|以上|以下|前|后", "ko": r"이후|이전|이내|이상|이하|미만|초과|전|후",
                "ja": r"以降|以前|以内|以上|以下|未満|まで|前|後"}
_LIMITS = {  # a time or an amount that limits a denial; not a year, which the status rules read
    "en": re.compile(r"\b(?:\d{1,3}(?:[.:]\d+)?(?!\d)|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|"
                     r"holidays?|mornings?|afternoons?|evenings?|nights?|midnight|noon|overnight|winter|summer|"
                     r"spring|autumn)\b", re.IGNORECASE),
    **{language: re.compile(f"(?:{units})(?:\\s?(?:{_BETWEEN_UNITS[language]})?\\s?(?:{units}))*"
                            f"\\s?(?:{_AFTER_UNITS[language]})?") for language, units in _UNITS.items()},
}
_SINCE_BEFORE = {"en": re.compile(r"\b(?:since|for|(?:in|over) the (?:last|past))\s*$", re.IGNORECASE),
                 "zh": re.compile(r"[自从]\s*$")}
_SINCE_AFTER = {"zh": re.compile(r"\s*(?:年|个月|天)?(?:起|以来|来)"),
                "ko": re.compile(r"\s*(?:년|개월|일)?\s*(?:부터|이래|째|간)"),
                "ja": re.compile(r"\s*(?:年|か月|ヶ月|日)?\s*(?:から|以来|間|来)")}
"""A time that is a start or a span up to now ("since March", "for 20 years", 从…起, 20年来, 월요일부터, 20년째,
月曜日から, 20年間), after which, or over which, the denial holds to this day."""
_KO_JOINS = frozenset({"또는", "혹은", "및", "거나"})
_JA_JOINS = frozenset({"または", "もしくは", "および", "及び", "並びに"})


def denied_again(passage: str, claim: str) -> Literal["entailed", "neutral"] | None:
    """"entailed" when ``claim``, one clause with one negation, says again whole a negation of a sentence of
    ``passage`` that holds its words; "neutral" when none does and the claim denies what such a negation denies only
    at a time or up to an amount, without the time or amount ("Refunds are not issued" against "Refunds are never
    issued after 30 days"); else None."""
    found = list(_denials(passage, claim))
    if any(_alike(f) for f in found):
        return "entailed"
    return "neutral" if any(_limited(f) for f in found) else None


class _Found(NamedTuple):
    """A negation of the passage that a claim of one negation may say again: the claim's subject and what it denies;
    the passage's negation, its sentence and the sentence before's words (when this one goes on about its subject);
    the claim's subject words that only an earlier sentence holds; and the language."""

    subject: list[str]
    scope: list[str]
    negation: Negation
    sentence: str
    carried: list[str]
    named: list[str]
    language: str
    opening: bool = False
    """Whether the words ``named`` are the place the passage opens with, put under a Korean or Japanese claim's
    negation."""


def _denials(passage: str, claim: str) -> Iterator[_Found]:
    """Each negation of a sentence of ``passage`` that holds the words ``claim`` denies, when the claim is one clause
    with one negation, joins nothing and says no "need not"; a sentence under a condition is passed over."""
    language = rule_language(passage, claim)
    said = read(claim, language)
    if len(said.negations) != 1 or len(said.scopes) != 1 or _joins(claim, language) or no_need(claim, language):
        return
    negation = said.negations[0]
    if not negation.scope or any(not holds(negation.head, clause) for clause in said.plain):
        return  # a clause of its own beside the denial, not a qualifier of its subject
    subject = [w for w in said.words if not has_word(negation.scope, w)]
    earlier, written = list[str](), ""
    sentences = readings(passage, language)
    opening = [w for _, reading, _ in sentences[:2] for w in reading.words]  # the title and the first sentence
    for sentence, reading, words in sentences:
        frame = _frame(negation.scope, words, opening) if language in ("ko", "ja") else []
        scope, framed = negation.scope[len(frame):], subject + frame
        named = [w for w in framed if not has_word(words, w)]  # "한빛 도서관" where the sentence says "도서관"
        if holds(words, scope) and (not named or _named_before(named, earlier, written, claim)) and \
                not hedged(sentence, language):
            opening_only = bool(frame) and all(has_word(frame, w) for w in named)
            for own in reading.negations:
                yield _Found(framed, scope, own, sentence, words[len(reading.words):], named, language,
                             opening_only)
        earlier += reading.words
        written += sentence


def _named_before(named: list[str], earlier: list[str], written: str, claim: str) -> bool:
    """Whether earlier sentences name what the claim's subject adds to this one's. Chinese is read by character, so
    each run of such characters in the claim must stand in an earlier sentence as written: "青禾" of 青禾书店, not a
    "生产会议" pieced together from 生产工作会议."""
    han = "".join(re.escape(w) for w in named if len(w) == 1 and "\u4e00" <= w <= "\u9fff")
    runs = re.findall(f"[{han}]+", claim) if han else []
    return holds(earlier, named) and all(run in written for run in runs)


def _frame(scope: list[str], words: list[str], opening: list[str]) -> list[str]:
    """The words a Korean or Japanese claim's negation covers first that the sentence lacks and the passage's
    opening names: the place it speaks of ("은하 미술관에서는 반려동물이 입장할 수 없습니다" against "반려동물은 입장할
    수 없다"), a subject in all but name. Only the opening's: a later sentence may name another place."""
    n = 0
    while n < len(scope) - 1 and not has_word(words, scope[n]) and has_word(opening, scope[n]):
        n += 1
    return scope[:n]


def _alike(found: _Found) -> bool:
    """Whether the claim says every word of the passage's negation, its head and what it covers, of its subject."""
    own = found.negation
    return all(has_word(found.subject + found.scope, w) for w in own.head + own.scope) and _same_subject(found)


def _limited(found: _Found) -> bool:
    """Whether the claim denies only words of the passage's negation, of its subject, and drops a time or an amount
    that negation holds."""
    own = found.negation
    if not all(has_word(own.head + own.scope, w) for w in found.scope):
        return False
    said = found.subject + found.scope
    for limit in _LIMITS[found.language].finditer(found.sentence):
        words = read(limit.group(), found.language).words
        if limit.group().strip().isdigit() and not all(has_word(own.scope, w) for w in words):
            continue  # a bare number before the negation names a thing: "Flight 370", "K10 로봇"
        if words and all(has_word(own.head + own.scope, w) and not has_word(said, w) for w in words) and \
                not _a_start(found.sentence, limit, found.language) and \
                _same_subject(found, [w for w in own.head if not has_word(words, w)]):
            return True
    return False


def _a_start(sentence: str, limit: re.Match[str], language: str) -> bool:
    """Whether the time ``limit`` found in ``sentence`` is a start or a span up to now ("since March", 20年来)."""
    before, after = _SINCE_BEFORE.get(language), _SINCE_AFTER.get(language)
    return bool(before and before.search(sentence[: limit.start()]) or after and after.match(sentence, limit.end()))


def _same_subject(found: _Found, head: list[str] | None = None) -> bool:
    """Whether the claim speaks of the negation's subject: its subject's words are in the negation's ``head`` (by
    default the whole head), or, where the clause has none, in the words before it or the sentence before's; and no
    two words change sides. A clause with no subject of its own speaks of the one an earlier sentence names, given a
    ``head`` without the dropped time ("晚上八点以后不接受电话预约"), or when that is the place the passage opens with
    ("館内では喫煙できません" for "こもれび温泉では館内で喫煙できません")."""
    own = found.negation
    strict = head is None
    head = own.head if head is None else head
    if found.named and (head or strict and not found.opening) and \
            not (head and all(has_word(found.subject + found.scope, w) for w in head)):
        return False  # the claim names in full what the head names short: "한빛 도서관" for "도서관"
    heads = head or own.before + found.carried
    if not all(has_word(heads + own.scope, w) for w in found.subject if w not in found.named):
        return False
    crossed_in = any(has_word(own.scope, w) and not has_word(found.scope, w) for w in found.subject)
    crossed_out = any(has_word(head, w) and not has_word(found.subject, w) for w in found.scope)
    return not (crossed_in and crossed_out)


def _joins(claim: str, language: str) -> bool:
    """Whether ``claim`` joins two things with "and" or "or" (a Korean or Japanese list particle included)."""
    if language in _JOINS:
        return _JOINS[language].search(claim) is not None
    parsed = morphemes(claim, language) or []
    words = _KO_JOINS if language == "ko" else _JA_JOINS
    return any(joins_items(f, language) or s in words for s, f, _ in parsed)
