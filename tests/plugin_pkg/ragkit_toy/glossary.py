"""``toy/glossary``: "what is X?" questions about the named things of a corpus, one per entity."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from ragkit import Judge, KnowledgeGraph, Scenario, TestSample, generator
from ragkit.synthesis import Plan, context_refs, make_sample, passage, scenario_language, spread, write_qa


class GlossaryScenario(Scenario):
    """One entity and the chunk that mentions it first."""

    term: str


@generator(name="toy/glossary")
@dataclass(frozen=True)
class Glossary:
    """Asks what a named thing of the corpus is, answered by a chunk that mentions it."""

    types: tuple[str, ...] = ("product", "organization")
    """Entity types worth a glossary entry."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        picks = []
        for entity in kg.entities():
            chunks = sorted(kg.chunks_mentioning(entity.id), key=lambda c: (c.doc_id, c.index))
            if entity.type in self.types and chunks:
                picks.append((entity.name, chunks[0]))
        if not picks:
            return Plan([], [f"no entity of type {', '.join(self.types)} in the graph"])
        picks = spread(sorted(picks, key=lambda p: p[0]), key=lambda p: p[1].doc_id, rng=rng)
        scenarios: list[Scenario] = [
            GlossaryScenario(generator="toy/glossary", chunk_ids=[chunk.id], term=name,
                             language=scenario_language(kg, [chunk.id]))
            for name, chunk in picks[:n]
        ]
        return Plan(scenarios, [] if len(scenarios) >= n else [f"only {len(scenarios)} terms"])

    async def generate(self, scenario: GlossaryScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        qa = await write_qa(judge, scenario, [passage(kg, scenario.chunk_ids[0])], topic=scenario.term,
                            task="Ask what the topic is or what it does, as a glossary entry would define it.")
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids), term=scenario.term)
