"""``ragkit benchmark DOCS --target ...``: graph → test set → target → evaluate → report, resumable."""

from __future__ import annotations

import datetime as _dt
import re
import sys
from pathlib import Path
from typing import Any

import click

from ragkit.cli._options import (
    build_target_options,
    executor_options,
    format_option,
    json_option,
    max_failed_option,
    model_options,
    output_option,
    parse_plugin_args,
    parse_weights,
    plugin_args_option,
    progress_enabled,
    progress_option,
    quiet_option,
    settings_from,
    target_options,
)
from ragkit.cli.gate import junit_option, write_junit
from ragkit.errors import ConfigError
from ragkit.types import PluginSpec

RESULT_OPTIONS = ("docs", "target", "n", "seed", "model", "testset", "metrics", "extractor", "generators")


def _default_dir(target: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", target.split("://")[-1]).strip("-")[:40] or "run"
    return Path("runs") / f"{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}-{slug}"


def _plugin_specs(names: tuple[str, ...], args: tuple[str, ...]
                  ) -> tuple[list[PluginSpec] | None, dict[str, dict[str, Any]]]:
    """The chosen metrics with their ``-A`` arguments, and the ``-A`` arguments of generators."""
    from ragkit.registry import available

    parsed = parse_plugin_args(args)
    generators = available("generator")
    generator_args = {k: v for k, v in parsed.items() if k in generators and k not in names}
    stray = [k for k in parsed if k not in names and k not in generator_args]
    if stray:
        raise ConfigError(f"-A given for {', '.join(stray)}: neither a metric chosen with -m nor a generator")
    if not names:
        return None, generator_args
    return [PluginSpec(name=n, args=parsed.get(n, {})) for n in dict.fromkeys(names)], generator_args


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
@output_option("Run directory (default runs/<time>-<target>).", file_okay=False)
@click.option("-m", "--metric", "metrics", multiple=True, help="Metric to compute (repeatable; default: the suite).")
@plugin_args_option
@click.option("-g", "--generator", "generators", multiple=True, metavar="NAME[=WEIGHT]",
              help="Generator mix (repeatable; default: the built-in mix).")
@click.option("--testset", help="Use this test set (any format ragkit reads) instead of generating one; with a "
                                 "target other than baseline, no graph is built.")
@format_option
@click.option("--extractor", type=click.Choice(["llm", "fast"]), default="llm", show_default=True,
              help="Graph enrichment: the LLM, or fast (spaCy, no LLM).")
@click.option("--fail-under", multiple=True, metavar="METRIC=VALUE", help="Exit 3 if the metric's mean is below.")
@click.option("--fail-over", multiple=True, metavar="METRIC=VALUE",
              help="Exit 3 if the metric's mean is above (for lower-is-better metrics).")
@max_failed_option
@junit_option
@click.option("--resume", type=click.Path(exists=True, file_okay=False), help="Continue an interrupted run.")
@click.option("--seed", type=int, default=0, show_default=True)
@model_options
@executor_options
@json_option
@quiet_option
@progress_option
@click.pass_context
def command(ctx: click.Context, /, **kw: Any) -> None:
    """Benchmark a RAG system on questions generated from DOCS, and write a run directory with a report.

    \b
    ragkit benchmark docs/ --target baseline -n 20
    ragkit benchmark docs/ --target mypkg.rag:answer --fail-under faithfulness=0.8
    ragkit benchmark --resume runs/20240101-120000-baseline
    """
    from ragkit._sync import run_sync
    from ragkit.cli import EXIT_FAILED_SCORES, EXIT_GATE
    from ragkit.llm import Embeddings, Judge
    from ragkit.pipeline import Pipeline
    from ragkit.report import checks, failed_share, parse_thresholds, too_many_failed

    fail_under = parse_thresholds(kw["fail_under"])
    fail_over = parse_thresholds(kw["fail_over"], "--fail-over")
    show = progress_enabled(kw)
    run, settings = _open_run(ctx, kw, fail_under, fail_over)
    say = (lambda msg: None) if kw["quiet"] else (lambda msg: click.echo(msg, err=True))
    pipeline = Pipeline(run, judge=Judge(settings=settings), embeddings=Embeddings(settings=settings),
                        settings=settings, progress=show, say=say)
    try:
        summary = run_sync(pipeline.execute())
    except KeyboardInterrupt:
        click.echo(f"Interrupted. Nothing finished is lost; continue with: ragkit benchmark --resume {run.path}",
                   err=True)
        raise
    finally:
        run.close()
    checked = checks(summary, fail_under, fail_over)
    gate = [c.message for c in checked if not c.passed]
    _show(summary, run, gate, kw)
    share = failed_share((m.failed, m.scored + m.unscorable + m.failed) for m in summary.metrics.values())
    unreliable = too_many_failed(share, kw["max_failed"])
    write_junit(kw["junit"], checked, unreliable)
    if unreliable:
        click.echo(f"FAILED: {unreliable}", err=True)
        ctx.exit(EXIT_FAILED_SCORES)
    if gate:
        ctx.exit(EXIT_GATE)


def _open_run(ctx: click.Context, kw: dict[str, Any], fail_under: dict[str, float],
              fail_over: dict[str, float]) -> tuple[Any, Any]:
    """The run directory to work in (new, or the one to resume) and the settings it runs with."""
    from ragkit.pipeline import BenchmarkOptions, new_run, open_run

    options = build_target_options(kw)
    if kw["resume"]:
        run = open_run(kw["resume"])
        _check_resume(ctx, run.spec, kw)
        spec: Any = run.spec
        kw["model"], kw["embeddings"] = spec.model, spec.embeddings
        settings = settings_from(kw)
        _check_gate(fail_under, fail_over, run.spec.metric_meta)
        if not kw["quiet"]:
            click.echo(f"Resuming {run.path}", err=True)
        return run, settings
    if not kw["target"]:
        raise click.UsageError("--target is required (or --resume RUN_DIR)")
    if not kw["docs"] and not kw["testset"]:
        raise click.UsageError("give DOCS (a document folder) or --testset")
    settings = settings_from(kw)
    metrics, generator_args = _plugin_specs(kw["metrics"], kw["plugin_args"])
    opts = BenchmarkOptions(
        docs=kw["docs"], testset=kw["testset"], testset_format=kw["data_format"], n=kw["n"], seed=kw["seed"],
        target=kw["target"],
        target_options=options, metrics=metrics, extractor=kw["extractor"], generators=parse_weights(kw["generators"]),
        generator_args=generator_args,
    )
    if fail_under or fail_over:  # planning the suite reads the test set: only when there is a gate to check
        _check_gate(fail_under, fail_over, _planned_metrics(opts))
    out = Path(kw["output"]) if kw["output"] else _default_dir(kw["target"])
    run = new_run(out, opts, settings, command=["ragkit", *sys.argv[1:]])
    if not kw["quiet"]:
        click.echo(f"Run directory: {run.path}", err=True)
    return run, settings


def _show(summary: Any, run: Any, gate: list[str], kw: dict[str, Any]) -> None:
    """The summary table and the report's path (unless --quiet), the JSON (with --json), the gate's failures."""
    from ragkit.report import print_summary

    if not kw["quiet"]:
        print_summary(summary)
        click.echo(f"Report: {run.report_path}", err=True)
    if kw["as_json"]:
        payload = summary.model_dump(mode="json")
        payload["gate"] = {"passed": not gate, "failures": gate}
        import json

        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    for line in gate:
        click.echo(f"FAILED: {line}", err=True)


def _planned_metrics(opts: Any) -> dict[str, Any]:
    from ragkit.pipeline import has_conversations, resolve_metrics

    _, meta = resolve_metrics(opts.metrics, conversations=opts.metrics is None and has_conversations(opts))
    return meta


def _check_gate(fail_under: dict[str, float], fail_over: dict[str, float], meta: dict[str, Any]) -> None:
    """A threshold on a metric the run lacks, or outside its range, is a usage error (exit 2)."""
    from ragkit.errors import ConfigError
    from ragkit.report import check_known

    try:
        check_known({**fail_under, **fail_over}, meta)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
