"""Heading-aware, token-bounded chunking of parsed documents. Chunk ids are content hashes.

A chunk never ends on a heading, never splits a paragraph, table or code block that fits in ``max_tokens``,
and keeps the heading path it sits under. Blocks larger than ``max_tokens`` are cut at sentence boundaries
(paragraphs, Latin and CJK punctuation alike), row boundaries (tables, header row repeated) or line boundaries
(code). A section smaller than ``min_tokens`` is merged with the next one rather than left on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from ragkit.llm import content_key
from ragkit.text import CJK, CJK_CHAR, cjk_language, count_tokens, detect_language, split_sentences
from ragkit.types import Chunk, Document

T = TypeVar("T")

DEFAULT_MAX_TOKENS = 320
"""Small enough that a 1.5B judge reads 3–4 chunks per call inside its context with room to answer."""
DEFAULT_MIN_TOKENS = 120

@dataclass
class _Piece:
    text: str
    tokens: int
    kind: str
    path: list[str]
    page: int | None


def pack_greedy(items: Iterable[T], size: Callable[[T], int], budget: int,
                max_items: int | None = None) -> list[list[T]]:
    """Consecutive items in groups of total ``size`` at most ``budget`` (an item over it stands alone) and at most
    ``max_items`` items each, filled greedily in order."""
    groups: list[list[T]] = []
    cur: list[T] = []
    total = 0
    for item in items:
        n = size(item)
        if cur and (len(cur) == max_items or total + n > budget):
            groups.append(cur)
            cur, total = [], 0
        cur.append(item)
        total += n
    if cur:
        groups.append(cur)
    return groups


def _hard_split(text: str, max_tokens: int) -> list[str]:
    """Cut an over-long sentence or line into windows of at most ``max_tokens`` (words, or CJK characters)."""
    units = re.findall(rf"{CJK_CHAR.pattern}|\S+\s*", text)
    # a unit with no space in it can still hold many words (a URL, an id list "a,b,c,...", a CSV row): cut
    # such a unit between its words, so that no part exceeds the bound
    units = [part for unit in units for part in
             (re.findall(r"\w+\W*|\W+", unit) if count_tokens(unit) > max_tokens else [unit])]
    return ["".join(group).strip() for group in pack_greedy(units, lambda u: count_tokens(u) or 1, max_tokens)]


def _pack(units: list[str], max_tokens: int, sep: str, header: str | None = None) -> list[str]:
    """Greedily join ``units`` with ``sep`` into parts of at most ``max_tokens`` (``header`` starts each part)."""
    head_tokens = count_tokens(header) if header else 0
    budget = max(8, max_tokens - head_tokens)
    pieces = [piece for unit in units for piece in (_hard_split(unit, budget) if count_tokens(unit) > budget
                                                    else [unit])]
    parts = pack_greedy(pieces, count_tokens, budget)
    return [sep.join(([header] if header and i else []) + p) for i, p in enumerate(parts)]


def _split_block(piece: _Piece, max_tokens: int) -> list[_Piece]:
    if piece.tokens <= max_tokens:
        return [piece]
    if piece.kind == "table":
        rows = piece.text.split("\n")
        if len(rows) > 1 and count_tokens(rows[0]) <= max_tokens // 2:  # the header row repeats in every part
            texts = _pack(rows[1:], max_tokens, "\n", header=rows[0])
            texts[0] = rows[0] + "\n" + texts[0]
        else:
            texts = _pack(rows, max_tokens, "\n")
    elif piece.kind == "code":
        texts = _pack(piece.text.split("\n"), max_tokens, "\n")
    else:
        sentences = split_sentences(piece.text)
        joiner = "" if cjk_language(piece.text) in ("zh", "ja") else " "
        texts = _pack(sentences, max_tokens, joiner)
    return [_Piece(t, count_tokens(t), piece.kind, piece.path, piece.page) for t in texts if t.strip()]


def _pieces(doc: Document) -> list[_Piece]:
    stack: list[tuple[int, str]] = []
    out: list[_Piece] = []
    for el in doc.elements:
        text = el.text.strip()
        if not text:
            continue
        if el.kind in ("title", "heading"):
            level = 0 if el.kind == "title" else (el.level or 1)  # the document title is always the root
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, " ".join(text.split())))
        path = [t for _, t in stack]
        if el.kind == "list_item":
            text = "- " + text
        out.append(_Piece(text, count_tokens(text), "heading" if el.kind == "title" else el.kind, path, el.page))
    return out


def chunk_document(
    doc: Document, *, max_tokens: int = DEFAULT_MAX_TOKENS, min_tokens: int = DEFAULT_MIN_TOKENS
) -> list[Chunk]:
    """Split ``doc`` into chunks of at most about ``max_tokens`` tokens, in document order."""
    if max_tokens < 16:
        raise ValueError("max_tokens must be at least 16")
    min_tokens = min(min_tokens, max_tokens // 2)
    groups: list[list[_Piece]] = []
    cur: list[_Piece] = []

    def content_tokens(pieces: list[_Piece]) -> int:
        return sum(p.tokens for p in pieces if p.kind != "heading")

    def total(pieces: list[_Piece]) -> int:
        return sum(p.tokens for p in pieces)

    for piece in _pieces(doc):
        if piece.kind == "heading" and piece.tokens > max_tokens // 2:
            piece.kind = "paragraph"  # a "heading" as long as half a chunk is body text (a bold PDF paragraph)
        if piece.kind == "heading":
            # a run of headings with nothing under them is cut at the bound too (a document of titles only)
            if content_tokens(cur) >= min_tokens or (cur and total(cur) + piece.tokens > max_tokens):
                groups.append(cur)
                cur = []
            cur.append(piece)
            continue
        for part in _split_block(piece, max_tokens):
            if content_tokens(cur) and total(cur) + part.tokens > max_tokens:
                groups.append(cur)
                cur = []
            cur.append(part)
    if cur:
        # a trailing heading-only or tiny group joins the previous chunk when it fits
        if groups and (not content_tokens(cur) or total(cur) < min_tokens) and \
                total(groups[-1]) + total(cur) <= max_tokens + min_tokens:
            groups[-1].extend(cur)
        else:
            groups.append(cur)
    return _to_chunks(doc, groups)


def _join(pieces: list[_Piece]) -> str:
    text = ""
    for prev, piece in zip([None, *pieces[:-1]], pieces, strict=True):
        if prev is not None:
            text += "\n" if prev.kind == piece.kind == "list_item" else "\n\n"
        text += piece.text
    return text


def _to_chunks(doc: Document, groups: list[list[_Piece]]) -> list[Chunk]:
    chunks: list[Chunk] = []
    seen: dict[str, int] = {}
    doc_cjk = doc.language in CJK
    for group in groups:
        text = _join(group)
        n = seen[text] = seen.get(text, -1) + 1
        language = cjk_language(text) or (detect_language(text, default=doc.language) if doc_cjk else doc.language)
        chunks.append(Chunk(
            id=chunk_id(doc.id, text, n),
            doc_id=doc.id,
            text=text,
            index=len(chunks),
            heading_path=next((p.path for p in group if p.kind != "heading"), group[-1].path),
            tokens=count_tokens(text),
            language=language,
            page=next((p.page for p in group if p.page is not None), None),
            source=doc.path,
        ))
    return chunks


def chunk_id(doc_id: str, text: str, occurrence: int = 0) -> str:
    """Content hash of a chunk: stable while the document keeps its path and the chunk its text."""
    return "c" + content_key("chunk", doc_id, text, occurrence)[:23]
