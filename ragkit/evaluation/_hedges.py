"""Sentences whose denial holds only under a condition, or denies a need and not the act.

"The pool does not open if it rains" says nothing against "The pool opens", and "Guests do not need to bring towels"
nothing against "Guests bring towels". The rules that read negations (``_polarity.denied``, ``_denials``) pass such
sentences over and leave the claim to the judge (bench/README.md, session 55).
"""

from __future__ import annotations

import re

_NO_NEED = {  # "need not", "not necessarily": no denial of the act itself ("Members don't have to pay" ≠ "do not pay")
    "en": re.compile(r"\b(?:(?:do|does|did)(?:n[’']t| not)|not) (?:have|need) to\b|\bneed(?:n[’']t| not)\b|"
                     r"\bnot (?:required|obliged|necessary|needed|necessarily)\b|\bno need\b", re.IGNORECASE),
    "zh": re.compile(r"不用|无需|无须|不必|不需要|没必要|不一定|未必"),
    "ko": re.compile(r"않아도|필요(?:가|는)?\s?없|(?:지|진)는 않"),
    "ja": re.compile(r"なくても|必要(?:は|が)?(?:ない|ありません)|とは限ら|わけでは"),
}
_NEED = {  # a need or a duty, which a "need not" sentence does deny ("Backups are required" against "… not required")
    "en": re.compile(r"\b(?:must|ha(?:ve|s) to|needs? to|required|necessary|obliged|mandatory)\b", re.IGNORECASE),
    "zh": re.compile(r"必须|需要|必要|要求"),
    "ko": re.compile(r"야\s?(?:한|하|합|돼|된)|필요|의무"),
    "ja": re.compile(r"なければ|なくては|必要|義務|必須"),
}
_CONDITIONS = {  # a condition ("… unless the event is cancelled", 비가 오면)
    "en": re.compile(r"\b(?:if|unless|when|whenever|until|once|provided|in case)\b", re.IGNORECASE),
    "zh": re.compile(r"如果|假如|若|除非|只要|的话|一旦|时候"),
    "ko": re.compile(r"[가-힣]면[\s,]|거든|경우|때(?:에|는|\s)"),
    "ja": re.compile(r"場合|たら|なら|れば|とき|時は|際|と、"),
}


def no_need(text: str, language: str) -> bool:
    """Whether ``text`` says there is no need ("don't have to", 不用, 않아도 된다, なくてもよい)."""
    return bool(_NO_NEED[language].search(text))


def conditioned(text: str, language: str) -> bool:
    """Whether ``text`` holds a condition ("if", "unless", "until", 如果, 비가 오면, 場合)."""
    return bool(_CONDITIONS[language].search(text))


def hedged(text: str, language: str) -> bool:
    """Whether what ``text`` denies or says holds only under a condition, or is a need it denies."""
    return no_need(text, language) or conditioned(text, language)


def alike_hedged(claim: str, sentence: str, language: str) -> bool:
    """Whether ``sentence`` may be read against ``claim`` as their words stand: the claim says there is no need
    only where the sentence does, the sentence only where the claim says there is one ("Backups are required"
    against "Backups are not required", not "Guests bring towels" against "Guests do not need to bring towels"), and
    both hold the same condition words, or none ("opens if it rains" against "does not open if it rains"; not "works
    if" against "does not work unless")."""
    if no_need(claim, language) or (no_need(sentence, language) and not _NEED[language].search(claim)):
        return False
    return _condition_words(claim, language) == _condition_words(sentence, language)


def _condition_words(text: str, language: str) -> set[str]:
    return {m.group().strip(" ,").lower() for m in _CONDITIONS[language].finditer(text)}
