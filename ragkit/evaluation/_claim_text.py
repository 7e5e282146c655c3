"""Text-level helpers of the claim engine: tidy claim lists, short answers, exact matches and prompt windows."""

from __future__ import annotations

from collections.abc import Sequence

from ragkit.text import count_tokens, normalise, split_sentences


def tidy(items: Sequence[str]) -> list[str]:
    """Whitespace collapsed, empty and repeated items dropped, order kept."""
    out: list[str] = []
    for item in items:
        text = " ".join(item.split())
        if text and text not in out:
            out.append(text)
    return out


SHORT_ANSWER_TOKENS = 8
"""An answer of at most this many tokens (``count_tokens``: a CJK character or ~0.8 of a word each) in one
sentence is a short answer: it says nothing without its question, so its claim is the question restated with it."""


def is_short_answer(text: str) -> bool:
    """True for a bare answer such as "Oslo.", "The Northern Rifles." or "南岭大学。"."""
    return count_tokens(text) <= SHORT_ANSWER_TOKENS and len(split_sentences(text)) <= 1


def restate(question: str, answer: str) -> str:
    """The one claim of a short answer: the question followed by the answer, in the words of both."""
    return f"{question.strip()} {answer.strip()}"


def equal_forms(passage: str, known: Sequence[str]) -> set[str]:
    """Normalised sentences of ``passage`` and its ``known`` claims: what a claim may equal to be entailed."""
    return {normalise(t) for t in (*split_sentences(passage), passage, *known) if t.strip()}


def prompt_windows(passages: Sequence[str], budget: int) -> list[list[int]]:
    """Consecutive groups of passage indices whose estimated tokens stay within ``budget`` (each at least one)."""
    out: list[list[int]] = [[]]
    used = 0
    for k, passage in enumerate(passages):
        size = count_tokens(passage)
        if out[-1] and used + size > budget:
            out.append([])
            used = 0
        out[-1].append(k)
        used += size
    return out
