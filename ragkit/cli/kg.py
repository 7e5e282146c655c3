"""``ragkit kg build`` and ``ragkit kg info``: documents to a knowledge graph, and what is in it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import click

from ragkit.cli._options import (
    executor_options,
    json_option,
    model_options,
    progress_enabled,
    progress_option,
    quiet_option,
    settings_from,
)
from ragkit.errors import GraphError


@click.group(name="kg")
def command() -> None:
    """Build and inspect knowledge graphs of document folders."""


@command.command()
@click.argument("docs", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Graph JSON file; if it exists, it is updated incrementally.")
@click.option("--extractor", type=click.Choice(["llm", "fast"]), default="llm", show_default=True,
              help="llm: the judge model reads each document once (summary, topics, named entities), on top of "
                   "the fast facts; fast: spaCy/jieba, no LLM.")
@click.option("--include", multiple=True, help="Only files matching this glob (repeatable), e.g. '*.md'.")
@click.option("--exclude", multiple=True, help="Skip files or folders matching this glob (repeatable).")
@click.option("--chunks", "chunks_jsonl", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Pre-chunked input: JSONL with 'id' and 'text' per line (used as-is, never re-split).")
@click.option("--strict", is_flag=True, help="Fail if any file is skipped.")
@click.option("--rebuild", is_flag=True, help="Ignore an existing output graph and build from scratch.")
@click.option("--max-tokens", type=click.IntRange(min=16), default=None,
              help="Chunk size bound in tokens [default: 320].")
@click.option("--max-file-mb", type=click.FloatRange(min=0, min_open=True), default=50, show_default=True,
              help="Skip a file larger than this, on disk or, for DOCX / PPTX / EPUB, inflated.")
@click.option("--max-pdf-pages", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Skip a PDF with more pages than this.")
@model_options
@executor_options
@json_option
@quiet_option
@progress_option
def build(docs: tuple[Path, ...], output: Path, extractor: str, include: tuple[str, ...], exclude: tuple[str, ...],
          chunks_jsonl: Path | None, strict: bool, rebuild: bool, max_tokens: int | None, max_file_mb: float,
          max_pdf_pages: int, as_json: bool, **kw: Any) -> None:
    """Build a knowledge graph of DOCS (folders and / or files) into OUTPUT."""
    from ragkit._sync import run_sync
    from ragkit.errors import ConfigError
    from ragkit.executors import make_executor
    from ragkit.kg import DEFAULT_MAX_TOKENS, BuildOptions, KnowledgeGraph, build_graph
    from ragkit.llm import Embeddings, Judge

    if not docs and chunks_jsonl is None:
        raise ConfigError("give at least one document folder or file, or --chunks FILE")
    previous = None
    if output.exists() and not rebuild:
        try:
            previous = KnowledgeGraph.load(output)
        except GraphError as exc:
            raise GraphError(f"{exc}; use --rebuild to overwrite it") from None
    show = progress_enabled(kw)
    settings = settings_from(kw)
    judge = Judge(settings=settings) if extractor == "llm" else None
    options = BuildOptions(extractor=extractor, strict=strict, progress=show,  # type: ignore[arg-type]
                           chunks_jsonl=chunks_jsonl, include=list(include) or None, exclude=list(exclude) or None,
                           max_tokens=max_tokens or DEFAULT_MAX_TOKENS, max_bytes=int(max_file_mb * 1024 * 1024),
                           max_pages=max_pdf_pages)
    result = run_sync(build_graph(list(docs), options, previous=previous, judge=judge,
                                  embeddings=Embeddings(settings=settings), executor=make_executor(settings)))
    result.kg.save(output)
    if as_json:
        click.echo(result.summary.model_dump_json(indent=2))
    elif not kw["quiet"]:
        _print_summary(result.summary, output, incremental=previous is not None)


def _print_summary(summary: Any, output: Path, *, incremental: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=True)
    table = Table(title=f"{'Updated' if incremental else 'Built'} {output}", show_header=True)
    for col in ("", "reused", "added", "changed", "removed"):
        table.add_column(col, justify="left" if not col else "right")
    for name, counts in (("documents", summary.documents), ("chunks", summary.chunks)):
        table.add_row(name, str(counts.reused), str(counts.added), str(counts.changed), str(counts.removed))
    console.print(table)
    edges = ", ".join(f"{k} {v}" for k, v in sorted(summary.edges.items()))
    console.print(f"entities {summary.entities}; edges: {edges}")
    llm = f"LLM calls {summary.llm_calls} (cache hits {summary.llm_cache_hits}, failures {summary.llm_failures})" \
        if summary.extractor == "llm" else "extractor fast (no LLM)"
    console.print(f"{llm}; enrichment reused for {summary.enrichment_reused} chunks; "
                  f"embeddings computed {summary.embeddings_computed}")
    console.print("seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in summary.seconds.items()))
    if summary.skipped:
        console.print(f"[yellow]skipped {len(summary.skipped)} file(s):[/yellow]")
        for s in summary.skipped:
            console.print(f"  {s.path}: {s.reason}", markup=False, highlight=False)
    for failure in summary.failures:
        console.print(f"[red]enrichment failed[/red] {failure}", highlight=False)


def graph_info(kg: Any, top: int = 15) -> dict[str, Any]:
    """Counts by node and edge type, documents per format and language, top entities, skipped files."""
    counts = kg.counts()
    docs = kg.documents()
    entities = []
    for e in kg.entities():
        chunks = kg.chunks_mentioning(e.id)
        entities.append({"id": e.id, "name": e.name, "type": e.type, "chunks": len(chunks),
                         "documents": len({c.doc_id for c in chunks})})
    entities.sort(key=lambda e: (-e["documents"], -e["chunks"], e["name"]))
    bridging = sum(1 for e in entities if e["documents"] > 1)
    return {
        "nodes": counts["nodes"],
        "edges": counts["edges"],
        "documents_by_format": dict(sorted(Counter(d.format for d in docs).items())),
        "documents_by_language": dict(sorted(Counter(d.language for d in docs).items())),
        "entities_linking_documents": bridging,
        "top_entities": entities[:top],
        "skipped": [s.model_dump() for s in kg.info.skipped],
        "extractor": kg.info.extractor,
        "model": kg.info.model,
        "embeddings": kg.info.embeddings,
        "corpus_root": kg.info.corpus_root,
    }


@command.command()
@click.argument("graph", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
@click.option("--top", type=click.IntRange(min=1), default=15, show_default=True, help="How many top entities to list.")
def info(graph: Path, as_json: bool, top: int) -> None:
    """What is in a knowledge-graph file."""
    from rich.console import Console
    from rich.table import Table

    from ragkit.kg import KnowledgeGraph
    from ragkit.report import safe

    data = graph_info(KnowledgeGraph.load(graph), top=top)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    console = Console()
    console.print(f"[bold]{graph}[/bold]  extractor {data['extractor']}"
                  + (f" ({data['model']})" if data["model"] else "") + f", embeddings {data['embeddings']}")
    console.print("nodes: " + ", ".join(f"{k} {v}" for k, v in sorted(data["nodes"].items())))
    console.print("edges: " + ", ".join(f"{k} {v}" for k, v in sorted(data["edges"].items())))
    console.print("documents by format: " + ", ".join(f"{k} {v}" for k, v in data["documents_by_format"].items()))
    console.print("documents by language: "
                  + ", ".join(f"{k} {v}" for k, v in data["documents_by_language"].items()))
    console.print(f"entities linking two or more documents: {data['entities_linking_documents']}")
    table = Table(title="Top entities")
    for col in ("entity", "type", "documents", "chunks"):
        table.add_column(col, justify="right" if col in ("documents", "chunks") else "left")
    for e in data["top_entities"]:
        table.add_row(safe(e["name"]), safe(e["type"]), str(e["documents"]), str(e["chunks"]))
    console.print(table)
    if data["skipped"]:
        console.print(f"skipped files ({len(data['skipped'])}):")
        for s in data["skipped"]:
            console.print(f"  {s['path']}: {s['reason']}", markup=False, highlight=False)
