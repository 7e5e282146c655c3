"""Language detection: a script heuristic for Chinese, Japanese and Korean, langdetect (seeded) otherwise.

langdetect alone confuses CJK languages on short texts (Japanese written mostly in kanji reads as Chinese,
traditional and simplified Chinese come back as ``zh-tw`` / ``zh-cn``), so CJK scripts are decided by counting
characters: any kana means Japanese, Hangul means Korean, Han characters alone mean Chinese.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

from ragkit.text._scripts import HAN, HANGUL, KANA
from ragkit.text._stopwords import FUNCTION_WORDS

UNDETERMINED = "und"
CJK = frozenset({"zh", "ja", "ko"})
"""The language codes written in CJK scripts."""

_HAN_RE = re.compile(f"[{HAN}]")
_KANA_RE = re.compile(f"[{KANA}]")
_HANGUL_RE = re.compile(f"[{HANGUL}]")
_LETTER_RE = re.compile(r"[^\W\d_]")

_LOCK = threading.Lock()
_SAMPLE_CHARS = 4000


def script_counts(text: str) -> dict[str, int]:
    """Characters per script: ``han``, ``kana``, ``hangul`` and ``letters`` (every letter, CJK included)."""
    return {
        "han": len(_HAN_RE.findall(text)),
        "kana": len(_KANA_RE.findall(text)),
        "hangul": len(_HANGUL_RE.findall(text)),
        "letters": len(_LETTER_RE.findall(text)),
    }


_CODE_RE = re.compile(r"https?://\S+|`[^`\n]*`|[!-~]*(?:[0-9_/\\=<>{}\[\]]|[A-Za-z0-9][.:(][A-Za-z0-9])[!-~]*")
"""What is no prose: a URL, inline code, and a run of ASCII with a digit, an underscore, a slash, a bracket or a
dot or colon inside it ("multi_PP-OCRv6_det_small", "v_to_u=True", "jieba.cut", "zh_CN", "2008")."""


def cjk_language(text: str) -> str | None:
    """``zh`` / ``ja`` / ``ko`` when CJK characters make up at least 30% of the letters of its prose, else None.
    Code words and URLs are no prose: a Chinese README's model table ("multi_PP-OCRv6_det_small | √ | ppocr |
    …") or its question about one ("db_shufflenet_v2_small 的 PyTorch 版本是多少？") is Chinese, not the Catalan or
    Romanian langdetect reads in its identifiers (bench/README.md, session 56)."""
    c = script_counts(_CODE_RE.sub(" ", text))
    cjk = c["han"] + c["kana"] + c["hangul"]
    if cjk == 0 or cjk < 0.3 * max(1, c["letters"]):
        return None
    # Japanese mixes kana into nearly every sentence; a few kana in Chinese text are rare loan marks.
    if c["kana"] >= max(2, 0.05 * cjk):
        return "ja"
    if c["hangul"] >= c["han"]:
        return "ko"
    return "zh"


@lru_cache(maxsize=1)
def _seeded() -> None:
    from langdetect import DetectorFactory

    DetectorFactory.seed = 0  # deterministic: langdetect samples n-grams at random


def detect_language(text: str, *, default: str = UNDETERMINED) -> str:
    """ISO 639-1 code of ``text`` (``en``, ``zh``, ``ja``, ``ko``, ``de`` ...), or ``default`` if unsure.

    Examples:
        >>> detect_language("青岚茶业成立于2008年。")
        'zh'
        >>> detect_language("The Kestrel K10 was launched in Chicago in 2019.")
        'en'
    """
    sample = text[:_SAMPLE_CHARS]
    cjk = cjk_language(sample)
    if cjk is not None:
        return cjk
    if len(_LETTER_RE.findall(sample)) < 12:
        return default
    from langdetect import detect
    from langdetect.lang_detect_exception import LangDetectException

    _seeded()
    try:
        with _LOCK:  # langdetect keeps its profiles and random state in module globals
            code: str = detect(sample)
    except LangDetectException:
        return default
    return code.split("-")[0] if code.startswith("zh") else code


LANGUAGE_NAMES = {
    "en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "de": "German", "fr": "French",
    "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch", "ru": "Russian", "pl": "Polish",
    "sv": "Swedish", "da": "Danish", "no": "Norwegian", "fi": "Finnish", "tr": "Turkish", "ar": "Arabic",
    "hi": "Hindi", "vi": "Vietnamese", "th": "Thai", "id": "Indonesian", "cs": "Czech", "el": "Greek",
    "he": "Hebrew", "uk": "Ukrainian", "ro": "Romanian", "hu": "Hungarian",
}


def language_name(code: str) -> str:
    """English name of a language code, for prompts ("write in Chinese"); the code itself if unknown."""
    return LANGUAGE_NAMES.get(code, code if code != UNDETERMINED else "the language of the text")


def normalise_language(code: str | None) -> str:
    """``zh-cn`` → ``zh``; empty → ``und``."""
    if not code:
        return UNDETERMINED
    return re.split(r"[-_]", code.strip().lower())[0] or UNDETERMINED


def language_matches(expected: str, text: str) -> bool:
    """False only when ``text`` is clearly not in ``expected`` (another script, or a confident detection).

    Text with fewer than three letters (numbers, a model name) matches anything.
    """
    expected = normalise_language(expected)
    if expected == UNDETERMINED or len(_LETTER_RE.findall(text)) < 3:
        return True
    found = detect_language(text, default=UNDETERMINED)
    if expected in CJK:
        if expected == "ja":
            return found in ("ja", "zh") or _with_terms(text) in ("ja", "zh")  # Japanese may be in kanji only
        return found == expected or _with_terms(text) == expected
    if found in CJK:
        return False
    if expected == "en" and found != expected:  # names are not English: "What does Tomasz Wierzbicki say?"
        text = " ".join(_unnamed(text.split()))
        found = detect_language(text, default=UNDETERMINED)
    if found == UNDETERMINED or len(text.split()) < 6:
        return True  # too short to tell apart languages that share a script
    return found == expected


_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")
_ENGLISH_GRAMMAR = frozenset(w for w in FUNCTION_WORDS if w.isascii())


def _with_terms(text: str) -> str | None:
    """The CJK language of ``text`` read without its Latin words, when none of them is an English function word:
    they are then terms of a CJK sentence, not its grammar. "matplotlib をimportした後、japanize_matplotlibを
    importします。" is Japanese, though its Latin letters outnumber its Japanese ones three to one; "沈嘉禾 is the
    founder." keeps its English grammar."""
    if english_grammar(text):
        return None
    return cjk_language(_LATIN_WORD.sub(" ", _CODE_RE.sub(" ", text)))


def english_grammar(text: str) -> bool:
    """True when ``text``, read without its code (URLs, backticked spans, anything written with digits, underscores,
    slashes, brackets or dotted names), writes an English function word in Latin letters: Latin words are then a
    sentence's grammar, not terms or a command ("pip install pypinyin", "cd to/dir" have none)."""
    return any(w.lower() in _ENGLISH_GRAMMAR for w in _LATIN_WORD.findall(_CODE_RE.sub(" ", text)))


def _unnamed(words: list[str]) -> list[str]:
    """English words without the capitalised ones after the first (names: English capitalises little else)."""
    return words[:1] + [w for w in words[1:] if not w[:1].isupper()]
