"""A name of code or a quoted value written nearly, but not exactly, as the passage writes it: "jaconv.hira2kata(…)
は 'トモエマメ' を返します" against a passage whose output is 'トモエマミ'; ``log_levels`` against a program that reads
``log_level``.

In technical documents one letter changes the thing: ``jieba.cut`` is not ``jieba.lcut``. The small judge reads a
Japanese value by its characters, nearly all of which the passage has: it called the claim above entailed (0.997;
bench/README.md, session 57), and a generated reference giving 'ティロ・フィナーノabc123' for the passage's
'ティロ・フィナーレabc123' too. Such a claim names something the passage does not, so it is neutral without a call.
A value the question itself writes is the question's ("the platfformdirs package", asked with a typo); spaces and
the kind of quote mark do not count ("Python 3.8" and "python3.8"). A call is read with its arguments: the passage's
``alphabet2kana('japan')`` and ``alphabet2kata('namba')`` show no ``alphabet2kana('namba')``.
"""

from __future__ import annotations

import re

from ragkit.text import normalise

_CODE = re.compile(
    r"`([^`\n]+)`|(?:"  # inline code, or a name:
    r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"  # dotted ("client.fetch_all", "jieba.lcut"),
    # with an underscore, or one digit inside letters ("log_level", "hira2kata"); not a model code's number ("K10",
    # "RTX4090"): numbers are the value cloze's
    r"|(?<![\w.])[A-Za-z]*(?:_[A-Za-z0-9]+|(?<=[A-Za-z])[0-9][A-Za-z])\w*"
    r")(?:\([^()\n]*\))?"  # with the arguments of its call: alphabet2kana('namba') is no call the passage shows
)
_QUOTED = re.compile(r"(?<![A-Za-z])'([^'\n]+)'(?![A-Za-z])|\"([^\"\n]+)\"|「([^」\n]+)」|『([^』\n]+)』|“([^”\n]+)”")
"""A quoted value; not the apostrophes of "Acme's and Tom's"."""
_QUOTES = str.maketrans({'"': "'", "‘": "'", "’": "'", "“": "'", "”": "'"})

MIN_CHARS = 5
"""Shorter values differ from many a passage word by one letter ("h2z" and "z2h" are both jaconv's)."""
NEAR = 80.0
"""The best alignment's similarity (rapidfuzz ``partial_ratio``) at which a value is the passage's, written
otherwise: one letter in five."""


def _normal(text: str) -> str:
    """``normalise`` (NFKC, lower case) with one quote mark and no spaces: 'f("a", b)' is "f('a',b)", "Python 3.8"
    is "python3.8"."""
    return "".join(normalise(text).translate(_QUOTES).split())


def literals(text: str) -> list[str]:
    """The code names (with a call's arguments) and quoted values of ``text``, normalised, of ``MIN_CHARS`` or
    more."""
    found = [m.group(1) or m.group() for m in _CODE.finditer(text)]
    found += [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]
    return [v for v in map(_normal, found) if len(v) >= MIN_CHARS]


def written_otherwise(passage: str, claim: str, asked: str = "") -> bool:
    """Whether ``claim`` writes a code name or a quoted value that ``passage`` never writes, but nearly does."""
    from rapidfuzz import fuzz

    wanted = literals(claim)
    if not wanted:
        return False
    text, question = _normal(passage), _normal(asked)
    return any(value not in text and value not in question and fuzz.partial_ratio(value, text) >= NEAR
               for value in wanted)
