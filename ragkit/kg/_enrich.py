"""Chunk and document enrichment: entities, keyphrases and a one-sentence summary per chunk; summary and themes
per document. The extractor interface and the ``fast`` extractor (``ragkit.kg._nlp``, no LLM); the ``llm`` one, which
reads each document in one call, is ``ragkit.kg._reading``.

A ``fast`` chunk result is cached by content hash (extractor signature, language, text), so a chunk whose text did
not change costs nothing on a rebuild.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, Field, ValidationError

from ragkit._memory import release_freed_memory
from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention
from ragkit.kg._nlp import FAST_VERSION, fast_facts, themes_from
from ragkit.llm import Cache, content_key


class ChunkEnrichment(BaseModel):
    """What an extractor found in one chunk (the cached value)."""

    summary: str | None = None
    entities: list[EntityMention] = Field(default_factory=list)
    keyphrases: list[str] = Field(default_factory=list)


@dataclass
class EnrichReport:
    reused: int = 0
    """Chunks whose enrichment came from the previous graph or the cache (no extraction)."""
    computed: int = 0
    failures: list[str] = field(default_factory=list)


def _apply(chunk: ChunkNode, facts: ChunkEnrichment, signature: str) -> None:
    chunk.summary, chunk.entities, chunk.keyphrases = facts.summary, facts.entities, facts.keyphrases
    chunk.enrichment = signature


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


class Extractor:
    """Shared logic: cache lookups, then ``_extract`` on what is left."""

    signature: str = ""
    model: str | None = None
    """The model whose replies are cached (None: no model, the ``fast`` extractor)."""

    def __init__(self, cache: Cache | None) -> None:
        self.cache = cache

    def key(self, chunk: ChunkNode) -> str:
        return content_key("kg.chunk", self.signature, chunk.language, chunk.text)

    async def enrich_chunks(
        self, chunks: list[ChunkNode], *, reuse: dict[str, ChunkEnrichment] | None = None,
        advance: Callable[[int], None] | None = None,
    ) -> EnrichReport:
        """Fill summary / entities / keyphrases of ``chunks`` in place; ``reuse`` maps cache keys to known results."""
        report = EnrichReport()
        keys = {c.id: self.key(c) for c in chunks}
        known = dict(reuse or {})
        missing = [k for k in set(keys.values()) if k not in known]
        if self.cache is not None and missing:
            for k, blob in self.cache.get_many("kg.enrich", missing).items():
                try:
                    known[k] = ChunkEnrichment.model_validate_json(blob)
                except ValidationError:
                    continue
        todo = []
        for c in chunks:
            if keys[c.id] in known:
                _apply(c, known[keys[c.id]], self.signature)
                report.reused += 1
            else:
                todo.append(c)
        if advance and report.reused:
            advance(report.reused)
        done = await self._extract(todo, report, advance)
        by_id = {c.id: c for c in todo}
        for cid, facts in done.items():
            _apply(by_id[cid], facts, self.signature)
        report.computed = len(done)
        if self.cache is not None and done:
            blobs = {keys[cid]: facts.model_dump_json().encode() for cid, facts in done.items()}
            self.cache.put_many("kg.enrich", blobs, model=self.model)
        return report

    async def _extract(self, chunks: list[ChunkNode], report: EnrichReport,
                       advance: Callable[[int], None] | None) -> dict[str, ChunkEnrichment]:
        raise NotImplementedError

    async def summarise(self, doc: DocumentNode, chunks: list[ChunkNode], report: EnrichReport) -> None:
        raise NotImplementedError


class FastExtractor(Extractor):
    """No LLM: spaCy / jieba / RAKE (see ``ragkit.kg._nlp``)."""

    signature = FAST_VERSION

    async def _extract(self, chunks: list[ChunkNode], report: EnrichReport,
                       advance: Callable[[int], None] | None) -> dict[str, ChunkEnrichment]:
        out: dict[str, ChunkEnrichment] = {}
        for i in range(0, len(chunks), 64):
            part = chunks[i : i + 64]
            facts = await asyncio.to_thread(fast_facts, [c.text for c in part], [c.language for c in part])
            release_freed_memory()  # the batch's spaCy documents are freed: give the pages back
            for c, (summary, entities, keyphrases) in zip(part, facts, strict=True):
                out[c.id] = ChunkEnrichment(summary=summary, entities=entities, keyphrases=keyphrases)
            if advance:
                advance(len(part))
        return out

    async def summarise(self, doc: DocumentNode, chunks: list[ChunkNode], report: EnrichReport) -> None:
        summaries = [c.summary for c in chunks if c.summary]
        text = " ".join(summaries[:2])
        doc.summary = (text[:497] + "…" if len(text) > 500 else text) or None
        doc.themes = themes_from([c.keyphrases for c in chunks])
        doc.enrichment = self.signature


def reuse_map(chunks: list[ChunkNode], extractor: Extractor) -> dict[str, ChunkEnrichment]:
    """Known results from a previous graph's chunks that the same extractor filled."""
    return {
        extractor.key(c): ChunkEnrichment(summary=c.summary, entities=c.entities, keyphrases=c.keyphrases)
        for c in chunks if c.enrichment == extractor.signature
    }

