"""Companies named with their legal form, in Chinese, Japanese and Korean text, for the ``fast`` extractor.

The taggers the ``fast`` extractor uses for these languages miss the names a corpus is most often about: jieba cuts
杭州青岚茶业有限公司 into a place, a person's name (青岚) and two nouns; IPAdic reads ひばり精工 as three common
nouns; mecab-ko-dic gives 한빛 of 한빛커피 no class. A legal form (有限公司, 株式会社, 주식회사) says that the
words beside it are a company's name, in any of these languages, so the name is read from there and typed as an
organisation: the trade name and its trade, without the leading place of a Chinese registered name (青岚茶业 of
杭州青岚茶业有限公司), which is how the documents themselves go on to call it.
"""

from __future__ import annotations

import re

from ragkit.kg._graph import EntityMention
from ragkit.text import HAN, JAPANESE_NOT_A_THING, KOREAN_NOUNS, Morpheme, chinese_tagged, is_noun

_ZH_LEGAL = re.compile("股份有限公司|有限责任公司|有限公司")
_ZH_STOP_FLAGS = ("p", "c", "u", "r", "d", "x", "m", "q", "f", "y", "e", "o", "v", "a", "t", "b", "z")
"""jieba flags that end a name, read backwards from its legal form: prepositions, conjunctions, particles,
pronouns (该), adverbs, punctuation, numbers, measure words, localisers, verbs and adjectives. A verbal noun (vn:
跳动 of 字节跳动) is kept."""
_JA_LEGAL = ("株式会社", "有限会社", "合同会社", "合資会社", "合名会社", "(株)", "（株）", "㈱")
_KO_LEGAL = ("주식회사", "유한회사", "(주)", "㈜")
_KO_NOUN = KOREAN_NOUNS | {"SN"}  # and numbers, which a company name may hold
_JA_SKIP = JAPANESE_NOT_A_THING | {"数", "副詞可能"}


def company_names(text: str, language: str, parsed: list[Morpheme] | None = None) -> list[EntityMention]:
    """The companies ``text`` names with a legal form, as organisations (Chinese, Japanese and Korean; none for
    other languages). ``parsed`` is the text's MeCab parse, for Japanese and Korean."""
    if language == "zh":
        names = _chinese(text) if _ZH_LEGAL.search(text) else []
    elif language in ("ja", "ko") and parsed is not None:
        legal = _JA_LEGAL if language == "ja" else _KO_LEGAL
        names = _beside_legal_form(parsed, legal, language) if any(f in text for f in legal) else []
    else:
        names = []
    return [EntityMention(name=n, type="organization") for n in dict.fromkeys(names) if len(n) >= 2]


def _chinese(text: str) -> list[str]:
    """Each name before a Chinese legal form: the words back to a function word or punctuation, without leading
    place names while a name of two characters or more remains (杭州青岚茶业有限公司 → 青岚茶业)."""
    tagged = chinese_tagged(text)
    names = []
    for i in range(len(tagged)):
        if not _legal_at(tagged, i):
            continue
        j = i
        while j > 0 and _in_name(*tagged[j - 1]):
            j -= 1
        words = tagged[j:i]
        while len(words) > 1 and words[0][1] == "ns" and sum(len(w) for w, _ in words[1:]) >= 2:
            words = words[1:]
        if words and words[0][1] != "ns":
            names.append("".join(w for w, _ in words))
    return names


def _legal_at(tagged: list[tuple[str, str]], i: int) -> bool:
    """Whether a legal form starts at word ``i``: jieba keeps 有限公司 whole, and cuts 有限责任 | 公司 and
    股份 | 有限公司."""
    word, following = tagged[i][0], tagged[i + 1][0] if i + 1 < len(tagged) else ""
    return bool(_ZH_LEGAL.fullmatch(word)) or (word, following) in (("有限责任", "公司"), ("股份", "有限公司"))


def _in_name(word: str, flag: str) -> bool:
    return (re.fullmatch(f"[{HAN}]+", word) is not None and not _ends_name(flag) and not _ZH_LEGAL.fullmatch(word)
            and word != "股份")


def _ends_name(flag: str) -> bool:
    return flag != "vn" and flag.startswith(_ZH_STOP_FLAGS)


def _beside_legal_form(parsed: list[Morpheme], legal: tuple[str, ...], language: str) -> list[str]:
    """Each name beside a Japanese or Korean legal form: the nouns right after it (株式会社ひばり精工, 주식회사
    한빛커피), or, when none follow, right before it (トヨタ自動車株式会社, 삼성전자 주식회사)."""
    names = []
    surfaces = [m[0] for m in parsed]
    for i in range(len(parsed)):
        width = next((k for k in (1, 2, 3) if "".join(surfaces[i:i + k]) in legal), 0)
        if not width:
            continue
        after = _nouns(parsed, i + width, 1, language)
        names.append(after or _nouns(parsed, i - 1, -1, language))
    return names


def _nouns(parsed: list[Morpheme], start: int, step: int, language: str) -> str:
    """The run of nouns from ``start`` going ``step`` (1: forwards, -1: backwards), within one spaced word after
    the first ("株式会社ひばり精工 品質保証部" names ひばり精工) and never across a legal form; "" when ``start`` is no
    noun."""
    run: list[str] = []
    i = start
    while 0 <= i < len(parsed) and _is_noun(parsed[i], language):
        word, _, spaced = parsed[i]
        if run and (spaced if step == 1 else parsed[i + 1][2]):
            break
        if word in _JA_LEGAL or word in _KO_LEGAL or word in ("会社", "有限", "株"):
            break
        run.append(word)
        i += step
    return "".join(run if step == 1 else reversed(run))


def _is_noun(morpheme: Morpheme, language: str) -> bool:
    return is_noun(morpheme[1], language, korean=_KO_NOUN, skip=_JA_SKIP)
