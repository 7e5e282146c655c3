"""A list that gives each thing its own place, read by the words' order: "the Kettering warehouse in
Northamptonshire and the Ashby warehouse in Leicestershire", "西湖区的龙坞茶园和安吉县的安吉白茶基地", "해운대구의
해운대점과 수영구의 광안리점", "浜松市の本社工場と熊本県菊陽町の熊本工場".

The small judge checks a claim by its topic, and such a sentence names the claim's thing and its place either way:
on a probe of 20 claims in four languages (bench/README.md, session 49) it scored 3 of 10 claims that move a thing to
its neighbour's place 0.5 or more ("西湖区有龙坞茶园和安吉白茶基地", 0.84). A claim that puts a listed thing in the
place the list gives another, and names neither the thing's own place nor another sentence that joins the two, is
unsupported without a call (``misplaced``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragkit.text import (
    HAN,
    HANGUL,
    JAPANESE_NOT_A_THING,
    Morpheme,
    cjk_language,
    is_noun,
    morphemes,
    split_sentences,
    unspaced,
)

Pair = tuple[str, str]
"""(place, thing): the modifier a list gives a thing, and the thing, as written without spaces."""

_ZH_ITEM_CUT = re.compile("([，、：；,:;]|以及|和|与|及)")
_ZH_PAIR = re.compile(f"([{HAN}]{{2,12}})的([{HAN}A-Za-z0-9]{{2,16}})")
_EN_PAIR = re.compile(
    r"(?:^|[:,;]\s*|\band\s+|\bthe\s+)"
    r"((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*(?:\s+[a-z][\w'’-]*)?)"  # the thing: "Ashby warehouse", "Abbey café"
    r"\s+(?:in|on|at)\s+((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)"  # its place: "Leicestershire", "Church Lane"
)
_LINKING = {"ja": ("の", "連体化"), "ko": ("의", "JKG")}
ZH_AND = ("和", "与", "及", "以及", "、")
"""The Chinese words and marks that join two things of a list."""
_KO_NOUN = ("NNG", "NNP", "SL", "SN", "XSN")
_JA_SKIP = JAPANESE_NOT_A_THING | {"副詞可能"}
_COORDINATORS = {"ja": ("と", "や", "、", "及び", "および"), "ko": ("과", "와", ",", "및")}
_EN_AND = re.compile(r"[\s,]*(?:and\s+)?(?:the\s+)?", re.IGNORECASE)


def misplaced(passage: str, claim: str) -> bool:
    """Whether ``claim`` puts a thing of one of ``passage``'s lists in the place the list gives another thing, and
    names neither the thing's own place nor anything that another sentence of the passage joins the two by."""
    language = cjk_language(passage) or "en"
    lists = _lists(passage, language)
    if not lists:
        return False
    said = _flat(claim, language)
    for pairs in lists:
        for own, thing in pairs:
            rest = said.replace(thing, " | ")  # 外装変速機 holds 変速機, another item's place
            if rest == said:
                continue
            for place, other in pairs:
                if other != thing and place != own and _names_place(rest, place) and \
                        not _names_place(rest, own) and not _joined_elsewhere(passage, language, place, thing):
                    return True
    return False


def in_own_place(passage: str, claim: str) -> bool:
    """Whether ``claim`` says no more than that a thing of one of ``passage``'s lists is in the place the list gives
    it ("三宮店は神戸市にある", "The Abbey café is on Church Lane"): the judge scored half of such right claims below
    0.5 (bench/README.md, session 49). Any word beyond the thing, its place and the words of being somewhere leaves
    the claim to the judge."""
    language = cjk_language(passage) or "en"
    said = _flat(claim, language)
    for pairs in _lists(passage, language):
        for own, thing in pairs:
            if thing not in said:
                continue
            rest = said.replace(thing, " | ")
            place = _place_in(rest, own)
            if place and _LOCATING[language].fullmatch(rest.replace(place, " | ")):
                return True
    return False


_LOCATING = {
    "en": re.compile(r"(?:\s|\||\b(?:is|are|located|situated|based|in|on|at|the)\b)*"),
    "zh": re.compile(r"(?:\s|\||[，。、]|位于|坐落于|设在|地处|在|有|是|的|于)*"),
    "ja": re.compile(r"(?:\s|\||[、。]|は|が|に|で|ある|あります|です|である|位置する|位置している|位置しています)*"),
    "ko": re.compile(r"(?:\s|\||[.,]|은|는|이|가|에|있습니다|있다|있어요|위치합니다|위치한다|위치해|입니다|이다)*"),
}
"""What a claim that only places a thing may hold besides the thing and its place: the words of being somewhere."""


_ZH_UNIT = re.compile(f"[{HAN}]{{1,6}}[省市区县镇乡村路街]$")


def _names_place(said: str, place: str) -> bool:
    return bool(_place_in(said, place))


def _place_in(said: str, place: str) -> str:
    """How ``said`` names ``place``: whole, or, in Chinese, the part of it after a larger unit (西湖区 of
    杭州西湖区); "" when it does not."""
    return place if place in said else next((t for t in _tails(place) if t in said), "")


def _tails(place: str) -> list[str]:
    """The parts of a Chinese place name after a larger unit (西湖区 of 杭州西湖区)."""
    return [t for k in range(1, len(place) - 1) if _ZH_UNIT.fullmatch(t := place[k:]) and len(t) >= 2]


@lru_cache(maxsize=256)
def _lists(passage: str, language: str) -> tuple[tuple[Pair, ...], ...]:
    """The passage's lists that give two or more things each its own place, as their (place, thing) pairs: pairs
    that follow one another joined by "and", a comma, 和, 、, と or 과 ("変速機の部品を加工していましたが、…
    自社ブランドの外装変速機" is two phrases, no list)."""
    out = []
    for sentence in split_sentences(passage):
        for chain in _chains(sentence, language):
            if len({p for p, _ in chain}) >= 2 and len({t for _, t in chain}) >= 2:
                out.append(tuple(chain))
    return tuple(out)


def _chains(sentence: str, language: str) -> list[list[Pair]]:
    """The sentence's (place, thing) pairs, in runs of pairs joined by a coordinator."""
    chains: list[list[Pair]] = []
    for pair, joined in _pairs(sentence, language):
        if joined and chains:
            chains[-1].append(pair)
        else:
            chains.append([pair])
    return chains


def _pairs(sentence: str, language: str) -> list[tuple[Pair, bool]]:
    """Each (place, thing) of the sentence, and whether only a coordinator stands between it and the one before."""
    if language == "zh":
        parts = _ZH_ITEM_CUT.split(sentence)  # items, then the delimiter after each
        out: list[tuple[Pair, bool]] = []
        after, paired = "", False
        for item, cut in zip(parts[::2], [*parts[1::2], ""], strict=True):
            m = _ZH_PAIR.fullmatch(item.strip(" 。．.!！?？"))
            if m:
                out.append(((m[1], m[2]), paired and after in ZH_AND))
            after, paired = cut, m is not None
        return out
    if language in _LINKING:
        return _linked(morphemes(sentence, language) or [], language)
    out, end = [], -1
    for m in _EN_PAIR.finditer(sentence):
        joined = end >= 0 and _EN_AND.fullmatch(sentence[end:m.start(1)]) is not None
        out.append(((_flat(m[2], "en"), _flat(m[1], "en")), joined))
        end = m.end()
    return out


def _linked(parsed: list[Morpheme], language: str) -> list[tuple[Pair, bool]]:
    """The (place, thing) pairs that the linking particles (の, 의) of a parsed sentence join: the nouns of its word
    before it, and the nouns after it (Korean ones across spaces: 로스팅 공장)."""
    surface, tag = _LINKING[language]
    out, end = [], -1
    for i, (word, fields, _) in enumerate(parsed):
        if word != surface or tag not in fields[:2]:
            continue
        j = i
        while j > 0 and _noun(parsed[j - 1], language) and (j == i or not parsed[j][2]):
            j -= 1
        k = i + 1
        while k < len(parsed) and _noun(parsed[k], language):
            k += 1
        place, thing = "".join(m[0] for m in parsed[j:i]), "".join(m[0] for m in parsed[i + 1:k])
        if len(place) >= 2 and len(thing) >= 2:
            between = "".join(m[0] for m in parsed[end:j]) if end >= 0 else None
            out.append(((place, thing), between in _COORDINATORS[language]))
            end = k
    return out


def _noun(morpheme: Morpheme, language: str) -> bool:
    """A noun of a place or a thing, with its numbers and noun suffixes (Korean), not a time noun (Japanese 今)."""
    return is_noun(morpheme[1], language, korean=_KO_NOUN, skip=_JA_SKIP)


def _joined_elsewhere(passage: str, language: str, place: str, thing: str) -> bool:
    """Whether a sentence of the passage that is no list of places names both ``place`` and ``thing``: it may say
    what the claim says ("The Ashby warehouse ships to Northamptonshire")."""
    return any(place in flat and thing in flat for flat in _unlisted(passage, language))


@lru_cache(maxsize=256)
def _unlisted(passage: str, language: str) -> tuple[str, ...]:
    """The passage's sentences with fewer than two (place, thing) pairs, as compared here: read once per passage,
    not again (with MeCab, for Japanese and Korean) for every claim and pair looked at."""
    sentences = split_sentences(passage)
    listed = {s for s in sentences if len(_pairs(s, language)) >= 2}
    return tuple(_flat(s, language) for s in sentences if s not in listed)


def _flat(text: str, language: str) -> str:
    """``text`` as compared here: without spaces in Chinese, Japanese and Korean, lower case in other languages."""
    if language in ("zh", "ja", "ko") or re.search(f"[{HAN}{HANGUL}]", text):
        return unspaced(text)
    return " " + " ".join(re.findall(r"[\w'’-]+", text.lower())) + " "
