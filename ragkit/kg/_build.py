"""Corpus → knowledge graph: parse, chunk, enrich, embed, relate. Incremental when given the previous graph.

A document whose content hash, chunking settings, extractor and embedding model are unchanged keeps its nodes
untouched (zero LLM calls). A changed document is re-chunked; its chunks whose text did not change keep their
enrichment (from the previous graph or the enrichment cache), the others are enriched again. Deleted documents
are removed, and relations are recomputed only for the chunks that were added or lost a partner.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragkit._progress import Progress
from ragkit._sync import run_sync
from ragkit.errors import ConfigError, CorpusError
from ragkit.executors import Executor, LocalExecutor
from ragkit.kg._chunking import DEFAULT_MAX_TOKENS, DEFAULT_MIN_TOKENS
from ragkit.kg._corpus import document_id
from ragkit.kg._enrich import Extractor, reuse_map
from ragkit.kg._graph import ChunkNode, DocumentNode, KnowledgeGraph, SkippedFile
from ragkit.kg._inputs import SourceFile, list_files, prechunked
from ragkit.kg._limits import DEFAULT_MAX_BYTES, DEFAULT_MAX_PAGES, FileLimits
from ragkit.kg._reading import LLMExtractor
from ragkit.kg._relations import RelationConfig, link_mentions, link_next, refresh_entities, relate
from ragkit.kg._work import EnrichDone, EnrichWork, ReadDone, ReadWork, add_seconds, batches, make_extractor
from ragkit.llm import Embeddings, Judge
from ragkit.types import Chunk, Document, StageUsage


class ItemCounts(BaseModel):
    """What happened to documents or chunks in one build.

    For documents, ``changed`` also counts unchanged files whose enrichment was redone (another extractor or
    model, an earlier failure, new chunking settings). For chunks, ``added`` are chunks of new documents and
    ``changed`` new chunks of changed documents; ``reused`` chunks kept their node untouched."""

    reused: int = 0
    added: int = 0
    changed: int = 0
    removed: int = 0


class BuildSummary(BaseModel):
    """The facts of one build, shown by ``ragkit kg build`` and kept in ``kg.info.last_build``."""

    documents: ItemCounts = Field(default_factory=ItemCounts)
    chunks: ItemCounts = Field(default_factory=ItemCounts)
    entities: int = 0
    edges: dict[str, int] = Field(default_factory=dict)
    skipped: list[SkippedFile] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)
    """Enrichment failures (one line each); those chunks / documents have no enrichment."""
    extractor: str = ""
    model: str | None = None
    llm_calls: int = 0
    llm_cache_hits: int = 0
    llm_failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    enrichment_reused: int = 0
    """New chunk nodes whose enrichment came from the previous graph or the cache, not from the extractor."""
    embeddings_computed: int = 0
    seconds: dict[str, float] = Field(default_factory=dict)


@dataclass
class BuildResult:
    kg: KnowledgeGraph
    summary: BuildSummary


@contextmanager
def _timed(seconds: dict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        add_seconds(seconds, {stage: time.perf_counter() - started})


def _settings_key(extractor: Extractor, embeddings: Embeddings, max_tokens: int, min_tokens: int) -> dict[str, Any]:
    return {"extractor": extractor.signature, "embeddings": embeddings.name,
            "chunking": {"max_tokens": max_tokens, "min_tokens": min_tokens}}


def _reusable(previous: KnowledgeGraph, doc_id: str, content_hash: str, same_settings: bool, signature: str) -> bool:
    old = previous.get(doc_id)
    if not same_settings or not isinstance(old, DocumentNode) or old.content_hash != content_hash:
        return False
    chunks = previous.chunks_of(doc_id)
    return bool(chunks) and all(c.enrichment == signature and c.embedding is not None for c in chunks) and \
        (old.enrichment == signature or len(chunks) == 1)


def _copy(previous: KnowledgeGraph) -> KnowledgeGraph:
    kg = KnowledgeGraph()
    kg.g = previous.g.copy()  # node payloads are shared; the build replaces nodes, it never edits them in place
    kg.info = previous.info.model_copy(deep=True)
    return kg


class BuildOptions(BaseModel):
    """How a graph is built: what is read, how it is chunked, enriched and related. The CLI builds one from its
    flags; every field has the default a plain ``build_graph(folder)`` uses."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    extractor: Literal["llm", "fast"] = "llm"
    """``llm``: entities, keyphrases and summaries from the judge; ``fast``: spaCy and statistics, no LLM."""
    include: list[str] | None = None
    """Glob patterns of files to read (default: every supported file)."""
    exclude: list[str] | None = None
    chunks_jsonl: Path | None = None
    """Pre-chunked input, added as given (never re-split)."""
    strict: bool = False
    """A skipped file is an error, raised before any LLM call."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """Largest file read, on disk and, for DOCX / PPTX / EPUB, inflated."""
    max_pages: int = DEFAULT_MAX_PAGES
    """Largest PDF read, in pages."""
    max_tokens: int = DEFAULT_MAX_TOKENS
    min_tokens: int = DEFAULT_MIN_TOKENS
    part_tokens: int | None = None
    """``llm`` extractor: passage tokens per call. A document up to this size is read in one call, a longer one in
    parts (default ``ragkit.kg._reading.PART_TOKENS``, 3,000)."""
    relations: RelationConfig | None = None
    progress: bool = True


@dataclass
class _Build:
    """The state of one build, passed from step to step."""

    options: BuildOptions
    previous: KnowledgeGraph | None
    engine: Extractor
    judge: Judge | None
    embeddings: Embeddings
    executor: Executor
    bar: Progress
    summary: BuildSummary
    kg: KnowledgeGraph = field(default_factory=KnowledgeGraph)
    root: str = ""
    files: dict[str, SourceFile] = field(default_factory=dict)
    """Document id → its file."""
    inputs: dict[str, str] = field(default_factory=dict)
    """Document id → content hash, for every input in order (files, then pre-chunked documents)."""
    prechunked: dict[str, tuple[Document, list[Chunk]]] = field(default_factory=dict)
    settings_key: dict[str, Any] = field(default_factory=dict)
    todo_ids: list[str] = field(default_factory=list)
    """The inputs to read: new and changed documents, in input order."""
    todo: list[Document] = field(default_factory=list)
    """Those that were read (parsed, or pre-chunked)."""
    old_docs: set[str] = field(default_factory=set)
    old_chunks: dict[str, ChunkNode] = field(default_factory=dict)
    affected: set[str] = field(default_factory=set)
    stale_entities: set[str] = field(default_factory=set)
    new_chunks: dict[str, list[ChunkNode]] = field(default_factory=dict)
    doc_nodes: dict[str, DocumentNode] = field(default_factory=dict)

    @property
    def fresh(self) -> list[ChunkNode]:
        return [c for d in self.todo for c in self.new_chunks[d.id]]


async def build_graph(
    source: Path | list[Path],
    options: BuildOptions | None = None,
    *,
    previous: KnowledgeGraph | None = None,
    judge: Judge | None = None,
    embeddings: Embeddings | None = None,
    executor: Executor | None = None,
) -> BuildResult:
    """Build (or update, given ``previous``) the knowledge graph of ``source`` files / folders.

    Steps: list and hash the inputs, find what changed since ``previous``, parse and chunk the changed files,
    enrich, summarise and embed their documents, then assemble and relate. Parsing and enrichment run on
    ``executor`` (default: this process; a Ray executor spreads files and documents over actors); relating runs
    here. LLM usage is accounted under the Judge stage ``kg.enrich``.

    Examples:
        >>> result = await build_graph(Path("docs"), BuildOptions(extractor="fast"))
        >>> result.kg.counts(), result.summary.skipped
    """
    options = options or BuildOptions()
    if options.extractor not in ("llm", "fast"):
        raise ConfigError(f"unknown extractor '{options.extractor}'; use 'llm' or 'fast'")
    sources = [source] if isinstance(source, str | Path) else list(source)
    embeddings = embeddings or Embeddings()
    summary = BuildSummary(extractor=options.extractor)
    if options.extractor == "llm":
        judge = judge or Judge()
        summary.model = judge.model
    engine = make_extractor(options.extractor, judge, embeddings.settings, options.part_tokens)
    before = judge.usage.stage("kg.enrich").model_copy() if judge is not None else None
    calls = (lambda: judge.usage.stage("kg.enrich").calls) if judge is not None else None
    with Progress(options.progress, calls=calls) as bar:
        b = _Build(options, previous, engine, judge if options.extractor == "llm" else None, embeddings,
                   executor or LocalExecutor(), bar, summary)
        _inputs(b, [Path(s) for s in sources])
        _plan_changes(b)
        await _read(b)
        await _enrich(b)
        with _timed(summary.seconds, "relate"):
            _assemble(b)
    _finish(b, judge, before)
    return BuildResult(kg=b.kg, summary=summary)


def _inputs(b: _Build, sources: list[Path]) -> None:
    """1. List and hash the files, read pre-chunked input; refuse colliding ids."""
    o = b.options
    skipped: list[SkippedFile] = []
    with _timed(b.summary.seconds, "list"):
        files, b.root = list_files(sources, o.include, o.exclude, FileLimits(o.max_bytes, o.max_pages), skipped) \
            if sources else ([], "")
    ids = [document_id(f.rel) for f in files]
    b.files = dict(zip(ids, files, strict=True))
    if o.chunks_jsonl is not None:
        docs, chunks = prechunked(Path(o.chunks_jsonl), skipped)
        b.prechunked = {d.id: (d, chunks[d.id]) for d in docs}
        ids += list(b.prechunked)
    b.summary.skipped = skipped
    b.inputs = {i: b.files[i].content_hash if i in b.files else b.prechunked[i][0].content_hash for i in ids}
    if len(b.inputs) < len(ids):
        raise CorpusError(b.root or "corpus", "two inputs map to one document id; pass distinct folders")


def _plan_changes(b: _Build) -> None:
    """2. Keep unchanged documents of ``previous``; remove changed and deleted ones, noting what they touched."""
    o, previous = b.options, b.previous
    b.settings_key = _settings_key(b.engine, b.embeddings, o.max_tokens, o.min_tokens)
    same_settings = previous is not None and \
        {k: previous.info.last_build.get(k) for k in b.settings_key} == b.settings_key
    b.kg = _copy(previous) if previous is not None else KnowledgeGraph()
    b.old_docs = {d.id for d in b.kg.documents()}
    reused = {i for i, digest in b.inputs.items()
              if previous is not None and _reusable(previous, i, digest, same_settings, b.engine.signature)}
    b.summary.documents.reused = len(reused)
    b.old_chunks = {c.id: c for c in b.kg.chunks()}
    for doc_id in b.old_docs - reused:
        for c in b.kg.chunks_of(doc_id):
            b.affected |= {n for n, _ in b.kg.neighbours(c.id, "shares_entity")}
            b.affected |= {n for n, _ in b.kg.neighbours(c.id, "similar")}
            b.stale_entities |= {e.id for e in b.kg.entities_of(c.id)}
        b.kg.remove_document(doc_id)
    b.todo_ids = [i for i in b.inputs if i not in reused]


async def _read(b: _Build) -> None:
    """3. Parse and chunk the new and changed files (pre-chunked documents keep their chunks); refuse skipped files
    in strict mode, before any LLM call."""
    ids = [i for i in b.todo_ids if i in b.files]
    items = [b.files[i] for i in ids]
    if b.executor.remote:  # the worker may not see this machine's disk: the bytes go along, read as each is sent
        items = [dataclasses.replace(f, send_bytes=True) for f in items]
    advance = b.bar.task("parse", len(items))
    read: dict[str, ReadDone] = {}

    def done(i: int, result: ReadDone) -> None:
        read[ids[i]] = result
        advance()

    o = b.options
    await b.executor.map(ReadWork(FileLimits(o.max_bytes, o.max_pages), o.max_tokens, o.min_tokens), items,
                         on_result=done, concurrency=1)
    for i in b.todo_ids:
        r = read.get(i)
        doc, chunks = (r.document, r.chunks) if r is not None else b.prechunked[i]
        if r is not None:
            b.summary.skipped += [r.skipped] if r.skipped else []
            add_seconds(b.summary.seconds, r.seconds)
        if doc is not None:
            b.todo.append(doc)
            b.new_chunks[doc.id] = [ChunkNode(**c.model_dump()) for c in chunks]
    _refuse_skipped(b)
    _count(b)


def _refuse_skipped(b: _Build) -> None:
    skipped = b.summary.skipped
    if b.options.strict and skipped:
        listing = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
        more = f" (and {len(skipped) - 5} more)" if len(skipped) > 5 else ""
        raise CorpusError(skipped[0].path, f"strict mode: {len(skipped)} file(s) skipped: {listing}{more}")


def _count(b: _Build) -> None:
    """What happened to documents and chunks."""
    kept_docs = {d.id for d in b.todo} | {d.id for d in b.kg.documents()}
    b.summary.documents = ItemCounts(
        reused=b.summary.documents.reused, added=sum(d.id not in b.old_docs for d in b.todo),
        changed=sum(d.id in b.old_docs for d in b.todo), removed=len(b.old_docs - kept_docs))
    fresh, old_chunks = b.fresh, b.old_chunks
    kept = {c.id for c in b.kg.chunks()}
    b.summary.chunks = ItemCounts(
        reused=len(kept) + sum(1 for c in fresh if c.id in old_chunks),
        removed=len(set(old_chunks) - kept - {c.id for c in fresh}),
        added=sum(len(b.new_chunks[d.id]) for d in b.todo if d.id not in b.old_docs),
        changed=sum(1 for d in b.todo if d.id in b.old_docs for c in b.new_chunks[d.id] if c.id not in old_chunks),
    )


async def _enrich(b: _Build) -> None:
    """4. Enrich the new chunks (reusing earlier enrichment of identical text), summarise their documents and
    embed both, a batch of documents per work item."""
    b.doc_nodes = {d.id: DocumentNode(id=d.id, path=d.path, format=d.format, content_hash=d.content_hash,
                                      language=d.language, title=d.title, metadata=d.metadata) for d in b.todo}
    wanted = {b.engine.key(c) for c in b.fresh}
    known = {k: v for k, v in reuse_map(list(b.old_chunks.values()), b.engine).items() if k in wanted}
    work = EnrichWork(b.options.extractor, b.judge, b.embeddings, b.options.part_tokens, known, engine=b.engine)
    items = batches([(b.doc_nodes[d.id], b.new_chunks[d.id]) for d in b.todo], b.options.extractor)
    advance = b.bar.task("enrich", len(b.todo))
    results: list[EnrichDone | None] = [None] * len(items)

    def done(i: int, result: EnrichDone) -> None:
        results[i] = result
        advance(len(result.documents))

    settings = b.judge.settings if b.judge is not None else b.embeddings.settings
    reports = await b.executor.map(work, items, on_result=done, concurrency=settings.concurrency)
    _collect(b, [r for r in results if r is not None])
    if b.executor.remote and b.judge is not None:  # the workers' calls, counted in this judge (the summary's)
        for report in reports:
            b.judge.usage.stage("kg.enrich").add(report["usage"])


def _collect(b: _Build, results: list[EnrichDone]) -> None:
    """The enriched documents and chunks (copies, from another process) in place of the sent ones; the
    ``llm`` extractor's short documents get the names the other readings found in them."""
    readings: dict[str, Any] = {}
    for r in results:
        for doc in r.documents:
            b.doc_nodes[doc.id] = doc
            b.new_chunks[doc.id] = [c for c in r.chunks if c.doc_id == doc.id]
        readings.update(r.readings)
        b.summary.failures += r.failures
        b.summary.enrichment_reused += r.reused
        b.summary.embeddings_computed += r.embeddings_computed
        add_seconds(b.summary.seconds, r.seconds)
    if isinstance(b.engine, LLMExtractor):
        found = [reading for d in b.todo for reading in readings.get(d.id) or []]
        b.engine.fill_unread([b.new_chunks[d.id] for d in b.todo if readings.get(d.id) == []], found)


def _assemble(b: _Build) -> None:
    """7. Add the new nodes and edges, then relate: incrementally around what changed, or all over."""
    kg, fresh = b.kg, b.fresh
    advance = b.bar.task("relate", 3)
    for d in b.todo:
        kg.add(b.doc_nodes[d.id])
        for c in b.new_chunks[d.id]:
            kg.add(c)
            kg.add_edge(d.id, c.id, "has_chunk")
        link_next(kg, d.id)
    touched = link_mentions(kg, fresh)
    refresh_entities(kg, b.stale_entities - touched)
    advance()
    affected = (b.affected & {c.id for c in kg.chunks()}) | {c.id for c in fresh}
    full = b.previous is None or len(affected) > 0.3 * max(1, len(kg.chunks()))
    relate(kg, b.options.relations, None if full else affected, clear=b.previous is not None)
    advance(2)


def _finish(b: _Build, judge: Judge | None, before: StageUsage | None) -> None:
    """8. Counts, LLM usage and build facts into the summary and ``kg.info``."""
    summary, kg = b.summary, b.kg
    counts = kg.counts()
    summary.entities = counts["nodes"].get("entity", 0)
    summary.edges = counts["edges"]
    if judge is not None and before is not None:
        after = judge.usage.stage("kg.enrich")
        summary.llm_calls = after.calls - before.calls
        summary.llm_cache_hits = after.cache_hits - before.cache_hits
        summary.llm_failures = after.failures - before.failures
        summary.prompt_tokens = after.prompt_tokens - before.prompt_tokens
        summary.completion_tokens = after.completion_tokens - before.completion_tokens
    kg.info.corpus_root = b.root or kg.info.corpus_root
    kg.info.extractor = b.options.extractor
    kg.info.model = summary.model
    kg.info.embeddings = b.embeddings.name
    kg.info.skipped = summary.skipped
    kg.info.last_build = {**b.settings_key, "summary": summary.model_dump(mode="json")}


def build_graph_sync(source: Path | list[Path], options: BuildOptions | None = None, **kwargs: Any) -> BuildResult:
    """``build_graph`` for synchronous callers (scripts, notebooks)."""
    return run_sync(build_graph(source, options, **kwargs))
