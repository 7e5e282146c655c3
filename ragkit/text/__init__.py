"""Language detection and tokenisation, for every stage and every language."""

from __future__ import annotations

from ragkit.text._language import CJK_CHAR, UNDETERMINED, cjk_language, detect_language, language_name
from ragkit.text._lexical import bleu, chrf, normalise, rouge_l, tokens

__all__ = [
    "CJK_CHAR",
    "UNDETERMINED",
    "bleu",
    "chrf",
    "cjk_language",
    "detect_language",
    "language_name",
    "normalise",
    "rouge_l",
    "tokens",
]
