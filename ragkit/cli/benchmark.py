"""``ragkit benchmark DOCS --target ...``: graph → test set → target → evaluate → report, resumable."""

from __future__ import annotations

import datetime as _dt
import re
import sys
from pathlib import Path
from typing import Any

import click

from ragkit.cli._options import build_target_options, parse_plugin_args, target_options
from ragkit.errors import ConfigError
from ragkit.types import PluginSpec

RESULT_OPTIONS = ("docs", "target", "n", "seed", "model", "testset", "metrics", "extractor", "generators")


def _default_dir(target: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", target.split("://")[-1]).strip("-")[:40] or "run"
    return Path("runs") / f"{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}-{slug}"


def _weights(items: tuple[str, ...]) -> dict[str, float] | None:
    if not items:
        return None
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            out[name.strip()] = float(value) if sep else 1.0
        except ValueError:
            raise ConfigError(f"-g {item!r}: expected NAME or NAME=WEIGHT, for example -g multi_hop=0.3") from None
    return out


def _metric_specs(names: tuple[str, ...], args: tuple[str, ...]) -> list[PluginSpec] | None:
    parsed = parse_plugin_args(args)
    stray = [k for k in parsed if k not in names]
    if stray and names:
        raise ConfigError(f"-A given for metric(s) not chosen with -m: {', '.join(stray)}")
    if not names:
        if parsed:
            raise ConfigError("-A needs the metric chosen explicitly with -m")
        return None
    return [PluginSpec(name=n, args=parsed.get(n, {})) for n in dict.fromkeys(names)]


def _check_resume(ctx: click.Context, spec: Any, kw: dict[str, Any]) -> None:
    """With --resume, options that change results must match the run's recorded ones (or be left out)."""
    from click.core import ParameterSource

    recorded = {"docs": spec.docs and str(Path(spec.docs).resolve()), "target": spec.target_ref, "n": spec.n,
                "seed": spec.seed, "model": spec.model, "testset": spec.testset, "extractor": spec.extractor}
    clashes = []
    for name, value in recorded.items():
        if ctx.get_parameter_source(name) not in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
            continue
        given = kw.get(name)
        if name == "docs" and given:
            given = str(Path(given).resolve())
        if given is not None and value is not None and given != value:
            clashes.append(f"{name} (run: {value}, given: {given})")
    if clashes:
        raise ConfigError(f"--resume continues a run with its recorded options; these differ: {'; '.join(clashes)}. "
                          "Drop them, or start a new run with -o.")


@click.command()
@click.argument("docs", required=False, type=click.Path(exists=True, file_okay=True))
@target_options
@click.option("-n", "n", type=click.IntRange(1), default=20, show_default=True, help="Test samples to generate.")
@click.option("-o", "--output", type=click.Path(file_okay=False), help="Run directory (default runs/<time>-<target>).")
@click.option("-m", "--metric", "metrics", multiple=True, help="Metric to compute (repeatable; default: the suite).")
@click.option("-A", "metric_args", multiple=True, metavar="METRIC.ARG=VALUE", help="Metric argument (repeatable).")
@click.option("-g", "--generator", "generators", multiple=True, metavar="NAME[=WEIGHT]",
              help="Generator mix (repeatable; default: the built-in mix).")
@click.option("--testset", type=click.Path(exists=True, dir_okay=False),
              help="Use this test set (JSONL) instead of generating one.")
@click.option("--extractor", type=click.Choice(["llm", "fast"]), default="llm", show_default=True,
              help="Graph enrichment: the LLM, or fast (spaCy, no LLM).")
@click.option("--fail-under", multiple=True, metavar="METRIC=VALUE", help="Exit 1 if the metric's mean is below.")
@click.option("--fail-over", multiple=True, metavar="METRIC=VALUE",
              help="Exit 1 if the metric's mean is above (for lower-is-better metrics).")
@click.option("--json", "as_json", is_flag=True, help="Print summary.json to stdout.")
@click.option("--resume", type=click.Path(exists=True, file_okay=False), help="Continue an interrupted run.")
@click.option("--model", help="Judge model (litellm string; default: the embedded local model).")
@click.option("--embeddings", help="Embedding model (default: the embedded all-MiniLM-L6-v2).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--concurrency", type=click.IntRange(1), help="LLM and target calls in flight.")
@click.option("--no-progress", is_flag=True, help="No progress bars.")
@click.pass_context
def command(ctx: click.Context, /, **kw: Any) -> None:
    """Benchmark a RAG system on questions generated from DOCS, and write a run directory with a report.

    \b
    ragkit benchmark docs/ --target baseline -n 20
    ragkit benchmark docs/ --target mypkg.rag:answer --fail-under faithfulness=0.8
    ragkit benchmark --resume runs/20240101-120000-baseline
    """
    from ragkit._sync import run_sync
    from ragkit.llm import Embeddings, Judge
    from ragkit.pipeline import BenchmarkOptions, Pipeline, new_run, open_run
    from ragkit.report import failures, parse_thresholds, print_summary
    from ragkit.settings import Settings

    fail_under = parse_thresholds(kw["fail_under"])
    fail_over = parse_thresholds(kw["fail_over"], "--fail-over")
    options = build_target_options(kw)
    if kw["resume"]:
        run = open_run(kw["resume"])
        _check_resume(ctx, run.spec, kw)
        spec: Any = run.spec
        settings = Settings.load(model=spec.model, embeddings=spec.embeddings, concurrency=kw["concurrency"])
        _check_gate(fail_under, fail_over, run.spec.metric_meta)
        click.echo(f"Resuming {run.path}", err=True)
    else:
        if not kw["target"]:
            raise click.UsageError("--target is required (or --resume RUN_DIR)")
        if not kw["docs"] and not kw["testset"]:
            raise click.UsageError("give DOCS (a document folder) or --testset")
        settings = Settings.load(model=kw["model"], embeddings=kw["embeddings"], concurrency=kw["concurrency"])
        opts = BenchmarkOptions(
            docs=kw["docs"], testset=kw["testset"], n=kw["n"], seed=kw["seed"], target=kw["target"],
            target_options=options, metrics=_metric_specs(kw["metrics"], kw["metric_args"]),
            extractor=kw["extractor"], generators=_weights(kw["generators"]),
        )
        _check_gate(fail_under, fail_over, _planned_metrics(opts))
        out = Path(kw["output"]) if kw["output"] else _default_dir(kw["target"])
        run = new_run(out, opts, settings, command=["ragkit", *sys.argv[1:]])
        click.echo(f"Run directory: {run.path}", err=True)
    judge = Judge(settings=settings)
    embeddings = Embeddings(settings=settings)
    pipeline = Pipeline(run, judge=judge, embeddings=embeddings, settings=settings,
                        progress=not kw["no_progress"], say=lambda msg: click.echo(msg, err=True))
    try:
        summary = run_sync(pipeline.execute())
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Nothing finished is lost; continue with: ragkit benchmark --resume {run.path}",
                   err=True)
        raise
    finally:
        run.close()
    gate = failures(summary, fail_under, fail_over)
    print_summary(summary)
    click.echo(f"Report: {run.report_path}", err=True)
    if kw["as_json"]:
        payload = summary.model_dump(mode="json")
        payload["gate"] = {"passed": not gate, "failures": gate}
        import json

        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    if gate:
        for line in gate:
            click.echo(f"FAILED: {line}", err=True)
        ctx.exit(1)


def _planned_metrics(opts: Any) -> dict[str, Any]:
    from ragkit.pipeline import resolve_metrics

    _, meta = resolve_metrics(opts.metrics)
    return meta


def _check_gate(fail_under: dict[str, float], fail_over: dict[str, float], meta: dict[str, Any]) -> None:
    """A threshold on a metric the run lacks, or outside its range, is a usage error (exit 2)."""
    from ragkit.errors import ConfigError
    from ragkit.report import check_known

    try:
        check_known({**fail_under, **fail_over}, meta)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
