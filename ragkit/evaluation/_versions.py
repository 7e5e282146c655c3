"""A version the passage never writes: "v3.1.0 及更早版本使用 base-v1" against a passage that says so of v3.0.5.

The value cloze finds such a claim's version in no slot of the passage and picks "none", and a "none" pick leaves
the check's verdict standing (``_values.combined``): a number may be written in other words, "five" for 5, and the
cloze's "none" is often wrong then. A version has no other words. The small judge reads the claim by its topic (the
package, its model) and called it entailed (bench/README.md, session 58). A claim that writes a version the passage
never writes is neutral without a call: nothing in the passage is said of that version.

A version is a number of two dots or more ("0.6.8"), or one of a dot written with a "v" ("v2.1"); it is the
passage's when the passage writes the same numbers, trailing zeros aside ("2.0" for "2.0.0"). A date written with
dots ("2024.03.18") is no version: the number reader reads it as three numbers.
"""

from __future__ import annotations

from ragkit.text import number_spans, number_value

_V = frozenset("vV")
_WIDE = str.maketrans("０１２３４５６７８９．", "0123456789.")
"""Full-width digits and dot as ASCII ("２．０．３"), the reader's dot being the ASCII one; not NFKC, which would
make "，" a comma that no number may follow."""


def _parts(value: str) -> tuple[int, ...] | None:
    """The numbers of a dotted value, trailing zeros dropped ("2.0.0" → (2,)); None for a value not all digits."""
    pieces = value.split(".")
    if not all(p.isdigit() for p in pieces):
        return None
    parts = [int(p) for p in pieces]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def versions(text: str) -> set[tuple[int, ...]]:
    """The versions ``text`` writes, as ``_parts``."""
    found = set()
    text = text.translate(_WIDE)
    for start, end in number_spans(text):
        parts = _parts(number_value(text[start:end]))
        if parts is not None and _is_version(text, start, end):
            found.add(parts)
    return found


def written(text: str) -> set[tuple[int, ...]]:
    """Every number ``text`` writes, as ``_parts``: a version is the passage's whether the passage writes it as a
    version or as a plain number ("release 2.0")."""
    text = text.translate(_WIDE)
    values = (_parts(number_value(text[a:b])) for a, b in number_spans(text))
    return {v for v in values if v is not None}


def same_version(value: str, other: str) -> bool:
    """Whether two dotted values are one version, written with or without trailing zeros ("3.9.0", "3.9")."""
    if "." not in value + other:
        return False
    return (parts := _parts(value)) is not None and parts == _parts(other)


def versions_as_written(passage: str, claim: str) -> str:
    """``claim`` with each version written as ``passage`` writes the same version ("release 2.0.0" as the passage's
    "release 2.0", "Python 3.9.0" as "3.9"), as ``as_written_in`` writes other values: the judge read "The API was
    frozen in release 2.0.0" against "…in release 2.0" as not mentioned (0.02; bench/README.md, session 63). One of
    the two must be a version (two dots, or a "v"), and the passage must write that version one way only."""
    forms: dict[tuple[int, ...], set[tuple[str, bool]]] = {}
    theirs = passage.translate(_WIDE)
    for a, b in number_spans(theirs):
        if "." in theirs[a:b] and (parts := _parts(number_value(theirs[a:b]))) is not None:
            forms.setdefault(parts, set()).add((theirs[a:b], _is_version(theirs, a, b)))
    out, end = "", 0
    for a, b in number_spans(claim):
        value = claim[a:b]
        found = forms.get(_parts(number_value(value.translate(_WIDE))) or (), set())
        if "." in value and len(found) == 1 and (form := next(iter(found)))[0] != value and \
                (form[1] or _is_version(claim, a, b)):
            out, end = out + claim[end:a] + form[0], b
    return out + claim[end:]


def _is_version(text: str, start: int, end: int) -> bool:
    """Whether the dotted value at ``start:end`` is written as a version: two dots or more, or after a "v"."""
    dots = text[start:end].count(".")
    return dots >= 2 or (dots == 1 and start > 0 and text[start - 1] in _V)


def unwritten_version(passage: str, claim: str, question: str = "") -> bool:
    """Whether ``claim`` writes a version that ``passage`` never writes, nor the ``question`` it answers. An answer
    is read with its question: "It needs Python 3.9.0 or later." to "Which Python version does fastparse 2.1.0
    need?" says what fastparse 2.1.0 needs, and the reference's claim of it was neutral (validity's en-version-needs,
    whose right answer then scored below its wrong one on factual correctness; session 61). Retrieved contexts are
    read with no question, and there a version only the question writes stays unwritten."""
    wanted = versions(claim)
    return bool(wanted) and not wanted <= written(passage) | written(question)
