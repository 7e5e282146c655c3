"""``ragkit run TESTSET --target ... -o OUT``: ask the target every question; OUT is a run directory (for
``evaluate``, ``report``, ``compare`` and ``gate``) or, when it ends in .jsonl, a file of EvalSample lines."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ragkit.cli._options import (
    build_target_options,
    format_option,
    model_options,
    progress_enabled,
    progress_option,
    quiet_option,
    settings_from,
    target_options,
)
from ragkit.errors import ConfigError


@click.command()
@click.argument("testset")
@format_option
@target_options
@click.option("-o", "--output", type=click.Path(), required=True,
              help="A run directory (then `ragkit evaluate DIR`), or a .jsonl file of EvalSample lines.")
@click.option("--kg", "kg_path", type=click.Path(exists=True, dir_okay=False),
              help="baseline: the knowledge graph to retrieve from (from `ragkit kg build`).")
@click.option("--docs", type=click.Path(exists=True), help="baseline: build (or update) the graph from DOCS.")
@click.option("--resume", is_flag=True, help="Keep the answers already in OUTPUT and ask only the missing ones.")
@model_options
@quiet_option
@progress_option
def command(**kw: Any) -> None:
    """Run the target on a test set (any format ragkit reads); each answer is written as it arrives.

    \b
    ragkit run testset.jsonl --target mypkg.rag:answer -o runs/mine     # then: ragkit evaluate runs/mine
    ragkit run ragas_testset.csv --target langchain:app.chain:rag -o runs/lc
    ragkit run testset.jsonl --target baseline --docs docs/ -o answers.jsonl
    """
    if not kw["target"] and not kw["resume"]:
        raise click.UsageError("--target is required")
    if kw["output"].lower().endswith((".jsonl", ".json")):
        _to_file(kw)
    else:
        _to_run(kw)


def _to_run(kw: dict[str, Any]) -> None:
    """Into a run directory, through the benchmark pipeline's graph, test-set and target stages."""
    from ragkit._sync import run_sync
    from ragkit.llm import Embeddings, Judge
    from ragkit.pipeline import BenchmarkOptions, Pipeline, new_run, open_run

    out = Path(kw["output"])
    options = build_target_options(kw)
    if (out / "spec.json").exists():
        if not kw["resume"]:
            raise ConfigError(f"{out} already holds a run; pass --resume to continue it, or choose another -o")
        run = open_run(out)
        kw["model"], kw["embeddings"] = run.spec.model, run.spec.embeddings
        settings = settings_from(kw)
    else:
        if not kw["target"]:
            raise click.UsageError(f"--target is required ({out} holds no run to resume)")
        settings = settings_from(kw)
        opts = BenchmarkOptions(docs=kw["docs"], kg=kw["kg_path"], testset=kw["testset"],
                                testset_format=kw["data_format"], target=kw["target"], target_options=options,
                                extractor="fast")
        run = new_run(out, opts, settings, command=["ragkit", *sys.argv[1:]])
    def say(msg: str) -> None:
        if not kw["quiet"]:
            click.echo(msg, err=True)

    pipeline = Pipeline(run, judge=Judge(settings=settings), embeddings=Embeddings(settings=settings),
                        settings=settings, progress=progress_enabled(kw), say=say)
    try:
        samples = run_sync(pipeline.answer())
    finally:
        run.close()
    failed = sum(1 for r in run.responses().values() if r.response.error)
    say(f"{len(samples)} samples, {failed} failed -> {out} (next: ragkit evaluate {out})")


def _to_file(kw: dict[str, Any]) -> None:
    from ragkit._sync import run_sync
    from ragkit.pipeline import run_target
    from ragkit.runs import JsonlAppender, iter_jsonl, read_testset, rewrite_jsonl
    from ragkit.targets import close_target, make_target
    from ragkit.types import EvalSample

    options = build_target_options(kw)
    out = Path(kw["output"])
    samples = read_testset(kw["testset"], format=kw["data_format"])
    done: dict[str, EvalSample] = {}
    if out.exists() and out.stat().st_size:
        if not kw["resume"]:
            raise ConfigError(f"{out} already exists; pass --resume to continue it, or choose another -o")
        done = {r.test.id: r for r in iter_jsonl(out, EvalSample) if not r.response.error}
    todo = [s for s in samples if s.id not in done]
    show = progress_enabled(kw)
    settings = settings_from(kw)
    kg = judge = embeddings = None
    if kw["target"] == "baseline":
        judge, kg, embeddings = _baseline_parts(kw, settings, progress=show)
    target = make_target(kw["target"], options=options, kg=kg, judge=judge, embeddings=embeddings)
    writer = JsonlAppender(out)

    async def go() -> int:
        try:
            return await run_target(todo, target, writer.append, concurrency=settings.concurrency,
                                    progress=show, answered=done.values())
        finally:
            await close_target(target)

    try:
        failed = run_sync(go())
    finally:
        writer.close()
        if kw["resume"] and done:  # one line per sample (the latest answer), as `ragkit evaluate` expects
            latest = {r.test.id: r for r in iter_jsonl(out, EvalSample)}
            rewrite_jsonl(out, [latest[s.id] for s in samples if s.id in latest])
    if not kw["quiet"]:
        click.echo(f"{len(todo)} asked ({len(done)} already answered), {failed} failed -> {out}", err=True)


def _baseline_parts(kw: dict[str, Any], settings: Any, *, progress: bool) -> tuple[Any, Any, Any]:
    from ragkit._sync import run_sync
    from ragkit.kg import KnowledgeGraph
    from ragkit.llm import Embeddings, Judge

    judge = Judge(settings=settings)
    embeddings = Embeddings(settings=settings)
    if kw["kg_path"]:
        return judge, KnowledgeGraph.load(kw["kg_path"]), embeddings
    if not kw["docs"]:
        raise ConfigError("the baseline target needs --kg kg.json or --docs DIR to retrieve from")
    from ragkit.kg import BuildOptions, build_graph

    options = BuildOptions(extractor="fast", progress=progress)
    result = run_sync(build_graph(kw["docs"], options, judge=judge, embeddings=embeddings))
    return judge, result.kg, embeddings
