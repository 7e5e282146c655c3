"""The test-set runner: plan every generator, then generate, criticise and keep samples until n are kept.

Flow: exact per-generator counts from the weights (largest remainder) → each generator plans spare scenarios
(seeded, no LLM); a generator with none gets its share redistributed → personas, styles and lengths are assigned →
candidates are generated concurrently and reviewed by the critic; a dropped candidate is replaced by the next
planned scenario of the same generator; when a generator runs out, its remaining count moves to the others, and so
does the rest of a generator's count once more than ``max_drops_per_sample`` of its candidates per sample asked of
it were dropped (a bound on what a generator that rarely works on this graph can cost). When every generator is
stopped or has run out with samples still missing, the stopped one that keeps the largest share of its candidates
is reopened, once, with the same bound for the missing samples. No document provides more
than ``max_share_per_document`` of the samples unless the corpus is too small (said in the notes). The result has
exactly n samples, or notes saying how many and why fewer.

LLM usage is accounted under the judge stages ``generate/<generator>`` (generation and critic calls) and
``generate/personas``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from random import Random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ragkit._progress import Progress
from ragkit._sync import run_sync
from ragkit.errors import ConfigError
from ragkit.executors import Executor, LocalExecutor, Pool
from ragkit.kg import KnowledgeGraph
from ragkit.llm import Embeddings, Judge
from ragkit.registry import lookup
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._loop import GenerationRun, explain_shortfall
from ragkit.synthesis._personas import PersonaPool, Phrasing, personas_from_graph
from ragkit.synthesis._result import (
    DEFAULT_DISTRIBUTION,
    GenerationResult,
    GeneratorReport,
    check_distribution,
    largest_remainder,
)
from ragkit.synthesis._scenarios import generator_name
from ragkit.synthesis._work import CandidateWork, Outcome, generation_usage
from ragkit.types import Persona, StageUsage, TestSample, Usage


class GenerateOptions(BaseModel):
    """How a test set is generated. The CLI builds one from its flags; every field has the default a plain
    ``generate(kg, n)`` uses."""

    model_config = ConfigDict(frozen=True)

    distribution: dict[str, float] | None = None
    """Generator name → weight (default: DEFAULT_DISTRIBUTION)."""
    generator_args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Generator name → the arguments it is built with."""
    seed: int = 0
    personas: list[Persona] | None = None
    """Who asks; default: ``num_personas`` personas derived from the graph by the judge."""
    num_personas: int = 3
    max_share_per_document: float = 0.25
    duplicate_threshold: float = 0.9
    """Question-embedding cosine at or above which a candidate is a near-duplicate of a kept one."""
    llm_critic: bool = True
    """The critic's LLM checks: the judge answers the question from the reference contexts, a call without them
    checks the question and compares the answers, and the claim engine checks the reference answer."""
    max_drops_per_sample: float = 2.0
    min_reference_support: float = 0.0
    """The least support (the judge's probability of "supported", where it gives one) that each claim of a kept
    reference answer needs, besides being labelled entailed; 0: the label alone decides. On session 69's 107
    labelled samples, 0.7 kept 44 of 53 good and 25 of 54 bad ones, against 51 and 44 with the label alone, and on
    five Chinese READMEs it wrote 4 of 8 samples where the label alone wrote 8 (bench/README.md): a cleaner set, paid
    for in calls, and shorter unless ``max_drops_per_sample`` is raised."""
    progress: bool = True


async def generate(
    kg: KnowledgeGraph,
    n: int,
    options: GenerateOptions | None = None,
    *,
    judge: Judge,
    embeddings: Embeddings,
    on_sample: Callable[[TestSample], None] | None = None,
    executor: Executor | None = None,
) -> GenerationResult:
    """Generate ``n`` test samples from ``kg``; see the module docstring for the flow. Candidates run on
    ``executor`` (default: this process; a Ray executor spreads them over actors); planning and keeping run here.

    Examples:
        >>> options = GenerateOptions(distribution={"single_hop": 0.5, "multi_hop": 0.5})
        >>> result = await generate(kg, 20, options, judge=Judge(), embeddings=Embeddings())
        >>> result.complete, [r.kept for r in result.report.values()]
    """
    started = time.monotonic()
    options = options or GenerateOptions()
    weights, gens = check_options(n, options)
    result = GenerationResult(requested=n)
    quotas = largest_remainder(weights, n)
    result.report = {k: GeneratorReport(name=generator_name(gens[k]), weight=w, requested=quotas[k])
                     for k, w in weights.items()}
    before = {k: v.model_copy() for k, v in judge.usage.stages.items()}
    has_chunks = bool(kg.chunks())  # a walk over the graph's nodes: once
    if n > 0 and has_chunks:
        critic = Critic(kg, judge, embeddings, duplicate_threshold=options.duplicate_threshold,
                        llm_check=options.llm_critic, reference_floor=options.min_reference_support)
        run = GenerationRun(kg, n, judge, critic, gens, result, on_sample)
        run.drops_per_sample = options.max_drops_per_sample
        await _prepare(run, weights, options, embeddings)
        await _generate_all(run, n, options, executor or LocalExecutor())
        result.usage = Usage(stages=generation_usage(judge, before))
        for name, report in result.report.items():
            report.usage = result.usage.stages.get(f"generate/{name}", StageUsage())
    elif not has_chunks:
        skipped = f"; {len(kg.info.skipped)} files were skipped while building it" if kg.info.skipped else ""
        result.notes.append(f"no samples: the graph has no chunks ({len(kg.documents())} documents{skipped})")
    result.seconds = time.monotonic() - started
    return result


def check_options(n: int, options: GenerateOptions) -> tuple[dict[str, float], dict[str, Any]]:
    """The weights, and every chosen generator built with its arguments: the checks ``generate`` makes before
    any LLM call, for callers that must validate before touching a file."""
    if n < 0:
        raise ConfigError(f"the number of samples must be >= 0, got {n}")
    if not 0 < options.max_share_per_document <= 1:
        raise ConfigError(f"max_share_per_document must be in (0, 1], got {options.max_share_per_document}")
    if not 0 <= options.min_reference_support <= 1:
        raise ConfigError(f"min_reference_support must be in [0, 1], got {options.min_reference_support}")
    weights = check_distribution(options.distribution or DEFAULT_DISTRIBUTION)
    gens: dict[str, Any] = {}
    for name in weights:
        try:
            gens[name] = lookup("generator", name)(**options.generator_args.get(name, {}))
        except TypeError as exc:
            raise ConfigError(f"bad arguments for generator '{name}': {exc}") from None
    return weights, gens


async def _prepare(run: GenerationRun, weights: dict[str, float], options: GenerateOptions,
                   embeddings: Embeddings) -> None:
    """Plan every generator, find the personas, give each scenario its persona and phrasing, set the caps."""
    targets = run.plan_all(weights, options.seed)
    if options.personas:
        pool = PersonaPool(list(options.personas))
    else:
        with run.judge.stage("generate/personas"):
            pool = await personas_from_graph(run.kg, k=options.num_personas, judge=run.judge, embeddings=embeddings)
    result = run.result
    result.personas, result.notes = pool.personas, [*result.notes, *pool.notes]
    run.phrasing = Phrasing.seeded(pool, Random(f"{options.seed}:phrasing"))
    run.need = dict(targets)
    docs = {c.doc_id for c in run.kg.chunks()}
    share = options.max_share_per_document
    run.cap = max(1, math.ceil(share * run.n))
    if run.cap * len(docs) < run.n:
        run.cap = math.ceil(run.n / len(docs))
        result.notes.append(f"the corpus has {len(docs)} documents with text: each may provide up to {run.cap} "
                            f"samples (max_share_per_document={share} cannot hold {run.n})")


async def _generate_all(run: GenerationRun, n: int, options: GenerateOptions, executor: Executor) -> None:
    """Generate, criticise and keep candidates until n are kept or the plans run out; explain any shortfall."""
    first_cap = run.cap
    # the embedded model answers one call at a time: more in flight per worker only queues, and wastes calls when a
    # generator is stopped or a near-duplicate is kept meanwhile
    concurrency = 1 if getattr(run.judge, "is_local", False) else max(1, run.judge.settings.concurrency)
    work = CandidateWork(run.kg, run.gens, run.judge, run.critic)
    async with executor.pool(work, concurrency) as pool:
        await _with_progress(run, n, options.progress, pool)
    if executor.remote:  # the workers' calls, counted in this process's judge too (the result's usage reads it)
        for report in pool.reports:
            for stage, usage in report.items():
                run.judge.usage.stage(stage).add(usage)
    if run.cap > first_cap:
        run.result.notes.append(f"the per-document limit was raised from {first_cap} to {run.cap} samples: the "
                                "remaining planned scenarios all came from documents already at their share")
    explain_shortfall(run)


async def _with_progress(run: GenerationRun, n: int, progress: bool, pool: Pool[Any, Outcome]) -> None:
    calls = lambda: sum(s.calls for k, s in run.judge.usage.stages.items() if k.startswith("generate"))  # noqa: E731
    with Progress(progress, calls=calls) as bar:
        run.advance = bar.task("generate", n)
        await run.loop(pool)


def generate_sync(kg: KnowledgeGraph, n: int, options: GenerateOptions | None = None, **kwargs: Any
                  ) -> GenerationResult:
    """``generate`` for synchronous callers."""
    return run_sync(generate(kg, n, options, **kwargs))
