"""The quality critic: every candidate sample passes it before the runner keeps it.

Checks, cheapest first (the LLM check runs only when every other check passed):

1. ``invalid_sample``: empty question or answer, or reference contexts without a graph chunk id.
2. ``wrong_language``: the question or answer is not in the language of its source chunks.
3. ``copies_context``: the question copies a sentence (or most of itself) verbatim from a context.
4. ``near_duplicate``: the question is close (embedding cosine) to a question already kept.
5. ``not_answerable`` / ``unsupported_answer``: one LLM call; the judge must cite the sentence of the contexts that
   answers the question, and say whether every fact of the reference answer is stated there. For samples that
   must not be answerable (``metadata["answerable"] is False``), the contexts are the reference contexts plus the
   graph's chunks nearest to the question, and the drop reason is ``answerable``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from .embeddings import Embeddings
from .graph import KnowledgeGraph
from .llm import Judge
from .prompts import Prompt
from .scenarios import language_matches, quote_source, tokens
from .types import TestSample

_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*|\n+")


def copies_context(question: str, contexts: list[str], *, min_tokens: int = 8, share: float = 0.7) -> bool:
    """True when the question contains a whole context sentence of ``min_tokens`` or more, or when a run of
    at least ``min_tokens`` tokens copied from a context makes up ``share`` of the question."""
    q = tokens(question)
    if len(q) < min_tokens:
        return False
    q_text = " ".join(q)
    for context in contexts:
        c = tokens(context)
        match = difflib.SequenceMatcher(None, q, c, autojunk=False).find_longest_match(0, len(q), 0, len(c))
        if match.size >= min_tokens and match.size >= share * len(q):
            return True
        for sentence in _SENTENCE_END.split(context):
            s = tokens(sentence)
            if len(s) >= min_tokens and f" {' '.join(s)} " in f" {q_text} ":
                return True
    return False


class CriticInput(BaseModel):
    passages: list[str]
    question: str
    proposed_answer: str


class CriticOutput(BaseModel):
    evidence: str = Field(max_length=300)
    """The sentence of the passages that answers the question, copied exactly; empty when there is none."""
    question_answerable: bool
    answer_supported: bool


CRITIC_PROMPT = Prompt(
    name="generate.critic",
    instruction=(
        "You check a question and a proposed answer against numbered passages.\n"
        "1. evidence: copy exactly the sentence or table row of the passages that answers the question. If the "
        "passages do not contain the answer, write an empty string.\n"
        "2. question_answerable: true only if the passages state the information the question asks for.\n"
        "3. answer_supported: true only if every fact in the proposed answer is stated in the passages.\n"
        "Judge only from the passages, not from your own knowledge."
    ),
    input=CriticInput,
    output=CriticOutput,
    max_tokens=300,
)


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
        supporting = [r.text for r in sample.reference_contexts if not r.distractor]
        if copies_context(sample.question, supporting):
            return Verdict(False, "copies_context", f"the question copies the context: {sample.question[:80]!r}")
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
        out = await self.judge.structured(
            CRITIC_PROMPT,
            CriticInput(passages=passages, question=sample.question, proposed_answer=sample.reference_answer or ""),
        )
        cited = bool(out.evidence.strip()) and quote_source(out.evidence, passages) is not None
        answerable = out.question_answerable and cited
        checks = {"evidence": out.evidence, "answerable": answerable, "answer_supported": out.answer_supported}
        if not answerable_expected:
            if answerable:
                return Verdict(False, "answerable", f"the corpus answers it: {out.evidence[:80]!r}", checks)
            return Verdict(True, checks=checks)
        if not answerable:
            return Verdict(False, "not_answerable", "the judge found no passage sentence answering it", checks)
        if not out.answer_supported:
            return Verdict(False, "unsupported_answer", "the reference answer says more than the contexts", checks)
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
