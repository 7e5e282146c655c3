"""Ellipsis: a chat's later question that asks what the turn before asked, of another thing ("What about the
battery below 15% light?" after "What is the code for the route blocked light?").

The writer often asks the same question of several things a passage lists, and such turns share no name, so no
pronoun can stand for one (``shared_subject``). What they share is the question's frame, and a chat asks the next
one by naming only the new thing: "What about …?" in English, "那…呢？" in Chinese, "…は？" in Japanese, "…은요?" /
"…는요?" in Korean. The frame must say something (a word that is no function word: "code", "负责人"), or "What
about X?" would lean on nothing but "What is".
"""

from __future__ import annotations

import re

from ragkit.synthesis._checks import ASKING_WORDS
from ragkit.text import (
    CJK_CHAR,
    FUNCTION_WORDS,
    chinese_spans,
    leading_particles,
    morphemes,
    trailing_particle,
    word_bounds,
)

_PREPOSITIONS = frozenset("of for in at on to with by from about between during under per after before".split())
_MAX_WORDS = 10
"""The longest English thing asked about: longer, and the rest of the question is a clause of its own."""
_MAX_CHARS = 12
"""The longest CJK thing asked about, in characters."""
_END = "?？.。!！ "


def frame_follow_up(earlier: str, question: str, language: str) -> tuple[str, str] | None:
    """The thing ``question`` asks about and the question as a chat asks it right after ``earlier``, when both ask
    one thing of different things; else None. English: the two share their words up to a preposition, after a
    word that says something ("What is the code for the …"), and the question asks about what follows it. Chinese,
    Japanese and Korean: they share the end after the thing asked about ("…的负责人是谁？", "…の従業員数は何人ですか"),
    and that end says something besides its question words and particles. Other languages: None (no form of
    theirs is written yet)."""
    code = language[:2]
    if code == "en" and not CJK_CHAR.search(question):
        thing = _english(earlier, question)
        return (thing, f"What about {thing}?") if thing else None
    thing = _chinese(earlier, question) if code == "zh" else _particled(earlier, question, code) \
        if code in ("ja", "ko") else None
    if not thing:
        return None
    if code == "zh":
        return thing, f"那{thing}呢？"
    if code == "ja":
        return thing, f"{thing}は？"
    final = _hangul_final(thing[-1])
    return (thing, f"{thing}{'은' if final else '는'}요?") if final is not None else None


def _hangul_final(syllable: str) -> bool | None:
    """Whether a Hangul syllable ends in a consonant (은 follows it, else 는); None for any other character."""
    code = ord(syllable) - 0xAC00
    return (code % 28 != 0) if 0 <= code < 11172 else None


def _key(word: str) -> str:
    return word.strip("?,.!;:()\"'").lower()


def _english(earlier: str, question: str) -> str | None:
    """What ``question`` asks about after the last preposition both questions share ("What about X?")."""
    said, asked = earlier.split(), question.split()
    shared = 0
    while shared < min(len(said), len(asked)) and _key(said[shared]) == _key(asked[shared]):
        shared += 1
    at = next((i for i in range(shared - 1, 0, -1) if _key(asked[i]) in _PREPOSITIONS), None)
    if at is None or shared == len(asked) or shared == len(said):
        return None
    frame = [_key(w) for w in asked[:at]]
    rest = asked[at + 1:]
    if not any(w.isalpha() and w not in FUNCTION_WORDS for w in frame) or len(rest) > _MAX_WORDS:
        return None
    if [_key(w) for w in said[at + 1:]] == [_key(w) for w in rest]:
        return None
    thing = " ".join(rest).rstrip(_END)
    return thing if any(c.isalnum() for c in thing) else None


def _nounish(flag: str) -> bool:
    """A jieba tag that can end what a question is about: a noun, a verbal noun, a measure word ("冷泡系列", "第二
    季度")."""
    return flag.startswith("n") or flag in ("vn", "q", "mq")


def _chinese(earlier: str, question: str) -> str | None:
    """The words of ``question`` (ending in a noun) between what it shares with ``earlier`` at its start and at its
    end ("那X呢？"); the end shared must say something besides question words and particles."""
    said, asked = earlier.rstrip(_END), question.rstrip(_END)
    words = chinese_spans(asked)
    if not words:
        return None
    head, tail = _shared_ends(said, asked)
    # whole words: the thing asked about starts where a word does and runs on over the nouns after it
    # ("西溪" + "店" of "西溪店的负责人是谁", when "河坊街旗舰店" ends in "店" too)
    start = max((s for s, _, _ in words if s <= head), default=0)
    end = min((e for _, e, _ in words if e >= len(asked) - tail), default=len(asked))
    for s, e, flag in words:
        if s == end and _nounish(flag) and flag != "vn":  # "预计" of "…基地预计何时开采" is the frame's
            end = e
    thing, rest = asked[start:end], asked[end:]
    if not _plain_thing(thing, said, r"[，、,\s]"):
        return None
    last = next((flag for s, e, flag in words if e == end), "")
    body = re.sub(r"[的了吗呢么是在和与有为\s，、]", "", ASKING_WORDS.sub("", rest))
    if not _nounish(last) or len(body) < 2 or not said.endswith(rest):
        return None
    return thing


def _shared_ends(said: str, asked: str) -> tuple[int, int]:
    """How many characters the two texts share at their start and, after that, at their end."""
    tail = 0
    while tail < min(len(said), len(asked)) and said[-1 - tail] == asked[-1 - tail]:
        tail += 1
    head = 0
    while head < min(len(said), len(asked)) - tail and said[head] == asked[head]:
        head += 1
    return head, tail


def _particled(earlier: str, question: str, language: str) -> str | None:
    """Japanese or Korean: the whole words of ``question`` between what it shares with ``earlier`` at its start and
    the particle that begins the end they share ("大阪工場" of "大阪工場の従業員数は何人ですか", "부산 공장" of
    "부산 공장의 직원 수는 몇 명입니까"); that end must say something besides its particles and question words."""
    said, asked = earlier.rstrip(_END), question.rstrip(_END)
    head, tail = _shared_ends(said, asked)
    bounds = word_bounds(asked, language)
    start = max((b for b in bounds if b <= head), default=0)
    for end in (b for b in bounds if b >= len(asked) - tail and b > start):
        thing, rest = asked[start:end].strip(), asked[end:]
        if leading_particles(rest, language) and not trailing_particle(thing, language):
            break
    else:
        return None
    if not _plain_thing(thing, said, r"[、，,]") or not _says_something(rest, language) or not said.endswith(rest):
        return None
    return thing


def _plain_thing(thing: str, said: str, marks: str) -> bool:
    """Whether ``thing`` can be asked about by itself: short, not in the earlier question ``said``, with no
    question word and none of ``marks`` (a list's commas; in Chinese, a space too)."""
    return bool(thing) and len(thing) <= _MAX_CHARS and thing not in said and not ASKING_WORDS.search(thing) \
        and not re.search(marks, thing)


_CONTENT = {"ko": ("NNG", "NNP", "VV", "VA"), "ja": ("名詞,一般", "名詞,固有名詞", "名詞,サ変接続", "名詞,形容動詞語幹",
                                                  "動詞,自立")}
"""MeCab's tags of a word that says something: nouns and verbs, not a question word ("무엇", "何"), a counter ("人"
of "何人") or a copula ("입니까", "です")."""


def _says_something(text: str, language: str) -> bool:
    """Whether Japanese or Korean ``text`` has a noun or verb that is no question word; False without MeCab."""
    parsed = morphemes(text, language) or []
    return any(",".join(tags[:2]).startswith(_CONTENT[language]) for surface, tags, _ in parsed
               if not ASKING_WORDS.fullmatch(surface))
