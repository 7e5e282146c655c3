"""abstract: a broader question (how, why, what in general) about a theme running through related chunks."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    Plan,
    chunk_topics,
    chunk_vectors,
    context_refs,
    make_sample,
    passage,
    related_chunks,
    scenario_language,
    spread,
    usable_chunks,
    write_qa,
)
from ragkit.types import Scenario, TestSample


class AbstractScenario(Scenario):
    """Related chunks (the first is the seed) and the theme they share."""

    theme: str


def shared_theme(kg: KnowledgeGraph, chunk_ids: list[str]) -> str:
    """The topic most of the chunks share; else the seed document's first theme, else the seed's heading."""
    votes: Counter[str] = Counter()
    for cid in chunk_ids:
        votes.update({t.lower(): 1 for t in chunk_topics(kg, kg.chunk(cid))})
    common = [t for t, count in votes.most_common() if count >= 2]
    if common:
        for cid in chunk_ids:
            for t in chunk_topics(kg, kg.chunk(cid)):
                if t.lower() == common[0]:
                    return t
    seed = kg.chunk(chunk_ids[0])
    doc = kg.document(seed.doc_id)
    if doc.themes:
        return doc.themes[0]
    return seed.heading_path[-1] if seed.heading_path else (doc.title or "the subject of these passages")


@generator
@dataclass(frozen=True)
class Abstract:
    """A question that draws together several related chunks, preferably of different documents."""

    chunks_per_question: int = 3
    min_tokens: int = 20
    """Chunks with fewer words (CJK: characters) are not used."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        seeds = usable_chunks(kg, self.min_tokens)
        if len(seeds) < 2:
            return Plan([], [f"abstract questions need two or more chunks of {self.min_tokens}+ words; "
                             f"the graph has {len(seeds)}"])
        vectors = chunk_vectors(kg)
        usable = {c.id for c in seeds}
        groups: list[list[str]] = []
        seen: set[frozenset[str]] = set()
        for seed in spread(seeds, key=lambda c: c.doc_id, rng=rng):
            near = [c for c in related_chunks(kg, seed.id, vectors, limit=12) if c in usable]
            other_doc = [c for c in near if kg.chunk(c).doc_id != seed.doc_id]
            same_doc = [c for c in near if kg.chunk(c).doc_id == seed.doc_id]
            group = [seed.id, *(other_doc + same_doc)[: self.chunks_per_question - 1]]
            if len(group) < 2 or frozenset(group) in seen:
                continue
            seen.add(frozenset(group))
            groups.append(group)
            if len(groups) >= n:
                break
        if not groups:
            return Plan([], ["no related chunks: the graph has no 'similar' or 'shares_entity' edges and no chunk "
                             "embeddings"])
        scenarios: list[Scenario] = [
            AbstractScenario(generator="abstract", chunk_ids=g, theme=shared_theme(kg, g),
                             language=scenario_language(kg, g))
            for g in groups
        ]
        notes = [] if len(scenarios) >= n else [f"only {len(scenarios)} distinct groups of related chunks"]
        return Plan(scenarios, notes)

    async def generate(self, scenario: AbstractScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        passages = [passage(kg, c, limit=1500) for c in scenario.chunk_ids]
        qa = await write_qa(
            judge, scenario, passages, topic=scenario.theme,
            task=("Ask one broader question about the topic (how, why, or what in general), not a lookup of a "
                  "single number or name. The answer brings together what the passages say about it, in two or "
                  "three sentences."),
            quotes=False,  # no check reads them: the critic finds its own evidence, the claim check the support
        )
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids))
