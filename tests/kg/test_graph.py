"""The knowledge graph: typed accessors, JSON round trip, clear errors on corrupt or newer files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ragkit.errors import GraphError
from ragkit.kg._graph import (
    FORMAT_VERSION,
    ChunkNode,
    DocumentNode,
    EntityMention,
    EntityNode,
    KnowledgeGraph,
    SkippedFile,
)


def small() -> KnowledgeGraph:
    kg = KnowledgeGraph()
    kg.add(DocumentNode(id="d1", path="a.md", format="md", content_hash="h1", language="en", summary="About A.",
                        themes=["a"], summary_embedding=[0.6, 0.8], enrichment="fast:v1"))
    kg.add(DocumentNode(id="d2", path="b.md", format="md", content_hash="h2", language="zh"))
    for i, (cid, doc) in enumerate([("c1", "d1"), ("c2", "d1"), ("c3", "d2")]):
        kg.add(ChunkNode(id=cid, doc_id=doc, text=f"text {cid} 青岚", index=i if doc == "d1" else 0,
                         heading_path=["H"], embedding=[0.1 * (i + 1), 0.2, 0.3], summary="s",
                         keyphrases=["k"], entities=[EntityMention(name="Jane", type="person")], enrichment="x"))
        kg.add_edge(doc, cid, "has_chunk")
    kg.add(EntityNode(id="jane", name="Jane", type="person", aliases=["Dr. Jane"]))
    kg.add_edge("c1", "c2", "next")
    for c in ("c1", "c3"):
        kg.add_edge(c, "jane", "mentions")
    kg.add_edge("c1", "c3", "shares_entity", 1.0)
    kg.add_edge("c1", "c3", "similar", 0.75)
    kg.info.skipped = [SkippedFile(path="x.pdf", reason="encrypted PDF")]
    kg.info.last_build = {"extractor": "fast:v1"}
    return kg


def test_accessors() -> None:
    kg = small()
    assert [c.id for c in kg.chunks_of("d1")] == ["c1", "c2"]
    assert kg.document_of("c3").id == "d2"
    assert [e.id for e in kg.entities_of("c1")] == ["jane"]
    assert {c.id for c in kg.chunks_mentioning("jane")} == {"c1", "c3"}
    assert kg.neighbours("c3", "similar") == [("c1", 0.75)]
    assert kg.counts() == {
        "nodes": {"document": 2, "chunk": 3, "entity": 1},
        "edges": {"has_chunk": 3, "next": 1, "mentions": 2, "shares_entity": 1, "similar": 1},
    }
    with pytest.raises(KeyError):
        kg.chunk("jane")


def test_json_round_trip(tmp_path: Path) -> None:
    kg = small()
    kg.save(tmp_path / "kg.json")
    back = KnowledgeGraph.load(tmp_path / "kg.json")
    assert back.to_json() == kg.to_json()
    assert back.chunk("c1").embedding == pytest.approx([0.1, 0.2, 0.3])
    assert back.document("d1").summary_embedding == pytest.approx([0.6, 0.8])
    assert back.chunk("c1").enrichment == "x" and back.document("d1").enrichment == "fast:v1"
    assert back.chunk("c1").text == "text c1 青岚"
    assert back.info.skipped == [SkippedFile(path="x.pdf", reason="encrypted PDF")]
    raw = json.loads((tmp_path / "kg.json").read_text(encoding="utf-8"))
    assert raw["format_version"] == FORMAT_VERSION
    assert isinstance(raw["nodes"][2]["embedding"], str)  # base64 float32, not a list of floats
    assert np.frombuffer(__import__("base64").b64decode(raw["nodes"][2]["embedding"]), np.float32).shape == (3,)


def test_remove_document_drops_orphan_entities() -> None:
    kg = small()
    removed = kg.remove_document("d2")
    assert removed == ["c3"]
    assert kg.get("jane") is not None  # still mentioned by c1
    kg.remove_document("d1")
    assert kg.get("jane") is None and kg.counts()["nodes"] == {}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a readable knowledge-graph JSON file"),
        ('{"nodes": []}', "not a ragkit knowledge graph (no format_version)"),
        (json.dumps({"format_version": FORMAT_VERSION + 1, "nodes": [], "edges": []}), "newer than this ragkit"),
        (json.dumps({"format_version": 1, "nodes": [{"kind": "planet", "id": "x"}], "edges": []}),
         "node 0 has unknown kind 'planet'"),
        (json.dumps({"format_version": 1, "nodes": [{"kind": "chunk", "id": "x"}], "edges": []}), "corrupt graph"),
        (json.dumps({"format_version": 1, "nodes": [], "edges": [{"src": "a", "dst": "b", "kind": "next"}]}),
         "edge 0 is invalid"),
    ],
)
def test_load_errors_are_one_line_and_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "kg.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GraphError) as err:
        KnowledgeGraph.load(path)
    assert message in str(err.value) and str(path) in str(err.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(GraphError, match="no such knowledge-graph file"):
        KnowledgeGraph.load(tmp_path / "nope.json")
