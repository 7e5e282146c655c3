"""The test-set runner: plan every generator, then generate, criticise and keep samples until n are kept.

Flow: exact per-generator counts from the weights (largest remainder) → each generator plans spare scenarios
(seeded, no LLM); a generator with none gets its share redistributed → personas, styles and lengths are assigned →
candidates are generated concurrently and reviewed by the critic; a dropped candidate is replaced by the next
planned scenario of the same generator; when a generator runs out, its remaining count moves to the others, and so
does the rest of a generator's count once more than ``max_drops_per_sample`` of its candidates per sample asked of
it were dropped (a bound on what a generator that rarely works on this graph can cost). No document provides more
than ``max_share_per_document`` of the samples unless the corpus is too small (said in the notes). The result has
exactly n samples, or notes saying how many and why fewer.

LLM usage is accounted under the judge stages ``generate/<generator>`` (generation and critic calls) and
``generate/personas``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable
from random import Random
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ragkit._progress import Advance, Progress
from ragkit._sync import run_sync
from ragkit.errors import ConfigError, JudgeError
from ragkit.kg import KnowledgeGraph
from ragkit.llm import Embeddings, Judge
from ragkit.registry import lookup
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._personas import PersonaPool, assign_phrasing, personas_from_graph
from ragkit.synthesis._scenarios import Plan, SkipScenario, generator_name, generator_spec, sample_id, scenario_language
from ragkit.types import Persona, Scenario, StageUsage, TestSample, Usage

log = logging.getLogger("ragkit")

DEFAULT_DISTRIBUTION: dict[str, float] = {
    "single_hop": 0.3,
    "multi_hop": 0.2,
    "abstract": 0.15,
    "noisy_context": 0.15,
    "comparison": 0.1,
    "unanswerable": 0.1,
}
"""The default mix: mostly factual lookups, a fifth needing two documents, the rest testing harder behaviour."""


class GeneratorReport(BaseModel):
    """What happened to one generator's share."""

    name: str
    weight: float
    requested: int
    """Its exact share of n by the weights."""
    target: int = 0
    """What it was asked to keep after shares moved between generators."""
    planned: int = 0
    kept: int = 0
    dropped: dict[str, int] = Field(default_factory=dict)
    """Dropped candidates by reason."""
    examples: dict[str, str] = Field(default_factory=dict)
    """One example detail per drop reason."""
    notes: list[str] = Field(default_factory=list)
    usage: StageUsage = Field(default_factory=StageUsage)

    @property
    def dropped_total(self) -> int:
        return sum(self.dropped.values())


class GenerationResult(BaseModel):
    """The kept samples, and why there are not more."""

    samples: list[TestSample] = Field(default_factory=list)
    requested: int
    report: dict[str, GeneratorReport] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    personas: list[Persona] = Field(default_factory=list)
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return len(self.samples) == self.requested


def largest_remainder(weights: dict[str, float], n: int) -> dict[str, int]:
    """Exact integer shares of ``n`` proportional to ``weights`` (ties go to the earlier key)."""
    total = sum(weights.values())
    if n <= 0 or total <= 0:
        return {k: 0 for k in weights}
    raw = {k: n * w / total for k, w in weights.items()}
    out = {k: math.floor(v) for k, v in raw.items()}
    order = sorted(weights, key=lambda k: (-(raw[k] - out[k]), list(weights).index(k)))
    for k in order[: n - sum(out.values())]:
        out[k] += 1
    return out


def check_distribution(distribution: dict[str, float]) -> dict[str, float]:
    """Validated weights (every name registered, weights finite and ≥ 0, at least one > 0)."""
    if not distribution:
        raise ConfigError("the generator distribution is empty; give at least one generator=weight")
    for name, weight in distribution.items():
        lookup("generator", name)
        if not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise ConfigError(f"generator weight for '{name}' must be a number >= 0, got {weight!r}")
    if sum(distribution.values()) <= 0:
        raise ConfigError("every generator weight is 0; give at least one positive weight")
    return {k: float(v) for k, v in distribution.items()}


def _usage_since(judge: Judge, before: dict[str, StageUsage]) -> Usage:
    out = Usage()
    for name, stage in judge.usage.stages.items():
        if not name.startswith("generate"):
            continue
        diff = StageUsage()
        old = before.get(name, StageUsage())
        for field in StageUsage.model_fields:
            setattr(diff, field, getattr(stage, field) - getattr(old, field))
        if diff.calls or diff.cache_hits or diff.failures:
            out.stages[name] = diff
    return out


class _Run:
    """One generation run's mutable state (the public entry point is ``generate``)."""

    def __init__(self, kg: KnowledgeGraph, n: int, judge: Judge, critic: Critic, gens: dict[str, Any],
                 result: GenerationResult, on_sample: Callable[[TestSample], None] | None) -> None:
        self.kg, self.n, self.judge, self.critic, self.gens = kg, n, judge, critic, gens
        self.result, self.on_sample = result, on_sample
        self.queues: dict[str, deque[Scenario]] = {}
        self.need: dict[str, int] = {}
        self.inflight: Counter[str] = Counter()
        self.doc_use: dict[str, float] = defaultdict(float)
        self.chunk_use: Counter[str] = Counter()
        self.cap = n
        self.moves: Counter[tuple[str, str]] = Counter()
        self.advance: Advance = lambda n=1: None
        self.shown = 0
        self.drops_per_sample = 2.0

    # -- planning ---------------------------------------------------------------------------------

    def plan_one(self, name: str, want: int, seed: int) -> list[Scenario]:
        gen, report = self.gens[name], self.result.report[name]
        try:
            plan = gen.plan(self.kg, want, Random(f"{seed}:{name}"))
        except Exception as exc:  # a plugin's plan must not break the run
            log.debug("plan of %s failed", name, exc_info=True)
            plan = Plan([], [f"planning failed: {type(exc).__name__}: {exc}"])
        if isinstance(plan, list):
            plan = Plan(plan, [])
        good = []
        for s in plan.scenarios:
            if not s.chunk_ids or any(c not in self.kg.g for c in s.chunk_ids):
                continue
            update: dict[str, Any] = {"generator": name}
            if "language" not in s.model_fields_set:
                update["language"] = scenario_language(self.kg, s.chunk_ids)
            good.append(s.model_copy(update=update))
        if len(good) < len(plan.scenarios):
            report.notes.append(f"{len(plan.scenarios) - len(good)} planned scenarios named chunks that are not "
                                "in the graph and were ignored")
        report.notes = list(dict.fromkeys([*report.notes, *plan.notes]))
        return good

    def plan_all(self, weights: dict[str, float], seed: int) -> dict[str, int]:
        active = dict(weights)
        plans: dict[str, list[Scenario]] = {}
        while True:
            quotas = largest_remainder(active, self.n)
            for name, q in quotas.items():
                want = max(3 * q, q + 5)
                if q > 0 and (name not in plans or len(plans[name]) < want):
                    plans[name] = self.plan_one(name, want, seed)
            unsupported = [k for k in active if k in plans and not plans[k]]
            if not unsupported:
                break
            for name in unsupported:
                del active[name]
                why = "; ".join(self.result.report[name].notes) or "it planned no scenario"
                self.result.notes.append(f"{name}: cannot run on this graph ({why}); its share goes to the others")
            if not active:
                break
        for name in weights:
            self.queues[name] = deque(plans.get(name, []))
            self.result.report[name].planned = len(plans.get(name, []))
        return largest_remainder(active, self.n) if active else {}

    # -- scheduling -------------------------------------------------------------------------------

    def shares(self, scenario: Scenario) -> dict[str, float]:
        """How much of one sample each document provides: its share of the sample's chunks."""
        out: dict[str, float] = defaultdict(float)
        for c in scenario.chunk_ids:
            out[self.kg.chunk(c).doc_id] += 1 / len(scenario.chunk_ids)
        return out

    def fits(self, scenario: Scenario) -> bool:
        return all(self.doc_use[d] + share <= self.cap + 1e-9 for d, share in self.shares(scenario).items())

    def pick(self) -> tuple[str, Scenario] | None:
        order = sorted((k for k in self.need if self.need[k] - self.inflight[k] > 0),
                       key=lambda k: -(self.need[k] - self.inflight[k]))
        for name in order:
            queue = self.queues[name]
            fitting = [s for s in queue if self.fits(s)]
            fresh = [s for s in fitting if not any(self.chunk_use[c] for c in s.chunk_ids)]
            if fitting:
                chosen = (fresh or fitting)[0]
                queue.remove(chosen)
                return name, chosen
        return None

    def reserve(self, scenario: Scenario, sign: int) -> None:
        for d, share in self.shares(scenario).items():
            self.doc_use[d] += sign * share
        for c in scenario.chunk_ids:
            self.chunk_use[c] += sign

    def move_shortfall(self) -> bool:
        """Move the unservable part of an exhausted generator's count to generators that still have scenarios."""
        moved = False
        for name in list(self.need):
            short = self.need[name] - self.inflight[name]
            if short <= 0 or self.queues[name]:
                continue
            takers = [k for k in self.need if k != name and self.queues[k]]
            for i in range(short):
                if not takers:
                    break
                taker = takers[i % len(takers)]
                self.need[name] -= 1
                self.need[taker] += 1
                self.moves[(name, taker)] += 1
                moved = True
        return moved

    async def run_one(self, name: str, scenario: Scenario, kept_before: int) -> tuple[TestSample | None, str, str]:
        gen = self.gens[name]
        with self.judge.stage(f"generate/{name}"):
            try:
                sample = await gen.generate(scenario, self.kg, self.judge)
                if not isinstance(sample, TestSample):
                    return None, "generator_error", f"generate() returned {type(sample).__name__}, not TestSample"
                sample = self.complete(sample, gen, scenario)
                verdict = await self.critic.review(sample, compare_with=kept_before)
            except SkipScenario as exc:
                return None, exc.reason, exc.detail
            except JudgeError as exc:
                return None, "judge_error", str(exc)
            except Exception as exc:  # one broken candidate never loses the run
                log.debug("generator %s failed", name, exc_info=True)
                return None, "generator_error", f"{type(exc).__name__}: {exc}"
        if not verdict.ok:
            return None, verdict.reason or "rejected", verdict.detail
        if verdict.checks:
            sample.metadata["critic"] = verdict.checks
        return sample, "", ""

    def complete(self, sample: TestSample, gen: Any, scenario: Scenario) -> TestSample:
        """Fill what the generator left out, from the scenario."""
        fill: dict[str, Any] = {}
        if not sample.id:
            fill["id"] = sample_id(scenario)
        if sample.generator is None:
            fill["generator"] = generator_spec(gen)
        if not sample.scenario:
            fill["scenario"] = scenario.model_dump(mode="json")
        for key, value in (("persona", scenario.persona.name if scenario.persona else None),
                           ("style", scenario.style), ("length", scenario.length), ("language", scenario.language)):
            if getattr(sample, key) is None:
                fill[key] = value
        return sample.model_copy(update=fill) if fill else sample

    def keep(self, name: str, sample: TestSample, scenario: Scenario) -> bool:
        report = self.result.report[name]
        dup = self.critic.duplicate_of(sample.question)
        if dup is not None:
            self.drop(name, "near_duplicate", f"close to kept sample {dup}")
            return False
        taken = {s.id for s in self.result.samples}
        if sample.id in taken:
            sample.id = f"{sample.id}-{sum(1 for i in taken if i.startswith(sample.id))}"
        self.result.samples.append(sample)
        self.critic.accept(sample)
        self.need[name] -= 1
        report.kept += 1
        self.reserve(scenario, +1)
        if self.on_sample is not None:
            self.on_sample(sample)
        return True

    def drop(self, name: str, reason: str, detail: str) -> None:
        report = self.result.report[name]
        report.dropped[reason] = report.dropped.get(reason, 0) + 1
        report.examples.setdefault(reason, detail[:300])
        allowed = math.ceil(self.drops_per_sample * (report.kept + max(0, self.need[name]))) + 1
        if self.queues[name] and self.need[name] > 0 and report.dropped_total >= allowed:
            self.queues[name].clear()  # too few of its candidates pass on this graph: stop paying for it
            report.notes.append(f"stopped after {report.dropped_total} dropped candidates (more than "
                                f"{self.drops_per_sample:g} per sample asked of it)")

    async def loop(self, concurrency: int) -> None:
        """Run candidates ``concurrency`` at a time; results are committed in start order, so that which samples
        are kept does not depend on which call happens to finish first."""
        running: deque[tuple[asyncio.Task[tuple[TestSample | None, str, str]], str, Scenario]] = deque()
        try:
            while True:
                while len(running) < concurrency:
                    choice = self.pick()
                    if choice is None and self.move_shortfall():
                        choice = self.pick()
                    if choice is None:
                        break
                    name, scenario = choice
                    self.inflight[name] += 1
                    self.reserve(scenario, +1)
                    coro = self.run_one(name, scenario, len(self.result.samples))
                    running.append((asyncio.ensure_future(coro), name, scenario))
                if not running:
                    if sum(self.need.values()) > 0 and any(self.queues.values()):
                        self.cap += 1  # what is left comes only from documents at their share: relax, say so
                        continue
                    return
                task, name, scenario = running.popleft()
                sample, reason, detail = await task
                self.inflight[name] -= 1
                self.reserve(scenario, -1)
                if sample is None:
                    self.drop(name, reason, detail)
                else:
                    self.keep(name, sample, scenario)
                self.tick()
        finally:
            for task, _, _ in running:
                task.cancel()

    def tick(self) -> None:
        kept = len(self.result.samples)
        if kept > self.shown:
            self.advance(kept - self.shown)
            self.shown = kept


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
    """The critic's LLM check (the judge answers the question from the reference contexts)."""
    max_drops_per_sample: float = 2.0
    progress: bool = True


async def generate(
    kg: KnowledgeGraph,
    n: int,
    options: GenerateOptions | None = None,
    *,
    judge: Judge,
    embeddings: Embeddings,
    on_sample: Callable[[TestSample], None] | None = None,
) -> GenerationResult:
    """Generate ``n`` test samples from ``kg``; see the module docstring for the flow.

    Examples:
        >>> options = GenerateOptions(distribution={"single_hop": 0.5, "multi_hop": 0.5})
        >>> result = await generate(kg, 20, options, judge=Judge(), embeddings=Embeddings())
        >>> result.complete, [r.kept for r in result.report.values()]
    """
    started = time.monotonic()
    options = options or GenerateOptions()
    weights, gens = _check(n, options)
    result = GenerationResult(requested=n)
    quotas = largest_remainder(weights, n)
    result.report = {k: GeneratorReport(name=generator_name(gens[k]), weight=w, requested=quotas[k])
                     for k, w in weights.items()}
    before = {k: v.model_copy() for k, v in judge.usage.stages.items()}
    if n > 0 and kg.chunks():
        critic = Critic(kg, judge, embeddings, duplicate_threshold=options.duplicate_threshold,
                        llm_check=options.llm_critic)
        run = _Run(kg, n, judge, critic, gens, result, on_sample)
        run.drops_per_sample = options.max_drops_per_sample
        await _prepare(run, weights, options, embeddings)
        await _generate_all(run, n, options)
        result.usage = _usage_since(judge, before)
        for name, report in result.report.items():
            report.usage = result.usage.stages.get(f"generate/{name}", StageUsage())
    elif not kg.chunks():
        skipped = f"; {len(kg.info.skipped)} files were skipped while building it" if kg.info.skipped else ""
        result.notes.append(f"no samples: the graph has no chunks ({len(kg.documents())} documents{skipped})")
    result.seconds = time.monotonic() - started
    return result


def _check(n: int, options: GenerateOptions) -> tuple[dict[str, float], dict[str, Any]]:
    """The weights, and every chosen generator built with its arguments (before any LLM call)."""
    if n < 0:
        raise ConfigError(f"the number of samples must be >= 0, got {n}")
    if not 0 < options.max_share_per_document <= 1:
        raise ConfigError(f"max_share_per_document must be in (0, 1], got {options.max_share_per_document}")
    weights = check_distribution(options.distribution or DEFAULT_DISTRIBUTION)
    gens: dict[str, Any] = {}
    for name in weights:
        try:
            gens[name] = lookup("generator", name)(**options.generator_args.get(name, {}))
        except TypeError as exc:
            raise ConfigError(f"bad arguments for generator '{name}': {exc}") from None
    return weights, gens


async def _prepare(run: _Run, weights: dict[str, float], options: GenerateOptions, embeddings: Embeddings) -> None:
    """Plan every generator, find the personas, give each scenario its persona and phrasing, set the caps."""
    targets = run.plan_all(weights, options.seed)
    if options.personas:
        pool = PersonaPool(list(options.personas))
    else:
        with run.judge.stage("generate/personas"):
            pool = await personas_from_graph(run.kg, k=options.num_personas, judge=run.judge, embeddings=embeddings)
    result = run.result
    result.personas, result.notes = pool.personas, [*result.notes, *pool.notes]
    for name in weights:
        rng = Random(f"{options.seed}:{name}:phrasing")
        run.queues[name] = deque(assign_phrasing(list(run.queues[name]), pool, rng, run.kg))
    run.need = dict(targets)
    docs = {c.doc_id for c in run.kg.chunks()}
    share = options.max_share_per_document
    run.cap = max(1, math.ceil(share * run.n))
    if run.cap * len(docs) < run.n:
        run.cap = math.ceil(run.n / len(docs))
        result.notes.append(f"the corpus has {len(docs)} documents with text: each may provide up to {run.cap} "
                            f"samples (max_share_per_document={share} cannot hold {run.n})")


async def _generate_all(run: _Run, n: int, options: GenerateOptions) -> None:
    """Generate, criticise and keep candidates until n are kept or the plans run out; explain any shortfall."""
    first_cap = run.cap
    # the embedded model answers one call at a time: more in flight only queues, and wastes calls when a generator
    # is stopped or a near-duplicate is kept meanwhile
    concurrency = 1 if getattr(run.judge, "is_local", False) else max(1, run.judge.settings.concurrency)
    await _with_progress(run, n, options.progress, concurrency=concurrency)
    if run.cap > first_cap:
        run.result.notes.append(f"the per-document limit was raised from {first_cap} to {run.cap} samples: the "
                                "remaining planned scenarios all came from documents already at their share")
    _explain(run)


async def _with_progress(run: _Run, n: int, progress: bool, concurrency: int) -> None:
    calls = lambda: sum(s.calls for k, s in run.judge.usage.stages.items() if k.startswith("generate"))  # noqa: E731
    with Progress(progress, calls=calls) as bar:
        run.advance = bar.task("generate", n)
        await run.loop(concurrency)


def _explain(run: _Run) -> None:
    """Notes on moved shares and on a short result."""
    result = run.result
    for (src, dst), count in sorted(run.moves.items()):
        result.report[src].notes.append(f"{count} of its samples moved to {dst}: it ran out of usable scenarios")
    for name, report in result.report.items():
        report.target = report.kept + max(0, run.need.get(name, 0))
        if report.kept < report.target:
            report.notes.append(f"kept {report.kept} of {report.target}: all {report.planned} planned scenarios "
                                f"were used ({report.dropped_total} dropped)")
    missing = result.requested - len(result.samples)
    if missing > 0:
        drops: Counter[str] = Counter()
        for report in result.report.values():
            drops.update(report.dropped)
        why = ", ".join(f"{r} {c}" for r, c in drops.most_common()) or "no candidates were dropped"
        result.notes.append(f"generated {len(result.samples)} of {result.requested} samples: every planned scenario "
                            f"was used up (dropped: {why}); a larger corpus or lower --n gives a full set")


def generate_sync(kg: KnowledgeGraph, n: int, options: GenerateOptions | None = None, **kwargs: Any
                  ) -> GenerationResult:
    """``generate`` for synchronous callers."""
    return run_sync(generate(kg, n, options, **kwargs))
