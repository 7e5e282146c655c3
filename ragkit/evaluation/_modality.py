"""A claim that makes what the passage allows a duty, or a duty a choice: "Staff must work from home on Fridays"
against "Staff may work from home on Fridays".

The small judge reads a claim by its topic: on 6 such claims in four languages it called 5 entailed (0.63–0.97;
bench/README.md, session 46). A claim that says "must" ("required", "必须", "반드시 …해야", "なければならない")
where the sentence holding its other words says only "may" ("allowed", "可以", "할 수 있다", "てもよい"), or the
other way round, is neutral without a call: the passage does not say it.
"""

from __future__ import annotations

import re
from typing import Literal

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import holds, read, readings

Mode = Literal["duty", "choice"]

_MODES: dict[str, list[tuple[Mode, str]]] = {
    "en": [("duty", r"\b(?:must|shall|(?:is|are)\s+required\s+to|(?:has|have)\s+to|needs?\s+to|mandatory|"
                    r"compulsory|obliged)\b"),
           ("choice", r"\b(?:may|can|(?:is|are)\s+(?:allowed|permitted|free)\s+to|(?:is|are)\s+(?:allowed|permitted)|"
                      r"optional|if\s+they\s+wish)\b")],
    "zh": [("duty", r"必须|务必|须|应当|一律|强制"), ("choice", r"可以|可|允许|自愿|可选")],
    "ko": [("duty", r"반드시|(?:아|어|여|해)야\s*(?:한|하|합|했)|의무|필수"),
           ("choice", r"수\s*(?:있|있다|있습니다)|허용|가능|선택")],
    "ja": [("duty", r"必ず|なければ(?:なら|いけ)|義務|必須"),
           ("choice", r"てもよい|てもいい|ても構わない|でもよい|許可|任意|自由に|ことができ")],
}
_MODAL_WORDS = {
    "en": frozenset("must shall required require has have need needs needed mandatory compulsory obliged may can "
                    "allowed permitted free optional if they wish".split()),
    "zh": frozenset("必须务应当一律强制可以允许自愿选择"),
    "ko": frozenset("반드시 하 있 수 허용 가능 선택 의무 필수".split()),
    "ja": frozenset("必ず 義務 必須 許可 任意 自由 よい いい 構う こと".split()),
}
"""The words that say the mode, left out when a sentence is matched to the claim by its other words."""


def modes(text: str, language: str) -> set[Mode]:
    return {mode for mode, pattern in _MODES[language] if re.search(pattern, text, re.IGNORECASE)}


def mode_changed(passage: str, claim: str) -> bool:
    """Whether ``claim`` says "must" where the sentence of ``passage`` holding its other words says only "may", or
    "may" where it says only "must"."""
    language = rule_language(passage, claim)
    claimed = modes(claim, language)
    if len(claimed) != 1:
        return False
    ignore = _MODAL_WORDS[language]
    wanted = [w for w in read(claim, language).words if w not in ignore]
    sentences = readings(passage, language)
    # by a sentence's own words first: one that goes on about the last one's subject holds its words too, but a
    # Korean or Japanese sentence with no subject may be about something else ("정원에는 … 데려올 수 있다")
    stated = [modes(s, language) for s, r, _ in sentences if holds(r.words, wanted)] or \
        [modes(s, language) for s, _, words in sentences if holds(words, wanted)]
    return bool(stated) and all(m and not m & claimed for m in stated)
