"""A release's changes said of another release: "The major changes of PathSpec in version 1.0.4 include dropping
support of EoL Python 3.8" against a changelog whose 1.0.4 section lists one bug fix and whose 1.0.0 section drops
Python 3.8.

A changelog is one section per release, each under a heading line that is the release's version and, at most, its
date ("1.0.4 (2026-01-26)", "## v2.3.0", "Version 0.9 - 2024-05-01"). The small judge reads a claim by its topic
(the package, its changes) and called this one entailed, 0.79; the writer had asked about 1.0.4 and answered from
1.0.0's section, and the critic kept it (bench/README.md, session 72). Asked "what changed in 1.0.4?", a RAG system
that answers with another release's changes is wrong in just this way.

A claim that names one release of the passage's headings, and copies two pairs of adjacent words or more from
the section of another release that neither its own release's section nor the text before the first heading has,
says of its release what the passage says of the other (``said_of_another_release``). One word is too little: a
package's name or "version" may stand only in another release's section. Numbers are not counted: a version or a
date is no change.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragkit.evaluation._versions import same_version
from ragkit.text import FUNCTION_WORDS, tokens

_HEADING = re.compile(r"^\s*(?:#{1,6}\s*)?(?:(?:version|release|v)\s*)?(\d+(?:\.\d+){1,3})"
                      r"\s*(?:\([^()\n]{0,30}\)|[-–—:]\s*[\d./-]{6,12})?\s*$", re.IGNORECASE | re.MULTILINE)
"""A line that is a release's version and, at most, its date: "1.0.4 (2026-01-26)", "## v2.3.0", "Version 0.9 -
2024-05-01"."""
_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+){1,3})(?![\w.]*\d)", re.IGNORECASE)


def sections(passage: str) -> tuple[str, dict[str, str]]:
    """The text before the first release heading, and each release's section by its version (none when the
    passage has fewer than two headings: it is no changelog)."""
    heads = list(_HEADING.finditer(passage))
    if len(heads) < 2:
        return passage, {}
    out: dict[str, str] = {}
    for k, head in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(passage)
        out[head.group(1)] = out.get(head.group(1), "") + passage[head.end():end]
    return passage[:heads[0].start()], out


MIN_SHARED = 2
"""Fewest pairs of adjacent words a claim must copy from another release's section."""


def _pairs(text: str) -> set[tuple[str, str]]:
    """Adjacent pairs of ``text``'s content words (``tokens``: Chinese, Japanese and Korean as words), numbers left
    out. Pairs of characters would be too many: "新增了" (added) alone gives "新增" + "增了"."""
    words = [t for t in tokens(text) if t not in FUNCTION_WORDS and not any(c.isdigit() for c in t)]
    return set(zip(words, words[1:], strict=False))


@lru_cache(maxsize=64)
def _read(passage: str) -> tuple[set[tuple[str, str]], dict[str, set[tuple[str, str]]]]:
    """The word pairs of the text before the first release heading, and of each release's section: once per
    passage, not once per claim (segmenting Chinese or Japanese text takes milliseconds)."""
    before, releases = sections(passage)
    return _pairs(before), {version: _pairs(text) for version, text in releases.items()}


def said_of_another_release(passage: str, claim: str) -> str | None:
    """The release whose section ``claim`` copies while naming another release of ``passage`` (see the module
    docstring), or None."""
    before, releases = _read(passage)
    if not releases:
        return None
    written = {m.group(1) for m in _VERSION.finditer(claim)}
    named = [v for v in releases if any(same_version(v, w) for w in written)]
    if len(named) != 1:
        return None
    copied = _pairs(claim) - before - releases[named[0]]
    for version, pairs in releases.items():
        if version != named[0] and len(copied & pairs) >= MIN_SHARED:
            return version
    return None
