"""Pieces the built-in generators share: entity pairs by type and similarity, and the one-fact question."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from random import Random
from typing import TypeVar

from ragkit.kg import EntityNode, KnowledgeGraph
from ragkit.llm import Judge
from ragkit.synthesis import QAOutput, chunk_vectors, passage, spread, write_qa
from ragkit.types import Scenario

T = TypeVar("T")

FACT_TASK = "Ask about one specific fact that passage [0] states about the topic."


def entities_by_type(kg: KnowledgeGraph, entity_ids: Iterable[str],
                     keep: Callable[[str, EntityNode], bool]) -> dict[str, list[str]]:
    """Entity ids grouped by lower-cased type (in the given order), keeping those ``keep(type, entity)`` accepts."""
    by_type: dict[str, list[str]] = {}
    for entity_id in entity_ids:
        entity = kg.entity(entity_id)
        kind = entity.type.strip().lower()
        if keep(kind, entity):
            by_type.setdefault(kind, []).append(entity_id)
    return by_type


def mentioning_chunks(ent_docs: dict[str, dict[str, list[str]]], entity_id: str) -> list[str]:
    """The chunks mentioning an entity, over all its documents (``ent_docs`` from ``entity_documents``)."""
    return [c for chunk_ids in ent_docs[entity_id].values() for c in chunk_ids]


def chunk_similarity(kg: KnowledgeGraph) -> Callable[[str, str, Random], float]:
    """``similarity(a, b, rng)``: the cosine of two chunks' embeddings, or a random number when either has none."""
    ids, matrix = chunk_vectors(kg)
    index = {c: i for i, c in enumerate(ids)}

    def similarity(a: str, b: str, rng: Random) -> float:
        if matrix is not None and a in index and b in index:
            return float(matrix[index[a]] @ matrix[index[b]])
        return rng.random()

    return similarity


def rank_candidates(candidates: list[T], n: int, *, similarity: Callable[[T], float], group: Callable[[T], Hashable],
                    floor: int, rng: Random) -> list[T]:
    """The most similar candidates (``max(4 * n, floor)`` of them) with groups taking turns, then ordered by
    similarity rounded to 0.1 (within a step the turns stay)."""
    best = sorted(candidates, key=lambda c: -similarity(c))
    ordered = spread(best[: max(4 * n, floor)], key=group, rng=rng)
    ordered.sort(key=lambda c: -round(similarity(c), 1))
    return ordered


async def write_fact_qa(judge: Judge, scenario: Scenario, kg: KnowledgeGraph, topic: str | None) -> QAOutput:
    """A question about one fact of the scenario's first chunk, on ``topic`` (None: any fact); no quotes, which no
    check of a one-passage sample reads (the critic finds its own evidence)."""
    return await write_qa(judge, scenario, [passage(kg, scenario.chunk_ids[0])], topic=topic or "", task=FACT_TASK,
                          quotes=False)
