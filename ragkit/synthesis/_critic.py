"""The quality critic: every candidate sample passes it before the runner keeps it.

Checks, cheapest first (the LLM check runs only when every other check passed):

1. ``invalid_sample``: empty question or answer, or reference contexts without a graph chunk id.
2. ``wrong_language``: the question or answer is not in the language of its source chunks.
3. ``mentions_context`` / ``copies_context``: the question refers to "the passage" (which the user of the system
   under test never saw), or copies a sentence (or most of itself) verbatim from a context.
4. ``answer_restates_question``: the reference answer only repeats the question's words.
5. ``near_duplicate``: the question is close (embedding cosine) to a question already kept.
6. ``not_answerable`` / ``wrong_answer``: one LLM call. The judge answers the question from the contexts alone,
   without seeing the reference answer (a small judge shown an answer tends to agree with it): it copies the
   sentence that answers the question, which must be found in the contexts, and gives a short answer. That answer
   must agree with the reference answer (no conflicting numbers; mostly contained in it, or close in embedding
   space). For samples that must not be answerable (``metadata["answerable"] is False``), the contexts are the
   reference contexts plus the graph chunks nearest to the question, and the sample is dropped as ``answerable``
   when the judge finds an answer there. Samples with ``metadata["needs_passages"] = k`` (multi-hop) are dropped
   as ``single_passage`` when the judge's evidence comes from fewer than k passages.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, Field, StringConstraints

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Embeddings, Judge, Prompt
from ragkit.synthesis._phrasing import language_matches
from ragkit.synthesis._scenarios import quote_source
from ragkit.text import units
from ragkit.types import TestSample

_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")
_MENTIONS_CONTEXT = re.compile(
    r"\b(?:the|this|these|above|given|provided)\s+(?:passages?|texts?|excerpts?|contexts?)\b"
    r"|\baccording to the (?:passage|text|excerpt|context|document)\b"
    r"|文中|本文|上文|原文|段落中|文章中|材料中|文本中",
    re.IGNORECASE,
)


def mentions_context(question: str) -> bool:
    """True when the question points at the text it was written from ('in the passage', '文中'), which a user of
    the system under test has never seen."""
    return _MENTIONS_CONTEXT.search(question) is not None


def copies_context(question: str, contexts: list[str], *, min_tokens: int = 8, share: float = 0.7) -> bool:
    """True when the question contains a whole context sentence of ``min_tokens`` or more, or when a run of
    at least ``min_tokens`` tokens copied from a context makes up ``share`` of the question.

    A CJK character is about half a word, so for questions written mostly in CJK characters the run must be
    twice as long.
    """
    q = units(question)
    if sum(not t.isascii() and len(t) == 1 for t in q) > len(q) / 2:
        min_tokens *= 2
    if len(q) < min_tokens:
        return False
    q_text = " ".join(q)
    for context in contexts:
        c = units(context)
        match = difflib.SequenceMatcher(None, q, c, autojunk=False).find_longest_match(0, len(q), 0, len(c))
        if match.size >= min_tokens and match.size >= share * len(q):
            return True
        for sentence in _SENTENCE_END.split(context):
            s = units(sentence)
            if len(s) >= min_tokens and f" {' '.join(s)} " in f" {q_text} ":
                return True
    return False


class CriticInput(BaseModel):
    passages: list[str]
    question: str


Evidence = Annotated[str, StringConstraints(max_length=300)]


class CriticOutput(BaseModel):
    evidence: list[Evidence] = Field(default_factory=list, max_length=3)
    """The sentences or table rows of the passages needed to answer the question, copied; empty when none."""
    answer: str = Field(max_length=150)
    """The answer in a few words, taken from the evidence; empty when there is none."""


CRITIC_PROMPT = Prompt(
    name="generate.critic",
    instruction=(
        "Answer the question using only the numbered passages, never your own knowledge.\n"
        "1. evidence: copy the sentences or table rows of the passages that are needed to answer the question "
        "(one from each passage that is needed, at most three). If no passage answers it, give an empty list.\n"
        "2. answer: the answer in a few words, taken from the evidence. If there is no evidence, write an empty "
        "string."
    ),
    input=CriticInput,
    output=CriticOutput,
    max_tokens=250,
)

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def _informative(text: str, question: str) -> set[str]:
    """Tokens that carry the answer: not already in the question, and a number, a CJK character or a word of
    four or more letters (short function words say little about agreement)."""
    asked = set(units(question))
    return {t for t in units(text) if t not in asked and (any(c.isdigit() for c in t) or not t.isascii()
                                                           or len(t) >= 4)}


def restates_question(answer: str, question: str, share: float = 0.8) -> bool:
    """True when the answer only repeats the question: every informative token of the answer (see
    ``_informative``) is in the question, and they make up ``share`` or more of the question's own.

    "Who owns Nadia's project?" → "Nadia owns Nadia's project." restates; "Is it made in Leeds or York?" →
    "In Leeds." and "Yes." do not.
    """
    mine, asked = _informative(answer, ""), _informative(question, "")
    return bool(mine) and mine <= asked and len(mine) >= share * len(asked)


def agreement(own: str, reference: str, question: str, similarity: float) -> tuple[bool, str]:
    """Whether the judge's own answer and the reference answer agree.

    When the judge's answer has numbers, the reference must share one. Otherwise, when both answers carry
    informative tokens (see ``_informative``), at least half of one side's must appear in the other; when one side
    has none, 3/4 of the judge's tokens must be in the reference, or the embedding cosine must be >= 0.8.
    """
    own_numbers, ref_numbers = _numbers(own), _numbers(reference)
    if own_numbers and not own_numbers & ref_numbers:
        return False, f"numbers differ: {sorted(own_numbers)} vs {sorted(ref_numbers) or 'none'}"
    mine, theirs = _informative(own, question), _informative(reference, question)
    if mine and theirs:
        recall = max(len(mine & theirs) / len(mine), len(mine & theirs) / len(theirs))
        return recall >= 0.5, f"token overlap {recall:.2f}"
    own_tokens = set(units(own))  # e.g. the judge names one of the things the question compares
    if own_tokens:
        contained = len(own_tokens & set(units(reference))) / len(own_tokens)
        if contained >= 0.75:
            return True, f"judge's answer contained in the reference ({contained:.2f})"
    return similarity >= 0.8, f"cosine {similarity:.2f}"


@dataclass
class Verdict:
    """The critic's decision on one candidate: ``reason`` is the drop reason when ``ok`` is False."""

    ok: bool
    reason: str | None = None
    detail: str = ""
    checks: dict[str, Any] = field(default_factory=dict)


@dataclass
class Critic:
    """Reviews candidate samples for one generation run; remembers kept questions for duplicate checks."""

    kg: KnowledgeGraph
    judge: Judge | None
    embeddings: Embeddings
    duplicate_threshold: float = 0.9
    """Cosine similarity of question embeddings at or above which a candidate is a near-duplicate."""
    nearest_k: int = 3
    """Graph chunks nearest to the question that an unanswerable question is checked against."""
    llm_check: bool = True
    _kept: list[np.ndarray] = field(default_factory=list, repr=False)
    _kept_ids: list[str] = field(default_factory=list, repr=False)
    _chunk_ids: list[str] | None = field(default=None, repr=False)
    _chunk_matrix: np.ndarray | None = field(default=None, repr=False)

    def cheap_checks(self, sample: TestSample, compare_with: int | None = None) -> Verdict:
        """Every check except the LLM one (no LLM call); duplicates are looked for among the first
        ``compare_with`` kept samples (all when None)."""
        if not sample.question.strip() or not (sample.reference_answer or "").strip():
            return Verdict(False, "invalid_sample", "empty question or reference answer")
        for ref in sample.reference_contexts:
            if not ref.chunk_id or ref.chunk_id not in self.kg.g:
                return Verdict(False, "invalid_sample", f"reference context {ref.chunk_id!r} is not a graph chunk")
        lang = sample.language or "und"
        for name, text in (("question", sample.question), ("answer", sample.reference_answer or "")):
            if not language_matches(lang, text):
                return Verdict(False, "wrong_language", f"the {name} is not in {lang}: {text[:80]!r}")
        if mentions_context(sample.question):
            return Verdict(False, "mentions_context", f"the question refers to its source: {sample.question[:80]!r}")
        supporting = [r.text for r in sample.reference_contexts if not r.distractor]
        if copies_context(sample.question, supporting):
            return Verdict(False, "copies_context", f"the question copies the context: {sample.question[:80]!r}")
        if sample.metadata.get("answerable", True) is not False and \
                restates_question(sample.reference_answer or "", sample.question):
            return Verdict(False, "answer_restates_question",
                           f"the answer adds nothing to the question: {(sample.reference_answer or '')[:80]!r}")
        dup = self.duplicate_of(sample.question, compare_with)
        if dup is not None:
            return Verdict(False, "near_duplicate", f"close to kept sample {dup}")
        return Verdict(True)

    async def review(self, sample: TestSample, compare_with: int | None = None) -> Verdict:
        """All checks; at most one LLM call."""
        await self.embeddings.aembed([sample.question])  # off the event loop; later lookups hit the memo
        verdict = self.cheap_checks(sample, compare_with)
        if not verdict.ok or not self.llm_check or self.judge is None:
            return verdict
        answerable_expected = sample.metadata.get("answerable", True) is not False
        passages = [r.text for r in sample.reference_contexts if not r.distractor]
        if not answerable_expected:
            known = set(r.chunk_id for r in sample.reference_contexts)
            passages += [self.kg.chunk(c).text for c in self.nearest_chunks(sample.question) if c not in known]
        out = await self.judge.structured(CRITIC_PROMPT, CriticInput(passages=passages, question=sample.question))
        sources = {i for e in out.evidence if len(units(e)) >= 2 and (i := quote_source(e, passages)) is not None}
        cited = bool(sources)
        checks: dict[str, Any] = {"evidence": out.evidence, "judge_answer": out.answer,
                                  "evidence_passages": sorted(sources)}
        if not answerable_expected:
            if cited and out.answer.strip():
                return Verdict(False, "answerable", f"the corpus answers it: {out.evidence[0][:80]!r}", checks)
            return Verdict(True, checks=checks)
        if not cited or not out.answer.strip():
            return Verdict(False, "not_answerable", "the judge found no passage sentence answering it", checks)
        needed = int(sample.metadata.get("needs_passages", 1))
        if len(sources) < needed:
            return Verdict(False, "single_passage", f"the judge answered it from passage {sorted(sources)} alone; "
                           f"{needed} passages should be needed", checks)
        reference = sample.reference_answer or ""
        vectors = await self.embeddings.aembed([out.answer, reference])
        agree, why = agreement(out.answer, reference, sample.question, float(vectors[0] @ vectors[1]))
        checks["agreement"] = why
        if not agree:
            return Verdict(False, "wrong_answer", f"the judge answers {out.answer[:60]!r} ({why})", checks)
        return Verdict(True, checks=checks)

    # -- near-duplicates ------------------------------------------------------------------------------

    def duplicate_of(self, question: str, compare_with: int | None = None) -> str | None:
        """Id of a kept sample (among the first ``compare_with``) whose question is a near-duplicate."""
        kept = self._kept[:compare_with] if compare_with is not None else self._kept
        if not kept:
            return None
        vector = self.embeddings.embed([question])[0]
        sims = np.stack(kept) @ vector
        best = int(np.argmax(sims))
        return self._kept_ids[best] if sims[best] >= self.duplicate_threshold else None

    def accept(self, sample: TestSample) -> None:
        """Remember a kept sample, so later near-duplicates of it are dropped."""
        self._kept.append(self.embeddings.embed([sample.question])[0])
        self._kept_ids.append(sample.id)

    # -- nearest chunks -------------------------------------------------------------------------------

    def nearest_chunks(self, text: str) -> list[str]:
        """Ids of the ``nearest_k`` graph chunks most similar to ``text``."""
        if self._chunk_matrix is None:
            chunks = self.kg.chunks()
            missing = [c.text for c in chunks if not c.embedding]
            computed = iter(self.embeddings.embed(missing)) if missing else iter(())
            rows = [np.asarray(c.embedding, dtype=np.float32) if c.embedding else next(computed) for c in chunks]
            self._chunk_ids = [c.id for c in chunks]
            self._chunk_matrix = np.stack(rows) if rows else np.zeros((0, 1), dtype=np.float32)
        if not self._chunk_ids:
            return []
        sims = self._chunk_matrix @ self.embeddings.embed([text])[0]
        order = np.argsort(-sims)[: self.nearest_k]
        return [self._chunk_ids[i] for i in order]
