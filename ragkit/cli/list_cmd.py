"""``ragkit list metrics|generators [NAME] [--json]``: what is registered (built-ins and installed plugins).

The table is one line per plugin (name, and for metrics direction, range and what it is built on), readable at
80 columns; ``ragkit list metrics NAME`` and ``--json`` give the details.
"""

from __future__ import annotations

import inspect
import json
from typing import Any

import click

from ragkit.cli._options import json_option


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


def _doc(obj: Any) -> str:
    return (inspect.getdoc(obj) or "").strip()


def _default_info(info: Any) -> Any:
    """The record of the metric as built with its default arguments (a variant may differ from the factory's
    declaration: ``aspect_critique`` defaults to harmfulness, where lower is better)."""
    from ragkit.registry import info_of

    try:
        return info_of(info.factory())
    except Exception:  # required arguments, or a factory that refuses its defaults: the declaration stands
        return info


def metric_rows() -> list[dict[str, Any]]:
    from ragkit.registry import available

    rows = []
    for name, declared in available("metric").items():
        info = _default_info(declared)
        rows.append({
            "name": name,
            "arguments": _arguments(declared.factory),
            "requires": list(info.requires),
            "range": list(info.range),
            "direction": "higher is better" if info.higher_is_better else "lower is better",
            "uses": sorted(info.uses),
            "kind": info.kind,
            "needs_llm": info.needs_llm,
            "calls_per_sample": info.estimated_calls(),
            "description": info.description,
            "doc": _doc(declared.factory),
            "module": getattr(declared.factory, "__module__", ""),
        })
    return rows


def generator_rows() -> list[dict[str, Any]]:
    from ragkit.registry import available

    return [
        {"name": name, "arguments": _arguments(cls), "passages": cls.info.passages, "answerable": cls.info.answerable,
         "calls_per_candidate": cls.info.calls, "description": cls.info.description, "doc": _doc(cls),
         "module": cls.__module__}
        for name, cls in available("generator").items()
    ]


def _format_args(args: list[dict[str, Any]]) -> str:
    parts = []
    for a in args:
        parts.append(f"{a['name']} (required)" if a.get("required") else f"{a['name']}={a['default']!r}")
    return ", ".join(parts) or "-"


def _details(row: dict[str, Any], kind: str) -> str:
    lines = [row["name"], "", row["doc"] or row["description"], "", f"arguments: {_format_args(row['arguments'])}"]
    if kind == "metrics":
        low, high = row["range"]
        lines += [f"requires:  {', '.join(row['requires']) or '-'}",
                  f"range:     [{low:g}, {high:g}], {row['direction']}",
                  f"uses:      {', '.join(row['uses']) or 'no model'} (about {row['calls_per_sample']:g} LLM calls "
                  "per sample alone; claim work is shared between metrics)"]
    else:
        lines += [f"passages:  {row['passages']} per sample" + ("" if row["answerable"] else ", not answerable"),
                  f"calls:     about {row['calls_per_candidate']:g} LLM calls per candidate"]
    lines.append(f"module:    {row['module']}")
    return "\n".join(lines)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _table(rows: list[dict[str, Any]], kind: str) -> None:
    """One line per plugin; only the description gives way (…) on a narrow terminal."""
    import shutil

    columns = shutil.get_terminal_size((80, 24)).columns
    cells = []
    for row in rows:
        cell = [row["name"]]
        if kind == "metrics":
            low, high = row["range"]
            cell += [f"{'↑' if row['direction'].startswith('higher') else '↓'} {low:g}–{high:g}", row["kind"]]
        cells.append(cell)
    header = ["name", "better", "uses"] if kind == "metrics" else ["name"]
    widths = [max(len(c[i]) for c in [header, *cells]) for i in range(len(header))]
    room = max(20, columns - sum(widths) - 2 * len(widths))

    def line(parts: list[str], description: str) -> str:
        return "  ".join(p.ljust(w) for p, w in zip(parts, widths, strict=True)) + "  " + _clip(description, room)

    click.echo(line(header, "description"))
    for cell, row in zip(cells, rows, strict=True):
        click.echo(line(cell, row["description"]))
    click.echo(f"Details: ragkit list {kind} NAME, or --json.", err=True)


@click.command()
@click.argument("kind", type=click.Choice(["metrics", "generators"]))
@click.argument("name", required=False)
@json_option
def command(kind: str, name: str | None, as_json: bool) -> None:
    """List the registered metrics or generators; with NAME, one of them in full."""
    rows = metric_rows() if kind == "metrics" else generator_rows()
    if name is not None:
        from ragkit.registry import lookup

        lookup("metric" if kind == "metrics" else "generator", name)  # unknown: one line with did-you-mean
        rows = [r for r in rows if r["name"] == name]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2, default=repr))
    elif not rows:
        click.echo(f"No {kind} registered.")
    elif name is not None:
        click.echo(_details(rows[0], kind))
    else:
        _table(rows, kind)
