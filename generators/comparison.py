"""comparison: two entities of the same type, contrasted on something the contexts give for both."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    Plan,
    check_quotes,
    context_refs,
    entity_documents,
    headings_of,
    make_sample,
    passage,
    scenario_language,
    write_comparison_qa,
)
from ragkit.types import Scenario, TestSample

from ._shared import chunk_similarity, entities_by_type, mentioning_chunks, rank_candidates

VALUE_TYPES = frozenset({"date", "time", "cardinal", "ordinal", "money", "percent", "quantity", "number", "other",
                         "misc", "unknown"})
"""Entity types that are values or unknown kinds rather than comparable things."""


class ComparisonScenario(Scenario):
    """Two entities of one type; ``chunk_ids`` holds one chunk per entity (or one chunk mentioning both)."""

    entities: list[str]
    entity_ids: list[str]
    entity_type: str


@generator(passages=2)
@dataclass(frozen=True)
class Comparison:
    """A question contrasting two entities of the same type (two products, plants, people ...)."""

    max_entities_per_type: int = 60
    """Entities per type considered for pairing (the most mentioned), which bounds the work to O(m²) per type."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        ent_docs = entity_documents(kg)
        by_type = entities_by_type(kg, sorted(ent_docs), lambda kind, _: bool(kind) and kind not in VALUE_TYPES)
        similarity = chunk_similarity(kg)
        candidates: list[tuple[str, float, list[str], list[str]]] = []  # (type, similarity, entities, chunks)
        for kind, members in sorted(by_type.items()):
            members.sort(key=lambda e: (-sum(len(v) for v in ent_docs[e].values()), rng.random()))
            for a, b in itertools.combinations(members[: self.max_entities_per_type], 2):
                if nested_names(kg.entity(a).name, kg.entity(b).name):
                    continue  # '安吉白茶' against '白茶', 'Kestrel K10' against 'Kestrel': one names the other
                chunk_a, chunk_b = mentioning_chunks(ent_docs, a), mentioning_chunks(ent_docs, b)
                both = sorted(set(chunk_a) & set(chunk_b))
                if both:
                    chunks, sim = [rng.choice(both)], 1.0
                else:
                    ca, cb = rng.choice(chunk_a), rng.choice(chunk_b)
                    chunks, sim = [ca, cb], similarity(ca, cb, rng)
                candidates.append((kind, sim, [a, b], chunks))
        if not candidates:
            kinds = ", ".join(f"{k} ({len(v)})" for k, v in sorted(by_type.items())) or "none"
            return Plan([], ["no entity type has two entities to compare (comparable types with their entity "
                             f"counts: {kinds})"])
        # comparable contexts first, types taking turns
        ordered = rank_candidates(candidates, n, similarity=lambda c: c[1], group=lambda c: c[0], floor=50, rng=rng)
        used: dict[str, int] = {}
        scenarios: list[Scenario] = []
        for kind, _, (a, b), chunks in ordered:
            if used.get(a, 0) >= 2 or used.get(b, 0) >= 2:
                continue  # keep any one entity from dominating the comparisons
            used[a], used[b] = used.get(a, 0) + 1, used.get(b, 0) + 1
            scenarios.append(ComparisonScenario(
                generator="comparison", chunk_ids=chunks, entities=[kg.entity(a).name, kg.entity(b).name],
                entity_ids=[a, b], entity_type=kind, language=scenario_language(kg, chunks),
            ))
        notes = [] if len(scenarios) >= n else [f"only {len(scenarios)} pairs of same-type entities to compare"]
        return Plan(scenarios[:n], notes)

    async def generate(self, scenario: ComparisonScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        a, b = scenario.entities
        passages = [passage(kg, c) for c in scenario.chunk_ids]
        qa = await write_comparison_qa(judge, scenario, passages, a, b, headings=headings_of(kg, scenario.chunk_ids))
        check_quotes(qa, passages, need_passages=len(passages))
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids), needs_passages=len(passages))


def nested_names(a: str, b: str) -> bool:
    """True when one entity name contains the other, case aside: such a pair is one thing, or a thing and its
    kind, and comparing them makes no question."""
    a, b = a.casefold().strip(), b.casefold().strip()
    return bool(a) and bool(b) and (a in b or b in a)
