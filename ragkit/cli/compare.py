"""``ragkit compare RUN_A RUN_B [-o compare.html]``: is B better than A, per metric, beyond noise?"""

from __future__ import annotations

import json

import click

from ragkit._atomic import write_atomic
from ragkit.cli._options import json_option, output_option


@click.command()
@click.argument("run_a", type=click.Path(exists=True, file_okay=False))
@click.argument("run_b", type=click.Path(exists=True, file_okay=False))
@output_option("Also write the comparison as HTML.", dir_okay=False)
@json_option
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
def command(run_a: str, run_b: str, output: str | None, as_json: bool, seed: int) -> None:
    """Per-metric difference B − A on shared samples, with a paired bootstrap 95% CI and a verdict."""
    from ragkit.report import compare_runs, print_comparison, render_comparison
    from ragkit.runs import RunDir

    comparison = compare_runs(RunDir.open(run_a), RunDir.open(run_b), seed=seed)
    print_comparison(comparison)
    if output:
        write_atomic(output, render_comparison(comparison))
        click.echo(f"Comparison: {output}", err=True)
    if as_json:
        click.echo(json.dumps(comparison.model_dump(mode="json"), indent=2, ensure_ascii=False))
