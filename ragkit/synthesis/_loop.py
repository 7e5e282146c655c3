"""The candidate loop of one generation run: pick a planned scenario, generate it, let the critic review it, keep
it or replace it; move shares between generators when one runs out or keeps failing (see ``_generate``)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections import Counter, defaultdict, deque
from collections.abc import Callable
from random import Random
from typing import Any

from ragkit._progress import Advance
from ragkit.executors import Pool
from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.synthesis._conversation import conversation_turns
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._personas import Phrasing
from ragkit.synthesis._result import GenerationResult, largest_remainder
from ragkit.synthesis._scenarios import Plan, scenario_language
from ragkit.synthesis._work import Outcome
from ragkit.text import counts_text
from ragkit.types import Scenario, TestSample

log = logging.getLogger("ragkit")


class GenerationRun:
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
        self.phrasing: Phrasing | None = None
        self.slots: list[str | None] = [None] * n
        """Per sample slot: None (free), "busy" (a candidate in flight) or "kept"."""
        self.slot_styles: dict[int, str] = {}
        """The style each slot's last candidate was phrased in."""
        self.stopped: dict[str, list[Scenario]] = {}
        """The scenarios a generator had left when it was stopped for too many drops."""
        self.reopened: tuple[str, int] | None = None
        """The generator reopened as the last resort, and how many drops it may still cost."""
        self.planned: dict[str, tuple[int, set[str]]] = {}
        """Per generator: how many scenarios were asked of its plan, and each planned scenario's key."""
        self.seed = 0
        self.exhausted: set[str] = set()
        """Generators whose plan did not grow when asked for more: on this graph they have no more scenarios."""

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
        self.seed = seed
        active = dict(weights)
        plans: dict[str, list[Scenario]] = {}
        wants: dict[str, int] = {}
        while True:
            quotas = largest_remainder(active, self.n)
            for name, q in quotas.items():
                want = max(3 * q, q + 5)
                if q > 0 and (name not in plans or len(plans[name]) < want):
                    plans[name], wants[name] = self.plan_one(name, want, seed), want
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
            if name in wants:
                self.planned[name] = (wants[name], {s.model_dump_json() for s in plans[name]})
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

    def take_slot(self, scenario: Scenario) -> tuple[int, Scenario]:
        """The first free sample slot (a busy one when more candidates are in flight than slots are free), and the
        scenario phrased for it, in the style of least use among the other slots kept or in flight."""
        slot = next((k for k, s in enumerate(self.slots) if s is None), None)
        if slot is None:
            slot = next((k for k, s in enumerate(self.slots) if s == "busy"), 0)
        if slot < len(self.slots):
            self.slots[slot] = "busy"
        if self.phrasing is None:
            return slot, scenario
        taken = Counter(self.slot_styles[k] for k, state in enumerate(self.slots)
                        if state is not None and k != slot and k in self.slot_styles)
        phrased = self.phrasing.apply(scenario, slot, self.kg, taken)
        if phrased.style:
            self.slot_styles[slot] = phrased.style
        return slot, phrased

    def release_slot(self, slot: int, kept: bool) -> None:
        if slot < len(self.slots) and self.slots[slot] != "kept":
            self.slots[slot] = "kept" if kept else None

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

    def keep(self, name: str, sample: TestSample, scenario: Scenario) -> bool:
        report = self.result.report[name]
        turns = conversation_turns(sample)  # a conversation: judged by its first question, written turn by turn
        dup = self.critic.duplicate_of(turns[0])
        if dup is not None:
            self.drop(name, "near_duplicate", f"close to kept sample {dup}", sample)
            return False
        taken = {s.id for s in self.result.samples}
        if sample.id in taken:
            sample.id = f"{sample.id}-{sum(1 for i in taken if i.startswith(sample.id))}"
            if sample.conversation is not None:
                sample.conversation.id = sample.id
                turns = conversation_turns(sample)
        self.result.samples.append(sample)
        self.critic.accept(turns[0])
        self.need[name] -= 1
        report.kept += 1
        self.reserve(scenario, +1)
        if self.on_sample is not None:
            for turn in turns:
                self.on_sample(turn)
        return True

    def drop(self, name: str, reason: str, detail: str, candidate: TestSample | None = None) -> None:
        report = self.result.report[name]
        report.dropped[reason] = report.dropped.get(reason, 0) + 1
        report.examples.setdefault(reason, detail[:300])
        if candidate is not None:  # kept for the user to read (``ragkit generate --dropped``), with the reason
            candidate.metadata["dropped"] = {"reason": reason, "detail": detail}
            self.result.dropped_samples.append(candidate)
        if self.queues[name] and self.need[name] > 0 and report.dropped_total >= self.allowance(name):
            self.stopped[name] = list(self.queues[name])
            self.queues[name].clear()  # too few of its candidates pass on this graph: stop paying for it
            report.notes.append(f"stopped after {report.dropped_total} dropped candidates (more than "
                                f"{self.drops_per_sample:g} per sample asked of it)")

    def allowance(self, name: str) -> int:
        """How many dropped candidates generator ``name`` may cost before it is stopped."""
        if self.reopened is not None and self.reopened[0] == name:
            return self.reopened[1]
        report = self.result.report[name]
        return math.ceil(self.drops_per_sample * (report.kept + max(0, self.need[name]))) + 1

    def missing(self) -> int:
        """Samples still owed by the generators."""
        return sum(max(0, k) for k in self.need.values())

    def reopen(self) -> bool:
        """The last resort, once per run, when samples are missing and every generator was stopped or ran out: the
        stopped generator that keeps the most of its candidates gets its scenarios back, and the missing samples
        may cost it as many drops as a generator asked for them would (``drops_per_sample`` each). Without it a run
        on a corpus where most candidates fail ends short though planned scenarios remain. A generator whose plan ran
        out as its drops reached the allowance was never stopped, so it plans more first (``out_of_plan``): which of the
        two came first is an accident of timing, and both are the same shortfall."""
        missing = self.missing()
        if self.reopened is not None or missing <= 0:
            return False
        for name in self.out_of_plan(spent=True):
            self.stopped[name] = self.grow(name)
        left = {k: v for k, v in self.stopped.items() if v}
        if not left:
            return False
        report = self.result.report
        name = max(left, key=lambda k: (report[k].kept + 1) / (report[k].kept + report[k].dropped_total + 2))
        self.queues[name].extend(self.stopped.pop(name))
        self.reopened = (name, report[name].dropped_total + math.ceil(self.drops_per_sample * missing) + 1)
        report[name].notes.append(f"reopened for the last {missing} missing samples: every generator was stopped "
                                  "or had run out")
        return True

    def replan(self) -> bool:
        """When a generator still owed samples, not stopped and under its drop allowance, has no scenario left: it
        plans twice as many scenarios as last time, and the ones it has not planned yet join its queue (a generator
        whose candidates mostly fail, on a corpus with chunks to spare, used up its plan). This comes before its
        owed samples are passed on (``move_shortfall``), and again each time its queue runs dry while the plan still
        grows: the drop allowance, not a count of plans, bounds what a run may cost. (Passing them on first gave a
        25-chunk corpus's samples to a generator that kept none of its candidates, while single_hop, which kept
        them, had 36 of its 50 scenarios unplanned.)"""
        added = 0
        for name in self.out_of_plan(spent=False):
            new = self.grow(name)
            self.queues[name].extend(new)
            added += len(new)
        return added > 0

    def out_of_plan(self, *, spent: bool) -> list[str]:
        """Generators still owed samples, not stopped, whose plan ran out and could grow: those with drops left
        (``spent=False``) or those whose drops reached the allowance as the plan ran out (``spent=True``)."""
        return [k for k, v in self.need.items() if v - self.inflight[k] > 0 and not self.queues[k]
                and k in self.planned and k not in self.stopped and k not in self.exhausted
                and (self.result.report[k].dropped_total >= self.allowance(k)) == spent]

    def grow(self, name: str) -> list[Scenario]:
        """Generator ``name``'s plan, twice as long: the scenarios it had not planned yet (none: it is exhausted)."""
        want, seen = self.planned[name]
        new = [s for s in self.plan_one(name, 2 * want, self.seed) if s.model_dump_json() not in seen]
        self.planned[name] = (2 * want, seen | {s.model_dump_json() for s in new})
        if not new:
            self.exhausted.add(name)  # the plan cannot grow on this graph: its owed samples go elsewhere
            return []
        self.result.report[name].planned += len(new)
        self.result.report[name].notes.append(f"planned {len(new)} more scenarios: the first {len(seen)} were used "
                                              "up with samples missing")
        return new

    async def loop(self, pool: Pool[tuple[str, Scenario, int], Outcome]) -> None:
        """Run candidates on ``pool``, as many at a time as it holds; results are committed in start order, so that
        which samples are kept does not depend on which call happens to finish first."""
        running: deque[tuple[asyncio.Future[Outcome], str, Scenario, int]] = deque()
        try:
            while True:
                while len(running) < pool.capacity:
                    choice = self.pick()
                    if choice is None and (self.replan() or self.move_shortfall()):
                        choice = self.pick()
                    if choice is None:
                        break
                    name, planned = choice
                    slot, scenario = self.take_slot(planned)
                    self.inflight[name] += 1
                    self.reserve(scenario, +1)
                    item = (name, scenario, len(self.result.samples))
                    running.append((asyncio.ensure_future(pool.submit(item)), name, scenario, slot))
                if not running:
                    if sum(self.need.values()) > 0 and any(self.queues.values()):
                        self.cap += 1  # what is left comes only from documents at their share: relax, say so
                        continue
                    if self.reopen():  # replan was just tried, when the last pick found nothing
                        continue
                    return
                task, name, scenario, slot = running.popleft()
                sample, reason, detail = await task
                self.inflight[name] -= 1
                self.reserve(scenario, -1)
                if reason or sample is None:
                    self.drop(name, reason, detail, sample)
                    self.release_slot(slot, kept=False)
                else:
                    self.release_slot(slot, kept=self.keep(name, sample, scenario))
                self.tick()
        finally:
            for task, _, _, _ in running:
                task.cancel()

    def tick(self) -> None:
        kept = len(self.result.samples)
        if kept > self.shown:
            self.advance(kept - self.shown)
            self.shown = kept


def explain_shortfall(run: GenerationRun) -> None:
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
        why = counts_text(result.dropped) or "no candidates were dropped"
        result.notes.append(f"generated {len(result.samples)} of {result.requested} samples: every planned scenario "
                            f"was used up or its generator stopped (dropped: {why}); a larger corpus, a lower "
                            "--n or a higher --max-drops gives a full set")
