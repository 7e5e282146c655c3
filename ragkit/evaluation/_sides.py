"""The two things a comparison names, when they are no siblings: "The Wren W300 carries more than the Kestrel K10",
"余杭加工厂的员工比安吉白茶基地多", "기장 로스팅 공장이 성수점보다 먼저 문을 열었다".

The second thing is the name that the comparison's marker ("than", "比", "보다", "より") stands against; the first
is the name the claim begins with (in English, its first capitalised name). A name is what a writer would search
the passage for: a run of capitalised words and model codes in English ("Wren W300"); in Chinese, a run of nouns
as jieba tags them (余杭 加工厂); in Korean and Japanese a run of nouns as MeCab tags them (기장 로스팅 공장, 浜松
工場). Both must stand in the passage as written, and neither inside the other.
"""

from __future__ import annotations

import re

from ragkit.text import FUNCTION_WORDS, chinese_tagged, is_noun, morphemes

_LATIN_NAME = re.compile(r"(?:[A-Z][\w-]*|[A-Za-z]+-?\d[\w-]*)(?:\s+(?:[A-Z][\w-]*|[A-Za-z]+-?\d[\w-]*))*")
"""A run of capitalised words and codes with a digit ("Wren W300", "K10")."""
_KO_NOUN = ("NNG", "NNP", "SL", "SN")
_MARKER = {"ko": "보다", "ja": "より"}


def phrase_sides(passage: str, claim: str, language: str, at: int) -> tuple[str, str] | None:
    """(the first thing, the second thing) of the comparison whose marker stands at ``at`` in ``claim``, as the
    claim writes them, when both stand in ``passage``; else None."""
    if language == "en":
        sides = _latin_sides(claim, at)
    elif language == "zh":
        sides = _chinese_sides(claim, at)
    else:
        sides = _mecab_sides(claim, language)
    if sides is None:
        return None
    first, second = sides
    lower = passage.lower()
    if not first or not second or first.lower() in second.lower() or second.lower() in first.lower():
        return None
    return sides if first.lower() in lower and second.lower() in lower else None


def _latin_sides(claim: str, at: int) -> tuple[str, str] | None:
    names = [(m.start(), _trimmed(m.group())) for m in _LATIN_NAME.finditer(claim)]
    names = [(i, n) for i, n in names if n]
    after = [(i, n) for i, n in names if i >= at]
    if not after or not re.fullmatch(r"\s*(?:(?:before|after)\s+)?(?:the\s+)?", claim[at : after[0][0]], re.I):
        return None
    before = [n for i, n in names if i < at]
    return (before[0], after[0][1]) if before else None


def _trimmed(run: str) -> str:
    """A capitalised run without the function words it may begin with ("The Wren W300" → "Wren W300")."""
    words = run.split()
    while words and words[0].lower() in FUNCTION_WORDS:
        words = words[1:]
    return " ".join(words)


def _chinese_sides(claim: str, at: int) -> tuple[str, str] | None:
    tagged = chinese_tagged(claim)
    first = "".join(_noun_run(tagged, 0))
    offsets, position = [], 0
    for word, _ in tagged:
        offsets.append(position)
        position += len(word)
    start = next((k for k, o in enumerate(offsets) if o == at + 1), None)  # the word after 比
    if start is None:
        return None
    return first, "".join(_noun_run(tagged, start))


def _noun_run(tagged: list[tuple[str, str]], start: int) -> list[str]:
    out = []
    for word, flag in tagged[start:]:
        if not flag.startswith("n"):
            break
        out.append(word)
    return out


def _mecab_sides(claim: str, language: str) -> tuple[str, str] | None:
    parsed = morphemes(claim, language)
    if not parsed:
        return None
    def noun(features: list[str]) -> bool:
        return is_noun(features, language, korean=_KO_NOUN, skip=())
    marker = next((k for k, (m, f, _) in enumerate(parsed) if m == _MARKER[language] and not noun(f)), None)
    if marker is None:
        return None
    second_start = marker
    while second_start > 0 and noun(parsed[second_start - 1][1]):
        second_start -= 1
    first_end = next((i for i, (_, f, _) in enumerate(parsed) if not noun(f)), 0)
    return _joined(parsed[:first_end]), _joined(parsed[second_start:marker])


def _joined(run: list[tuple[str, list[str], bool]]) -> str:
    """Morphemes put back as written: a space where MeCab read one before a morpheme."""
    return "".join((" " if spaced and i else "") + m for i, (m, _, spaced) in enumerate(run))
