"""``ragkit report RUN_DIR [-o report.html]``: the terminal summary and the self-contained HTML report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="HTML file (default RUN_DIR/report.html).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON to stdout.")
@click.option("--quiet", "-q", is_flag=True, help="No terminal summary.")
def command(run_dir: str, output: str | None, as_json: bool, quiet: bool) -> None:
    """Summarise a run (finished or not) and write its HTML report."""
    from ragkit.report import print_summary, render_report, summarize
    from ragkit.runs import RunDir

    run = RunDir.open(run_dir)
    summary = summarize(run)
    out = Path(output) if output else run.report_path
    out.write_text(render_report(run, summary), encoding="utf-8")
    if not quiet:
        print_summary(summary)
    click.echo(f"Report: {out}", err=True)
    if as_json:
        payload: Any = summary.model_dump(mode="json")
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
