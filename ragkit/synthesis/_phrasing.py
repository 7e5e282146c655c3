"""How generated questions read: their language, style and length, typos, and search-engine keywords."""

from __future__ import annotations

import re
from random import Random

from ragkit.synthesis._checks import without_address
from ragkit.synthesis._pointers import without_pointer
from ragkit.text import CJK, IDEOGRAPHIC, UNDETERMINED, language_name, normalise_language, stop_words

STYLES: tuple[str, ...] = ("formal", "conversational", "web_search", "typos")
LENGTHS: tuple[str, ...] = ("short", "medium", "long")
ANY_READER = "a reader of these documents"
"""The asker a writer is told of when the persona names no role (no persona, or one ragkit could not name)."""


# -- language ---------------------------------------------------------------------------------------

_NATIVE_REMINDER = {
    "zh": "问题和答案都必须用中文书写。",
    "ja": "質問と回答は必ず日本語で書いてください。",
    "ko": "질문과 답변은 반드시 한국어로 작성하세요.",
}


def language_instruction(code: str) -> str:
    """A plain instruction naming the output language, with a reminder in that language where we have one."""
    code = normalise_language(code)
    if code == UNDETERMINED:
        return "Write the question and the answer in the same language as the passages."
    text = f"Write the question and the answer in {language_name(code)} ({code}), the language of the passages."
    reminder = _NATIVE_REMINDER.get(code)
    return f"{text} {reminder}" if reminder else text


_KO_STATEMENT_END = re.compile(r"니다(\s*[?？])$")


def asked(question: str, language: str, asker: str | None = None) -> str:
    """The writer's question as its asker types it: without the asker's own name spoken to when nothing else
    speaks to them (``without_address``), without a pointer at its source that only opens or ends it ("… in the
    given passage?": ``without_pointer``), and a Korean question written with the formal statement ending and a
    question mark ("어떻게 계산됩니다?", as the small writer often does) given the question ending of the same
    register ("계산됩니까?")."""
    question = without_pointer(without_address(question.strip(), asker).strip(), language)
    return _KO_STATEMENT_END.sub(r"니까\1", question) if normalise_language(language) == "ko" else question


# -- phrasing ---------------------------------------------------------------------------------------

_STYLE_TEXT = {
    "formal": "a complete, grammatical question in a neutral, formal tone",
    "conversational": "a casual question, as someone would type it into a chat",
    "web_search": "search-engine keywords only: three to six words, no question word, no question mark",
    "typos": "a quick, casual question as someone would type it in a hurry",
}
_LENGTH_WORDS = {"short": "at most 10 words", "medium": "10 to 20 words", "long": "20 to 35 words"}
_LENGTH_CHARS = {"short": "at most 15 characters", "medium": "15 to 30 characters", "long": "30 to 60 characters"}


def style_instruction(style: str, length: str, language: str) -> str:
    """How the question should read: style and length (counted in characters for CJK languages)."""
    text = _STYLE_TEXT.get(style, style)
    sizes = _LENGTH_CHARS if normalise_language(language) in CJK else _LENGTH_WORDS
    size = sizes.get(length, length)
    if style == "web_search":
        size = sizes["short"]
    return f"{text}; {size}"


def add_typos(text: str, seed: str, count: int = 2) -> str:
    """Realistic typing mistakes (swapped, dropped or doubled letters) in up to ``count`` longer words.

    Deterministic for a given ``seed``. Only words of five or more letters are touched, so numbers and codes stay.
    """
    rng = Random(seed)
    words = list(re.finditer(r"[^\W\d_]{5,}", text))
    words = [w for w in words if not IDEOGRAPHIC.search(w.group())]
    chars = list(text)
    for match in sorted(rng.sample(words, min(count, len(words))), key=lambda m: -m.start()):
        i = rng.randrange(match.start() + 1, match.end() - 2)
        kind = rng.choice(("swap", "drop", "double"))
        if kind == "swap":
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif kind == "drop":
            del chars[i]
        else:
            chars.insert(i, chars[i])
    return "".join(chars)


_WORD = re.compile(r"[^\W_]+(?:[-.][^\W_]+)*")


def search_keywords(question: str, language: str, max_words: int = 8) -> str:
    """A question cut to its content words, as typed into a search engine ("How many days of study leave do UK
    staff get?" → "days study leave UK staff"). Unchanged for CJK languages, languages without a stop-word list,
    and questions with fewer than two content words."""
    language = normalise_language(language)
    stop = frozenset() if language in CJK else stop_words(language)
    if not stop:
        return question
    kept: list[str] = []
    seen = set(stop)
    for word in _WORD.findall(re.sub(r"['’]s\b", "", question)):
        if word.lower() not in seen:
            seen.add(word.lower())
            kept.append(word)
    return " ".join(kept[:max_words]) if len(kept) >= 2 else question
