"""A reference that gives one list item's or table row's facts under the name of another.

Lists and tables state one record per line:

    - 董事长：沈嘉禾（公司创始人，2009年创立公司）
    - 总经理：林晓雯（2018年起任职，向董事长汇报）

A small writer asked about 沈嘉禾 wrote "是的，沈嘉禾担任…总经理，2018年起任职，向董事长汇报。": the second line's facts
under the first line's name. Nothing downstream saw it. The critic's judge, asked the yes-or-no question, said yes.
The claim check read a passage naming both and called the claim supported (0.54). Neither tells which name a line's
facts belong to.

The pattern needs no LLM call:
- the reference copies most of a record's own words (pairs of adjacent words the question does not have);
- it leaves out every name that record gives;
- it names instead the name of another record of the same list or table;
- no record of that other name states the same words. Two table rows that share a date ("2019年4月") are no swap.
Names are the graph's entities of a known type. A line is a record when it is a list item or a table row; prose is
left alone, since a sentence may name one thing and describe another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragkit.kg import mentioned_in
from ragkit.text import units

_ITEM = re.compile(r"^\s*(?:[-*•・·]|\d{1,2}[.)、])\s*\S")
"""A list item: a bullet or a short number before its text."""

MIN_SHARED = 3
"""Fewest word pairs a reference must copy from a record (a role and a name alone, "总经理：林晓雯", is too little
to tell a copy from a fact that shares its words)."""
MOST = 0.6
"""Share of a record's own word pairs a reference must copy."""


def kind(line: str) -> str | None:
    """"item" for a list item, "row" for a table row (cells between "|"), None for anything else."""
    if line.count("|") >= 2 or (line.count("|") == 1 and not line.strip().startswith("|")):
        return "row"
    return "item" if _ITEM.match(line) else None


def named(names: Iterable[str], text: str) -> list[str]:
    """The ``names`` that ``text`` mentions (``mentioned_in``: a Latin-script name as whole words), longest first,
    leaving out one found inside a longer one ("Acme" inside "Acme Robotics")."""
    found = list[str]()
    for name in sorted(names, key=len, reverse=True):
        if not any(name.lower() in f.lower() for f in found) and mentioned_in(name, text):
            found.append(name)
    return found


def _pairs(text: str, skip: frozenset[str] = frozenset()) -> set[tuple[str, str]]:
    """Adjacent word pairs of ``text`` (CJK characters count as words), leaving out pairs with a word of ``skip``."""
    words = units(text)
    return {(a, b) for a, b in zip(words, words[1:], strict=False) if a not in skip and b not in skip}


def borrowed_record(reference: str, question: str, contexts: Iterable[str], names: Iterable[str]) -> str | None:
    """The record whose facts ``reference`` gives under another record's name, described: "the line '- 总经理：林晓雯
    （…' of 林晓雯, given as 沈嘉禾's". None when there is none."""
    names = list(names)
    given = named(names, reference)
    if not given:
        return None
    copied, asked = _pairs(reference), _pairs(question)
    for text in contexts:
        records = [(line, kind(line), named(names, line)) for line in text.splitlines() if kind(line)]
        for line, shape, owners in records:
            if not owners or named(owners, reference):
                continue
            own_words = _pairs(line, frozenset(u for n in owners for u in units(n))) - asked
            shared = own_words & copied
            if len(shared) < MIN_SHARED or len(shared) < MOST * len(own_words):
                continue
            others = [n for n in given if any(s == shape and n in o for _, s, o in records if o != owners)]
            if not others:
                continue
            theirs = [_pairs(other) for other, s, o in records if s == shape and set(o) & set(others)]
            if any(len(shared & p) >= MOST * len(shared) for p in theirs):
                continue  # the other record states the same words: no swap
            return f"the line {line.strip()[:50]!r} of {', '.join(owners)}, given as {others[0]}'s"
    return None
