"""``ragkit config show``: the settings in force, each with where its value comes from."""

from __future__ import annotations

import json
import sys

import click

from ragkit.cli._options import json_option


@click.group()
def command() -> None:
    """The settings in force (flags > RAGKIT_* > ragkit.toml or [tool.ragkit] > defaults)."""


@command.command("show")
@json_option
def show(as_json: bool) -> None:
    """Print every setting, its value and its source."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ragkit.settings import Settings, config_file

    settings = Settings.load()
    rows = [(name, getattr(settings, name), Settings.source_of(name)) for name in Settings.model_fields]
    found = config_file()
    if as_json:
        click.echo(json.dumps({"config_file": str(found[0]) if found else None,
                               "settings": {n: {"value": str(v) if not isinstance(v, int | float | bool) else v,
                                                "source": src} for n, v, src in rows}}, indent=2))
        return
    table = Table(title="ragkit settings", title_justify="left")
    for col in ("setting", "value", "source"):
        table.add_column(col, overflow="fold")
    for name, value, source in rows:
        table.add_row(name, escape(str(value)), escape(source))
    console = Console(width=None if sys.stdout.isatty() else 140)  # pipes and files get whole values
    console.print(table)
    where = found[0] if found else "none (ragkit.toml, or [tool.ragkit] in pyproject.toml)"
    console.print(escape(f"config file: {where}"), highlight=False)
