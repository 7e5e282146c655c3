"""A title without the word that qualifies it: "Lena Ortiz is the director" against "Lena Ortiz is the acting
director"; "배지은은 사장이다" against "부사장은 배지은이다"; "森本健は館長である" against "館長代理の森本健".

The small judge reads such a claim by its words, all of which the passage holds: on a probe of 9 such claims in four
languages it called 5 entailed (0.56 to 0.99; bench/README.md, session 48). A claim that names a person and gives
them a title that the passage, where it names them, writes only with a qualifier (deputy, vice, assistant,
associate, acting, interim, former, honorary; 副, 代理, 前任; 부-, 대행; 副, 元, 前, 代理, 補佐), and that does not
have the qualifier itself, is unsupported. English is read by the sentence (an appositive "Sam Rees, the assistant
editor," is cut off by commas), Chinese, Korean and Japanese by the clause ("副总经理是孙丽，总经理是高志远" gives
the title unqualified to someone else). A sentence that says what holds now ("formerly deputy chair, now chair") is
left to the judge, and so is a qualified title with another person named between it and the claim's ("Vice
president Ana Ruiz and president Tom Hill").
"""

from __future__ import annotations

import re

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._former import NOW
from ragkit.evaluation._people import people
from ragkit.evaluation._polarity import holds, read
from ragkit.evaluation._status import CLAUSE_CUT
from ragkit.text import morphemes, split_sentences

_EN = re.compile(r"\b(?P<q>deputy|vice|assistant|associate|acting|interim|former|honorary)[\s-]+(?P<t>[a-z]+)",
                 re.IGNORECASE)
_PREFIXED = {
    "zh": re.compile(r"(?P<q>常务副|副|代理|前任)(?P<t>[\u4e00-\u9fff]{2,4})"),
    "ja": re.compile(r"(?P<q>副|元|前)(?P<t>[\u4e00-\u9fff]{2,4})"),
    "ko": re.compile(r"(?<![가-힣])(?P<q>부)(?P<t>[가-힣]{2,3})(?=[은는이가을를의도]|\s|$)"),
}
_SUFFIXED = {
    "zh": None,
    "ja": re.compile(r"(?P<t>[\u4e00-\u9fff]{2,4})(?P<q>代理|補佐)"),
    "ko": re.compile(r"(?P<t>[가-힣]{2,4})\s*(?P<q>(?:직무\s*)?대행)"),
}
_NEAR = 40
"""At most this many characters between a qualified title and the person it is of."""


def unqualified(passage: str, claim: str) -> bool:
    """Whether ``claim`` gives a person a title that ``passage`` gives them only with a qualifier (see the module
    docstring)."""
    language = rule_language(passage, claim)
    patterns = [_EN] if language == "en" else [p for p in (_PREFIXED[language], _SUFFIXED[language]) if p]
    if not any(p.search(passage) for p in patterns):  # most passages qualify no title: read no names
        return False
    theirs = set(people(claim, language))
    if not theirs:
        return False
    for sentence in split_sentences(passage):
        if NOW.search(sentence):
            continue
        units = [sentence] if language == "en" else CLAUSE_CUT.split(sentence)
        for unit in units:
            named = people(unit, language)
            for person in theirs & set(named):
                if any(_beside(unit, found, person, named) for found in _dropped(unit, claim, language)):
                    return True
    return False


def _beside(unit: str, found: re.Match[str], person: str, named: tuple[str, ...]) -> bool:
    """Whether the qualified title is the person's: no other person, and not the title again, between them ("Vice
    president Ana Ruiz and president Tom Hill", "副校长王兰和校长李军": the qualified title is Ana Ruiz's, 王兰's; a
    tagger may miss a name, so the title named again counts too)."""
    at = unit.find(person)
    between = unit[found.end() : at] if at >= found.end() else unit[at + len(person) : found.start()]
    title = found.group("t")
    again = re.search(rf"\b{re.escape(title)}", between, re.IGNORECASE) if title.isascii() else title[:2] in between
    return at >= 0 and len(between) <= _NEAR and not again and not any(p in between for p in named if p != person)


def _dropped(unit: str, claim: str, language: str) -> list[re.Match[str]]:
    """The qualified titles of ``unit`` that the claim holds without their qualifier."""
    if language == "en":
        said = read(claim, language).words
        return [m for m in _EN.finditer(unit)
                if holds(said, [m.group("t").lower()]) and not holds(said, [m.group("q").lower()])]
    out = []
    nouns = {m for m, f, _ in morphemes(unit, language) or [] if f[0] == "NNG"} if language == "ko" else set()
    for found in _PREFIXED[language].finditer(unit):
        t = found.group("t")
        title = next((t[:n] for n in range(len(t), 1, -1) if t[:n] in claim), None)
        if language == "ko" and title and "부" + title not in nouns:  # 부사장 is one noun; 부산 is a place
            continue
        if title and found.group("q") + title not in claim:
            out.append(found)
    suffixed = _SUFFIXED[language]
    for found in suffixed.finditer(unit) if suffixed else ():
        t = found.group("t")
        title = next((t[-n:] for n in range(len(t), 1, -1) if t[-n:] in claim), None)
        if title and found.group("q") not in claim:
            out.append(found)
    return out
