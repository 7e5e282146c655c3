"""A claim that says "all" where the passage says only "most" or "sometimes".

The small judge called "All orders ship within 48 hours" entailed against "Most orders ship within 48 hours" at
0.87–0.98 (bench/README.md, session 46). A claim that says "all" ("every", "always", "所有", "모든", "すべて") where
the sentence holding its other words says only "most" or "sometimes" is neutral.
"""

from __future__ import annotations

import re

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import holds, read, readings

_QUANTIFIERS = {  # (all, only some): "all" where the passage says "most" overstates it
    "en": (r"\b(?:all|every|each|always)\b",
           r"\b(?:most|some|many|several|often|usually|sometimes|occasionally|typically|generally|mostly|frequently|"
           r"few)\b"),
    "zh": (r"所有|全部|一律|总是|始终|每(?=[个位批次天年周月家])",
           r"大部分|大多数|多数|部分|一些|有些|有时|通常|一般|往往|经常|多半|少数"),
    "ko": (r"모든|모두|항상|언제나|늘|전부|전원|매(?=[일주월년번])",
           r"대부분|일부|가끔|때때로|보통|종종|자주|대개|흔히|몇몇|상당수"),
    "ja": (r"すべて|全て|全部|必ず|いつも|常に|全(?=[従社員店品])|毎(?=[日週月年回])",
           r"ほとんど|大部分|大半|一部|時々|ときどき|通常|多く|たいてい|しばしば|一般的"),
}


def overstated(passage: str, claim: str) -> bool:
    """Whether ``claim`` says "all", "every" or "always" of what the sentence holding its other words says only of
    "most" or "sometimes" ("All orders ship within 48 hours" against "Most orders ship within 48 hours")."""
    language = rule_language(passage, claim)
    every, some = (re.compile(p, re.IGNORECASE) for p in _QUANTIFIERS[language])
    if not every.search(claim) or some.search(claim):
        return False
    ignore = set(every.findall(claim.lower())) | set(some.findall(passage.lower()))
    wanted = [w for w in read(claim, language).words if not _ignored(w, ignore)]
    return any(some.search(s) and not every.search(s) and holds(words, wanted)
               for s, _, words in readings(passage, language))


def _ignored(word: str, ignore: set[str]) -> bool:
    return any(word in q or q in word for q in ignore)
