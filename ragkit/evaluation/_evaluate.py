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

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ragkit._progress import Progress
from ragkit._sync import run_sync
from ragkit.evaluation._claims import ClaimStore
from ragkit.evaluation._metric_keys import check_requirements, check_unique, resolve_metrics
from ragkit.evaluation._results import EvalResult, SampleResult
from ragkit.evaluation._scoring import ScoreWork, aggregate
from ragkit.executors import Executor, LocalExecutor
from ragkit.llm import Judge
from ragkit.registry import MetricFn, spec_of
from ragkit.types import EvalSample, StageUsage, Usage

if TYPE_CHECKING:
    from ragkit.llm import Embeddings


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
    executor: Executor | None = None,
) -> EvalResult:
    """Score every sample with every metric.

    All samples are checked against every metric's required fields before the first LLM call. Samples run
    ``concurrency`` at a time per worker (default: the judge's settings) on ``executor`` (default: this
    process; a Ray executor spreads them over actors); ``on_result`` is called in this process as each sample
    finishes. Results come back in the input order.

    Examples:
        >>> result = await evaluate(samples, ["faithfulness", "context_recall"], judge=Judge())
        >>> result.aggregates["faithfulness"].mean
    """
    fns = _prepare(samples, metrics)
    executor = executor or LocalExecutor()
    known = frozenset(c.chunk_id for s in samples for c in s.test.reference_contexts if c.chunk_id)
    work = ScoreWork(fns, judge, embeddings=embeddings, claims=claims, reference_ids=known)
    started = time.monotonic()
    results: list[SampleResult | None] = [None] * len(samples)
    calls = lambda: judge.usage.stage("evaluate").calls  # noqa: E731 (a Ray run counts its calls at the end)
    with judge.stage("evaluate"), Progress(progress and bool(samples), calls=calls) as bar:
        advance = bar.task("evaluate", len(samples))

        def finished(i: int, result: SampleResult) -> None:
            results[i] = result
            advance()
            if on_result is not None:
                on_result(result)

        reports = await executor.map(work, samples, on_result=finished,
                                     concurrency=concurrency or judge.settings.concurrency)

    done = [r for r in results if r is not None]
    usage, claim_stats = _merge(reports)
    if executor.remote:  # the workers' calls, counted in this process's judge too (run manifests read it)
        judge.usage.stage("evaluate").add(usage)
    return EvalResult(
        samples=done, aggregates=aggregate(done, fns), metrics=[spec_of(fn) for fn in fns],
        usage=Usage(stages={"evaluate": usage}), claim_stats=claim_stats, seconds=time.monotonic() - started,
    )


def _merge(reports: list[dict[str, Any]]) -> tuple[StageUsage, dict[str, int]]:
    """The workers' reports summed: LLM usage, claim engine counters."""
    usage, stats = StageUsage(), Counter[str]()
    for report in reports:
        usage.add(report["usage"])
        stats.update(report["claim_stats"])
    return usage, dict(stats)


def _prepare(samples: Sequence[EvalSample], metrics: Sequence[MetricFn | str]) -> list[MetricFn]:
    """The metric functions, each chosen once, with every sample checked for their fields (before any call)."""
    fns = resolve_metrics(metrics)
    check_unique(fns)
    check_requirements(samples, fns)
    return fns


def evaluate_sync(samples: Sequence[EvalSample], metrics: Sequence[MetricFn | str], **kwargs: Any) -> EvalResult:
    """``evaluate`` for synchronous code (also works inside a running event loop, e.g. a notebook)."""
    return run_sync(evaluate(samples, metrics, **kwargs))
