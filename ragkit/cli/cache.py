"""``ragkit cache stats`` and ``ragkit cache clear [--model M]``: what the reply and embedding cache holds."""

from __future__ import annotations

import json
from typing import Any

import click

from ragkit.cli._options import cache_dir_option, json_option
from ragkit.text import size_text


@click.group()
def command() -> None:
    """Inspect or empty the cache of judge replies, embeddings and graph enrichment (models stay)."""


def _open(cache_dir: str | None) -> Any:
    from ragkit.llm import Cache
    from ragkit.settings import Settings

    path = Settings.load(cache_dir=cache_dir).llm_cache_path
    return Cache(path) if path.exists() else None


@command.command()
@cache_dir_option
@json_option
def stats(cache_dir: str | None, as_json: bool) -> None:
    """Entries and size per kind (llm, embedding, kg.enrich) and model."""
    cache = _open(cache_dir)
    rows = cache.stats() if cache is not None else []
    if as_json:
        click.echo(json.dumps({"path": str(cache.path) if cache else None,
                               "entries": [vars(r) for r in rows]}, indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo("The cache is empty.")
        return
    width = max(len(r.model or "-") for r in rows)
    click.echo(f"{'kind':<10} {'model':<{width}} {'entries':>8} {'size':>10}")
    for r in rows:
        click.echo(f"{r.namespace:<10} {r.model or '-':<{width}} {r.entries:>8} {size_text(r.bytes):>10}")
    click.echo(f"{cache.path}: {sum(r.entries for r in rows)} entries; '-': written before ragkit recorded models")


@command.command()
# not the shared --model: it names whose entries to delete (a judge or an embedding model), and it has no
# RAGKIT_MODEL twin on purpose, so that a variable set for other verbs never narrows what `clear` deletes
@click.option("--model", "only_model", help="Only the entries of this model (as shown by `ragkit cache stats`).")
@cache_dir_option
def clear(only_model: str | None, cache_dir: str | None) -> None:
    """Delete cached entries: all of them, or one model's. The next run asks the model again."""
    model = only_model
    cache = _open(cache_dir)
    if cache is None:
        click.echo("The cache is empty.")
        return
    if model is not None and model not in {r.model for r in cache.stats()}:
        from ragkit.errors import ConfigError

        known = sorted({r.model for r in cache.stats() if r.model})
        raise ConfigError(f"--model: no cached entries of '{model}'; cached models: {', '.join(known) or 'none'}")
    n = cache.clear(model=model)
    click.echo(f"Deleted {n} entries{f' of {model}' if model else ''} from {cache.path}.")


