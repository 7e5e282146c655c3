"""One candidate of a generation run, as the work an executor runs (this process, or Ray actors).

The driver keeps the plan and decides what is kept (``_loop``); the work generates a planned scenario and lets the
critic review it. In this process it uses the run's own critic, which knows the samples kept so far and drops a
near-duplicate before any LLM call; a copy in another process builds a critic of its own from the graph, the judge's
recipe and the embedding model's, and its near-duplicates are caught by the driver when it keeps a sample.
"""

from __future__ import annotations

import logging
from typing import Any

from ragkit.errors import JudgeError
from ragkit.kg import KnowledgeGraph
from ragkit.llm import Embeddings, Judge
from ragkit.synthesis._conversation_review import review_candidate
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._scenarios import SkipScenario, generator_spec, sample_id
from ragkit.types import Scenario, StageUsage, TestSample

log = logging.getLogger("ragkit")

Outcome = tuple[TestSample | None, str, str]
"""The candidate, the drop reason ("" when it passed) and its detail; a dropped candidate is None when none was
written (the generator skipped or failed)."""


class CandidateWork:
    """Generate one planned scenario (an item: generator name, scenario, samples kept when it started) and review
    it."""

    def __init__(self, kg: KnowledgeGraph, gens: dict[str, Any], judge: Judge, critic: Critic) -> None:
        self.kg, self.gens, self.judge, self.critic = kg, gens, judge, critic
        self._before: dict[str, StageUsage] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        c = self.critic
        return _shipped, (self.kg, self.gens, self.judge, c.embeddings, c.duplicate_threshold, c.llm_check,
                          c.reference_floor)

    async def setup(self) -> None:
        self._before = {k: v.model_copy() for k, v in self.judge.usage.stages.items()}

    async def __call__(self, item: tuple[str, Scenario, int]) -> Outcome:
        name, scenario, kept_before = item
        gen = self.gens[name]
        written: TestSample | None = None  # once written, a candidate the critic's calls fail on is kept to be read
        with self.judge.stage(f"generate/{name}"):
            try:
                sample = await gen.generate(scenario, self.kg, self.judge)
                if not isinstance(sample, TestSample):
                    return None, "generator_error", f"generate() returned {type(sample).__name__}, not TestSample"
                written = sample = complete(sample, gen, scenario)
                verdict = await review_candidate(self.critic, sample, compare_with=kept_before)
                sample = verdict.kept or sample
            except SkipScenario as exc:
                written = complete(exc.candidate, gen, scenario) if exc.candidate is not None else None
                return written, exc.reason, exc.detail
            except JudgeError as exc:
                if exc.fatal:
                    raise  # the model cannot be used at all: stop, rather than drop every candidate
                return written, "judge_error", str(exc)
            except Exception as exc:  # one broken candidate never loses the run
                log.debug("generator %s failed", name, exc_info=True)
                return written, "generator_error", f"{type(exc).__name__}: {exc}"
        if verdict.checks:
            sample.metadata["critic"] = verdict.checks
        if not verdict.ok:
            return sample, verdict.reason or "rejected", verdict.detail
        return sample, "", ""

    def report(self) -> dict[str, StageUsage]:
        """This worker's LLM usage per generation stage since setup."""
        return generation_usage(self.judge, self._before)


def generation_usage(judge: Judge, before: dict[str, StageUsage]) -> dict[str, StageUsage]:
    """The judge's usage per generation stage (``generate/…``) since ``before``, stages with no call left out."""
    out = {}
    for name, stage in judge.usage.stages.items():
        diff = stage.since(before.get(name, StageUsage()))
        if name.startswith("generate") and (diff.calls or diff.cache_hits or diff.failures):
            out[name] = diff
    return out


def complete(sample: TestSample, gen: Any, scenario: Scenario) -> TestSample:
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


def _shipped(kg: KnowledgeGraph, gens: dict[str, Any], judge: Judge, embeddings: Embeddings,
             duplicate_threshold: float, llm_check: bool, reference_floor: float) -> CandidateWork:
    """A CandidateWork unpickled in another process, with a critic of its own."""
    critic = Critic(kg, judge, embeddings, duplicate_threshold=duplicate_threshold, llm_check=llm_check,
                    reference_floor=reference_floor)
    return CandidateWork(kg, gens, judge, critic)
