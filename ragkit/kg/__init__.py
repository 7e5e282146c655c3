"""Documents to knowledge graph: parse (corpus), chunk, enrich (entities, keyphrases, summaries), relate."""

from __future__ import annotations

from ragkit.kg._build import build_graph
from ragkit.kg._chunking import DEFAULT_MAX_TOKENS
from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention, EntityNode, KnowledgeGraph, SkippedFile

__all__ = [
    "ChunkNode",
    "DEFAULT_MAX_TOKENS",
    "DocumentNode",
    "EntityMention",
    "EntityNode",
    "KnowledgeGraph",
    "SkippedFile",
    "build_graph",
]
