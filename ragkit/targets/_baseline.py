"""The built-in baseline RAG: BM25 or embedding retrieval over the graph's chunks, answered by the Judge.

It makes ``ragkit benchmark DOCS --target baseline`` runnable out of the box, and gives a reference point to
compare a real system against. Retrieved contexts carry their chunk ids and source files, so id-based retrieval
metrics work on it.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from typing import Any, Literal

import numpy as np

from ragkit.errors import JudgeError
from ragkit.targets._protocol import TargetSpec
from ragkit.text import QUESTION_MARKS, detect_language, language_matches, search_terms
from ragkit.types import ContextRef, RagResponse, TestSample

MAX_CONTEXT_CHARS = 2000


class BM25:
    """Okapi BM25 over a fixed list of texts (k1 = 1.5, b = 0.75, idf = ln(1 + (N - df + .5) / (df + .5)))."""

    def __init__(self, texts: list[str], *, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(search_terms(t)) for t in texts]
        self.lengths = np.array([sum(d.values()) for d in self.docs], dtype=np.float64)
        self.avg_len = float(self.lengths.mean()) if len(self.docs) else 0.0
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, d in enumerate(self.docs):
            for t, f in d.items():
                self.postings.setdefault(t, []).append((i, f))

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.docs), dtype=np.float64)
        if not self.docs or self.avg_len == 0:
            return out
        for term in set(search_terms(query)):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for i, f in self.postings[term]:
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg_len)
                out[i] += idf * f * (self.k1 + 1) / (f + norm)
        return out

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        s = self.scores(query)
        order = np.argsort(-s, kind="stable")[:k]
        return [(int(i), float(s[i])) for i in order if s[i] > 0]


ANSWER_INSTRUCTION = (
    "You answer questions about a company's documents. Use only the numbered contexts below; never use outside "
    "knowledge. If the contexts do not contain the answer, reply in one sentence that the documents do not say, "
    "and do not guess. Answer in the same language as the question, in one to three sentences."
)


REWRITE_INSTRUCTION = (
    "Rewrite the user's last message as one question that someone who has not read the conversation understands: "
    "put in the names that its pronouns and short phrases stand for. Keep its language and meaning. Reply with "
    "the question only."
)


def rewrite_messages(sample: TestSample) -> list[dict[str, str]]:
    """The prompt that turns a follow-up into a question that stands alone, for retrieval."""
    said = sample.transcript(question=False)
    return [
        {"role": "system", "content": REWRITE_INSTRUCTION},
        {"role": "user", "content": f"Conversation:\n{said}\n\nLast message: {sample.question.strip()}"},
    ]


def usable_rewrite(question: str, rewrite: str) -> bool:
    """Whether a follow-up's rewrite can be searched with in its place. A small model asked to rewrite a Chinese,
    Japanese or Korean follow-up often returns it unchanged, answers it instead, or writes it in English; the
    earlier messages with the question then find more than the rewrite does (bench/README.md, "Conversations")."""
    text, asked = rewrite.strip(), question.strip()
    if not text or text == asked:
        return False
    if not language_matches(detect_language(asked), text):
        return False
    return not asked.endswith(QUESTION_MARKS) or text.endswith(QUESTION_MARKS)


def answer_messages(question: str, contexts: list[ContextRef],
                    history: list[dict[str, str]] | None = None) -> list[dict[str, str]]:
    """The baseline's chat prompt: a short instruction, the conversation so far (if any), the contexts, the
    question."""
    blocks = []
    for i, c in enumerate(contexts, 1):
        text = c.text if len(c.text) <= MAX_CONTEXT_CHARS else c.text[:MAX_CONTEXT_CHARS] + " ..."
        blocks.append(f"[{i}] ({c.source or 'unknown source'})\n{text.strip()}")
    body = "\n\n".join(blocks) if blocks else "(no contexts were found)"
    return [
        {"role": "system", "content": ANSWER_INSTRUCTION},
        *(history or []),
        {"role": "user", "content": f"Contexts:\n\n{body}\n\nQuestion: {question.strip()}"},
    ]


class BaselineRag:
    """Retrieve ``top_k`` chunks of the knowledge graph (BM25 or embeddings), then answer with the Judge."""

    def __init__(
        self,
        kg: Any,
        judge: Any,
        *,
        top_k: int = 4,
        retrieval: Literal["bm25", "embedding"] = "bm25",
        embeddings: Any = None,
        max_tokens: int = 200,
    ) -> None:
        self.kg, self.judge, self.top_k, self.retrieval = kg, judge, top_k, retrieval
        self.max_tokens = max_tokens
        self.chunks = sorted(kg.chunks(), key=lambda c: (c.source, c.doc_id, c.index))
        self.embeddings = embeddings
        self._bm25: BM25 | None = None
        self._matrix: np.ndarray | None = None
        if retrieval == "embedding" and embeddings is None:
            raise ValueError("embedding retrieval needs an Embeddings instance")
        self.spec = TargetSpec(kind="baseline", name=f"baseline ({retrieval}, top {top_k})",
                               args={"retrieval": retrieval, "top_k": top_k, "model": getattr(judge, "model", None)})

    async def retrieve(self, question: str) -> list[ContextRef]:
        if not self.chunks:
            return []
        if self.retrieval == "bm25":
            if self._bm25 is None:
                self._bm25 = BM25([" ".join([*c.heading_path, c.text]) for c in self.chunks])
            hits = [i for i, _ in self._bm25.top(question, self.top_k)]
        else:
            if self._matrix is None:
                have = [c.embedding for c in self.chunks]
                if all(v is not None for v in have) and len({len(v) for v in have}) == 1:
                    self._matrix = np.asarray(have, dtype=np.float32)
                else:
                    self._matrix = await self.embeddings.aembed([c.text for c in self.chunks])
            q = (await self.embeddings.aembed([question]))[0]
            if q.shape[0] != self._matrix.shape[1]:  # graph embedded by another model
                self._matrix = await self.embeddings.aembed([c.text for c in self.chunks])
            sims = self._matrix @ q
            hits = [int(i) for i in np.argsort(-sims, kind="stable")[: self.top_k]]
        return [ContextRef(chunk_id=self.chunks[i].id, text=self.chunks[i].text, source=self.chunks[i].source)
                for i in hits]

    async def search_query(self, sample: TestSample) -> str:
        """What to retrieve with: the question, or for a follow-up turn the question rewritten from the
        conversation (when the rewrite fails or is not usable, the earlier user messages and the question
        together)."""
        if not sample.history:
            return sample.question
        with self.judge.stage("target"):
            try:
                text: str = await self.judge.text(rewrite_messages(sample), name="baseline_rewrite", max_tokens=80)
            except JudgeError as exc:
                if exc.fatal:
                    raise
                text = ""
        if usable_rewrite(sample.question, text):
            return text.strip()
        return " ".join([*(t.question for t in sample.history), sample.question])

    async def answer(self, sample: TestSample) -> RagResponse:
        started = time.perf_counter()
        history = sample.messages()[:-1]
        query = await self.search_query(sample)
        contexts = await self.retrieve(query)
        try:
            with self.judge.stage("target"):
                text = await self.judge.text(answer_messages(sample.question, contexts, history),
                                             name="baseline_answer", max_tokens=self.max_tokens)
        except JudgeError as exc:
            if exc.fatal:
                raise  # the baseline's model cannot be used: every question would fail the same way
            return RagResponse(retrieved_contexts=contexts, latency_s=time.perf_counter() - started,
                               error=f"baseline answer failed: {exc}")
        metadata = {"search_query": query} if query != sample.question else {}
        return RagResponse(answer=text.strip(), retrieved_contexts=contexts, metadata=metadata,
                           latency_s=time.perf_counter() - started)
