"""``ragkit calibrate LABELS``: score your own labelled samples and see how far each metric agrees with you."""

from __future__ import annotations

from typing import Any

import click

from ragkit._sync import run_sync
from ragkit.cli._options import (
    json_option,
    model_options,
    output_option,
    parse_plugin_args,
    plugin_args_option,
    progress_enabled,
    progress_option,
    quiet_option,
    settings_from,
)
from ragkit.errors import ConfigError


def _calibrations(labelled: list[Any], result: Any, fns: list[Any]) -> dict[str, Any]:
    """Per metric key: its agreement with the labels given under its key or its name."""
    from ragkit.calibration import calibrate_metric, label_kind
    from ragkit.evaluation import key_of
    from ragkit.registry import spec_of

    by_id = {r.sample_id: r for r in result.samples}
    out = {}
    for fn in fns:
        key, name = key_of(fn), spec_of(fn).name
        pairs = []
        for item in labelled:
            label = item.labels.get(key, item.labels.get(name))
            score = by_id[item.sample.id].scores.get(key)
            if label is not None and score is not None and score.value is not None:
                pairs.append((score.value, label))
        if len(pairs) < 2:
            raise ConfigError(f"{key}: only {len(pairs)} labelled sample(s) could be scored; calibration needs "
                              "at least 2 (and both good and bad ones for AUC and a threshold)")
        scores, labels = [p[0] for p in pairs], [p[1] for p in pairs]
        out[key] = calibrate_metric(label_kind(key, labels), scores, labels)
    return out


@click.command()
@click.argument("labels", type=click.Path(dir_okay=False))
@click.option("-m", "--metric", "metrics", multiple=True, metavar="NAME",
              help="Metric to calibrate (repeatable); default: every metric the labels name.")
@plugin_args_option
@click.option("--save/--no-save", default=True, show_default=True,
              help="Keep the calibration for later runs by this judge.")
@output_option("Also write the calibration as JSON here.", dir_okay=False)
@model_options
@json_option
@quiet_option
@progress_option
def command(labels: str, metrics: tuple[str, ...], plugin_args: tuple[str, ...], save: bool, output: str | None,
            as_json: bool, **kw: Any) -> None:
    """Score LABELS, your own samples with human labels (0/1 or 1–5 per metric), and report how far each metric
    agrees: ROC-AUC, the best threshold with Cohen's kappa, Spearman for 1–5 labels."""
    from pathlib import Path

    from ragkit.calibration import Calibration, calibration_path, read_labels, save_calibration
    from ragkit.evaluation import build_metric, evaluate
    from ragkit.llm import Judge

    args = parse_plugin_args(plugin_args)
    chosen = [build_metric(n, args.get(n.split("[")[0])) for n in dict.fromkeys(metrics)]  # names before files
    labelled = read_labels(labels)
    names = sorted({n for item in labelled for n in item.labels})
    fns = chosen or [build_metric(n, args.get(n.split("[")[0])) for n in names]
    settings = settings_from(kw)
    judge = Judge(settings=settings)
    result = run_sync(evaluate([i.sample for i in labelled], fns, judge=judge, progress=progress_enabled(kw)))
    calibration = Calibration(judge=judge.model, labels_file=str(labels),
                              metrics=_calibrations(labelled, result, fns))
    saved = calibration_path(judge.model, settings) if save else None
    if saved is not None:
        save_calibration(calibration, saved)
    if output:
        save_calibration(calibration, Path(output))
    if as_json:
        click.echo(calibration.model_dump_json(indent=2, exclude={"metrics": {"__all__": {"pairs"}}}))
    elif not kw["quiet"]:
        from ragkit.report import print_calibration

        print_calibration(calibration, saved)
