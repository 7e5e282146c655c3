"""A denial of the thing an exception names, said again whole: "Drivers do not get 25 days of paid leave a year"
against "Every employee except drivers gets 25 days of paid leave a year".

The sentence says the fact of everyone in a group but the excepted thing; a claim that denies it of that thing, with
every other word of the sentence, says what the sentence says. The small judge does not draw that consequence: it
called six of eight such claims in Chinese, Korean and Japanese "not mentioned" (bench/exception_probe.py, session 63).
So such a claim is entailed without a call when:
- its one negation is said of the thing an exception of a sentence names (``denies_the_excepted``), and the sentence
  denies nothing itself;
- every word of the claim is the sentence's;
- every word of the sentence that the claim does not write is the excepted thing's, the group's ("every employee",
  所有正式员工, 모든 직원, 全従業員: the quantifier and what follows it), or the word the claim's negation turns
  round (있 of 있다 for 없다): no number or qualifier of the fact is dropped ("Drivers do not get paid leave" says
  more than "… except drivers gets 25 days of paid leave", and is the judge's).
"""

from __future__ import annotations

import re

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import denies_the_excepted, holds, read, readings
from ragkit.text import has_word

_GROUP = {
    "en": re.compile(r"\b(?:every|all|each|any)\s+(?:[\w-]+\s+){0,2}", re.IGNORECASE),
    "zh": re.compile(r"(?:所有|全部|全体|一切|每位|每个|各)[\u4e00-\u9fff]{0,6}"),
    "ko": re.compile(r"(?:모든|전|각)\s*\S+"),
    "ja": re.compile(r"(?:全て?の?|すべての|各)[^\s、。はがも]{0,8}"),
}
"""A group named by its quantifier and what follows it: "every employee", 所有正式员工, 모든 직원은, 全従業員."""
_TURNED = {"ko": {"있"}, "ja": {"ある", "でき"}, "zh": {"有", "可", "以", "能"}, "en": {"can", "may"}}
"""Words a negation takes the place of: 없다 for 있다, できない for できる, 不可以 for 可以, "cannot" for "can"."""


def excepted_again(passage: str, claim: str) -> bool:
    """Whether ``claim`` denies, of the thing an exception of a sentence of ``passage`` names, the whole fact the
    sentence says of the rest of its group."""
    language = rule_language(passage, claim)
    said = read(claim, language)
    if len(said.negations) != 1 or len(said.scopes) != 1:
        return False
    for sentence, reading, _ in readings(passage, language):
        if reading.negations or not holds(reading.words, said.words) or not denies_the_excepted(said, reading):
            continue
        excepted = [w for scope in reading.scopes for w in scope]
        rest = [w for w in reading.words
                if not has_word(excepted, w) and w not in claim and not has_word(said.words, w)]
        if _of_the_group(rest, sentence, language):
            return True
    return False


def _of_the_group(rest: list[str], sentence: str, language: str) -> bool:
    """Whether the sentence's words ``rest`` that the claim does not write are only its group's ("all 25
    employees") or a word the claim's negation turns round; a sentence whose group no quantifier names is the
    judge's."""
    group = " ".join(m.group(0) for m in _GROUP[language].finditer(sentence)).lower()
    return bool(group) and all(w in group or w in _TURNED[language] for w in rest)
