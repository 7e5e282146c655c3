"""Chunk and document enrichment: entities, keyphrases and a one-sentence summary per chunk; summary and themes
per document. Two extractors: ``llm`` (the Judge, several chunks per call) and ``fast`` (``ragkit.kg._nlp``, no LLM).

Every chunk result is cached by content hash (extractor signature, language, text); a chunk whose text did not
change costs nothing on a rebuild. One failed LLM batch is recorded and leaves its chunks unenriched; the rest
goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationError, conlist, create_model

from ragkit._memory import release_freed_memory
from ragkit.errors import JudgeError, JudgeUnavailableError
from ragkit.kg._chunking import pack_greedy
from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention
from ragkit.kg._nlp import FAST_VERSION, fast_facts, themes_from
from ragkit.llm import Cache, Judge, Prompt, content_key
from ragkit.text import count_tokens, language_name

PROMPT_VERSION = "v1"
BATCH_SIZE = 4
"""Chunks per LLM call for API models, where each call pays for the instruction and schema again."""
LOCAL_BATCH_SIZE = 1
"""Chunks per call for the embedded ``local/`` models: llama.cpp reuses the shared instruction prefix between
calls anyway, and the 1.5B model mixed up passages in batches of four (facts of one passage filed under another)."""
BATCH_TOKENS = 1400
PASSAGE_CHARS = 2400
MAX_SECTION_SUMMARIES = 16

Short = Annotated[str, StringConstraints(max_length=60)]
EntityType = Literal["person", "organization", "product", "place", "event", "work", "other"]


class EntityOut(BaseModel):
    name: str = Field(max_length=80, description="the name as written in the passage, without titles like Dr.")
    type: EntityType


class ChunkFacts(BaseModel):
    summary: str = Field(max_length=320, description="one sentence in your own words, at most 25 words")
    entities: list[EntityOut] = Field(default_factory=list, max_length=6)
    keyphrases: list[Short] = Field(default_factory=list, max_length=4)


class PassageBatch(BaseModel):
    language: str
    passages: list[str]


class Passage(BaseModel):
    language: str
    passage: str


class DocumentInput(BaseModel):
    title: str
    language: str
    section_summaries: list[str]


class DocumentFacts(BaseModel):
    summary: str = Field(max_length=500, description="two or three sentences, at most 60 words")
    themes: list[Annotated[str, StringConstraints(max_length=50)]] = Field(default_factory=list, max_length=5)


_FACT_FIELDS = """\
- summary: one sentence in your own words (at most 25 words) saying what the passage states;
- entities: up to 6 named things the passage mentions: people, organisations, products, places, events, \
titled works or other proper names. Copy each name as written, without titles such as Dr. or Mr. Use type \
"person", "organization", "product", "place", "event", "work" or "other". Never list dates, numbers, amounts \
or common nouns;
- keyphrases: up to 4 short phrases (one to four words) naming the passage's main topics.
Write the summary and the keyphrases in the language named under "language"."""
"""What to extract from a passage: shared by the batch and the one-passage instructions."""

_FACTS_INSTRUCTION = f"""\
You index passages of a document collection. For EACH numbered passage, in order, return one item with:
{_FACT_FIELDS} Return exactly one item per passage and nothing else. Use only facts from the passage."""

_FACT_INSTRUCTION = f"""\
You index one passage of a document collection. Return:
{_FACT_FIELDS} Use only facts from the passage."""

_DOC_INSTRUCTION = """\
You are given the title of a document and one-sentence summaries of its sections, in order. Write:
- summary: two or three sentences (at most 60 words) saying what the whole document covers;
- themes: up to 5 short noun phrases naming its main themes.
Write both in the language named under "language". Use only facts from the summaries."""

DOCUMENT_PROMPT: Prompt[DocumentInput, DocumentFacts] = Prompt(
    name="kg.document_summary", instruction=_DOC_INSTRUCTION, input=DocumentInput, output=DocumentFacts,
    max_tokens=220,
)


SINGLE_PROMPT: Prompt[Passage, ChunkFacts] = Prompt(
    name="kg.chunk_facts", instruction=_FACT_INSTRUCTION, input=Passage, output=ChunkFacts, max_tokens=220,
)


@lru_cache(maxsize=16)
def facts_prompt(n: int) -> Prompt[PassageBatch, Any]:
    """The chunk-facts prompt for a batch of ``n`` passages: the schema asks for exactly ``n`` items."""
    output = create_model(f"ChunkFactsBatch{n}", items=(conlist(ChunkFacts, min_length=n, max_length=n), ...))
    return Prompt(name="kg.chunk_facts", instruction=_FACTS_INSTRUCTION, input=PassageBatch, output=output,
                  max_tokens=170 * n + 60)


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


def _one_line(exc: BaseException) -> str:
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


class LLMExtractor(Extractor):
    """The Judge, ``BATCH_SIZE`` chunks of one language per call; one call per multi-chunk document."""

    def __init__(self, judge: Judge, cache: Cache | None, batch_size: int | None = None) -> None:
        super().__init__(cache)
        self.judge = judge
        self.model = judge.model
        self.signature = f"llm:{judge.model}:{PROMPT_VERSION}"
        local = judge.model.startswith("local/")
        self.batch_size = batch_size or (LOCAL_BATCH_SIZE if local else BATCH_SIZE)
        # the embedded model runs one call at a time anyway; sending them one by one keeps calls of one prompt
        # back to back (llama.cpp prefix reuse) and keeps queued calls from waiting inside the Judge
        self.parallel = 1 if local else max(1, judge.settings.concurrency)
        self._gate: asyncio.Semaphore | None = None

    def _limit(self) -> asyncio.Semaphore:
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.parallel)
        return self._gate

    def batches(self, chunks: list[ChunkNode]) -> list[list[ChunkNode]]:
        """Consecutive chunks of one language, at most ``batch_size`` and about ``BATCH_TOKENS`` per batch."""
        by_language: dict[str, list[ChunkNode]] = {}
        for c in chunks:
            by_language.setdefault(c.language, []).append(c)
        out: list[list[ChunkNode]] = []
        for group in by_language.values():
            out += pack_greedy(group, lambda c: min(c.tokens or count_tokens(c.text), PASSAGE_CHARS // 3),
                               BATCH_TOKENS, max_items=self.batch_size)
        return out

    @staticmethod
    def passage(chunk: ChunkNode) -> str:
        text = chunk.text if len(chunk.text) <= PASSAGE_CHARS else chunk.text[:PASSAGE_CHARS] + " …"
        section = " > ".join(chunk.heading_path[-3:])
        return f"(section: {section})\n{text}" if section and not text.startswith(chunk.heading_path[-1]) else text

    async def _extract(self, chunks: list[ChunkNode], report: EnrichReport,
                       advance: Callable[[int], None] | None) -> dict[str, ChunkEnrichment]:
        out: dict[str, ChunkEnrichment] = {}

        async def run(batch: list[ChunkNode]) -> None:
            language = language_name(batch[0].language)
            try:
                async with self._limit():
                    items = await self._ask(batch, language)
            except JudgeUnavailableError:
                raise  # the model cannot be reached or loaded at all: every other call would fail the same way
            except JudgeError as exc:
                where = ", ".join(f"{c.source} #{c.index}" for c in batch)
                report.failures.append(f"chunks {where}: {type(exc).__name__}: {_one_line(exc)}")
            else:
                for c, item in zip(batch, items, strict=True):
                    out[c.id] = ChunkEnrichment(
                        summary=" ".join(item.summary.split()).rstrip(" ,;:-") or None,
                        entities=[EntityMention(name=" ".join(e.name.split()), type=e.type) for e in item.entities
                                  if e.name.strip()],
                        keyphrases=[" ".join(k.split()) for k in item.keyphrases if k.strip()],
                    )
            if advance:
                advance(len(batch))

        with self.judge.stage("kg.enrich"):
            await asyncio.gather(*(run(b) for b in self.batches(chunks)))
        return out

    async def _ask(self, batch: list[ChunkNode], language: str) -> list[ChunkFacts]:
        if len(batch) == 1:
            return [await self.judge.structured(SINGLE_PROMPT, Passage(language=language,
                                                                       passage=self.passage(batch[0])))]
        data = PassageBatch(language=language, passages=[self.passage(c) for c in batch])
        reply = await self.judge.structured(facts_prompt(len(batch)), data)
        return list(reply.items)

    async def summarise(self, doc: DocumentNode, chunks: list[ChunkNode], report: EnrichReport) -> None:
        summaries = [c.summary for c in chunks if c.summary]
        if len(summaries) <= 1:  # nothing to condense: the chunk's own facts describe the document
            doc.summary = summaries[0] if summaries else None
            doc.themes = themes_from([c.keyphrases for c in chunks])
            doc.enrichment = self.signature if summaries else None
            return
        if len(summaries) > MAX_SECTION_SUMMARIES:
            step = len(summaries) / MAX_SECTION_SUMMARIES
            summaries = [summaries[int(i * step)] for i in range(MAX_SECTION_SUMMARIES)]
        data = DocumentInput(title=doc.title or doc.path, language=language_name(doc.language),
                             section_summaries=summaries)
        try:
            with self.judge.stage("kg.enrich"):
                async with self._limit():
                    facts = await self.judge.structured(DOCUMENT_PROMPT, data)
        except JudgeUnavailableError:
            raise
        except JudgeError as exc:
            report.failures.append(f"document {doc.path}: {type(exc).__name__}: {_one_line(exc)}")
            return
        doc.summary = " ".join(facts.summary.split()) or None
        doc.themes = [" ".join(t.split()) for t in facts.themes if t.strip()]
        doc.enrichment = self.signature


def reuse_map(chunks: list[ChunkNode], extractor: Extractor) -> dict[str, ChunkEnrichment]:
    """Known results from a previous graph's chunks that the same extractor filled."""
    return {
        extractor.key(c): ChunkEnrichment(summary=c.summary, entities=c.entities, keyphrases=c.keyphrases)
        for c in chunks if c.enrichment == extractor.signature
    }

