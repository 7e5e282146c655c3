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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ragkit.errors import ConfigError, CorpusError
from ragkit.kg._chunking import DEFAULT_MAX_TOKENS, DEFAULT_MIN_TOKENS, chunk_document
from ragkit.kg._corpus import DEFAULT_MAX_BYTES, ParseResult, document_id, load_chunks_jsonl, parse_file, parse_folder
from ragkit.kg._enrich import EnrichReport, Extractor, FastExtractor, LLMExtractor, reuse_map
from ragkit.kg._graph import ChunkNode, DocumentNode, KnowledgeGraph, SkippedFile
from ragkit.kg._relations import RelationConfig, link_mentions, link_next, refresh_entities, relate
from ragkit.llm import Cache, Embeddings, Judge, content_key
from ragkit.settings import Settings
from ragkit.types import Chunk, Document

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


class _Progress:
    """One rich progress bar per stage, on stderr; silent when disabled."""

    def __init__(self, enabled: bool) -> None:
        self.bar: Any = None
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=Console(stderr=True), transient=False)

    def __enter__(self) -> _Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def task(self, name: str, total: int) -> Any:
        if self.bar is None:
            return lambda n=1: None
        task_id = self.bar.add_task(name, total=total or None)  # None: a count without a known end
        return lambda n=1: self.bar.advance(task_id, n)


@contextmanager
def _timed(seconds: dict[str, float], stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds[stage] = round(seconds.get(stage, 0.0) + time.perf_counter() - started, 3)


def _parse(sources: list[Path], include: list[str] | None, exclude: list[str] | None, max_bytes: int,
           advance: Any) -> tuple[ParseResult, str]:
    """Parse files and folders; paths are relative to one common base folder so ids stay unique and stable."""
    resolved = [p.resolve() for p in sources]
    for p in resolved:
        if not p.exists():
            raise CorpusError(p, "no such file or folder")
    if len(resolved) == 1 and resolved[0].is_dir():
        return parse_folder(resolved[0], include=include, exclude=exclude, max_bytes=max_bytes,
                            on_file=lambda _: advance()), str(resolved[0])
    base = Path(os.path.commonpath([p if p.is_dir() else p.parent for p in resolved]))
    result = ParseResult()
    for p in resolved:
        if p.is_dir():
            part = parse_folder(p, include=include, exclude=exclude, max_bytes=max_bytes, on_file=lambda _: advance())
            prefix = p.relative_to(base)
            for d in part.documents:
                d.path = (prefix / d.path).as_posix()
                d.id = document_id(d.path)
            result.documents += part.documents
            result.skipped += [SkippedFile(path=(prefix / s.path).as_posix(), reason=s.reason) for s in part.skipped]
        else:
            advance()
            try:
                result.documents.append(parse_file(p, root=base, max_bytes=max_bytes))
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


async def build_graph(
    source: Path | list[Path],
    *,
    previous: KnowledgeGraph | None = None,
    extractor: Literal["llm", "fast"] = "llm",
    judge: Judge | None = None,
    embeddings: Embeddings | None = None,
    strict: bool = False,
    progress: bool = True,
    chunks_jsonl: Path | None = None,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    min_tokens: int = DEFAULT_MIN_TOKENS,
    relations: RelationConfig | None = None,
    batch_size: int | None = None,
) -> BuildResult:
    """Build (or update, given ``previous``) the knowledge graph of ``source`` files / folders.

    ``chunks_jsonl`` adds pre-chunked input, used as-is. ``strict`` turns any skipped file into a
    ``CorpusError`` before any LLM call. ``batch_size`` is the number of chunks per LLM call (default: 1 for the
    embedded ``local/`` models, 4 for others). LLM usage is accounted under the Judge stage ``kg.enrich``."""
    if extractor not in ("llm", "fast"):
        raise ConfigError(f"unknown extractor '{extractor}'; use 'llm' or 'fast'")
    sources = [source] if isinstance(source, str | Path) else list(source)
    summary = BuildSummary(extractor=extractor)
    seconds = summary.seconds
    embeddings = embeddings or Embeddings()
    if extractor == "llm":
        judge = judge or Judge()
        engine: Extractor = LLMExtractor(judge, judge.cache, batch_size)
        summary.model = judge.model
    else:
        settings = Settings.load()
        engine = FastExtractor(Cache(settings.llm_cache_path) if settings.cache else None)
    before = judge.usage.stage("kg.enrich").model_copy() if judge is not None else None

    with _Progress(progress) as bar:
        # 1. parse ------------------------------------------------------------------------------
        with _timed(seconds, "parse"):
            parsed, root = _parse([Path(s) for s in sources], include, exclude, max_bytes,
                                  bar.task("parse", 0)) if sources else (ParseResult(), "")
            documents = list(parsed.documents)
            skipped = list(parsed.skipped)
            prechunked: dict[str, list[Chunk]] = {}
            if chunks_jsonl is not None:
                docs, prechunked = _prechunked(Path(chunks_jsonl), skipped)
                documents += docs
        summary.skipped = skipped
        if strict and skipped:
            listing = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
            more = f" (and {len(skipped) - 5} more)" if len(skipped) > 5 else ""
            raise CorpusError(skipped[0].path, f"strict mode: {len(skipped)} file(s) skipped: {listing}{more}")
        seen_ids = Counter(d.id for d in documents)
        if any(n > 1 for n in seen_ids.values()):
            raise CorpusError(root or "corpus", "two inputs map to one document id; pass distinct folders")

        # 2. what changed ------------------------------------------------------------------------
        settings_key = _settings_key(engine, embeddings, max_tokens, min_tokens)
        same_settings = previous is not None and \
            {k: previous.info.last_build.get(k) for k in settings_key} == settings_key
        kg = _copy(previous) if previous is not None else KnowledgeGraph()
        old_docs = {d.id for d in kg.documents()}
        reused = {d.id for d in documents if previous is not None and _reusable(previous, d, same_settings,
                                                                                   engine.signature)}
        todo = [d for d in documents if d.id not in reused]
        current = {d.id for d in documents}
        removed_docs = old_docs - current
        summary.documents = ItemCounts(reused=len(reused), added=sum(d.id not in old_docs for d in todo),
                                       changed=sum(d.id in old_docs for d in todo), removed=len(removed_docs))
        old_chunks = {c.id: c for c in kg.chunks()}
        affected: set[str] = set()
        stale_entities: set[str] = set()
        for doc_id in removed_docs | {d.id for d in todo if d.id in old_docs}:
            for c in kg.chunks_of(doc_id):
                affected |= {n for n, _ in kg.neighbours(c.id, "shares_entity")}
                affected |= {n for n, _ in kg.neighbours(c.id, "similar")}
                stale_entities |= {e.id for e in kg.entities_of(c.id)}
            kg.remove_document(doc_id)

        # 3. chunk ------------------------------------------------------------------------------------
        with _timed(seconds, "chunk"):
            advance = bar.task("chunk", len(todo))
            new_chunks: dict[str, list[ChunkNode]] = {}
            for d in todo:
                chunks = prechunked.get(d.id) if d.format == "chunks" else None
                chunks = chunks or chunk_document(d, max_tokens=max_tokens, min_tokens=min_tokens)
                new_chunks[d.id] = [ChunkNode(**c.model_dump()) for c in chunks]
                advance()
        fresh = [c for group in new_chunks.values() for c in group]
        kept = {c.id for c in kg.chunks()}
        summary.chunks = ItemCounts(
            reused=len(kept), removed=len(set(old_chunks) - kept - {c.id for c in fresh}),
            added=sum(len(new_chunks[d.id]) for d in todo if d.id not in old_docs),
            changed=sum(1 for d in todo if d.id in old_docs for c in new_chunks[d.id] if c.id not in old_chunks),
        )
        summary.chunks.reused += sum(1 for c in fresh if c.id in old_chunks)

        # 4. enrich chunks, 5. summarise documents --------------------------------------------------
        report = EnrichReport()
        with _timed(seconds, "enrich"):
            known = reuse_map(list(old_chunks.values()), engine)
            report = await engine.enrich_chunks(fresh, reuse=known, advance=bar.task("enrich", len(fresh)))
        summary.enrichment_reused = report.reused
        doc_nodes = {d.id: DocumentNode(id=d.id, path=d.path, format=d.format, content_hash=d.content_hash,
                                        language=d.language, title=d.title, metadata=d.metadata) for d in todo}
        with _timed(seconds, "summarise"):
            advance = bar.task("summarise", len(todo))

            async def summarise(doc_id: str) -> None:
                await engine.summarise(doc_nodes[doc_id], new_chunks[doc_id], report)
                advance()

            await asyncio.gather(*(summarise(d.id) for d in todo))
        summary.failures = report.failures

        # 6. embed ---------------------------------------------------------------------------------------
        with _timed(seconds, "embed"):
            texts = [c.text for c in fresh] + [n.summary for n in doc_nodes.values() if n.summary]
            advance = bar.task("embed", len(texts))
            computed = embeddings.computed
            vectors: Any = await asyncio.to_thread(embeddings.embed, texts) if texts else []
            advance(len(texts))
            summary.embeddings_computed = embeddings.computed - computed
            for c, v in zip(fresh, vectors[: len(fresh)], strict=False):
                c.embedding = v.tolist()
            for n, v in zip([n for n in doc_nodes.values() if n.summary], vectors[len(fresh):], strict=False):
                n.summary_embedding = v.tolist()

        # 7. assemble and relate ----------------------------------------------------------------------------
        with _timed(seconds, "relate"):
            advance = bar.task("relate", 3)
            for d in todo:
                kg.add(doc_nodes[d.id])
                for c in new_chunks[d.id]:
                    kg.add(c)
                    kg.add_edge(d.id, c.id, "has_chunk")
                link_next(kg, d.id)
            touched = link_mentions(kg, fresh)
            refresh_entities(kg, stale_entities - touched)
            advance()
            affected = (affected & {c.id for c in kg.chunks()}) | {c.id for c in fresh}
            full = previous is None or len(affected) > 0.3 * max(1, len(kg.chunks()))
            relate(kg, relations, None if full else affected, clear=previous is not None)
            advance(2)

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
    kg.info.corpus_root = root or kg.info.corpus_root
    kg.info.extractor = extractor
    kg.info.model = summary.model
    kg.info.embeddings = embeddings.name
    kg.info.skipped = skipped
    kg.info.last_build = {**settings_key, "summary": summary.model_dump(mode="json")}
    return BuildResult(kg=kg, summary=summary)


def build_graph_sync(source: Path | list[Path], **kwargs: Any) -> BuildResult:
    """``build_graph`` for synchronous callers (scripts, notebooks without a running loop)."""
    return asyncio.run(build_graph(source, **kwargs))
