"""Corpus → knowledge graph: parse, chunk, enrich, embed, relate. Incremental when given the previous graph.

A document whose content hash, chunking settings, extractor and embedding model are unchanged keeps its nodes
untouched (zero LLM calls). A changed document is re-chunked; its chunks whose text did not change keep their
enrichment (from the previous graph or the enrichment cache), the others are enriched again. Deleted documents
are removed, and relations are recomputed only for the chunks that were added or lost a partner.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragkit._progress import Progress
from ragkit._sync import run_sync
from ragkit.errors import ConfigError, CorpusError
from ragkit.kg._chunking import DEFAULT_MAX_TOKENS, DEFAULT_MIN_TOKENS, chunk_document
from ragkit.kg._corpus import ParseResult, document_id, load_chunks_jsonl, parse_file, parse_folder
from ragkit.kg._enrich import Extractor, FastExtractor, reuse_map
from ragkit.kg._graph import ChunkNode, DocumentNode, KnowledgeGraph, SkippedFile
from ragkit.kg._limits import DEFAULT_MAX_BYTES, DEFAULT_MAX_PAGES, FileLimits
from ragkit.kg._reading import LLMExtractor
from ragkit.kg._relations import RelationConfig, link_mentions, link_next, refresh_entities, relate
from ragkit.llm import Cache, Embeddings, Judge, content_key
from ragkit.settings import Settings
from ragkit.types import Chunk, Document, StageUsage

STAGES = ("parse", "chunk", "enrich", "summarise", "embed", "relate")


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
        seconds[stage] = round(seconds.get(stage, 0.0) + time.perf_counter() - started, 3)


def _parse(sources: list[Path], include: list[str] | None, exclude: list[str] | None, limits: FileLimits,
           advance: Any) -> tuple[ParseResult, str]:
    """Parse files and folders; paths are relative to one common base folder so ids stay unique and stable."""
    resolved = [p.resolve() for p in sources]
    for p in resolved:
        if not p.exists():
            raise CorpusError(p, "no such file or folder")
    if len(resolved) == 1 and resolved[0].is_dir():
        return parse_folder(resolved[0], include=include, exclude=exclude, limits=limits,
                            on_file=lambda _: advance()), str(resolved[0])
    base = Path(os.path.commonpath([p if p.is_dir() else p.parent for p in resolved]))
    result = ParseResult()
    for p in resolved:
        if p.is_dir():
            part = parse_folder(p, include=include, exclude=exclude, limits=limits, on_file=lambda _: advance())
            prefix = p.relative_to(base)
            for d in part.documents:
                d.path = (prefix / d.path).as_posix()
                d.id = document_id(d.path)
            result.documents += part.documents
            result.skipped += [SkippedFile(path=(prefix / s.path).as_posix(), reason=s.reason) for s in part.skipped]
        else:
            advance()
            try:
                result.documents.append(parse_file(p, root=base, limits=limits))
            except CorpusError as exc:
                result.skipped.append(SkippedFile(path=p.relative_to(base).as_posix(), reason=exc.reason))
    return result, str(base)


def _prechunked(path: Path, skipped: list[SkippedFile]) -> tuple[list[Document], dict[str, list[Chunk]]]:
    """Documents (one per ``doc_id``) and their chunks from a JSONL of chunks, kept as given."""
    chunks = load_chunks_jsonl(path, skipped=skipped)
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    docs = []
    for doc_id, group in by_doc.items():
        languages = Counter(c.language for c in group)
        docs.append(Document(id=doc_id, path=group[0].source or doc_id, format="chunks",
                             content_hash=content_key("prechunked", [(c.id, c.text) for c in group]),
                             language=languages.most_common(1)[0][0], title=group[0].source or doc_id))
    return docs, by_doc


def _settings_key(extractor: Extractor, embeddings: Embeddings, max_tokens: int, min_tokens: int) -> dict[str, Any]:
    return {"extractor": extractor.signature, "embeddings": embeddings.name,
            "chunking": {"max_tokens": max_tokens, "min_tokens": min_tokens}}


def _reusable(previous: KnowledgeGraph, doc: Document, same_settings: bool, signature: str) -> bool:
    old = previous.get(doc.id)
    if not same_settings or not isinstance(old, DocumentNode) or old.content_hash != doc.content_hash:
        return False
    chunks = previous.chunks_of(doc.id)
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
    embeddings: Embeddings
    bar: Progress
    summary: BuildSummary
    kg: KnowledgeGraph = field(default_factory=KnowledgeGraph)
    root: str = ""
    documents: list[Document] = field(default_factory=list)
    prechunked: dict[str, list[Chunk]] = field(default_factory=dict)
    settings_key: dict[str, Any] = field(default_factory=dict)
    todo: list[Document] = field(default_factory=list)
    old_docs: set[str] = field(default_factory=set)
    old_chunks: dict[str, ChunkNode] = field(default_factory=dict)
    affected: set[str] = field(default_factory=set)
    stale_entities: set[str] = field(default_factory=set)
    new_chunks: dict[str, list[ChunkNode]] = field(default_factory=dict)
    doc_nodes: dict[str, DocumentNode] = field(default_factory=dict)

    @property
    def fresh(self) -> list[ChunkNode]:
        return [c for group in self.new_chunks.values() for c in group]


async def build_graph(
    source: Path | list[Path],
    options: BuildOptions | None = None,
    *,
    previous: KnowledgeGraph | None = None,
    judge: Judge | None = None,
    embeddings: Embeddings | None = None,
) -> BuildResult:
    """Build (or update, given ``previous``) the knowledge graph of ``source`` files / folders.

    Steps: read (parse files, add pre-chunked input), find what changed since ``previous``, chunk, enrich chunks
    and summarise documents, embed, then assemble and relate. LLM usage is accounted under the Judge stage
    ``kg.enrich``.

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
    engine, judge = _engine(options, judge, summary, embeddings.settings)
    before = judge.usage.stage("kg.enrich").model_copy() if judge is not None else None
    calls = (lambda: judge.usage.stage("kg.enrich").calls) if judge is not None else None
    with Progress(options.progress, calls=calls) as bar:
        b = _Build(options, previous, engine, embeddings, bar, summary)
        with _timed(summary.seconds, "parse"):
            _read(b, [Path(s) for s in sources])
        _plan_changes(b)
        with _timed(summary.seconds, "chunk"):
            _chunk(b)
        await _enrich(b)
        with _timed(summary.seconds, "embed"):
            await _embed(b)
        with _timed(summary.seconds, "relate"):
            _assemble(b)
    _finish(b, judge, before)
    return BuildResult(kg=b.kg, summary=summary)


def _engine(options: BuildOptions, judge: Judge | None, summary: BuildSummary,
            settings: Settings) -> tuple[Extractor, Judge | None]:
    if options.extractor == "llm":
        judge = judge or Judge()
        summary.model = judge.model
        return LLMExtractor(judge, judge.cache, options.part_tokens), judge
    # the caller's settings (--cache-dir): Settings.load() here read only the environment
    return FastExtractor(Cache(settings.llm_cache_path) if settings.cache else None), judge


def _read(b: _Build, sources: list[Path]) -> None:
    """1. Parse the files, add pre-chunked input; refuse skipped files in strict mode and colliding ids."""
    o = b.options
    limits = FileLimits(o.max_bytes, o.max_pages)
    parsed, b.root = _parse(sources, o.include, o.exclude, limits, b.bar.task("parse", 0)) if sources \
        else (ParseResult(), "")
    b.documents = list(parsed.documents)
    skipped = list(parsed.skipped)
    if o.chunks_jsonl is not None:
        docs, b.prechunked = _prechunked(Path(o.chunks_jsonl), skipped)
        b.documents += docs
    b.summary.skipped = skipped
    if o.strict and skipped:
        listing = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
        more = f" (and {len(skipped) - 5} more)" if len(skipped) > 5 else ""
        raise CorpusError(skipped[0].path, f"strict mode: {len(skipped)} file(s) skipped: {listing}{more}")
    seen_ids = Counter(d.id for d in b.documents)
    if any(n > 1 for n in seen_ids.values()):
        raise CorpusError(b.root or "corpus", "two inputs map to one document id; pass distinct folders")


def _plan_changes(b: _Build) -> None:
    """2. Keep unchanged documents of ``previous``; remove changed and deleted ones, noting what they touched."""
    o, previous = b.options, b.previous
    b.settings_key = _settings_key(b.engine, b.embeddings, o.max_tokens, o.min_tokens)
    same_settings = previous is not None and \
        {k: previous.info.last_build.get(k) for k in b.settings_key} == b.settings_key
    b.kg = _copy(previous) if previous is not None else KnowledgeGraph()
    b.old_docs = {d.id for d in b.kg.documents()}
    reused = {d.id for d in b.documents if previous is not None and _reusable(previous, d, same_settings,
                                                                               b.engine.signature)}
    b.todo = [d for d in b.documents if d.id not in reused]
    removed_docs = b.old_docs - {d.id for d in b.documents}
    b.summary.documents = ItemCounts(reused=len(reused), added=sum(d.id not in b.old_docs for d in b.todo),
                                     changed=sum(d.id in b.old_docs for d in b.todo), removed=len(removed_docs))
    b.old_chunks = {c.id: c for c in b.kg.chunks()}
    for doc_id in removed_docs | {d.id for d in b.todo if d.id in b.old_docs}:
        for c in b.kg.chunks_of(doc_id):
            b.affected |= {n for n, _ in b.kg.neighbours(c.id, "shares_entity")}
            b.affected |= {n for n, _ in b.kg.neighbours(c.id, "similar")}
            b.stale_entities |= {e.id for e in b.kg.entities_of(c.id)}
        b.kg.remove_document(doc_id)


def _chunk(b: _Build) -> None:
    """3. Chunk the new and changed documents (pre-chunked ones keep their chunks)."""
    advance = b.bar.task("chunk", len(b.todo))
    for d in b.todo:
        chunks = b.prechunked.get(d.id) if d.format == "chunks" else None
        chunks = chunks or chunk_document(d, max_tokens=b.options.max_tokens, min_tokens=b.options.min_tokens)
        b.new_chunks[d.id] = [ChunkNode(**c.model_dump()) for c in chunks]
        advance()
    fresh, old_chunks = b.fresh, b.old_chunks
    kept = {c.id for c in b.kg.chunks()}
    b.summary.chunks = ItemCounts(
        reused=len(kept), removed=len(set(old_chunks) - kept - {c.id for c in fresh}),
        added=sum(len(b.new_chunks[d.id]) for d in b.todo if d.id not in b.old_docs),
        changed=sum(1 for d in b.todo if d.id in b.old_docs for c in b.new_chunks[d.id] if c.id not in old_chunks),
    )
    b.summary.chunks.reused += sum(1 for c in fresh if c.id in old_chunks)


async def _enrich(b: _Build) -> None:
    """4. Enrich the new chunks (reusing earlier enrichment of identical text); 5. summarise the documents."""
    fresh = b.fresh
    with _timed(b.summary.seconds, "enrich"):
        known = reuse_map(list(b.old_chunks.values()), b.engine)
        report = await b.engine.enrich_chunks(fresh, reuse=known, advance=b.bar.task("enrich", len(fresh)))
    b.summary.enrichment_reused = report.reused
    b.doc_nodes = {d.id: DocumentNode(id=d.id, path=d.path, format=d.format, content_hash=d.content_hash,
                                      language=d.language, title=d.title, metadata=d.metadata) for d in b.todo}
    with _timed(b.summary.seconds, "summarise"):
        advance = b.bar.task("summarise", len(b.todo))

        async def summarise(doc_id: str) -> None:
            await b.engine.summarise(b.doc_nodes[doc_id], b.new_chunks[doc_id], report)
            advance()

        await asyncio.gather(*(summarise(d.id) for d in b.todo))
    b.summary.failures = report.failures


async def _embed(b: _Build) -> None:
    """6. Embed the new chunks and the document summaries, in one batch."""
    fresh = b.fresh
    summarised = [n for n in b.doc_nodes.values() if n.summary]
    texts = [c.text for c in fresh] + [n.summary for n in summarised if n.summary]
    advance = b.bar.task("embed", len(texts))
    computed, shown = b.embeddings.computed, [0]

    def progress(done: int) -> None:  # the embedder counts what it computed; the bar steps by the difference
        advance(done - shown[0])
        shown[0] = done

    vectors: Any = await asyncio.to_thread(b.embeddings.embed, texts, progress=progress) if texts else []
    advance(len(texts) - shown[0])  # the cached ones
    b.summary.embeddings_computed = b.embeddings.computed - computed
    for c, v in zip(fresh, vectors[: len(fresh)], strict=False):
        c.embedding = v.tolist()
    for n, v in zip(summarised, vectors[len(fresh):], strict=False):
        n.summary_embedding = v.tolist()


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
