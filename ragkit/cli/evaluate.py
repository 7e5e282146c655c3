"""``ragkit evaluate DATA -m METRIC ...``: score a dataset of answered questions and print the aggregates."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ragkit._sync import run_sync
from ragkit.cli._options import (
    executor_options,
    format_option,
    json_option,
    max_failed_option,
    model_options,
    output_option,
    parse_plugin_args,
    plugin_args_option,
    progress_enabled,
    progress_option,
    quiet_option,
    settings_from,
)
from ragkit.errors import ConfigError, MissingFieldError
from ragkit.registry import MetricFn, spec_of


def _choose(names: tuple[str, ...], all_metrics: bool, args: dict[str, dict[str, Any]]) -> list[MetricFn]:
    from ragkit.evaluation import build_metric
    from ragkit.registry import available

    chosen = list(dict.fromkeys(names))
    if all_metrics:
        chosen += [n for n in available("metric") if n not in chosen]
    if not chosen:
        raise ConfigError("choose metrics with -m NAME (repeatable) or --all; `ragkit list metrics` shows them")
    bases = {n.split("[")[0] for n in chosen}
    stray = sorted(set(args) - bases)
    if stray:
        raise ConfigError(f"-A names metric(s) {', '.join(stray)} that are not chosen with -m")
    return [build_metric(n, args.get(n.split("[")[0])) for n in chosen]


def _usable(samples: list[Any], fns: list[MetricFn]) -> tuple[list[MetricFn], dict[str, str]]:
    """For --all: the metrics the data can feed, and why the others are skipped."""
    from ragkit.evaluation import check_requirements, key_of

    usable, skipped = [], {}
    for fn in fns:
        try:
            check_requirements(samples, [fn])
            usable.append(fn)
        except MissingFieldError as exc:
            skipped[key_of(fn)] = exc.problems[0].split(" needs ", 1)[-1]
    return usable, skipped


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _print_table(result: Any, skipped: dict[str, str]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"ragkit evaluate · {len(result.samples)} samples", title_justify="left")
    table.add_column("metric", no_wrap=True)
    for col, justify in (("mean", "right"), ("std", "right"), ("scored", "right"), ("unscorable", "right"),
                         ("failed", "right"), ("better", "center")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for key, agg in result.aggregates.items():
        table.add_row(key, _fmt(agg.mean), _fmt(agg.std), str(agg.count), str(agg.unscorable),
                      str(agg.failed) if not agg.failed else f"[red]{agg.failed}[/red]",
                      "↑" if agg.higher_is_better else "↓")
    console = Console(width=None if sys.stdout.isatty() else 120)  # pipes and files get whole metric names
    console.print(table)
    for key, why in skipped.items():
        console.print(f"[dim]skipped {key}: needs {why}[/dim]", highlight=False)
    total = result.usage.total
    errors = sum(1 for s in result.samples if s.error)
    console.print(
        f"LLM: {total.calls} calls ({total.cache_hits} cached), {total.prompt_tokens} prompt "
        f"({total.reused_tokens} reused) + {total.completion_tokens} completion tokens, ${total.cost_usd:.4f}; "
        "claim engine: "
        f"{result.claim_stats.get('split_calls', 0)} splits, {result.claim_stats.get('check_calls', 0)} checks, "
        f"{result.claim_stats.get('value_calls', 0)} number clozes; "
        f"{result.seconds:.1f} s" + (f"; {errors} samples with target errors" if errors else ""),
        highlight=False,
    )


@click.command()
@click.argument("data")
@format_option
@click.option("-m", "--metric", "metrics", multiple=True, metavar="NAME",
              help="Metric to compute (repeatable); NAME[arg=value] picks a variant.")
@plugin_args_option
@click.option("--all", "all_metrics", is_flag=True, help="Every metric the data has the fields for.")
@click.option("--limit", type=click.IntRange(1), help="Score only the first N samples.")
@output_option("A run directory to write (scores, summary, report.html), or a .json file for the full results.")
@max_failed_option
@model_options
@executor_options
@json_option
@quiet_option
@progress_option
def command(data: str, metrics: tuple[str, ...], plugin_args: tuple[str, ...], all_metrics: bool,
            limit: int | None, output: str | None, as_json: bool, max_failed: float, **kw: Any) -> None:
    """Score DATA (answers in any format ragkit reads, or a run directory) with the chosen metrics.

    \b
    ragkit evaluate runs/mine                          # a run from `ragkit run`: the default suite, in place
    ragkit evaluate answers.jsonl -m faithfulness -o runs/imported
    ragkit evaluate ragas.csv --all -o results.json
    """
    from ragkit.runs import load_samples

    in_place = Path(data).is_dir() and (Path(data) / "spec.json").is_file() and output in (None, data)
    if in_place or (output and not output.lower().endswith(".json")):
        _into_run(data, output or data, in_place, metrics, plugin_args, all_metrics, limit, as_json, max_failed, kw)
        return
    samples = load_samples(data, format=kw.pop("data_format"))
    if limit is not None:
        samples = samples[: max(0, limit)]
    fns, skipped = _metrics_for(samples, metrics, plugin_args, all_metrics)
    _score_file(samples, fns, skipped, output, as_json, max_failed, kw)


def _metrics_for(samples: list[Any], metrics: tuple[str, ...], plugin_args: tuple[str, ...], all_metrics: bool
                 ) -> tuple[list[MetricFn], dict[str, str]]:
    """The chosen metrics (with --all, those the data can feed) and why the others were skipped."""
    from ragkit.evaluation import check_requirements

    fns = _choose(metrics, all_metrics, parse_plugin_args(plugin_args))
    skipped: dict[str, str] = {}
    if all_metrics:
        explicit = {n.split("[")[0] for n in metrics}
        forced = [fn for fn in fns if spec_of(fn).name in explicit]
        check_requirements(samples, forced)
        usable, skipped = _usable(samples, [fn for fn in fns if fn not in forced])
        fns = forced + usable
        if not fns:
            raise ConfigError("the data has the fields of no metric")
    return fns, skipped


def _score_file(samples: list[Any], fns: list[MetricFn], skipped: dict[str, str], output: str | None,
                as_json: bool, max_failed: float, kw: dict[str, Any]) -> None:
    from ragkit.evaluation import evaluate
    from ragkit.executors import make_executor
    from ragkit.llm import Judge
    from ragkit.report import failed_share

    show = progress_enabled(kw)
    settings = settings_from(kw)
    judge = Judge(settings=settings)
    result = run_sync(evaluate(samples, fns, judge=judge, progress=show, executor=make_executor(settings)))
    if output:
        result.to_json(output)
    if as_json:
        click.echo(result.model_dump_json(include={"aggregates", "usage", "claim_stats", "seconds"}, indent=2))
    elif not kw["quiet"]:
        _print_table(result, skipped)
        if output:
            click.echo(f"Results written to {output}", err=True)
    share = failed_share((a.failed, a.count + a.unscorable + a.failed) for a in result.aggregates.values())
    _check_failed(share, max_failed)


def _into_run(data: str, output: str, in_place: bool, metrics: tuple[str, ...], plugin_args: tuple[str, ...],
              all_metrics: bool, limit: int | None, as_json: bool, max_failed: float, kw: dict[str, Any]) -> None:
    """Score into a run directory: the one named (in place), or a new one importing DATA's answers."""
    from ragkit.llm import Embeddings, Judge
    from ragkit.pipeline import Pipeline, import_answers, open_run, set_metrics
    from ragkit.report import failed_share, print_summary
    from ragkit.runs import load_samples

    samples = load_samples(data, format=kw.pop("data_format"))[:limit]
    specs = None
    if metrics or all_metrics:
        fns, _ = _metrics_for(samples, metrics, plugin_args, all_metrics)
        specs = [spec_of(fn) for fn in fns]
    if in_place:
        run = open_run(data)
        set_metrics(run, specs)
        kw["model"], kw["embeddings"] = kw.get("model") or run.spec.model, kw.get("embeddings") or run.spec.embeddings
    else:
        run = import_answers(output, samples, data, settings_from(dict(kw)), metrics=specs,
                             command=["ragkit", *sys.argv[1:]])
    settings = settings_from(kw)
    say = (lambda msg: None) if kw["quiet"] else (lambda msg: click.echo(msg, err=True))
    pipeline = Pipeline(run, judge=Judge(settings=settings), embeddings=Embeddings(settings=settings),
                        settings=settings, progress=progress_enabled(kw), say=say)
    try:
        summary = run_sync(pipeline.score())
    finally:
        run.close()
    if as_json:
        click.echo(summary.model_dump_json(indent=2))
    elif not kw["quiet"]:
        print_summary(summary)
        click.echo(f"Report: {run.report_path}", err=True)
    _check_failed(failed_share((m.failed, m.scored + m.unscorable + m.failed) for m in summary.metrics.values()),
                  max_failed)


def _check_failed(share: float, max_failed: float) -> None:
    """Exit 4 when more of the scores failed than ``max_failed`` allows (the means would mislead)."""
    from ragkit.cli import EXIT_FAILED_SCORES
    from ragkit.report import too_many_failed

    unreliable = too_many_failed(share, max_failed)
    if unreliable:
        click.echo(f"FAILED: {unreliable}", err=True)
        click.get_current_context().exit(EXIT_FAILED_SCORES)
