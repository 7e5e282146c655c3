"""``ragkit export SOURCE --to FORMAT -o OUT``: a test set, answers or a run, in another tool's format."""

from __future__ import annotations

import click

from ragkit.cli._options import format_option


@click.command()
@click.argument("source")
@click.option("--to", "to", required=True,
              type=click.Choice(["ragkit", "ragas", "ragchecker", "deepeval", "giskard", "hf", "csv", "parquet"]),
              help="ragas / giskard / ragkit: JSONL (ragas: CSV or parquet when OUT ends so); deepeval: a JSON "
                   "list of goldens; ragchecker: its input JSON; hf: a datasets save_to_disk folder; csv and "
                   "parquet: ragas's columns.")
@click.option("-o", "--output", required=True, type=click.Path(), help="The file (or, for hf, folder) to write.")
@format_option
def command(source: str, to: str, output: str, data_format: str | None) -> None:
    """Write SOURCE (a test set or answers in any format ragkit reads, or a run directory) as FORMAT.

    \b
    ragkit export runs/RUN --to ragas -o run.jsonl
    ragkit export testset.jsonl --to deepeval -o goldens.json
    ragkit export goldens.json --to hf -o testset_hf/
    """
    from ragkit.runs import load_samples, write_samples

    samples = load_samples(source, format=data_format)
    path = write_samples(samples, output, to)
    click.echo(f"{len(samples)} samples -> {path} ({to})", err=True)
