"""The one definition of the CJK scripts, as regex character-class bodies and compiled patterns.

Every stage that treats Chinese, Japanese or Korean text differently (language detection, token counts, sentence
and word splitting, retrieval terms, lexical overlap, question phrasing) builds on these ranges.
"""

from __future__ import annotations

import re

HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
"""Han ideographs (CJK Unified, Extension A, compatibility, Extensions B+)."""
HIRAGANA = r"\u3040-\u309f"
KATAKANA = r"\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
"""Katakana with its phonetic extensions and half-width forms."""
KANA = HIRAGANA + KATAKANA
HANGUL = r"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
"""Hangul jamo, compatibility jamo and syllables."""

CJK_CHAR = re.compile(f"[{HAN}{KANA}{HANGUL}]")
"""One character of a CJK script (Han, kana or Hangul)."""
SPACED_LETTER = f"[^\\W_{HAN}{KANA}{HANGUL}]"
"""A regex class of one letter or digit of a script that spaces its words (not Chinese, Japanese or Korean): a Latin
name or table value ends where a CJK character begins ("HangulPy Developer는", "K10的规格")."""
IDEOGRAPHIC = re.compile(f"[{HAN}{KANA}]")
"""One Han or kana character: scripts written without spaces between words (Korean separates its words)."""
