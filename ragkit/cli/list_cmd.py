"""``ragkit list metrics|generators [--json]``: what is registered (built-ins and installed plugins)."""

from __future__ import annotations

import inspect
import json
from typing import Any

import click


def _arguments(target: Any) -> list[dict[str, Any]]:
    """Keyword arguments of a metric factory or a generator class, with defaults (or marked required)."""
    out = []
    for p in inspect.signature(target).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in ("self", "cls"):
            continue
        item: dict[str, Any] = {"name": p.name}
        if p.annotation is not p.empty:
            item["type"] = p.annotation if isinstance(p.annotation, str) else inspect.formatannotation(p.annotation)
        if p.default is p.empty:
            item["required"] = True
        else:
            item["default"] = p.default
        out.append(item)
    return out


def _summary(obj: Any) -> str:
    return (inspect.getdoc(obj) or "").strip().split("\n")[0]


def metric_rows() -> list[dict[str, Any]]:
    from ragkit.registry import available

    rows = []
    for name, info in available("metric").items():
        rows.append({
            "name": name,
            "arguments": _arguments(info.factory),
            "requires": list(info.requires),
            "range": list(info.range),
            "direction": "higher is better" if info.higher_is_better else "lower is better",
            "needs_llm": info.needs_llm,
            "description": info.description,
            "module": getattr(info.factory, "__module__", ""),
        })
    return rows


def generator_rows() -> list[dict[str, Any]]:
    from ragkit.registry import available

    return [
        {"name": name, "arguments": _arguments(cls), "description": _summary(cls), "module": cls.__module__}
        for name, cls in available("generator").items()
    ]


def _format_args(args: list[dict[str, Any]]) -> str:
    parts = []
    for a in args:
        parts.append(f"{a['name']} (required)" if a.get("required") else f"{a['name']}={a['default']!r}")
    return ", ".join(parts) or "-"


@click.command()
@click.argument("kind", type=click.Choice(["metrics", "generators"]))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def command(kind: str, as_json: bool) -> None:
    """List the registered metrics or generators with their arguments."""
    rows = metric_rows() if kind == "metrics" else generator_rows()
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2, default=repr))
        return
    if not rows:
        click.echo(f"No {kind} registered.")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"ragkit {kind}", show_lines=False, expand=False)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("arguments", overflow="fold")
    if kind == "metrics":
        table.add_column("requires", overflow="fold")
        table.add_column("range", no_wrap=True)
        table.add_column("direction", no_wrap=True)
    table.add_column("description", overflow="fold")
    for row in rows:
        cells = [row["name"], _format_args(row["arguments"])]
        if kind == "metrics":
            low, high = row["range"]
            needs = ", ".join(row["requires"]) or "-"
            arrow = "higher ↑" if row["direction"].startswith("higher") else "lower ↓"
            cells += [needs + ("" if row["needs_llm"] else " (no LLM)"), f"[{low:g}, {high:g}]", arrow]
        cells.append(row["description"])
        table.add_row(*cells)
    Console(soft_wrap=False).print(table)
