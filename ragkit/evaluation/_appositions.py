"""What an apposition says of a name, kept as a claim of its own: "Nadia Haddad reports to Omar Kline, the head of
sales." says that Omar Kline is the head of sales.

The 1.5B split drops an apposition nearly every time ("Nadia Haddad reports to Omar Kline."): on a probe of six
English answers whose apposition gives the wrong title or past, it dropped five, and those wrong answers scored
0.95-1.00 on faithfulness (bench/README.md, session 50). What a split leaves out is never checked. An apposition
that no claim holds is added as "<name> is <what the apposition says>.", so that it is checked like any claim.

Read in English: a name of two or more capitalised words beside a noun phrase that starts with a determiner,
between commas or at the sentence's end ("Omar Kline, the head of engineering."; "its coxswain, Hannah Price,").
Chinese, Japanese and Korean write a title before a person's name instead ("财务总监林晓燕", "品質保証部長の森田由美",
"개발팀장 송민호"): the words right before a name the taggers read as a person's (``_people.people``), when they end as
a title does (…总监, …长, …師, …팀장, 대표), make the claim "林晓燕是财务总监。", "森田由美は品質保証部長である。",
"송민호는 개발팀장이다.".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.evaluation._holders import TITLE_ENDINGS
from ragkit.evaluation._people import people
from ragkit.text import FUNCTION_WORDS, HAN, KATAKANA, cjk_language

_NAME = r"(?:[A-Z][\w'’-]+)(?:\s+[A-Z][\w'’-]+)+"
_DESCRIPTION = (r"(?:[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir|[Hh]is|[Hh]er|[Oo]ur|[Oo]ne\s+of\s+the)\s+"
                r"(?:(?!\b(?:is|are|was|were|be|been|has|have|had|by|and|or|he|she|it|we|they|you|I)\b)[^,.;:()\"]){2,60}?")
"""A noun phrase that starts with a determiner and holds no verb of being or having, "by", "and", "or" or a subject
pronoun (a clause: "a role she still holds"): "the head of engineering", "a former chef", "the club's treasurer"."""
_AFTER_NAME = re.compile(rf"(?P<name>{_NAME}),\s+(?P<what>{_DESCRIPTION})(?=\s*(?:,|\.|;|$))")
_BEFORE_NAME = re.compile(rf"(?:^|,\s+|\b(?:by|to|with|from|for)\s+)(?P<what>{_DESCRIPTION}),\s+(?P<name>{_NAME})"
                          r"(?=\s*(?:,|\.|;|$))")
_WORD = re.compile(r"[\w'’-]+")
_BEFORE = {  # the words right before a name: a title, as written
    "zh": re.compile(f"([{HAN}]{{2,10}})$"),
    "ja": re.compile(f"([{HAN}{KATAKANA}]{{2,12}})の?$"),
    "ko": re.compile(r"([가-힣]{2,10}?)(?:인)?\s+$"),
}
_ZH_CUT = re.compile("^.*[的是由和与及在为、]")
"""A Chinese title starts after the last of these: "禾丰食品的财务总监" → "财务总监"."""
_TITLE_END = {language: re.compile(f"(?:{ending})$") for language, ending in TITLE_ENDINGS.items()}


def with_appositions(text: str, claims: Sequence[str]) -> list[str]:
    """``claims``, and for each apposition of ``text`` whose words no claim holds, the claim it makes."""
    if not claims:
        return list(claims)
    if language := cjk_language(text):
        return [*claims, *[_said(language, name, title) for name, title in titled(text, language)
                           if not any(title in c for c in claims)]]
    held = [_words(c) for c in claims]
    out = list(claims)
    for name, what in appositions(text):
        name = " ".join(w for w in name.split() if w.lower() not in FUNCTION_WORDS)
        if " " in name and not any(_words(what) <= h for h in held):
            out.append(f"{name} is {what[0].lower()}{what[1:]}.")  # "The ship's namesake" → "… is the ship's …"
    return out


def appositions(text: str) -> list[tuple[str, str]]:
    """(name, description) of each apposition of ``text``, as written."""
    found = [(m.start(), m["name"], m["what"]) for m in _AFTER_NAME.finditer(text)]
    found += [(m.start(), m["name"], m["what"]) for m in _BEFORE_NAME.finditer(text)]
    return [(name, what.strip()) for _, name, what in sorted(found)]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in FUNCTION_WORDS}


def titled(text: str, language: str) -> list[tuple[str, str]]:
    """(name, title) of each person of ``text`` written after a title: "财务总监林晓燕", "社長の山田達夫", "대표
    김도윤"."""
    out: list[tuple[str, str]] = []
    for name in people(text, language):
        for found in re.finditer(re.escape(name), text):
            before = _BEFORE[language].search(text[: found.start()])
            title = _ZH_CUT.sub("", before[1]) if before and language == "zh" else before[1] if before else ""
            if len(title) >= 2 and _TITLE_END[language].search(title) and (name, title) not in out:
                out.append((name, title))
    return out


def _said(language: str, name: str, title: str) -> str:
    if language == "zh":
        return f"{name}是{title}。"
    if language == "ja":
        return f"{name}は{title}である。"
    final = (ord(name[-1]) - 0xAC00) % 28 if "가" <= name[-1] <= "힣" else 0  # a closing consonant takes 은
    return f"{name}{'은' if final else '는'} {title}이다."
