"""What an apposition says of a name, kept as a claim of its own: "Nadia Haddad reports to Omar Kline, the head of
sales." says that Omar Kline is the head of sales.

The 1.5B split drops an apposition nearly every time ("Nadia Haddad reports to Omar Kline."): on a probe of six
English answers whose apposition gives the wrong title or past, it dropped five, and those wrong answers scored
0.95-1.00 on faithfulness (bench/README.md, session 50). What a split leaves out is never checked. An apposition
that no claim holds is added as "<name> is <what the apposition says>.", so that it is checked like any claim.

Read in English: a name of two or more capitalised words beside a noun phrase that starts with a determiner,
between commas or at the sentence's end ("Omar Kline, the head of engineering."; "its coxswain, Hannah Price,").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.text import FUNCTION_WORDS, cjk_language

_NAME = r"(?:[A-Z][\w'’-]+)(?:\s+[A-Z][\w'’-]+)+"
_DESCRIPTION = (r"(?:[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir|[Hh]is|[Hh]er|[Oo]ur|[Oo]ne\s+of\s+the)\s+"
                r"(?:(?!\b(?:is|are|was|were|be|been|has|have|had|by|and|or)\b)[^,.;:()\"]){2,60}?")
"""A noun phrase that starts with a determiner and holds no verb of being or having, "by", "and" or "or": "the head
of engineering", "a former chef", "the club's treasurer"."""
_AFTER_NAME = re.compile(rf"(?P<name>{_NAME}),\s+(?P<what>{_DESCRIPTION})(?=\s*(?:,|\.|;|$))")
_BEFORE_NAME = re.compile(rf"(?:^|,\s+|\b(?:by|to|with|from|for)\s+)(?P<what>{_DESCRIPTION}),\s+(?P<name>{_NAME})"
                          r"(?=\s*(?:,|\.|;|$))")
_WORD = re.compile(r"[\w'’-]+")


def with_appositions(text: str, claims: Sequence[str]) -> list[str]:
    """``claims``, and for each apposition of ``text`` whose words no claim holds, the claim it makes."""
    if cjk_language(text) or not claims:
        return list(claims)
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
