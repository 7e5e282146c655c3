"""A claim that denies what the passage denies, of the same thing: entailed without a call.

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
left to the judge.
"""

from __future__ import annotations

import re

from ragkit.evaluation._polarity import Negation, has_word, holds, read, readings
from ragkit.text import cjk_language, morphemes

_JOINS = {
    "en": re.compile(r"\b(?:or|and|nor|either|both)\b|&", re.IGNORECASE),
    "zh": re.compile(r"或|还是|和|与|及|、"),
}
_KO_JOINS = frozenset({"또는", "혹은", "및", "거나"})
_JA_JOINS = frozenset({"または", "もしくは", "および", "及び", "並びに"})


def denies_alike(passage: str, claim: str) -> bool:
    """Whether ``claim``, one clause with one negation, says again whole a negation of a sentence of ``passage``
    that holds its words."""
    language = cjk_language(passage) or cjk_language(claim) or "en"
    said = read(claim, language)
    if len(said.negations) != 1 or len(said.scopes) != 1 or _joins(claim, language):
        return False
    negation = said.negations[0]
    if not negation.scope or any(not holds(negation.head, clause) for clause in said.plain):
        return False  # a clause of its own beside the denial, not a qualifier of its subject
    subject = [w for w in said.words if not has_word(negation.scope, w)]
    earlier: list[str] = []
    for _, reading, words in readings(passage, language):
        named = [w for w in subject if not has_word(words, w)]  # "한빛 도서관" where the sentence says "도서관"
        if holds(words, negation.scope) and (not named or holds(earlier, named)):
            carried = words[len(reading.words):]
            if any(_alike(n, carried, subject, negation.scope, named) for n in reading.negations):
                return True
        earlier += reading.words
    return False


def _alike(negation: Negation, carried: list[str], subject: list[str], scope: list[str], named: list[str]) -> bool:
    """Whether a claim of ``subject`` denying ``scope`` says again whole the passage's ``negation``; ``named`` are the
    subject's words that only an earlier sentence of the passage holds, naming in full what this one's head names
    short."""
    if not all(has_word(subject + scope, w) for w in negation.head + negation.scope):
        return False
    if named and not negation.head:
        return False
    heads = negation.head or negation.before + carried
    if not all(has_word(heads + negation.scope, w) for w in subject if w not in named):
        return False
    crossed_in = any(has_word(negation.scope, w) and not has_word(scope, w) for w in subject)
    crossed_out = any(has_word(negation.head, w) and not has_word(subject, w) for w in scope)
    return not (crossed_in and crossed_out)


def _joins(claim: str, language: str) -> bool:
    """Whether ``claim`` joins two things with "and" or "or" (a Korean or Japanese list particle included)."""
    if language in _JOINS:
        return _JOINS[language].search(claim) is not None
    parsed = morphemes(claim, language) or []
    if language == "ko":
        return any(f[0] == "JC" or s in _KO_JOINS for s, f, _ in parsed)
    return any(f[:2] == ["助詞", "並立助詞"] or s in _JA_JOINS for s, f, _ in parsed)
