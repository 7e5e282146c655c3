"""Documents to knowledge graph: parse (corpus), chunk, enrich (entities, keyphrases, summaries), relate."""

from __future__ import annotations

from ragkit.kg._build import BuildOptions, BuildResult, BuildSummary, build_graph, build_graph_sync
from ragkit.kg._chunking import DEFAULT_MAX_TOKENS
from ragkit.kg._entities import mentioned_in
from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention, EntityNode, KnowledgeGraph, SkippedFile
from ragkit.kg._nlp import named_entities

__all__ = [
    "BuildOptions",
    "BuildResult",
    "BuildSummary",
    "ChunkNode",
    "DEFAULT_MAX_TOKENS",
    "DocumentNode",
    "EntityMention",
    "EntityNode",
    "KnowledgeGraph",
    "SkippedFile",
    "build_graph",
    "build_graph_sync",
    "mentioned_in",
    "named_entities",
]
