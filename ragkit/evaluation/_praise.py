"""Praise the passage never gives: "Kss is widely used in the Korean NLP community and is a valuable resource"
against a README that says what Kss does, not how it is received.

A small writer adds such words to answers and references, and the small judge reads the claim by its topic (the
library, its use) and calls it entailed: 0.73 and 0.87 for the two claims above; a reference with "consistent and
intuitive syntax", in no context, was kept and labelled wrong by hand (bench/README.md, session 57). A claim that
praises its subject with a word the passage never uses ("widely used", "powerful", "广泛使用", "強力", "널리 사용")
is neutral without a call: nothing in the passage says it. A word the question itself uses is the question's ("Why
is Typer so popular?").
"""

from __future__ import annotations

import re

from ragkit.text import cjk_language

_PRAISE = {
    "en": re.compile(r"\b(?:widely[- ](?:used|adopted|regarded)|popular|(?:in)?valuable|powerful|comprehensive|robust|"
                     r"intuitive|user[- ]friendly|versatile|seamless(?:ly)?|renowned|well[- ]known|excellent|"
                     r"cutting[- ]edge|state[- ]of[- ]the[- ]art|highly regarded|go-to)\b", re.IGNORECASE),
    "zh": re.compile(r"广泛(?:使用|应用|采用)|流行|强大|全面|著名|知名|优秀|广受|备受"),
    "ja": re.compile(r"広く(?:使われ|利用され|採用され)|人気|強力|包括的|有名|優れた|定評"),
    "ko": re.compile(r"널리\s*(?:사용|쓰이|이용)|인기|강력|포괄적|유명|뛰어난|정평"),
}


def _said(word: str, text: str) -> bool:
    """Whether ``text`` uses ``word``, a hyphen and a space being one ("well-known", "well known")."""
    pattern = r"[-\s]?".join(re.escape(part) for part in re.split(r"[-\s]+", word))
    return re.search(pattern, text, re.IGNORECASE) is not None


def unsaid_praise(passage: str, claim: str, asked: str = "") -> bool:
    """Whether ``claim`` praises with a word that neither ``passage`` nor the question ``asked`` uses."""
    language = cjk_language(claim) or "en"  # the claim's own words: an English answer about a Korean README
    return any(not _said(m.group(), passage) and not _said(m.group(), asked)
               for m in _PRAISE[language].finditer(claim))
