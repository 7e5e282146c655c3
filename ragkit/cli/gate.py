"""``ragkit gate RUN --fail-under METRIC=VALUE ...``: a CI gate on any run directory, with a JUnit report."""

from __future__ import annotations

import json
from typing import Any

import click

from ragkit.cli._options import json_option, max_failed_option, quiet_option


def write_junit(path: str | None, gate: list[Any], unreliable: str | None) -> None:
    """The gate as JUnit XML at ``path`` (nothing when no path is given)."""
    if not path:
        return
    from ragkit._atomic import write_atomic
    from ragkit.report import junit_xml

    write_atomic(path, junit_xml(gate, unreliable=unreliable))


junit_option = click.option("--junit", type=click.Path(dir_okay=False),
                            help="Also write the gate as JUnit XML (one test case per threshold) for CI.")


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--fail-under", multiple=True, metavar="METRIC=VALUE", help="Fail if the metric's mean is below.")
@click.option("--fail-over", multiple=True, metavar="METRIC=VALUE",
              help="Fail if the metric's mean is above (for lower-is-better metrics).")
@max_failed_option
@junit_option
@json_option
@quiet_option
def command(run_dir: str, fail_under: tuple[str, ...], fail_over: tuple[str, ...], max_failed: float,
            junit: str | None, as_json: bool, quiet: bool) -> None:
    """Check RUN_DIR (from benchmark, run + evaluate, or evaluate -o) against thresholds.

    Exit 0 when every threshold passes, 3 when one fails, 4 when more scores failed than --max-failed allows,
    2 for a threshold on a metric the run lacks (or outside its range).

    \b
    ragkit gate runs/nightly --fail-under faithfulness=0.8 --fail-under context_recall=0.7 --junit gate.xml
    """
    from ragkit.cli import EXIT_FAILED_SCORES, EXIT_GATE
    from ragkit.report import check_known, checks, failed_share, parse_thresholds, summarize, too_many_failed
    from ragkit.runs import RunDir

    under, over = parse_thresholds(fail_under), parse_thresholds(fail_over, "--fail-over")
    run = RunDir.open(run_dir)
    check_known({**under, **over}, run.spec.metric_meta)
    summary = summarize(run)
    gate = checks(summary, under, over)
    share = failed_share((m.failed, m.scored + m.unscorable + m.failed) for m in summary.metrics.values())
    unreliable = too_many_failed(share, max_failed)
    write_junit(junit, gate, unreliable)
    if as_json:
        click.echo(json.dumps({"passed": all(c.passed for c in gate) and not unreliable,
                               "checks": [c._asdict() for c in gate], "failed_share": share}, indent=2))
    for c in gate:
        if not c.passed:
            click.echo(f"FAILED: {c.message}", err=True)
        elif not quiet:
            click.echo(f"passed: {c.name} (mean {c.value:.3f})", err=True)
    if unreliable:
        click.echo(f"FAILED: {unreliable}", err=True)
        click.get_current_context().exit(EXIT_FAILED_SCORES)
    if not all(c.passed for c in gate):
        click.get_current_context().exit(EXIT_GATE)
