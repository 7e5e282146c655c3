"""The graph build's per-item work, run by an executor (this process, or Ray actors across a cluster).

``ReadWork`` parses and chunks one file; ``EnrichWork`` enriches, summarises and embeds a batch of documents. Both
pickle small: a file sent to another process carries its bytes (the worker may not see the driver's disk), and the
enrichment work carries the judge's and the embedding model's recipes; the extractor is built once per worker by
``setup``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ragkit.errors import CorpusError
from ragkit.kg._chunking import chunk_document
from ragkit.kg._corpus import parse_file
from ragkit.kg._enrich import ChunkEnrichment, Extractor, FastExtractor
from ragkit.kg._graph import ChunkNode, DocumentNode, SkippedFile
from ragkit.kg._inputs import SourceFile
from ragkit.kg._limits import FileLimits
from ragkit.kg._reading import LLMExtractor, Reading
from ragkit.llm import Cache, Embeddings, Judge
from ragkit.settings import Settings
from ragkit.types import Chunk, Document, StageUsage

FAST_BATCH_CHUNKS = 64
"""Chunks per ``fast`` enrichment item: spaCy's batch; the ``llm`` extractor sends one document per item."""


def add_seconds(seconds: dict[str, float], more: dict[str, float]) -> None:
    for stage, s in more.items():
        seconds[stage] = round(seconds.get(stage, 0.0) + s, 3)


# -- read: parse and chunk one file ---------------------------------------------------------------------------

@dataclass
class ReadDone:
    document: Document | None
    """The parsed document, without its elements (its chunks carry the text); None when the file was skipped."""
    chunks: list[Chunk] = field(default_factory=list)
    skipped: SkippedFile | None = None
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class ReadWork:
    limits: FileLimits
    max_tokens: int
    min_tokens: int

    async def setup(self) -> None:
        return None

    async def __call__(self, item: SourceFile) -> ReadDone:
        started = time.perf_counter()
        try:
            doc = await asyncio.to_thread(self._parse, item)
        except CorpusError as exc:
            return ReadDone(None, skipped=SkippedFile(path=item.rel, reason=exc.reason))
        parsed = time.perf_counter()
        chunks = chunk_document(doc, max_tokens=self.max_tokens, min_tokens=self.min_tokens)
        return ReadDone(doc.model_copy(update={"elements": []}), chunks,
                        seconds={"parse": parsed - started, "chunk": time.perf_counter() - parsed})

    def _parse(self, item: SourceFile) -> Document:
        if item.data is None:
            return parse_file(item.path, root=item.root, limits=self.limits)
        with tempfile.TemporaryDirectory(prefix="ragkit-read-") as tmp:  # the parsers read from a path
            path = Path(tmp, item.rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(item.data)
            return parse_file(path, root=tmp, limits=self.limits)

    def report(self) -> Any:
        return None


# -- enrich, summarise and embed a batch of documents ---------------------------------------------------------

@dataclass
class EnrichDone:
    documents: list[DocumentNode]
    chunks: list[ChunkNode]
    readings: dict[str, list[Reading] | None]
    """The ``llm`` extractor's readings per document ([]: nothing was worth sending; None: the reading failed)."""
    failures: list[str]
    reused: int
    embeddings_computed: int
    seconds: dict[str, float]


class EnrichWork:
    """Enrich the chunks of a batch of documents (reusing ``reuse``: known results by chunk key), summarise the
    documents, embed the chunks and summaries. In this process it uses the build's extractor and embedding model;
    a copy elsewhere builds its own extractor, and its embedding model from the recipe."""

    def __init__(self, kind: Literal["llm", "fast"], judge: Judge | None, embeddings: Embeddings,
                 part_tokens: int | None, reuse: dict[str, ChunkEnrichment], engine: Extractor | None = None) -> None:
        self.kind, self.judge, self.embeddings, self.part_tokens = kind, judge, embeddings, part_tokens
        self.reuse = reuse
        self.engine = engine
        self._lock: asyncio.Lock | None = None
        self._before = StageUsage()

    def __reduce__(self) -> tuple[Any, ...]:
        return EnrichWork, (self.kind, self.judge, self.embeddings, self.part_tokens, self.reuse)

    async def setup(self) -> None:
        if self.engine is None:
            self.engine = make_extractor(self.kind, self.judge, self.embeddings.settings, self.part_tokens)
        self._lock = asyncio.Lock()
        if self.judge is not None:
            self._before = self.judge.usage.stage("kg.enrich").model_copy()

    async def __call__(self, batch: list[tuple[DocumentNode, list[ChunkNode]]]) -> EnrichDone:
        if self.engine is None or self._lock is None:
            raise RuntimeError("EnrichWork.setup() was not awaited")
        seconds: dict[str, float] = {}
        chunks = [c for _, group in batch for c in group]
        started = time.perf_counter()
        report = await self.engine.enrich_chunks(chunks, reuse=self.reuse)
        readings = {doc.id: self.engine.readings(doc.id) for doc, _ in batch} \
            if isinstance(self.engine, LLMExtractor) else {}
        summarised = time.perf_counter()
        await asyncio.gather(*(self.engine.summarise(doc, group, report) for doc, group in batch))
        embedded = time.perf_counter()
        computed = await self._embed([doc for doc, _ in batch], chunks)
        add_seconds(seconds, {"enrich": summarised - started, "summarise": embedded - summarised,
                              "embed": time.perf_counter() - embedded})
        return EnrichDone([doc for doc, _ in batch], chunks, readings, report.failures, report.reused, computed,
                          seconds)

    async def _embed(self, docs: list[DocumentNode], chunks: list[ChunkNode]) -> int:
        """Embed the chunks and the document summaries, one batch at a time per worker; returns how many vectors
        were computed (not cached)."""
        summarised = [d for d in docs if d.summary]
        texts = [c.text for c in chunks] + [d.summary for d in summarised if d.summary]
        if not texts or self._lock is None:
            return 0
        async with self._lock:
            before = self.embeddings.computed
            vectors: Any = await asyncio.to_thread(self.embeddings.embed, texts)
            computed = self.embeddings.computed - before
        for c, v in zip(chunks, vectors[: len(chunks)], strict=True):
            c.embedding = v.tolist()
        for d, v in zip(summarised, vectors[len(chunks):], strict=True):
            d.summary_embedding = v.tolist()
        return computed

    def report(self) -> dict[str, Any]:
        """This worker's LLM usage since setup."""
        usage = self.judge.usage.stage("kg.enrich").since(self._before) if self.judge is not None else StageUsage()
        return {"usage": usage}


def make_extractor(kind: str, judge: Judge | None, settings: Settings, part_tokens: int | None) -> Extractor:
    if kind == "llm":
        judge = judge or Judge(settings=settings)
        return LLMExtractor(judge, judge.cache, part_tokens)
    return FastExtractor(Cache(settings.llm_cache_path) if settings.cache else None)


def batches(groups: list[tuple[DocumentNode, list[ChunkNode]]], kind: str) -> list[list[tuple[DocumentNode,
                                                                                                list[ChunkNode]]]]:
    """Documents in enrichment items: one each for ``llm``; for ``fast``, whole documents packed up to
    ``FAST_BATCH_CHUNKS`` chunks (spaCy's batch)."""
    if kind == "llm":
        return [[g] for g in groups]
    out: list[list[tuple[DocumentNode, list[ChunkNode]]]] = []
    size = 0
    for g in groups:
        if not out or size + len(g[1]) > FAST_BATCH_CHUNKS:
            out.append([])
            size = 0
        out[-1].append(g)
        size += len(g[1])
    return out
