"""Follow-ups: a chat's later question as its user types it, leaning on what an earlier question named.

The writer gives every turn a standalone question. ``shared_subject`` finds what a later one shares with the
earlier ones (a graph entity, a run of name-like words, or a stretch of CJK text, cut to whole words and without
its particles; failing those, what both call "the …" in English, ``shared_thing``). English and Chinese replace it
with a pronoun (one short rewrite call, or ``substitute``), Korean and Japanese leave it out (``ELLIPSIS``).
``left_out`` tells what a follow-up leans on the chat for, and what it lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.llm import Judge
from ragkit.synthesis._checks import ASKING_WORDS
from ragkit.text import (
    CJK_CHAR,
    FUNCTION_WORDS,
    HAN,
    HANGUL,
    KANA,
    chinese_spans,
    leading_particles,
    trailing_particle,
    units,
    word_bounds,
)

FOLLOW_UP_INSTRUCTION = (
    "A user is chatting with an assistant about {topic}. Rewrite the user's next question the way they would type "
    "it in that chat: leave out '{topic}' and refer to it with a pronoun such as 'it', 'its', 'there' or 'they' "
    "(in the question's own language). Keep everything else. Reply with the rewritten question only."
)


_PRONOUN = {"zh": "它", "ja": "それ", "ko": "그것"}
_CJK_RUN = re.compile(f"[{HAN}{KANA}{HANGUL}][{HAN}{KANA}{HANGUL} ]*")
_HANGUL_CHAR = re.compile(f"[{HANGUL}]")
_KANA_CHAR = re.compile(f"[{KANA}]")
_HAN_CHAR = re.compile(f"[{HAN}]")
_LATIN_IN_NAME = re.compile(r"[A-Za-z0-9.-]")
_EDGE = "?,.!;:()\"'？。，、"
_WORD_REST = re.compile(r"[^\s?？.,!。、]*")
_MODIFIED = re.compile(r"(?:の|的|의)\s*$")
"""A modifier's particle just before the subject: a CJK pronoun cannot take one ("…の段数のそれですか")."""


def _name_like(token: str) -> bool:
    """A token that can be part of a name: a capital, a digit, or a hyphen or dot inside it."""
    return any(c.isupper() or c.isdigit() for c in token) or "-" in token or "." in token


def _word(token: str) -> str:
    """A word without the punctuation around it or a possessive ending ("Plant's" → "Plant")."""
    return re.sub(r"['’]s$", "", token.strip(_EDGE))


def _latin_names(earlier: str, question: str) -> list[str]:
    """Runs of name-like words of ``question`` (its first word left out: "What") that ``earlier`` has too; in
    CJK text, the Latin words between its characters ("HB-200" of "HB-200の対象は")."""
    cjk = bool(CJK_CHAR.search(question))
    words = [_word(w) for w in CJK_CHAR.sub(" ", question).split()]
    said = f" {' '.join(_word(w) for w in CJK_CHAR.sub(' ', earlier).split()).lower()} "
    runs: list[list[str]] = [[]]
    for i, w in enumerate(words):
        if (i or cjk) and w and w.isascii() and _name_like(w):
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    found = []
    for run in runs:  # every sub-run, longest first: "Sheffield Plant" of "ISO ... Sheffield Plant 2023"
        subs = sorted(({" ".join(run[i:j]) for i in range(len(run)) for j in range(i + 1, len(run) + 1)}),
                      key=len, reverse=True)
        # a number alone names nothing: "2024" of "2024年…会议纪要中" gave "它年…会议纪要中"
        found += [sub for sub in subs if f" {sub.lower()} " in said and any(c.isalpha() for c in sub)][:1]
    return found


def _cjk_names(earlier: str, question: str) -> list[str]:
    """The longest stretch of Han, kana or Hangul text (2 characters or more) that both questions have, with no
    question word in it; in Korean, whole words before a particle ("서울 공장" of "서울 공장의 직원 수는"), never a
    shared ending ("어떻게 신청합니까")."""
    best = ""
    nouns = _chinese_noun_spans(question)
    for part in _CJK_RUN.findall(question):
        for size in range(len(part), max(len(best), 1), -1):
            hit = next((h for i in range(len(part) - size + 1)
                        if (h := part[i:i + size]).strip() == h and h in earlier and not ASKING_WORDS.search(h)
                        and _a_korean_noun(question, h) and _a_chinese_noun(question, h, nouns)), None)
            if hit and len(hit) >= 2:
                best = hit
                break
    best = best.strip("的の ")
    return [best] if len(best) >= 2 else []


def _chinese_noun_spans(question: str) -> set[tuple[int, int]] | None:
    """The (start, end) offsets of the runs of whole words of a Chinese ``question`` that can be what it is about,
    by jieba's words and tags: one noun ("茶园"), or several words ending in a noun, a verbal noun or a measure word
    ("春茶生产", "冷泡系列"); "预计" alone is tagged a verbal noun and is no subject. None when the question has kana
    or Hangul, or jieba is missing: nothing to tell Chinese words by."""
    if _KANA_CHAR.search(question) or _HANGUL_CHAR.search(question):
        return None
    words = chinese_spans(question)
    if not words:
        return None
    return {(words[i][0], end) for j, (_, end, flag) in enumerate(words) for i in range(j + 1)
            if flag.startswith("n") or (i < j and flag in ("vn", "q"))}


def _a_chinese_noun(question: str, stretch: str, nouns: set[tuple[int, int]] | None) -> bool:
    """Whether a Han ``stretch`` is one of ``nouns`` (``_chinese_noun_spans`` of ``question``; None lets every
    stretch through). Two questions that ask alike share their predicate too: "…预计何时开采？" and "…预计何时开采？"
    share "时开采", which begins inside 何时 and ends in a verb, and putting 它 there gave "安吉白茶基地预计何它？"."""
    if nouns is None or not _HAN_CHAR.search(stretch):
        return True
    start = question.find(stretch)
    return (start, start + len(stretch)) in nouns


def _a_korean_noun(question: str, stretch: str) -> bool:
    """Whether ``stretch`` (text without Hangul always is) stands in ``question`` as whole words followed by a
    particle: what a Korean question says it is about."""
    if not _HANGUL_CHAR.search(stretch):
        return True
    start = question.find(stretch)
    particle = _word_rest(question[start + len(stretch):])
    return (start == 0 or not _HANGUL_CHAR.match(question[start - 1])) and bool(particle) \
        and leading_particles(particle, "ko") == particle


def _word_rest(text: str) -> str:
    """What ``text`` holds before its first space or punctuation: the rest of the word a stretch ends inside."""
    match = _WORD_REST.match(text)
    return match.group(0) if match else ""


def _grow(name: str, question: str, earlier: Sequence[str]) -> str:
    """A CJK name widened to the whole stretch around it that an earlier question has too, less a trailing
    particle: "青岚" of "青岚茶业的冷泡系列" after "青岚茶业的龙井系列" is "青岚茶业"; "加工厂" of "新建的加工厂的3号"
    after "新建的加工厂有哪些改进" is "新建的加工厂". Korean, which puts spaces between words, grows by whole words
    across a space that ends a word with no particle: "취업규칙" of "한빛커피 취업규칙에서 경조 휴가는" after "한빛커피
    취업규칙에서 리프레시 휴가는" is "한빛커피 취업규칙", and "휴가" never grows into "휴가는 어떻게"."""
    start = first = question.find(name)
    if start < 0 or (name.isascii() and not CJK_CHAR.search(question)):
        return name
    end = start + len(name)
    for e in earlier:
        if name not in e:
            continue
        while start > 0 and _joins(question, start - 1) and question[start - 1:end] in e:
            start -= 1
        while end < len(question) and _joins(question, end) and question[start:end + 1] in e:
            end += 1
    if _KANA_CHAR.search(question):  # Japanese: back to whole words ("お知らせの対" of "お知らせの対応" → "お知らせの")
        bounds = word_bounds(question, "ja")
        start = min(min(b for b in bounds if b >= start), first)
        end = max(max(b for b in bounds if b <= end), first + len(name))
    start, end = _before_asking(question, start, end, first, first + len(name))
    grown = question[start:end].strip()
    language = "ko" if _HANGUL_CHAR.search(grown) else "ja" if _KANA_CHAR.search(grown) else ""
    if language:  # particles at either end, never a syllable of the name itself
        head = leading_particles(grown, language)
        grown = grown[len(head):] if head and name in grown[len(head):] else grown
        tail = trailing_particle(grown, language)
        grown = grown[: len(grown) - len(tail)] if tail and name in grown[: len(grown) - len(tail)] else grown
    return re.sub(r"^[的の\s]+|[的の\s]+$", "", grown)


_COPULA = "是有为在"
"""Chinese verbs that stand between a subject and its question word: "…是什么", "…有哪些", "…在哪里"."""


def _before_asking(question: str, start: int, end: int, first: int, last: int) -> tuple[int, int]:
    """The span ``start:end`` of ``question``, grown around the name at ``first:last``, cut back to the name's side
    of the nearest question words and of a Chinese verb beside them: two questions that ask alike share "是什么时候
    发" after their subject ("…情况通报是什么时候发布的" and "…发现的"), and "谁是" before it."""
    for found in ASKING_WORDS.finditer(question, start, end):
        if found.end() <= first:
            start = found.end()
        elif found.start() >= last:
            end = found.start()
            break
    while end > last and question[end - 1] in _COPULA:
        end -= 1
    while start < first and question[start] in _COPULA:
        start += 1
    return start, end


def _joins(question: str, i: int) -> bool:
    """Whether character ``i`` of ``question`` can be part of a CJK name: a CJK character, a Latin letter, digit,
    dot or hyphen in CJK text ("HB-200の…お知らせ"), or a space between two Korean words the first of which ends
    with no particle ("한빛커피 취업규칙", not "휴가는 어떻게")."""
    if _CJK_RUN.match(question[i]) or (_LATIN_IN_NAME.match(question[i]) and CJK_CHAR.search(question)):
        return True
    if question[i] != " " or not 0 < i < len(question) - 1:
        return False
    before = question[:i].rsplit(" ", 1)[-1]
    return bool(_HANGUL_CHAR.match(question[i + 1]) and before and _HANGUL_CHAR.search(before[-1])
                and not trailing_particle(before, "ko"))


def shared_subject(earlier: Sequence[str], question: str, names: Sequence[str] = (), *,
                   cjk: bool = True) -> str | None:
    """What ``question`` is about that an earlier question already named, as ``question`` writes it: the longest
    of ``names`` (the graph's entities) in both, else the longest name-like run of words both have ("Sheffield
    Plant", "acme-motion SDK"), else (with ``cjk``) the longest stretch of CJK text both have ("龙坞茶园", "서울
    공장"). A run of words wins over a graph entity only when it holds one ("Sheffield Plant" over "Sheffield"); a
    shared CJK stretch never does ("系列有哪些特点" is shared, "青岚茶业" is named). None when they share no name:
    then the question is no follow-up at all."""
    low = question.lower()
    named = [_grow(question[(i := low.index(n.lower())):i + len(n)], question, earlier) for n in names
             if len(n) >= 2 and n.lower() in low and any(n.lower() in e.lower() for e in earlier)]
    runs = [name for e in earlier for name in _latin_names(e, question)]
    if named:
        runs = [r for r in runs if any(n.lower() in r.lower() for n in named)]
    elif cjk and not runs:
        runs = [name for e in earlier for name in _cjk_names(e, question)]
    found = [f for f in named + runs if not _inside_a_longer_name(f, question, names)]
    return max(found, key=len) if found else None


def shared_thing(earlier: Sequence[str], question: str) -> str | None:
    """What an English ``question`` and an earlier one both call "the …", with no name in it: the longest run of
    words after "the" that holds no function word ("timing race" of "What were the contributing factors to the
    timing race?" after "What was the root cause of the timing race in the joint controller?"). The last resort
    after a shared name and a shared frame: a thing the chat named by a common noun is still the chat's subject.
    None when there is none, or in text with CJK characters."""
    if CJK_CHAR.search(question):
        return None
    words = [_word(w) for w in question.split()]
    said = [f" {' '.join(_word(w).lower() for w in e.split())} " for e in earlier]
    found = []
    for i, word in enumerate(words[:-1]):
        run: list[str] = []
        for w in words[i + 1:] if word.lower() == "the" else []:
            if not w or w.lower() in FUNCTION_WORDS:
                break
            run.append(w)
        while run and not any(f" the {' '.join(run).lower()} " in s for s in said):
            run.pop()
        if run:
            found.append(" ".join(run))
    return max(found, key=len) if found else None


def shared_names(earlier: Sequence[str], question: str, names: Sequence[str] = (), *, cjk: bool = True) -> list[str]:
    """Every name ``question`` shares with the earlier questions, longest first: its ``shared_subject``, then the
    others it holds once that one is taken out ("沈嘉禾" once "杭州青岚茶业有限公司" is)."""
    out: list[str] = []
    while (subject := shared_subject(earlier, question, names, cjk=cjk)) is not None and subject not in out:
        out.append(subject)
        question = re.sub(re.escape(subject), " ", question, flags=re.IGNORECASE)
    return out


def _inside_a_longer_name(part: str, question: str, names: Sequence[str]) -> bool:
    """Whether ``part`` stands in ``question`` only as a piece of a longer one of ``names``: "安吉" of "安吉白茶基地"
    (replacing it would leave "它白茶基地"), "Porto" of "Porto Plant" when only "Porto" was said before. A CJK
    ``part`` glued to one of ``names`` is a piece of a longer name too, one the graph lacks: "茶园" of "龙坞茶园"
    after "自有茶园" was asked about (replacing it would leave "龙坞它")."""
    low, piece = question.lower(), part.lower()
    at = low.find(piece)
    cjk = at >= 0 and CJK_CHAR.match(piece[0]) is not None and CJK_CHAR.match(piece[-1]) is not None
    for name in (n.lower() for n in names):
        start = low.find(name)
        if len(name) > len(piece) and piece in name and start >= 0 and start <= at < start + len(name):
            return True
        if cjk and start >= 0 and len(name) >= 2 and (start + len(name) == at or at + len(piece) == start):
            return True  # glued to the name
    return False


def left_out(follow_up: str, standalone: str, earlier: Sequence[str]) -> tuple[list[str], list[str]]:
    """Words (CJK: characters) of the standalone question that its follow-up leaves out: those an earlier question
    said (what the follow-up leans on the chat for), and those none did (lost: a follow-up may drop only what the
    chat already named). "它有哪些特点？" for "青岚茶业的冷泡系列有哪些特点？" after a question on the 龙井 series
    leans on 青岚茶业 and loses 冷 and 泡."""
    kept, said = set(units(follow_up)), {u for e in earlier for u in units(e)}
    dropped = [u for u in units(standalone) if u not in kept and u not in FUNCTION_WORDS]
    return [u for u in dropped if u in said], [u for u in dropped if u not in said]


ELLIPSIS = ("ja", "ko")
"""Languages whose follow-ups leave out what the chat is about rather than point at it: a Korean or Japanese
speaker drops a known topic ("경조 휴가는요?"), and their pronouns for a thing (그것, それ) sound stilted before a
particle ("그곳의", "それの")."""


def _leave_out(question: str, subject: str, language: str) -> str | None:
    """``question`` without ``subject`` and the particles after it: "한빛커피 취업규칙에서 경조 휴가는 어떻게
    정의되어 있습니까?" → "경조 휴가는 어떻게 정의되어 있습니까?", "東京タワーの高さは何メートルですか？" →
    "高さは何メートルですか？".
    None when the subject is not followed by a particle, a space or the end of a word (it is part of a longer
    word, or followed by a verb ending: "… 구지 함벨라입니까?"), or nothing would be left."""
    start = question.find(subject)
    if start < 0:
        return None
    end = start + len(subject)
    rest = question[end:]
    if language == "ko":
        tail = _word_rest(rest)
        if tail and leading_particles(tail, "ko") != tail:
            return None
    else:
        tail = leading_particles(rest, "ja")
        if not tail and rest[:1] not in ("", *_EDGE):
            return None
    short = (question[:start] + rest[len(tail):].lstrip()).strip().lstrip(_EDGE + " ")
    return short if any(c.isalnum() for c in short) else None


def substitute(question: str, subject: str, language: str) -> str:
    """``question`` with ``subject`` replaced by a pronoun, without a model: "the Porto Plant's staff" → "its
    staff", "at the Porto Plant" → "there", "of Porto Plant" → "of it", "龙坞茶园的面积" → "它的面积". The fallback
    when a rewrite lost words or kept the name. Korean and Japanese leave the subject out with its particle
    (``_leave_out``) and use a pronoun only where that cannot be done."""
    if language[:2] in ELLIPSIS and (short := _leave_out(question, subject, language[:2])) is not None:
        return short
    pronoun = _PRONOUN.get(language[:2])
    if pronoun is not None:
        if _MODIFIED.search(question[:max(question.find(subject), 0)]):
            return question  # "…の段数のそれ", "…的它": no follow-up, rather than a modified pronoun
        return question.replace(subject, pronoun, 1)
    name = r"(?:\bthe\s+)?" + re.escape(subject)
    for pattern, pronoun in ((name + r"(?:'s|’s|')", "its"), (r"\b(?:at|in)\s+" + name + r"\b", "there"),
                             (name, "it")):
        out = re.sub(pattern, pronoun, question, count=1, flags=re.IGNORECASE)
        if out != question:
            return out
    return question


_PERSONAL = {
    "zh": ((re.compile("它们|它"), "他"),),
    "ja": ((re.compile("それ"), "その人"),),
    "ko": ((re.compile("그곳|그것"), "그 사람"),),
    "en": ((re.compile(r"\bits\b", re.IGNORECASE), "their"),
           (re.compile(r"\b(of|for|about|with|to) it\b", re.IGNORECASE), r"\1 them")),
}


def about_a_person(question: str, language: str) -> str:
    """A follow-up whose subject is a person, with the pronouns for a thing made personal: "它担任什么职务？" →
    "他担任什么职务？", "What is its role?" → "What is their role?". The rewrite call and ``substitute`` both write
    the neuter forms; 他 and "they" are each language's form for a person of either sex."""
    for pattern, personal in _PERSONAL.get(language[:2], ()):
        question = pattern.sub(personal, question)
    return question


async def follow_up(judge: Judge, question: str, topic: str) -> str:
    """One short call: ``question`` as a chat's next turn asks it, leaning on the topic already named. Asked
    apart from the chat: in one structured reply the 1.5B model copied the question unchanged for 12 of 13 later
    turns on corpora/acme, while on its own it rewrites one ("What is the staff size of it?")."""
    text = await judge.text([{"role": "system", "content": FOLLOW_UP_INSTRUCTION.format(topic=topic)},
                             {"role": "user", "content": question}], name="generate.follow_up", max_tokens=80)
    return " ".join(text.strip().strip('"').split())
