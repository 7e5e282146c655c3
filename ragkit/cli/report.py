"""``ragkit report RUN_DIR [-o report.html]``: the terminal summary and the self-contained HTML report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ragkit._atomic import write_atomic
from ragkit.cli._options import json_option, output_option, quiet_option


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@output_option("HTML file (default RUN_DIR/report.html).", dir_okay=False)
@json_option
@quiet_option
def command(run_dir: str, output: str | None, as_json: bool, quiet: bool) -> None:
    """Summarise a run (finished or not) and write its HTML report."""
    from ragkit.report import print_summary, render_report, summarize
    from ragkit.runs import RunDir

    run = RunDir.open(run_dir)
    summary = summarize(run)
    out = Path(output) if output else run.report_path
    write_atomic(out, render_report(run, summary))
    if not quiet:
        print_summary(summary)
    click.echo(f"Report: {out}", err=True)
    if as_json:
        payload: Any = summary.model_dump(mode="json")
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
