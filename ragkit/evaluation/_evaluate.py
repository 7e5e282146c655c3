"""The evaluation runner: samples × metrics → per-sample scores, aggregates and usage.

Metric keys: a metric's results are stored under its registry name, plus its arguments when they differ from
the defaults, sorted by name: ``faithfulness``, ``context_precision[reference=ids]``,
``factual_correctness[beta=0.5,mode=precision]``. Strings of that form are also accepted wherever a metric can be
named (``evaluate(samples, ["context_recall[reference=ids]"])``).

Failures: a sample whose response carries a target error gets ``SampleResult.error`` and a None score per
metric; a metric that fails on a sample (a ``JudgeError`` after every retry, or any other exception) gets a None
score whose ``details["error"]`` names the failure. Both are counted in ``Aggregate.failed`` and never abort the
run. Unscorable samples (None with an explanation, no error) are counted in ``Aggregate.unscorable``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ragkit._atomic import write_atomic
from ragkit._progress import Progress
from ragkit._sync import run_sync
from ragkit.errors import ConfigError, JudgeError, MissingFieldError, UnknownPluginError, redact
from ragkit.evaluation._claims import ClaimStore, MetricContext
from ragkit.llm import Judge
from ragkit.registry import MetricFn, MetricInfo, info_of, lookup, spec_of
from ragkit.types import EvalSample, PluginSpec, Score, Usage

if TYPE_CHECKING:
    import pandas as pd

    from ragkit.llm import Embeddings

log = logging.getLogger("ragkit")
FORMAT_VERSION = 1


class Aggregate(BaseModel):
    """One metric over the whole dataset. ``mean`` skips unscorable and failed samples."""

    mean: float | None
    count: int
    """Samples with a value."""
    unscorable: int = 0
    """Samples where the metric does not apply (None with an explanation)."""
    failed: int = 0
    """Samples where the judge or the target failed."""
    std: float | None = None
    min: float | None = None
    max: float | None = None
    higher_is_better: bool = True
    range: tuple[float, float] = (0.0, 1.0)


class SampleResult(BaseModel):
    """Every metric's score on one sample, keyed by metric key."""

    sample_id: str
    scores: dict[str, Score] = Field(default_factory=dict)
    error: str | None = None
    """The target's error for this sample (then no metric was run)."""
    seconds: float | None = None


class EvalResult(BaseModel):
    """What ``evaluate`` returns: per-sample scores, aggregates, the metric specs and the LLM usage."""

    format_version: int = FORMAT_VERSION
    samples: list[SampleResult]
    aggregates: dict[str, Aggregate]
    metrics: list[PluginSpec]
    usage: Usage = Field(default_factory=Usage)
    claim_stats: dict[str, int] = Field(default_factory=dict)
    """split / check calls made by the claim engine, memo hits, padded verdicts."""
    seconds: float = 0.0

    def to_pandas(self) -> pd.DataFrame:
        """One row per sample: ``sample_id``, ``error`` and one column per metric key (NaN-free: None → NA)."""
        import pandas as pd

        rows = []
        for s in self.samples:
            row: dict[str, Any] = {"sample_id": s.sample_id, "error": s.error}
            row.update({k: v.value for k, v in s.scores.items()})
            rows.append(row)
        return pd.DataFrame(rows, columns=["sample_id", "error", *self.aggregates])

    def _repr_html_(self) -> str:
        """The aggregates as a table (notebooks)."""
        from ragkit._tables import html_table

        rows = [(k, a.mean, a.std, a.count, a.unscorable, a.failed, "↑" if a.higher_is_better else "↓")
                for k, a in self.aggregates.items()]
        return html_table(("metric", "mean", "std", "scored", "unscorable", "failed", "better"), rows,
                          caption=f"ragkit evaluation · {len(self.samples)} samples")

    def to_json(self, path: str | Path | None = None, *, indent: int | None = 2) -> str:
        """The result as JSON (written to ``path`` when given)."""
        text = self.model_dump_json(indent=indent)
        if path is not None:
            write_atomic(path, text)
        return text

    @classmethod
    def from_json(cls, text_or_path: str | Path) -> EvalResult:
        path = Path(text_or_path) if not str(text_or_path).lstrip().startswith("{") else None
        return cls.model_validate_json(path.read_text(encoding="utf-8") if path else str(text_or_path))


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


# -- running --------------------------------------------------------------------------------------


def _failure(exc: BaseException) -> Score:
    kind = "judge error" if isinstance(exc, JudgeError) else f"metric error ({type(exc).__name__})"
    message = " ".join(redact(str(exc)).split())[:300] or type(exc).__name__
    return Score(value=None, explanation=f"{kind}: {message}", details={"error": type(exc).__name__})


async def _score_one(fn: MetricFn, sample: EvalSample, ctx: MetricContext) -> Score:
    try:
        result = await fn(sample, ctx)
    except Exception as exc:  # one failed call never loses the other results
        if isinstance(exc, JudgeError) and exc.fatal:
            raise  # every other call would fail the same way: stop the run with the reason
        if not isinstance(exc, JudgeError):
            log.warning("metric %s failed on sample %s", key_of(fn), sample.id, exc_info=True)
        return _failure(exc)
    if not isinstance(result, Score):
        return _failure(TypeError(f"metric returned {type(result).__name__}, not Score"))
    return result


async def score_sample(sample: EvalSample, fns: Sequence[MetricFn], ctx: MetricContext) -> SampleResult:
    """Every metric on one sample, concurrently (the claim store shares their LLM work)."""
    started = time.monotonic()
    keys = [key_of(fn) for fn in fns]
    if sample.response.error:
        note = f"target failed: {' '.join(sample.response.error.split())[:300]}"
        scores = {k: Score(value=None, explanation=note, details={"error": "target"}) for k in keys}
        return SampleResult(sample_id=sample.id, scores=scores, error=sample.response.error, seconds=0.0)
    results = await asyncio.gather(*(_score_one(fn, sample, ctx) for fn in fns))
    return SampleResult(sample_id=sample.id, scores=dict(zip(keys, results, strict=True)),
                        seconds=time.monotonic() - started)


def aggregate(results: Sequence[SampleResult], fns: Sequence[MetricFn]) -> dict[str, Aggregate]:
    out: dict[str, Aggregate] = {}
    for fn in fns:
        key, info = key_of(fn), info_of(fn)
        scores = [r.scores[key] for r in results if key in r.scores]
        values: list[float] = [s.value for s in scores if s.value is not None]
        failed = sum(1 for s in scores if s.value is None and "error" in s.details)
        mean = sum(values) / len(values) if values else None
        std = None
        if mean is not None and len(values) > 1:
            std = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        out[key] = Aggregate(
            mean=mean, count=len(values), unscorable=len(scores) - len(values) - failed, failed=failed, std=std,
            min=min(values, default=None), max=max(values, default=None),
            higher_is_better=info.higher_is_better, range=info.range,
        )
    return out


async def evaluate(
    samples: Sequence[EvalSample],
    metrics: Sequence[MetricFn | str],
    *,
    judge: Judge,
    embeddings: Embeddings | None = None,
    concurrency: int | None = None,
    progress: bool = True,
    on_result: Callable[[SampleResult], None] | None = None,
    claims: ClaimStore | None = None,
) -> EvalResult:
    """Score every sample with every metric.

    All samples are checked against every metric's required fields before the first LLM call. Samples run
    ``concurrency`` at a time (default: the judge's settings); ``on_result`` is called as each sample finishes.
    Results come back in the input order.

    Examples:
        >>> result = await evaluate(samples, ["faithfulness", "context_recall"], judge=Judge())
        >>> result.aggregates["faithfulness"].mean
    """
    fns = _prepare(samples, metrics)
    needs = frozenset().union(*(info_of(fn).uses for fn in fns))
    if embeddings is None and "embeddings" in needs:
        from ragkit.llm import Embeddings

        embeddings = Embeddings(settings=judge.settings)
    store = claims or ClaimStore(judge)
    known = frozenset(c.chunk_id for s in samples for c in s.test.reference_contexts if c.chunk_id)
    ctx = MetricContext(judge=judge, embeddings=embeddings, claims=store, needs=needs, reference_ids=known)
    limit = asyncio.Semaphore(max(1, concurrency or judge.settings.concurrency))
    before = judge.usage.stage("evaluate").model_copy()
    started = time.monotonic()
    results: list[SampleResult | None] = [None] * len(samples)

    calls = lambda: judge.usage.stage("evaluate").calls  # noqa: E731
    with judge.stage("evaluate"), Progress(progress and bool(samples), calls=calls) as bar:
        advance = bar.task("evaluate", len(samples))

        async def run(i: int, sample: EvalSample) -> None:
            async with limit:
                result = await score_sample(sample, fns, ctx)
            results[i] = result
            advance()
            if on_result is not None:
                on_result(result)

        await asyncio.gather(*(run(i, s) for i, s in enumerate(samples)))

    done = [r for r in results if r is not None]
    after = judge.usage.stage("evaluate")
    delta = after.since(before)
    return EvalResult(
        samples=done, aggregates=aggregate(done, fns), metrics=[spec_of(fn) for fn in fns],
        usage=Usage(stages={"evaluate": delta}), claim_stats=dict(vars(store.stats)),
        seconds=time.monotonic() - started,
    )


def _prepare(samples: Sequence[EvalSample], metrics: Sequence[MetricFn | str]) -> list[MetricFn]:
    """The metric functions, each chosen once, with every sample checked for their fields (before any call)."""
    fns = resolve_metrics(metrics)
    check_unique(fns)
    check_requirements(samples, fns)
    return fns


def check_unique(fns: Sequence[MetricFn]) -> None:
    """Refuse a metric chosen twice with the same arguments (its scores would overwrite each other)."""
    keys = [key_of(fn) for fn in fns]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ConfigError(f"metric chosen twice: {', '.join(duplicates)}")


def evaluate_sync(samples: Sequence[EvalSample], metrics: Sequence[MetricFn | str], **kwargs: Any) -> EvalResult:
    """``evaluate`` for synchronous code (also works inside a running event loop, e.g. a notebook)."""
    return run_sync(evaluate(samples, metrics, **kwargs))
