"""``ragkit generate``: a test set (JSONL of TestSample) from a document folder, a graph file or your chunks."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ragkit.cli._options import (
    executor_options,
    json_option,
    model_options,
    parse_plugin_args,
    parse_weights,
    plugin_args_option,
    progress_enabled,
    progress_option,
    quiet_option,
    settings_from,
)
from ragkit.errors import ConfigError, GraphError, RunError

GRAPH_SUFFIXES = (".json",)
ARG_USAGE = "expected NAME.ARG=VALUE, as in multi_hop.same_document=no"


def make_judge(settings: Any) -> Any:
    """The Judge for generation (tests replace this with a scripted one)."""
    from ragkit.llm import Judge

    return Judge(settings=settings)


def default_graph_path(source: Path, extractor: str, cache_dir: Path) -> Path:
    """Where the graph of a folder is kept between runs: the ragkit cache dir (``--cache-dir`` included), keyed by
    the folder's absolute path and the extractor, so that reruns update it incrementally."""
    key = hashlib.sha256(f"{source.resolve()}\x00{extractor}".encode()).hexdigest()[:16]
    return cache_dir / "graphs" / f"{source.resolve().name or 'root'}-{key}" / "kg.json"


def load_or_build(source: Path | None, *, kg_path: Path | None, extractor: str, from_chunks: Path | None,
                  judge: Any, embeddings: Any, progress: bool, executor: Any = None) -> tuple[Any, str]:
    """The knowledge graph: loaded from a graph file, or built / updated from documents or chunks and saved."""
    from ragkit.kg import KnowledgeGraph

    if source is not None and source.is_file() and source.suffix.lower() in GRAPH_SUFFIXES and from_chunks is None:
        return KnowledgeGraph.load(source), f"graph {source}"
    from ragkit._sync import run_sync
    from ragkit.kg import BuildOptions, build_graph

    if source is None and from_chunks is None:
        raise ConfigError("give a document folder, a graph file or --from-chunks FILE")
    base = source if source is not None else from_chunks
    assert base is not None
    path = kg_path or default_graph_path(base, extractor, embeddings.settings.cache_dir)
    previous = None
    if path.exists():
        try:
            previous = KnowledgeGraph.load(path)
        except Exception as exc:
            if kg_path is not None:  # the user's own file: never overwrite what is not a graph
                raise GraphError(f"-k {kg_path}: {exc}; remove it or choose another -k") from None
            click.echo(f"Rebuilding the graph: {exc}", err=True)  # a stale or corrupt cached graph is rebuilt
    options = BuildOptions(extractor=extractor, progress=progress, chunks_jsonl=from_chunks)  # type: ignore[arg-type]
    result = run_sync(build_graph([source] if source is not None else [], options, previous=previous,
                                  judge=judge if extractor == "llm" else None, embeddings=embeddings,
                                  executor=executor))
    result.kg.save(path)
    s = result.summary
    click.echo(f"Graph {path}: {len(result.kg.documents())} documents, {len(result.kg.chunks())} chunks "
               f"({s.documents.reused} documents reused, {s.documents.added} added, {s.documents.changed} changed, "
               f"{s.documents.removed} removed; {len(s.skipped)} files skipped)", err=True)
    for skipped in s.skipped:
        click.echo(f"  skipped {skipped.path}: {skipped.reason}", err=True)
    return result.kg, f"graph {path}"


@click.command()
@click.argument("source", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("-n", "n", type=click.IntRange(1), default=50, show_default=True, help="Samples to generate.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("testset.jsonl"),
              show_default=True, help="Test set JSONL (one TestSample per line), written as samples are kept.")
@click.option("--dropped", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the dropped candidates here (JSONL), each with metadata.dropped (reason, detail) "
                   "and the critic's checks.")
@click.option("-g", "--generator", "generators", multiple=True, metavar="NAME=WEIGHT",
              help="Generator and weight, repeatable (e.g. -g single_hop=0.4 -g multi_hop=0.3). "
                   "Default mix: single_hop .3, multi_hop .2, abstract .15, noisy_context .15, comparison .1, "
                   "unanswerable .1.")
@plugin_args_option
@click.option("--personas", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="JSON or YAML list of {name, description}; default: derived from document clusters.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same graph: same plan.")
@click.option("--extractor", type=click.Choice(["llm", "fast"]), default="llm", show_default=True,
              help="Graph enrichment when SOURCE is a folder: llm (the judge) or fast (spaCy/jieba, no LLM).")
@click.option("--from-chunks", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Your own chunks (JSONL with id and text per line), used as-is.")
@click.option("-k", "--kg", "kg_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to keep the graph of a folder [default: <cache dir>/graphs/<folder>-<hash>/kg.json].")
@click.option("--max-share", type=click.FloatRange(0, 1, min_open=True), default=0.25, show_default=True,
              help="Largest share of the samples that one document may provide (relaxed, with a note, only when "
                   "the corpus is too small).")
@click.option("--max-drops", type=click.FloatRange(0, min_open=True), default=2.0, show_default=True,
              help="Dropped candidates a generator may cost per sample asked of it before it is stopped (raise it "
                   "when a run ends short on a corpus where most candidates fail; each drop is paid in calls).")
@click.option("--min-support", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Least probability of 'supported' the judge must give each claim of a kept reference answer "
                   "(0: its label decides). 0.7 keeps fewer bad samples and costs more calls (bench/README.md).")
@click.option("--no-critic-llm", is_flag=True, help="Skip the critic's LLM checks: its own answer, the "
                                                     "reference's claims (cheaper; string and embedding checks "
                                                     "still run).")
@model_options
@executor_options
@click.option("--overwrite", is_flag=True, help="Replace OUTPUT if it exists (it is never replaced otherwise).")
@json_option
@quiet_option
@progress_option
def command(source: Path | None, n: int, output: Path, generators: tuple[str, ...], plugin_args: tuple[str, ...],
            personas: Path | None, seed: int, extractor: str, from_chunks: Path | None, kg_path: Path | None,
            max_share: float, max_drops: float, min_support: float, no_critic_llm: bool, as_json: bool,
            dropped: Path | None, **kw: Any) -> None:
    """Generate a test set of N questions from SOURCE: a document folder (its graph is built, or updated, first),
    a knowledge-graph JSON file, or nothing with --from-chunks.

    \b
    ragkit generate docs/ -n 50 -o testset.jsonl
    ragkit generate kg.json -n 20 -g single_hop=0.5 -g multi_hop=0.5 --seed 3
    ragkit generate --from-chunks chunks.jsonl -n 30 --personas personas.yaml
    """
    from ragkit._sync import run_sync
    from ragkit.executors import make_executor
    from ragkit.llm import Embeddings
    from ragkit.synthesis import GenerateOptions, check_options, generate, load_personas

    if output.exists() and not kw["overwrite"]:
        raise click.BadParameter(f"{output} exists; pass --overwrite to replace it, or choose another -o",
                                 param_hint="-o")
    show = progress_enabled(kw)
    options = GenerateOptions(
        distribution=parse_weights(generators), seed=seed, personas=load_personas(personas) if personas else None,
        max_share_per_document=max_share, max_drops_per_sample=max_drops, min_reference_support=min_support,
        progress=show, llm_critic=not no_critic_llm,
        generator_args=parse_plugin_args(plugin_args, usage=ARG_USAGE),
    )
    check_options(n, options)  # every argument is checked before a file is touched or a model is called
    settings = settings_from(kw)
    judge = make_judge(settings)
    embeddings = Embeddings(settings=settings)
    executor = make_executor(settings)
    kg, where = load_or_build(source, kg_path=kg_path, extractor=extractor, from_chunks=from_chunks, judge=judge,
                              embeddings=embeddings, progress=show, executor=executor)
    result = write_testset(output, lambda write: run_sync(
        generate(kg, n, options, judge=judge, embeddings=embeddings, on_sample=write, executor=executor)))
    if dropped is not None:
        from ragkit.runs import rewrite_jsonl

        rewrite_jsonl(dropped, result.dropped_samples)
    if as_json:
        click.echo(json.dumps(report_json(result, output, where), ensure_ascii=False, indent=2))
    if not kw["quiet"]:
        print_report(result, output, where)
    if not result.samples:
        raise RunError("no samples were generated: " + ("; ".join(result.notes) or "see the table above"))


def write_testset(output: Path, produce: Callable[[Callable[[Any], None]], Any]) -> Any:
    """Run ``produce(write)``: kept samples go to OUTPUT.partial as they come (a crash loses none of them), which
    replaces OUTPUT in one atomic rename at the end, and only when there is at least one sample."""
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + ".partial")
    with partial.open("w", encoding="utf-8") as sink:

        def write(sample: Any) -> None:
            sink.write(sample.model_dump_json() + "\n")
            sink.flush()

        result = produce(write)
        os.fsync(sink.fileno())
    if result.samples:
        os.replace(partial, output)
    else:
        partial.unlink()
    return result


def report_json(result: Any, output: Path, where: str) -> dict[str, Any]:
    return {
        "output": str(output), "source": where, "requested": result.requested, "generated": len(result.samples),
        "lines": len(result.written()),
        # every drop, by reason; the --dropped file holds those that got as far as a written candidate (a scenario
        # skipped before its writer's reply, "topic_not_named", has none)
        "dropped": sum(result.dropped.values()), "dropped_by_reason": dict(result.dropped.most_common()),
        "dropped_written": len(result.dropped_samples),
        "seconds": round(result.seconds, 2), "notes": result.notes,
        "generators": {k: r.model_dump(mode="json") for k, r in result.report.items()},
        "usage": result.usage.total.model_dump(mode="json"),
        "personas": [p.model_dump() for p in result.personas],
    }


def print_report(result: Any, output: Path, where: str) -> None:
    """The closing table on stderr: per generator requested / kept / dropped by reason, calls, tokens, time."""
    from rich.console import Console
    from rich.table import Table

    from ragkit.text import counts_text, printable

    console = Console(stderr=True)
    table = Table(title=f"Test set {output} ({len(result.samples)} of {result.requested} samples, from {where})")
    for col, justify in (("generator", "left"), ("requested", "right"), ("kept", "right"),
                         ("dropped (by reason)", "left"), ("LLM calls", "right"), ("tokens", "right"),
                         ("LLM s", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for name, r in result.report.items():
        dropped = counts_text(r.dropped) or "-"
        tokens = r.usage.prompt_tokens + r.usage.completion_tokens
        table.add_row(name, str(r.requested), str(r.kept), dropped, str(r.usage.calls), f"{tokens:,}",
                      f"{r.usage.seconds:.0f}")
    personas = result.usage.stages.get("generate/personas")
    if personas is not None:
        table.add_row("(personas)", "", "", "", str(personas.calls),
                      f"{personas.prompt_tokens + personas.completion_tokens:,}", f"{personas.seconds:.0f}")
    total = result.usage.total
    table.add_row("total", str(result.requested), str(len(result.samples)),
                  str(sum(result.dropped.values())), str(total.calls),
                  f"{total.prompt_tokens + total.completion_tokens:,}", f"{total.seconds:.0f}", style="bold")
    console.print(table)
    kept = max(1, len(result.samples))
    console.print(f"{total.calls / kept:.1f} LLM calls per kept sample; {result.seconds:.0f} s in all "
                  f"(cache hits {total.cache_hits}).", highlight=False)
    turns = len(result.written())
    if turns != len(result.samples):
        console.print(f"{output} holds {turns} lines: each conversation is written one turn per line.",
                      highlight=False)
    for name, r in result.report.items():
        for note in r.notes:
            console.print(f"[yellow]{name}:[/yellow] {note}", highlight=False)
    for note in result.notes:
        console.print(f"[yellow]note:[/yellow] {note}", highlight=False)

    examples = [(name, reason, detail) for name, r in result.report.items() for reason, detail in r.examples.items()]
    if examples:
        console.print("One dropped candidate per reason:", highlight=False)
        for name, reason, detail in examples:
            line = " ".join(printable(detail).split())  # candidate text comes from the documents and the model
            console.print(f"  {name} {reason}: {line[:200]}", highlight=False, markup=False)
