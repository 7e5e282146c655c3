"""Metrics by name and key (``context_recall[reference=ids]``), and the check of every sample's fields against
every metric's requirements before the first LLM call."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ragkit.errors import ConfigError, MissingFieldError, UnknownPluginError
from ragkit.registry import MetricFn, MetricInfo, info_of, lookup, spec_of
from ragkit.types import EvalSample, PluginSpec

# -- metrics by name ------------------------------------------------------------------------------

_KEY = re.compile(r"^\s*([\w./-]+)\s*(?:\[(.*)\])?\s*$")


def parse_value(raw: str) -> Any:
    """A CLI / key argument value: JSON (numbers, true/false/null, lists, objects), else the plain string."""
    text = raw.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    lowered = text.lower()
    if lowered in ("true", "false", "none", "null"):
        return {"true": True, "false": False}.get(lowered)
    if "," in text:
        return [parse_value(part) for part in text.split(",")]
    return text


def _format_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def metric_key(spec: PluginSpec, info: MetricInfo | None = None) -> str:
    """The result key of a metric: its name, plus its non-default arguments in brackets.

    Without ``info`` the defaults come from the registry (all arguments are shown for an unknown metric).
    """
    if info is None:
        try:
            info = lookup("metric", spec.name)
        except UnknownPluginError:
            info = None
    defaults = info.arguments() if info is not None else {}
    changed = {k: v for k, v in sorted(spec.args.items()) if k not in defaults or _norm(v) != _norm(defaults[k])}
    if not changed:
        return spec.name
    return f"{spec.name}[{','.join(f'{k}={_format_value(v)}' for k, v in changed.items())}]"


def _norm(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _split_args(body: str) -> dict[str, Any]:
    args: dict[str, Any] = {}
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(body):
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    for part in filter(str.strip, parts):
        name, sep, raw = part.partition("=")
        if not sep:
            raise ConfigError(f"metric argument {part.strip()!r} is not of the form name=value")
        args[name.strip()] = parse_value(raw)
    return args


def build_metric(name: str, args: dict[str, Any] | None = None) -> MetricFn:
    """A metric scoring function from a registry name or key (``context_precision[reference=ids]``)."""
    match = _KEY.match(name)
    if not match:
        raise ConfigError(f"bad metric name {name!r}")
    info: MetricInfo = lookup("metric", match.group(1))
    all_args = {**(_split_args(match.group(2)) if match.group(2) else {}), **(args or {})}
    unknown = set(all_args) - set(info.arguments())
    if unknown:
        accepted = ", ".join(info.arguments()) or "none"
        raise ConfigError(f"metric '{info.name}' has no argument {', '.join(sorted(unknown))} (accepted: {accepted})")
    try:
        return info.factory(**all_args)
    except TypeError as exc:
        raise ConfigError(f"metric '{info.name}': {exc}") from None


def resolve_metrics(metrics: Sequence[MetricFn | str]) -> list[MetricFn]:
    fns = [build_metric(m) if isinstance(m, str) else m for m in metrics]
    if not fns:
        raise ConfigError("no metrics chosen")
    for fn in fns:
        if not isinstance(getattr(fn, "info", None), MetricInfo):
            raise ConfigError(f"{fn!r} is not a registered metric: build it with a @metric factory")
    return fns


def key_of(fn: MetricFn) -> str:
    return metric_key(spec_of(fn), info_of(fn))


def requirements(fn: MetricFn) -> tuple[str, ...]:
    """The sample fields a metric needs (its variant's own list)."""
    return info_of(fn).requires


# -- validation -----------------------------------------------------------------------------------


def _get(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = getattr(obj, part, None) if not isinstance(obj, dict) else obj.get(part)
        if obj is None:
            return None
    return obj


def _field_missing(sample: EvalSample, path: str) -> bool:
    if "[]." in path:
        list_path, attr = path.split("[].", 1)
        items = _get(sample, list_path) or []
        if list_path.startswith("test.") and not items:
            return True
        return any(not _get(item, attr) for item in items)
    value = _get(sample, path)
    return value is None or (isinstance(value, str | list | dict) and not value)


def check_requirements(samples: Sequence[EvalSample], fns: Sequence[MetricFn]) -> None:
    """Raise one MissingFieldError listing every (metric, field) the dataset lacks, before any LLM call.

    Annotation fields (``test.*``) must be present on every sample. A response field (``response.*``) may be
    empty on some samples, which the metrics score (an empty retrieval has recall 0); it is missing when it is
    empty on every sample whose target did not fail, which means the data has no such column.
    """
    problems: list[str] = []
    ok = [s for s in samples if not s.response.error]
    for fn in fns:
        for path in requirements(fn):
            pool = samples if path.startswith("test.") or "[]." in path else ok
            missing = [s.id for s in pool if _field_missing(s, path)]
            if path.startswith("response.") and "[]." not in path and len(missing) < len(pool):
                continue
            if missing:
                first = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
                problems.append(f"metric '{key_of(fn)}' needs {path}, missing on {len(missing)} of "
                                f"{len(pool)} samples (first: {first})")
    if problems:
        raise MissingFieldError(problems)


def check_unique(fns: Sequence[MetricFn]) -> None:
    """Refuse a metric chosen twice with the same arguments (its scores would overwrite each other)."""
    keys = [key_of(fn) for fn in fns]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ConfigError(f"metric chosen twice: {', '.join(duplicates)}")
