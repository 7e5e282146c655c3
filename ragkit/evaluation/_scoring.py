"""Scoring one sample with every metric, as the work an executor spreads over its workers."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ragkit.errors import JudgeError, redact
from ragkit.evaluation._claims import ClaimStore
from ragkit.evaluation._metric_context import MetricContext
from ragkit.evaluation._metric_keys import build_metric, key_of
from ragkit.evaluation._results import Aggregate, SampleResult
from ragkit.registry import MetricFn, info_of, spec_of
from ragkit.types import EvalSample, PluginSpec, Score, StageUsage

if TYPE_CHECKING:
    from ragkit.llm import Embeddings, Judge

log = logging.getLogger("ragkit")


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


class ScoreWork:
    """Every metric on one sample at a time, with one metric context (judge, embeddings, claim store) per
    worker. Pickled for another process (a Ray actor), it travels as the metrics' specs and the judge's and
    embedding model's recipes, and builds its own claim store and embeddings there."""

    def __init__(self, fns: Sequence[MetricFn], judge: Judge, *, embeddings: Embeddings | None = None,
                 claims: ClaimStore | None = None, reference_ids: frozenset[str] = frozenset()) -> None:
        self.fns = list(fns)
        self.judge = judge
        self.embeddings = embeddings
        self.claims = claims
        self.reference_ids = reference_ids
        self.ctx: MetricContext | None = None
        self._before = StageUsage()

    def __reduce__(self) -> tuple[Any, ...]:
        return _shipped, ([spec_of(fn) for fn in self.fns], self.judge, self.embeddings, self.reference_ids)

    async def setup(self) -> None:
        if self.ctx is not None:
            return
        needs = frozenset().union(*(info_of(fn).uses for fn in self.fns))
        if self.embeddings is None and "embeddings" in needs:
            from ragkit.llm import Embeddings

            self.embeddings = Embeddings(settings=self.judge.settings)
        self.claims = self.claims or ClaimStore(self.judge)
        self.ctx = MetricContext(judge=self.judge, embeddings=self.embeddings, claims=self.claims, needs=needs,
                                 reference_ids=self.reference_ids)
        self._before = self.judge.usage.stage("evaluate").model_copy()

    async def __call__(self, sample: EvalSample) -> SampleResult:
        if self.ctx is None:
            raise RuntimeError("ScoreWork.setup() was not awaited")
        with self.judge.stage("evaluate"):
            return await score_sample(sample, self.fns, self.ctx)

    def report(self) -> dict[str, Any]:
        """This worker's LLM usage since setup, and its claim engine's counters."""
        stats = dict(vars(self.claims.stats)) if self.claims is not None else {}
        return {"usage": self.judge.usage.stage("evaluate").since(self._before), "claim_stats": stats}


def _shipped(specs: list[PluginSpec], judge: Judge, embeddings: Embeddings | None,
             reference_ids: frozenset[str]) -> ScoreWork:
    """A ScoreWork unpickled in another process: its metrics rebuilt from their specs."""
    fns = [build_metric(s.name, s.args) for s in specs]
    return ScoreWork(fns, judge, embeddings=embeddings, reference_ids=reference_ids)
