"""The knowledge graph: typed nodes (document, chunk, entity) and typed edges over networkx."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import networkx as nx
import numpy as np
from pydantic import BaseModel, BeforeValidator, Field, PlainSerializer, ValidationError

from ragkit._atomic import write_atomic
from ragkit.errors import GraphError
from ragkit.types import Chunk

FORMAT_VERSION = 1
EdgeKind = Literal["has_chunk", "next", "mentions", "shares_entity", "similar"]
EDGE_KINDS: tuple[EdgeKind, ...] = ("has_chunk", "next", "mentions", "shares_entity", "similar")


def _decode_vector(value: Any) -> Any:
    if isinstance(value, str):
        return np.frombuffer(base64.b64decode(value), dtype=np.float32).tolist()
    return value


def _encode_vector(value: list[float]) -> str:
    return base64.b64encode(np.asarray(value, dtype=np.float32).tobytes()).decode("ascii")


Vector = Annotated[
    list[float], BeforeValidator(_decode_vector), PlainSerializer(_encode_vector, when_used="json")
]
"""An embedding; stored in JSON as base64 float32 to keep graph files small."""


class EntityMention(BaseModel):
    """An entity as extracted from a chunk, before normalisation."""

    name: str
    type: str = "other"


class DocumentNode(BaseModel):
    kind: Literal["document"] = "document"
    id: str
    path: str
    format: str
    content_hash: str
    language: str = "und"
    title: str | None = None
    summary: str | None = None
    themes: list[str] = Field(default_factory=list)
    summary_embedding: Vector | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    enrichment: str | None = None
    """Which extractor wrote the summary and themes; None if none did."""


class ChunkNode(Chunk):
    """A chunk in the graph: the ``Chunk`` fields plus what enrichment adds."""

    kind: Literal["chunk"] = "chunk"
    summary: str | None = None
    keyphrases: list[str] = Field(default_factory=list)
    entities: list[EntityMention] = Field(default_factory=list)
    embedding: Vector | None = None
    enrichment: str | None = None
    """Which extractor filled summary / keyphrases / entities (``llm:<model>:vN``, ``fast:vN``); None if none did."""


class EntityNode(BaseModel):
    kind: Literal["entity"] = "entity"
    id: str
    """Normalised key: variants of one entity share it."""
    name: str
    type: str = "other"
    aliases: list[str] = Field(default_factory=list)


Node = DocumentNode | ChunkNode | EntityNode


class SkippedFile(BaseModel):
    path: str
    reason: str


class GraphInfo(BaseModel):
    """Build facts kept with the graph."""

    corpus_root: str | None = None
    extractor: str | None = None
    model: str | None = None
    embeddings: str | None = None
    skipped: list[SkippedFile] = Field(default_factory=list)
    last_build: dict[str, Any] = Field(default_factory=dict)


class KnowledgeGraph:
    """A typed wrapper over ``networkx.MultiDiGraph``; node payloads live under the ``data`` key."""

    def __init__(self) -> None:
        self.g: nx.MultiDiGraph = nx.MultiDiGraph()
        self.info = GraphInfo()

    # -- nodes ------------------------------------------------------------------------------------
    def add(self, node: Node) -> None:
        self.g.add_node(node.id, data=node)

    def get(self, node_id: str) -> Node | None:
        attrs = self.g.nodes.get(node_id)
        return None if attrs is None else attrs["data"]

    def _typed(self, node_id: str, cls: type[Any]) -> Any:
        node = self.get(node_id)
        if not isinstance(node, cls):
            raise KeyError(f"no {cls.__name__} with id {node_id!r}")
        return node

    def document(self, doc_id: str) -> DocumentNode:
        return self._typed(doc_id, DocumentNode)  # type: ignore[no-any-return]

    def chunk(self, chunk_id: str) -> ChunkNode:
        return self._typed(chunk_id, ChunkNode)  # type: ignore[no-any-return]

    def entity(self, entity_id: str) -> EntityNode:
        return self._typed(entity_id, EntityNode)  # type: ignore[no-any-return]

    def _nodes(self, cls: type[Any]) -> list[Any]:
        return [d["data"] for _, d in self.g.nodes(data=True) if isinstance(d["data"], cls)]

    def documents(self) -> list[DocumentNode]:
        return self._nodes(DocumentNode)

    def chunks(self) -> list[ChunkNode]:
        return self._nodes(ChunkNode)

    def entities(self) -> list[EntityNode]:
        return self._nodes(EntityNode)

    def chunks_of(self, doc_id: str) -> list[ChunkNode]:
        """A document's chunks in document order."""
        out = [self.chunk(c) for _, c, k in self.g.out_edges(doc_id, keys=True) if k == "has_chunk"]
        return sorted(out, key=lambda c: c.index)

    def document_of(self, chunk_id: str) -> DocumentNode:
        return self.document(self.chunk(chunk_id).doc_id)

    def entities_of(self, chunk_id: str) -> list[EntityNode]:
        return [self.entity(e) for _, e, k in self.g.out_edges(chunk_id, keys=True) if k == "mentions"]

    def chunks_mentioning(self, entity_id: str) -> list[ChunkNode]:
        return [self.chunk(c) for c, _, k in self.g.in_edges(entity_id, keys=True) if k == "mentions"]

    # -- edges ------------------------------------------------------------------------------------
    def add_edge(self, src: str, dst: str, kind: EdgeKind, weight: float | None = None) -> None:
        """Add (or replace) the edge of ``kind`` from ``src`` to ``dst``."""
        self.g.add_edge(src, dst, key=kind, weight=weight)

    def edges(self, kind: EdgeKind) -> Iterator[tuple[str, str, float | None]]:
        for src, dst, key, data in self.g.edges(keys=True, data=True):
            if key == kind:
                yield src, dst, data.get("weight")

    def neighbours(self, node_id: str, kind: EdgeKind) -> list[tuple[str, float | None]]:
        """Nodes linked to ``node_id`` by ``kind`` in either direction, with the edge weight."""
        out = [(d, data.get("weight")) for _, d, k, data in self.g.out_edges(node_id, keys=True, data=True)
               if k == kind]
        out += [(s, data.get("weight")) for s, _, k, data in self.g.in_edges(node_id, keys=True, data=True)
                if k == kind]
        return out

    def remove_edges(self, kind: EdgeKind, touching: set[str] | None = None) -> int:
        """Remove edges of ``kind`` (only those touching ``touching`` when given); returns the count."""
        doomed = [(s, d) for s, d, _ in self.edges(kind) if touching is None or s in touching or d in touching]
        for s, d in doomed:
            self.g.remove_edge(s, d, key=kind)
        return len(doomed)

    def remove_document(self, doc_id: str) -> list[str]:
        """Remove a document, its chunks and any entity left unmentioned; returns removed chunk ids."""
        chunk_ids = [c.id for c in self.chunks_of(doc_id)]
        entity_ids = {e for c in chunk_ids for _, e, k in self.g.out_edges(c, keys=True) if k == "mentions"}
        self.g.remove_nodes_from([doc_id, *chunk_ids])
        for e in entity_ids:
            if not any(k == "mentions" for _, _, k in self.g.in_edges(e, keys=True)):
                self.g.remove_node(e)
        return chunk_ids

    def counts(self) -> dict[str, dict[str, int]]:
        nodes: dict[str, int] = {}
        for _, d in self.g.nodes(data=True):
            nodes[d["data"].kind] = nodes.get(d["data"].kind, 0) + 1
        edges: dict[str, int] = {}
        for _, _, k in self.g.edges(keys=True):
            edges[k] = edges.get(k, 0) + 1
        return {"nodes": nodes, "edges": edges}

    # -- persistence ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION,
            "info": self.info.model_dump(mode="json"),
            "nodes": [d["data"].model_dump(mode="json") for _, d in self.g.nodes(data=True)],
            "edges": [
                {"src": s, "dst": d, "kind": k, "weight": data.get("weight")}
                for s, d, k, data in self.g.edges(keys=True, data=True)
            ],
        }

    def save(self, path: str | Path) -> None:
        """Write the graph as JSON, atomically."""
        write_atomic(path, json.dumps(self.to_json(), ensure_ascii=False))

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeGraph:
        path = Path(path)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise GraphError(f"{path}: no such knowledge-graph file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise GraphError(f"{path}: not a readable knowledge-graph JSON file ({exc})") from None
        return cls.from_json(raw, where=str(path))

    @classmethod
    def from_json(cls, raw: Any, *, where: str = "graph") -> KnowledgeGraph:
        if not isinstance(raw, dict) or "format_version" not in raw:
            raise GraphError(f"{where}: not a ragkit knowledge graph (no format_version)")
        version = raw["format_version"]
        if not isinstance(version, int) or version > FORMAT_VERSION:
            raise GraphError(
                f"{where}: graph format_version {version} is newer than this ragkit supports "
                f"({FORMAT_VERSION}); upgrade ragkit"
            )
        kg = cls()
        by_kind: dict[Any, type[DocumentNode | ChunkNode | EntityNode]] = {
            "document": DocumentNode, "chunk": ChunkNode, "entity": EntityNode}
        try:
            kg.info = GraphInfo.model_validate(raw.get("info", {}))
            for i, node in enumerate(raw["nodes"]):
                model = by_kind.get(node.get("kind"))
                if model is None:
                    raise GraphError(f"{where}: node {i} has unknown kind {node.get('kind')!r}")
                kg.add(model.model_validate(node))
            for i, edge in enumerate(raw["edges"]):
                if edge["kind"] not in EDGE_KINDS or edge["src"] not in kg.g or edge["dst"] not in kg.g:
                    raise GraphError(f"{where}: edge {i} is invalid ({edge})")
                kg.add_edge(edge["src"], edge["dst"], edge["kind"], edge.get("weight"))
        except ValidationError as exc:
            raise GraphError(f"{where}: corrupt graph: {exc.errors()[0]['msg']} at "
                             f"{'.'.join(str(p) for p in exc.errors()[0]['loc'])}") from None
        except (KeyError, TypeError, AttributeError) as exc:
            raise GraphError(f"{where}: corrupt graph ({type(exc).__name__}: {exc})") from None
        return kg
