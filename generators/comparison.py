"""comparison: two entities of one kind (one tagged type, or names of one kind), contrasted on something the
contexts give for both."""

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
    same_kind,
    scenario_language,
    write_comparison_qa,
)
from ragkit.text import CJK_CHAR
from ragkit.types import Scenario, TestSample

from ._shared import chunk_similarity, entities_by_type, mentioning_chunks, rank_candidates

VALUE_TYPES = frozenset({"date", "time", "cardinal", "ordinal", "money", "percent", "quantity", "number", "other",
                         "misc", "unknown"})
"""Entity types that are values or unknown kinds rather than comparable things."""
UNKNOWN_TYPES = frozenset({"other", "misc", "unknown"})
"""The unknown kinds among them: two such entities are comparable when their names say they are one kind."""
KIN = "same kind by name"
"""The kind of a pair that ``same_kind`` names, whatever their tagged types."""


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
        candidates: list[tuple[str, float, list[str], list[str]]] = []  # (kind, similarity, entities, chunks)
        for kind, a, b in self._pairs(kg, ent_docs, by_type, rng):
            chunk_a, chunk_b = mentioning_chunks(ent_docs, a), mentioning_chunks(ent_docs, b)
            both = sorted(set(chunk_a) & set(chunk_b))
            if both:
                chunks, sim = [rng.choice(both)], 1.0
            else:
                ca, cb = rng.choice(chunk_a), rng.choice(chunk_b)
                chunks, sim = [ca, cb], similarity(ca, cb, rng)
            candidates.append((kind, sim + (1.0 if kind == KIN else 0.0), [a, b], chunks))
        if not candidates:
            kinds = ", ".join(f"{k} ({len(v)})" for k, v in sorted(by_type.items())) or "none"
            return Plan([], ["no entity type has two entities to compare (comparable types with their entity "
                             f"counts: {kinds})"])
        # pairs of one kind by their names first, then comparable contexts first, types taking turns
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

    def _pairs(self, kg: KnowledgeGraph, ent_docs: dict[str, dict[str, list[str]]], by_type: dict[str, list[str]],
               rng: Random) -> list[tuple[str, str, str]]:
        """(kind, a, b) for every pair of entities to compare: two of one tagged type (the most mentioned
        ``max_entities_per_type`` of each), or two whose names plainly name one kind of thing (``same_kind``: "Heron
        H6" and "Heron H7", "Porto Plant" and "Sheffield Plant"), which pair whatever the tagger typed them, as
        ``KIN``. The fast tagger typed "Heron H6" a person and "Heron H7" an organisation on corpora/acme, and
        paired a department with a product as organisations (session 41). One name inside the other is no pair."""
        mentions = {e: sum(len(v) for v in by_doc.values()) for e, by_doc in ent_docs.items()}
        pairs: dict[frozenset[str], tuple[str, str, str]] = {}
        for kind, members in sorted(by_type.items()):
            members.sort(key=lambda e: (-mentions[e], rng.random()))
            for a, b in itertools.combinations(members[: self.max_entities_per_type], 2):
                pairs[frozenset((a, b))] = (kind, a, b)
        most = sorted(ent_docs, key=lambda e: (-mentions[e], e))[: 4 * self.max_entities_per_type]  # bounds O(m²)
        named = {e: kg.entity(e).name for e in most
                 if kg.entity(e).type.strip().lower() not in VALUE_TYPES - UNKNOWN_TYPES}
        for a, b in itertools.combinations(named, 2):
            if same_kind(named[a], named[b]):
                pairs[frozenset((a, b))] = (KIN, a, b)
        return [(kind, a, b) for kind, a, b in pairs.values() if not nested_names(kg.entity(a).name,
                                                                                   kg.entity(b).name)]

    async def generate(self, scenario: ComparisonScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        a, b = scenario.entities
        passages = [passage(kg, c) for c in scenario.chunk_ids]
        qa = await write_comparison_qa(judge, scenario, passages, a, b, headings=headings_of(kg, scenario.chunk_ids))
        check_quotes(qa, passages, need_passages=len(passages))
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids), needs_passages=len(passages))


def nested_names(a: str, b: str) -> bool:
    """True when one entity name contains the other, case aside, or, for names in a CJK script, is the other with
    one character left out ("杭州西湖区" and "杭州市西湖区", one district with or without its city's 市; "浜松工場"
    and "浜松第二工場" are two plants): such a pair is one thing, or a thing and its kind, and comparing them makes
    no question."""
    a, b = a.casefold().strip(), b.casefold().strip()
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    short, long = sorted((a, b), key=len)
    return bool(CJK_CHAR.search(short)) and len(long) == len(short) + 1 and any(
        long[:i] + long[i + 1:] == short for i in range(len(long)))
