"""noisy_context: a single-hop question whose reference contexts mix the answering chunk with distractors.

Distractors are chunks of other documents that look related (nearest by embedding, else sharing an entity, else
any) but do not mention the question's topic. They are marked ``distractor=True``; the critic checks the answer
against the real context only. Tests how well the system under test ignores irrelevant text.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    Plan,
    chunk_vectors,
    context_refs,
    make_sample,
    related_chunks,
)
from ragkit.text import units
from ragkit.types import Scenario, TestSample

from ._shared import write_fact_qa
from .single_hop import plan_single


class NoisyContextScenario(Scenario):
    """The answering chunk (``chunk_ids``), the distractors, and the order contexts are presented in."""

    topic: str | None = None
    distractor_ids: list[str]
    context_order: list[str]


@generator
@dataclass(frozen=True)
class NoisyContext:
    """A single-hop question with distractor chunks added to its reference contexts."""

    distractors: int = 2
    """Distractor chunks per sample."""
    min_tokens: int = 8

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        base = plan_single(kg, n, rng, name="noisy_context", min_tokens=self.min_tokens, topics_per_chunk=2)
        chunks = {c.id: c for c in kg.chunks()}
        docs = {c.doc_id for c in chunks.values()}
        vectors = chunk_vectors(kg)
        scenarios: list[Scenario] = []
        same_doc = 0
        for s in base.scenarios:
            real = kg.chunk(s.chunk_ids[0])
            topic = (getattr(s, "topic", None) or "").lower()

            def fits(cid: str, allow_same_doc: bool, real_id: str = real.id, topic: str = topic) -> bool:
                c = chunks[cid]
                other = c.doc_id != chunks[real_id].doc_id or (allow_same_doc and abs(c.index - chunks[
                    real_id].index) > 1)
                return cid != real_id and other and len(units(c.text)) >= self.min_tokens and (
                    not topic or topic not in c.text.lower())

            near = related_chunks(kg, real.id, vectors, limit=50)
            pool = [c for c in near if fits(c, False)]
            rest = sorted(c for c in chunks if c not in pool and fits(c, False))
            rng.shuffle(rest)
            picked = (pool + rest)[: self.distractors]
            if len(picked) < self.distractors and len(docs) < 2:
                extra = sorted(c for c in chunks if c not in picked and fits(c, True))
                picked += extra[: self.distractors - len(picked)]
                same_doc += 1
            if not picked:
                continue
            order = [real.id, *picked]
            rng.shuffle(order)
            scenarios.append(NoisyContextScenario(**s.model_dump(exclude={"generator"}), generator="noisy_context",
                                                  distractor_ids=picked, context_order=order))
        notes = list(base.notes)
        if len(scenarios) < len(base.scenarios):
            notes.append(f"{len(base.scenarios) - len(scenarios)} chunks had no chunk that could serve as a "
                         "distractor (one document, or every other chunk mentions the topic)")
        if same_doc:
            notes.append("the graph has one document: distractors are non-adjacent chunks of that document")
        return Plan(scenarios, notes)

    async def generate(self, scenario: NoisyContextScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        qa = await write_fact_qa(judge, scenario, kg, scenario.topic)
        contexts = context_refs(kg, scenario.context_order, distractors=scenario.distractor_ids)
        return make_sample(self, scenario, qa, contexts, distractors=len(scenario.distractor_ids))
