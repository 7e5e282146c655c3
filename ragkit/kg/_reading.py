"""The ``llm`` extractor: the judge reads each document once.

One call per document (per part of about ``PART_TOKENS`` or ``MAX_SECTIONS`` chunks for a long one) returns the
document's summary, its topics and, section by section, the named entities it mentions. Chunk-level facts follow
without further calls:

- a chunk's entities are the document's entities whose name occurs in the chunk's text (matched on normalised
  tokens, or as a substring in CJK scripts), then the ``fast`` extractor's (spaCy's NER; jieba for Chinese). A
  name that occurs nowhere in the document is dropped as unsupported. Each source finds names the other misses:
  on corpora/acme the reading alone found 66% of the hand-labelled names, spaCy alone 75%, both 91%
  (bench/README.md);
- a chunk's keyphrases are the topics found in it, then the ``fast`` extractor's own (spaCy / jieba / RAKE);
- a chunk's summary is the ``fast`` extractor's key sentence: a one-sentence LLM paraphrase per chunk cost one
  call per chunk and nothing downstream reads it but the document summary, which the call now writes itself.

Generating the reply is most of a reading's time, so it is kept short: each entity is one string, "Porto Plant
(place)", at most ``MAX_SECTION_ENTITIES`` a section, and the summary is one or two sentences cut by the grammar
at ``SUMMARY_CHARS`` (bench/README.md, "The `llm` graph build, session 19").

Chunks under ``MIN_TOKENS`` (headings, stray lines) are not sent. A document read in several parts gets one more
call that condenses the parts' summaries. A failed call leaves that document's chunks with the ``fast`` facts and
is recorded; the next build retries it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints, WithJsonSchema, conlist, create_model

from ragkit.errors import JudgeError, JudgeUnavailableError
from ragkit.kg._chunking import pack_greedy
from ragkit.kg._enrich import EnrichReport, Extractor, FastExtractor, one_line
from ragkit.kg._entities import ENTITY_TYPES, entity_key, mentioned_in
from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention
from ragkit.kg._nlp import themes_from
from ragkit.llm import Cache, Judge, Prompt
from ragkit.text import count_tokens, language_name, whole_sentences

PROMPT_VERSION = "v3"
PART_TOKENS = 3000
"""Passage tokens per call: a document up to this size is read in one call. The embedded model's context (8,192)
holds it with the instruction and the reply; a smaller budget means more calls and more summaries to condense."""
MIN_TOKENS = 8
PASSAGE_CHARS = 2400
MAX_KEYPHRASES = 4
SUMMARY_CHARS = 280
"""The reading's summary is cut here by the grammar: the model writes past any word count it is given, and only
persona planning reads the summary (cut back to its last whole sentence, ``whole_sentences``)."""
MAX_SECTIONS = 12
"""Most sections (chunks) per call: the reply lists entities per section, so this bounds its length."""
MAX_SECTION_ENTITIES = 5
MAX_SECTION_SUMMARIES = 16
"""Most part summaries condensed into one document summary (evenly spread over a longer document)."""

Topic = Annotated[str, StringConstraints(max_length=60)]


NAME_CHARS = 48
"""Longest name a reading may list (the longest of corpora/acme's hand-labelled names has 26 characters): a 1.5B
model that loses its way writes on inside a string, and this bounds it."""
# no brackets, braces, quotes or heading marks in a name: that is how the lost ones go on; no named groups (the grammar)
_NAME = r'[^()\"\n{}\[\]<>|]{1,' + str(NAME_CHARS) + "}"
_NAMED = re.compile(f"({_NAME}) \\((" + "|".join(ENTITY_TYPES) + ")\\)")
_NAME_ONLY = re.compile(_NAME)
_TYPED = re.compile(f"({_NAME}) \\(([^()]{{1,20}})\\)")  # read leniently: any word in the brackets
NamedThing = Annotated[str, WithJsonSchema({"type": "string", "pattern": f"^{_NAMED.pattern}$"})]
"""A name and its type in one string, "Porto Plant (place)": fewer generated tokens than a {"name", "type"}
object. The pattern binds the embedded model through its grammar; a model that is only shown it is read
leniently (``named_thing``), so that one untyped name does not cost the whole reply a re-ask."""


def named_thing(item: str) -> EntityMention | None:
    """The entity of one ``NamedThing`` item: a name without its type is of type "other"; None for a blank one or
    one that is not a name (too long, or holding brackets, braces, quotes or heading marks)."""
    item = item.strip()
    if match := _TYPED.fullmatch(item):
        name, kind = match[1], match[2].strip().lower()
        kind = kind if kind in ENTITY_TYPES else "other"
    elif _NAME_ONLY.fullmatch(item):
        name, kind = item, "other"
    else:
        return None
    return EntityMention(name=" ".join(name.split()), type=kind) if name.strip() else None


class SectionEntities(BaseModel):
    entities: list[NamedThing] = Field(default_factory=list, max_length=MAX_SECTION_ENTITIES)


class DocumentText(BaseModel):
    title: str
    language: str
    sections: list[str]


class SectionSummaries(BaseModel):
    title: str
    language: str
    section_summaries: list[str]


class DocumentFacts(BaseModel):
    summary: str = Field(max_length=500, description="two or three sentences, at most 60 words")
    themes: list[Annotated[str, StringConstraints(max_length=50)]] = Field(default_factory=list, max_length=5)


_READ_INSTRUCTION = """\
You index one document of a collection (or one part of a long document), given as numbered sections. Return:
- summary: one or two sentences in your own words (at most 40 words) saying what the document covers;
- topics: up to 6 short phrases (one to four words) naming its main topics, worded as in the text;
- sections: one item per numbered section, in order, each listing up to 5 named things that section mentions: \
people, organisations, products, places, events, titled works or other proper names. Write each as its name \
copied exactly as written (without titles such as Dr. or Mr.), a space and its type in brackets: "(person)", \
"(organization)", "(product)", "(place)", "(event)", "(work)" or "(other)", as in "Ada Lovelace (person)" or \
"Analytical Engine (product)". Never list dates, numbers, amounts, job titles or common nouns.
Write the summary and the topics in the language named under "language". Use only facts from the text."""

_CONDENSE_INSTRUCTION = """\
You are given the title of a document and summaries of its parts, in order. Write:
- summary: two or three sentences (at most 60 words) saying what the whole document covers;
- themes: up to 5 short noun phrases naming its main themes.
Write both in the language named under "language". Use only facts from the summaries."""

CONDENSE_PROMPT: Prompt[SectionSummaries, DocumentFacts] = Prompt(
    name="kg.document_summary", instruction=_CONDENSE_INSTRUCTION, input=SectionSummaries, output=DocumentFacts,
    max_tokens=220,
)


@lru_cache(maxsize=MAX_SECTIONS)
def reading_prompt(n: int) -> Prompt[DocumentText, Any]:
    """The read-a-document prompt for ``n`` sections: the schema asks for exactly ``n`` entity lists.

    Which list a name lands in does not matter (names are matched to chunks by their text): listing per section
    makes the small model go through every section, where one list for the whole text named a third as many."""
    output = create_model(
        f"DocumentReading{n}",
        summary=(str, Field(max_length=SUMMARY_CHARS, description="one or two sentences, at most 40 words")),
        topics=(list[Topic], Field(default_factory=list, max_length=6)),
        sections=(conlist(SectionEntities, min_length=n, max_length=n), ...),
    )
    return Prompt(name="kg.read_document", instruction=_READ_INSTRUCTION, input=DocumentText, output=output,
                  max_tokens=2 * SUMMARY_CHARS + 60 + (8 + 24 * MAX_SECTION_ENTITIES) * n)  # Hangul: 1-3 tokens each


def passage(chunk: ChunkNode) -> str:
    """A chunk as the model sees it: its section heading (when the text does not start with it), then the text."""
    text = chunk.text if len(chunk.text) <= PASSAGE_CHARS else chunk.text[:PASSAGE_CHARS] + " …"
    section = " > ".join(chunk.heading_path[-3:])
    return f"[{section}]\n{text}" if section and not text.startswith(chunk.heading_path[-1]) else text


def _tokens(chunk: ChunkNode) -> int:
    return min(chunk.tokens or count_tokens(chunk.text), PASSAGE_CHARS // 3)


def _keyphrases(chunk: ChunkNode, topics: list[str]) -> list[str]:
    found = [t for t in topics if mentioned_in(t, chunk.text)]
    seen: set[str] = set()
    out: list[str] = []
    for phrase in [*found, *chunk.keyphrases]:
        if phrase.lower() not in seen:
            seen.add(phrase.lower())
            out.append(phrase)
    return out[:MAX_KEYPHRASES]


def _fill(chunks: list[ChunkNode], readings: list[Reading], signature: str, *, topics: bool = True) -> None:
    """Chunk entities and keyphrases from ``readings``: the names and topics each chunk's text mentions, then the
    ``fast`` extractor's own (already on the chunk)."""
    names = [e for r in readings for e in r.entities]
    found = [t for r in readings for t in r.topics] if topics else []
    for c in chunks:
        mentioned = [e for e in names if mentioned_in(e.name, c.text)]
        keys = {entity_key(e.name) for e in mentioned}
        c.entities = list({e.name.lower(): e for e in mentioned}.values()) + [
            e for e in c.entities if entity_key(e.name) not in keys]
        c.keyphrases = _keyphrases(c, found)
        c.enrichment = signature


class Reading(BaseModel):
    """What one call found in one part of a document."""

    summary: str
    topics: list[str]
    entities: list[EntityMention]


class LLMExtractor(Extractor):
    """One judge call per document (per part of a long one); chunk facts by matching, plus the ``fast`` facts."""

    def __init__(self, judge: Judge, cache: Cache | None, part_tokens: int | None = None) -> None:
        super().__init__(cache)
        self.judge = judge
        self.model = judge.model
        self.signature = f"llm:{judge.model}:{PROMPT_VERSION}"
        self.part_tokens = part_tokens or PART_TOKENS
        self.fast = FastExtractor(cache)
        # the embedded model runs one call at a time anyway; sending them one by one keeps calls of one prompt
        # back to back (llama.cpp prefix reuse) and keeps queued calls from waiting inside the Judge
        self.parallel = 1 if judge.is_local else max(1, judge.settings.concurrency)
        self._gate: asyncio.Semaphore | None = None
        self._readings: dict[str, list[Reading]] = {}

    def _limit(self) -> asyncio.Semaphore:
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.parallel)
        return self._gate

    def parts(self, chunks: list[ChunkNode]) -> list[list[ChunkNode]]:
        """A document's chunks worth sending, in order, in parts of about ``part_tokens``."""
        sent = [c for c in chunks if (c.tokens or count_tokens(c.text)) >= MIN_TOKENS]
        return pack_greedy(sent, _tokens, self.part_tokens, max_items=MAX_SECTIONS)

    async def enrich_chunks(
        self, chunks: list[ChunkNode], *, reuse: dict[str, Any] | None = None,
        advance: Callable[[int], None] | None = None,
    ) -> EnrichReport:
        """Fill the chunks of each document from one reading of it. ``reuse`` is not used: an unchanged document
        is kept whole by the build, and a changed one is read again (its entities span its chunks)."""
        report = EnrichReport()
        await self.fast.enrich_chunks(chunks)
        by_doc: dict[str, list[ChunkNode]] = {}
        for c in chunks:
            by_doc.setdefault(c.doc_id, []).append(c)

        async def read(doc_chunks: list[ChunkNode]) -> None:
            if await self._read(doc_chunks, report, advance or (lambda n: None)):
                report.computed += len(doc_chunks)

        with self.judge.stage("kg.enrich"):
            await asyncio.gather(*(read(group) for group in by_doc.values()))
        # a document too short to send (a one-line FAQ entry) gets the names the others' readings found in it
        read_all = [r for doc_id in by_doc for r in self._readings.get(doc_id) or []]
        self.fill_unread([g for doc_id, g in by_doc.items() if self._readings.get(doc_id) == []], read_all)
        return report

    async def _read(self, chunks: list[ChunkNode], report: EnrichReport, advance: Callable[[int], None]) -> bool:
        """Read one document; False (chunks left with the ``fast`` facts) when a call failed."""
        readings: list[Reading] = []
        parts = self.parts(chunks)
        advance(len(chunks) - sum(map(len, parts)))  # the chunks too short to send
        for part in parts:
            data = DocumentText(title=chunks[0].heading_path[0] if chunks[0].heading_path else chunks[0].source,
                                language=language_name(part[0].language), sections=[passage(c) for c in part])
            try:
                async with self._limit():
                    reply = await self.judge.structured(reading_prompt(len(part)), data)
            except JudgeUnavailableError:
                raise  # the model cannot be reached or loaded at all: every other call would fail the same way
            except JudgeError as exc:
                report.failures.append(f"document {chunks[0].source}: {type(exc).__name__}: {one_line(exc)}")
                advance(sum(map(len, parts[len(readings):])))
                return False
            advance(len(part))
            readings.append(Reading(
                summary=whole_sentences(reply.summary),
                topics=[" ".join(t.split()) for t in reply.topics if t.strip()],
                entities=[e for section in reply.sections for item in section.entities if (e := named_thing(item))],
            ))
        self._readings[chunks[0].doc_id] = readings
        _fill(chunks, readings, self.signature)
        return True

    def readings(self, doc_id: str) -> list[Reading] | None:
        """What the reading of a document found: one per part; [] when no chunk was worth sending; None when it
        failed or was not read (until ``summarise`` takes it)."""
        return self._readings.get(doc_id)

    def fill_unread(self, groups: list[list[ChunkNode]], readings: list[Reading]) -> None:
        """Give the chunks of documents too short to send the names ``readings`` (all the others') found in them."""
        for group in groups:
            _fill(group, readings, self.signature, topics=False)

    async def summarise(self, doc: DocumentNode, chunks: list[ChunkNode], report: EnrichReport) -> None:
        readings = self._readings.pop(doc.id, None)
        if not readings:  # None: the reading failed (recorded); []: no chunk was worth sending
            await self.fast.summarise(doc, chunks, report)
            doc.enrichment = self.signature if readings == [] else None
            return
        # the first part's reading stands for the document until (unless) the condensed one replaces it
        doc.summary = readings[0].summary or None
        doc.themes = readings[0].topics[:5] or themes_from([c.keyphrases for c in chunks])
        if len(readings) == 1:
            doc.enrichment = self.signature
            return
        await self._condense(doc, [r.summary for r in readings if r.summary], report)

    async def _condense(self, doc: DocumentNode, summaries: list[str], report: EnrichReport) -> None:
        if len(summaries) > MAX_SECTION_SUMMARIES:
            step = len(summaries) / MAX_SECTION_SUMMARIES
            summaries = [summaries[int(i * step)] for i in range(MAX_SECTION_SUMMARIES)]
        data = SectionSummaries(title=doc.title or doc.path, language=language_name(doc.language),
                                section_summaries=summaries)
        try:
            with self.judge.stage("kg.enrich"):
                async with self._limit():
                    facts = await self.judge.structured(CONDENSE_PROMPT, data)
        except JudgeUnavailableError:
            raise
        except JudgeError as exc:
            report.failures.append(f"document {doc.path}: {type(exc).__name__}: {one_line(exc)}")
            return
        doc.summary = " ".join(facts.summary.split()) or None
        doc.themes = [" ".join(t.split()) for t in facts.themes if t.strip()]
        doc.enrichment = self.signature
