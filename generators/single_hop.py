"""single_hop: one question about one fact of one chunk (one LLM call, plus the critic's)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random

from ragkit.kg import ChunkNode, KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    VAGUE_TYPES,
    Plan,
    chunk_topics,
    context_refs,
    entity_documents,
    make_sample,
    scenario_language,
    spread,
    usable_chunks,
)
from ragkit.types import Scenario, TestSample

from ._shared import write_fact_qa


class SingleHopScenario(Scenario):
    """One chunk and the thing to ask about (an entity or keyphrase of the chunk; None = any fact)."""

    topic: str | None = None


def topic_order(kg: KnowledgeGraph, chunk: ChunkNode, rng: Random, doc_freq: Counter[str]) -> list[str]:
    """The chunk's topics: named entities before vague ones and keyphrases (``chunk_topics``), and within each
    kind the most specific first (mentioned in the fewest documents), ties shuffled."""
    topics = chunk_topics(kg, chunk)
    kind = {t: i for i, t in enumerate(topics)}
    vague = {e.name for e in kg.entities_of(chunk.id) if e.type in VAGUE_TYPES}
    named = {e.name for e in kg.entities_of(chunk.id)} - vague
    rng.shuffle(topics)
    return sorted(topics, key=lambda t: (0 if t in named else 1 if t in vague else 2, doc_freq.get(t.lower(), 1),
                                         kind[t] if t not in named and t not in vague else 0))


def plan_single(kg: KnowledgeGraph, n: int, rng: Random, *, name: str, min_tokens: int,
                topics_per_chunk: int) -> Plan:
    """Chunk × topic scenarios: every chunk once (documents taking turns) before any chunk twice."""
    chunks = usable_chunks(kg, min_tokens)
    if not chunks:
        total = len(kg.chunks())
        return Plan([], [f"no chunk has {min_tokens} or more words of text ({total} chunks in the graph)"])
    doc_freq: Counter[str] = Counter()
    for entity_id, by_doc in entity_documents(kg).items():
        doc_freq[kg.entity(entity_id).name.lower()] = len(by_doc)
    topics = {c.id: topic_order(kg, c, rng, doc_freq) for c in chunks}
    picked: list[tuple[ChunkNode, str | None]] = []
    for turn in range(max(1, topics_per_chunk)):
        layer = [(c, topics[c.id][turn] if turn < len(topics[c.id]) else None) for c in chunks
                 if turn < max(1, len(topics[c.id]))]
        picked += spread(layer, key=lambda item: item[0].doc_id, rng=rng)
        if len(picked) >= n:
            break
    scenarios: list[Scenario] = [
        SingleHopScenario(generator=name, chunk_ids=[c.id], topic=t, language=scenario_language(kg, [c.id]))
        for c, t in picked[:n]
    ]
    notes = []
    if len(scenarios) < n:
        have = "chunk has" if len(chunks) == 1 else "chunks have"
        notes.append(f"only {len(chunks)} {have} enough text, giving {len(scenarios)} scenarios")
    return Plan(scenarios, notes)


@generator
@dataclass(frozen=True)
class SingleHop:
    """A factual question answered by one chunk, about one of its entities or keyphrases."""

    min_tokens: int = 8
    """Chunks with fewer words (CJK: characters) are not asked about."""
    topics_per_chunk: int = 2
    """How many different topics one chunk may be asked about (once every chunk has had its turn)."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        return plan_single(kg, n, rng, name="single_hop", min_tokens=self.min_tokens,
                           topics_per_chunk=self.topics_per_chunk)

    async def generate(self, scenario: SingleHopScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        qa = await write_fact_qa(judge, scenario, kg, scenario.topic)
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids))
