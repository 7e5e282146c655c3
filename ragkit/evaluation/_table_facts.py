"""Claims about a passage's tables, checked by where their values stand.

A small judge reads a table row by position and cannot tell one row's value from its neighbour's: on table
chunks in four languages its verdicts ranked true claims above false ones no better than chance (bench/README.md,
session 43). A table says more by its layout than the judge can read from it: a claim that names a row ("HB-200",
"Revenue") or a column ("2022", "安吉白茶基地") and states a value that the table holds only in other rows or
columns puts the value in the wrong place. Such a claim is contradicted by the table, whatever the judge said.
A value that stands where the claim's names point is "placed": the number cloze may confirm it, but its choice of
another number is set aside, since among a table's many numbers it picked a neighbouring cell's and contradicted
right claims.

Names and values are found in the claim as written: a row's first cell, a column's header, or a unique leading
part of one ("Wren W300" of "Wren W300 mobile robot"); a cell, or an item of a cell's list ("龙井43" of
"龙井43、群体种"), or a cell's numbers. A claim that names nothing of a table, or states none of its values, gets
no verdict from it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragkit.evaluation._values import alike
from ragkit.text import (
    CJK_CHAR,
    IDEOGRAPHIC,
    SPACED_LETTER,
    Table,
    normalise,
    numbers,
    quantities,
    tables,
)

_ITEM_SEP = re.compile(r"\s*(?:[、，;；/]|,(?!\d{3}))\s*")  # not the comma of "16,000"
_DIGIT = re.compile(r"\d")
_MIN_CHARS = 2
_MIN_CJK_HEAD = 3


def _spans(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where ``phrase`` stands in ``text`` (both normalised): anywhere for a phrase in a script written without
    spaces (Han, kana) or in Hangul (which takes particles: "광안리점은"), else as whole words, which a CJK
    character next to them also bounds ("HS-5の")."""
    if len(phrase) < _MIN_CHARS:
        return []
    if CJK_CHAR.search(phrase):
        return [(m.start(), m.end()) for m in re.finditer(re.escape(phrase), text)]
    bounded = rf"(?<!{SPACED_LETTER}){re.escape(phrase)}(?!{SPACED_LETTER})"  # a whole word: "K10", not "K100"
    return [(m.start(), m.end()) for m in re.finditer(bounded, text)]


def _heads(label: str, others: Sequence[str]) -> list[str]:
    """``label`` and its leading parts that no other label starts with, longest first: a claim names "Wren W300
    mobile robot" as "Wren W300". A part is two words or more; in Han or kana text without spaces, three
    characters or more ("安吉白茶" of "安吉白茶基地")."""
    if " " in label:
        cuts = [len(label), *[m.start() for m in re.finditer(" ", label)][1:][::-1]]
    elif IDEOGRAPHIC.search(label):
        cuts = list(range(len(label), min(len(label), _MIN_CJK_HEAD) - 1, -1))
    else:
        cuts = [len(label)]
    heads = dict.fromkeys(label[:i].strip() for i in cuts)
    return [h for h in heads if h == label or not any(o.startswith(h) for o in others)]


def _named(claim: str, labels: Sequence[str]) -> tuple[set[int], list[tuple[int, int]]]:
    """The indices of ``labels`` the claim names, and where; of two names at one place, the longer counts."""
    found: list[tuple[int, int, int]] = []
    norm = [normalise(x) for x in labels]
    for k, label in enumerate(norm):
        others = [o for j, o in enumerate(norm) if j != k]
        for head in _heads(label, others) if label else []:
            if spans := _spans(claim, head):
                found.extend((a, b, k) for a, b in spans)
                break
    kept = [f for f in found if not any(g[0] <= f[0] and f[1] <= g[1] and g[1] - g[0] > f[1] - f[0] for g in found)]
    return {k for _, _, k in kept}, [(a, b) for a, b, _ in kept]


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    for a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return text


def _numbers(text: str) -> frozenset[str]:
    return frozenset(numbers(text))


def _items(cell: str) -> list[str]:
    """A cell and the items of its list. An item of one word in a spaced script, with no digit, is too common to
    be a value ("llm" of "llm, embeddings, or the claim matrices" is found in any "LLM call")."""
    parts = [p for p in _ITEM_SEP.split(cell) if p and (IDEOGRAPHIC.search(p) or " " in p or _DIGIT.search(p))]
    return list(dict.fromkeys([cell, *parts]))


@dataclass(frozen=True)
class Placement:
    """What a table says of one claim: ``misplaced`` when it states a value only where the claim's names do not
    point; ``placed``: the numbers (``number_value`` form) that stand where they point; ``stands``: some value of
    the claim stands where they point."""

    misplaced: bool
    placed: frozenset[str]
    stands: bool = False
    pinned: bool = False
    """Every value the claim states stands in the one cell its row and its column name (the column may go unnamed
    in a table of one value column): the table states the claim."""
    in_line: bool = False
    """The claim names one row and no column, or one column and no row (a table whose columns are its
    subjects, "项目 | 青石农场 | 白沙农场"); it states no number the table does not place, and its values stand in
    one cell of that line, the same for all: "소금빵은 2,900원" of a menu whose row 소금빵 holds 2,900원 under
    가격; "罗建明负责青石农场" of a column 青石农场 that holds 罗建明 in its row 负责人; not
    "龙井茶的主要品种是龙井43、群体种和白叶一号" of a row 主要品种 whose two cells are two gardens'. The line
    states the claim, if its other words are the passage's (``_settled``)."""


def _values(text: str, table: Table) -> dict[str, set[tuple[int, int]]]:
    """The table's values the (name-blanked) claim states, each with its (row, column) places. A cell's number is
    stated by the claim's same number counted alike: not "11명" (people) by "오후 11시" (o'clock)."""
    places: dict[str, set[tuple[int, int]]] = {}
    claimed = quantities(text)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row[1:], 1):
            for item in _items(normalise(cell)):
                counted = quantities(item)
                stated = bool(_spans(text, item)) or bool(counted) and all(
                    any(v == w and alike(u, x) for w, x in claimed) for v, u in counted)
                if stated:
                    places.setdefault(item, set()).add((r, c))
    return places


def _place(claim: str, table: Table, named_rows: tuple[set[int], list[tuple[int, int]]],
           rows_elsewhere: bool) -> Placement | None:
    """What ``table`` says of the (normalised) claim, whose rows of it are ``named_rows`` (``_named``). A claim
    that names a row of another table of the passage and none of this one gets nothing from this one's column
    names: "HB-200は浜松工場で生産" names the brake table's HB-200, and the derailleur table's "生産" column holds
    浜松工場."""
    rows, row_spans = named_rows
    cols, col_spans = _named(claim, list(table.header[1:]))
    cols = {c + 1 for c in cols}
    if not rows and (not cols or rows_elsewhere):
        return None
    values = _values(_blank(claim, row_spans + col_spans), table)
    holding = {v: {c for c in cols if _holds_kind(table, c, v)} for v in values}
    values = {v: where for v, where in values.items() if rows or holding[v]}  # a column of words holds no price
    if not values:
        return None
    fits = {v: {(r, c) for r, c in where if (not rows or r in rows) and (not holding[v] or c in holding[v])}
            for v, where in values.items()}
    used = {c for where in fits.values() for _, c in where}
    free = {v: holding[v] - used for v in values}  # a column another value stands in is that value's
    misplaced = any(not fit and not any((not rows or r in rows) and (not free[v] or c in free[v]) for r, c in values[v])
                    for v, fit in fits.items())
    placed = {_numbers(v) for v, fit in fits.items() if fit}
    if placed:  # the names a placed value is read under are placed with it: "2023" of "Revenue in 2023 was …"
        placed |= {_numbers(claim[a:b]) for a, b in row_spans + col_spans}
        stated = _numbers(claim)  # and so are the numbers of its row's and column's names that the claim states
        placed |= {_numbers(normalise(f"{table.rows[r][0]} {table.header[c]}")) & stated
                   for where in fits.values() for r, c in where}
    pinned = not misplaced and bool(rows) and (bool(cols) or len(table.header) == 2) and all(fits.values())
    placed_numbers: frozenset[str] = frozenset().union(*placed)
    cells = {cell for fit in fits.values() for cell in fit}
    in_line = not misplaced and len(rows) + len(cols) == 1 and len(cells) == 1 and all(fits.values()) and \
        _numbers(claim) <= placed_numbers
    return Placement(misplaced, placed_numbers, any(fits.values()), pinned, in_line)


def _holds_kind(table: Table, column: int, value: str) -> bool:
    """Whether ``column`` holds values of ``value``'s kind, numbers or words. "기장 로스팅 공장은 참가비는 1인 15,000원"
    names the catalog's "로스팅" column (라이트, 미디엄), which holds no price: its 15,000원 is misplaced by
    no column of words (bench/README.md, session 56)."""
    numeric = bool(_numbers(value))
    return any(bool(_numbers(row[column])) == numeric for row in table.rows if column < len(row))


def placements(passage: str, claims: Sequence[str]) -> list[Placement | None]:
    """For each claim, what the passage's tables say of it (None: nothing)."""
    found = tables(passage)
    out: list[Placement | None] = []
    for claim in claims:
        text = normalise(claim)
        rows = [_named(text, [row[0] for row in t.rows]) for t in found]
        said = [p for k, t in enumerate(found)
                if (p := _place(text, t, rows[k], any(bool(r[0]) for j, r in enumerate(rows) if j != k))) is not None]
        misplaced = any(p.misplaced for p in said)
        out.append(Placement(misplaced, frozenset().union(*(p.placed for p in said)), any(p.stands for p in said),
                             not misplaced and any(p.pinned for p in said),
                             not misplaced and any(p.in_line for p in said)) if said else None)
    return out


def table_witnesses(passages: Sequence[str], claim: str) -> list[int]:
    """The passages whose tables state a value of ``claim`` where its names point; failing those, the ones whose
    tables hold its value elsewhere (where a misreading came from). Empty when no table speaks of it."""
    said = [(k, p) for k, passage in enumerate(passages) if (p := placements(passage, [claim])[0]) is not None]
    return [k for k, p in said if p.stands and not p.misplaced] or [k for k, p in said if p.misplaced]
