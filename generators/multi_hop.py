"""multi_hop: a question that needs two chunks, usually of different documents, bridged by a shared entity: a
question on a fact of each, asked together ("What does the Wren W300 carry? Where is the Wren W300 built?")."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    VAGUE_TYPES,
    Plan,
    check_quotes,
    context_refs,
    entity_documents,
    headings_of,
    make_sample,
    passage,
    scenario_language,
    write_bridge_qa,
)
from ragkit.types import Scenario, TestSample


class MultiHopScenario(Scenario):
    """Two chunks that both mention ``bridge``."""

    bridge: str
    bridge_id: str
    cross_document: bool = True


def entity_pairs(by_doc: dict[str, list[str]], rng: Random, limit: int) -> list[tuple[str, str]]:
    """Up to ``limit`` chunk pairs from two different documents mentioning one entity; document pairs take
    turns, so every pair of documents appears once before any appears twice."""
    docs = sorted(by_doc)
    doc_pairs = [(a, b) for i, a in enumerate(docs) for b in docs[i + 1:]]
    doc_pairs = rng.sample(doc_pairs, min(limit, len(doc_pairs)))
    per_pair = []
    for da, db in doc_pairs:
        combos = [(x, y) for x in by_doc[da] for y in by_doc[db]]
        per_pair.append(rng.sample(combos, min(limit, len(combos))))
    out: list[tuple[str, str]] = []
    for layer in range(max((len(p) for p in per_pair), default=0)):
        out += [p[layer] for p in per_pair if layer < len(p)]
    return out[:limit]


def everywhere(by_entity: dict[str, dict[str, list[str]]], documents: int) -> set[str]:
    """The entities mentioned in every document of a corpus of three or more: its own subject, such as the
    company that writes it. Such a bridge links any two chunks, so the writer asks two unrelated questions about
    it: on corpora/ko, "한빛" (in all 5 documents) bridged 9 of 14 multi-hop candidates and all 4 kept samples, each
    a pair of vague questions ("한빛 커피의 시행일은?": the effective date of what?)."""
    if documents < 3:  # with two documents, every bridge is in both
        return set()
    return {e for e, by_doc in by_entity.items() if len(by_doc) >= documents}


@generator(passages=2)
@dataclass(frozen=True)
class MultiHop:
    """Two questions asked together, one on a fact of each of two chunks linked by a shared entity."""

    same_document: bool = True
    """Fall back to two distant chunks of one document when no entity spans two documents."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        ent_docs = entity_documents(kg)
        cross = {e: d for e, d in ent_docs.items() if len(d) >= 2}
        notes: list[str] = []
        wide = everywhere(cross, len(kg.documents()))
        if wide and len(wide) < len(cross):
            cross = {e: d for e, d in cross.items() if e not in wide}
            names = ", ".join(sorted(kg.entity(e).name for e in wide))
            notes.append(f"not used as a bridge, being in every document: {names}")
        lists: list[tuple[str, list[tuple[str, str]], bool]] = []
        for entity_id in sorted(cross):
            lists.append((entity_id, entity_pairs(cross[entity_id], rng, max(n, 1)), True))
        if not cross:
            notes.append(f"no entity is mentioned in two different documents ({len(ent_docs)} entities in "
                         f"{len(kg.documents())} documents)")
            if self.same_document:
                for entity_id, by_doc in sorted(ent_docs.items()):
                    (chunk_ids,) = by_doc.values()
                    far = [(a, b) for i, a in enumerate(chunk_ids) for b in chunk_ids[i + 1:]
                           if abs(kg.chunk(a).index - kg.chunk(b).index) > 1]
                    if far:
                        lists.append((entity_id, rng.sample(far, min(len(far), max(n, 1))), False))
                if lists:
                    notes.append("multi-hop pairs use two distant chunks of the same document")
        # entities take turns; within a turn, named entities before vague ones, rarer bridges (more specific
        # questions) first
        rng.shuffle(lists)
        lists.sort(key=lambda item: (kg.entity(item[0]).type in VAGUE_TYPES, min(len(ent_docs[item[0]]), 4)))
        scenarios: list[Scenario] = []
        seen: set[frozenset[str]] = set()
        for layer in range(max((len(pairs) for _, pairs, _ in lists), default=0)):
            for entity_id, pairs, is_cross in lists:
                if layer >= len(pairs) or frozenset(pairs[layer]) in seen:
                    continue
                a, b = pairs[layer]
                seen.add(frozenset((a, b)))
                scenarios.append(MultiHopScenario(
                    generator="multi_hop", chunk_ids=[a, b], bridge=kg.entity(entity_id).name, bridge_id=entity_id,
                    cross_document=is_cross, language=scenario_language(kg, [a, b]),
                ))
            if len(scenarios) >= n:
                break
        if not scenarios and not notes:
            notes.append("no two chunks share an entity")
        elif len(scenarios) < n and cross:
            which = "entity is" if len(cross) == 1 else "entities are"
            notes.append(f"only {len(cross)} {which} mentioned in two or more documents, giving {len(scenarios)} "
                         "chunk pairs")
        return Plan(scenarios[:n], notes)

    async def generate(self, scenario: MultiHopScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        passages = [passage(kg, c) for c in scenario.chunk_ids]
        qa = await write_bridge_qa(
            judge, scenario, passages, topic=scenario.bridge, headings=headings_of(kg, scenario.chunk_ids),
            task=(f"Both passages mention {scenario.bridge}. Ask about a fact of passage_0 and a different fact "
                  "of passage_1, so that the question cannot be answered from either passage alone."),
        )
        used = check_quotes(qa, passages, need_passages=2)
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids), passages_quoted=used,
                           needs_passages=2)
