"""Relation builders on hand-built graphs, entity-name normalisation, and the nearest-neighbour search."""

from __future__ import annotations

import numpy as np
import pytest

from ragkit.kg._entities import build_entity, clean_name, entity_key
from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention, KnowledgeGraph
from ragkit.kg._relations import (
    RelationConfig,
    link_mentions,
    link_next,
    link_shared_entities,
    link_similar,
    relate,
    shared_entity_pairs,
    similar_pairs,
)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Dr. Jane Smith", "jane smith"),
        ("Jane Smith", "jane smith"),
        ("JANE  SMITH", "jane smith"),
        ("Prof Jane Smith", "jane smith"),
        ("The Acme Robotics Ltd.", "acme robotics"),
        ("Acme Robotics", "acme robotics"),
        ("Acme Robotics, Inc", "acme robotics"),
        ("Acme's", "acme"),
        ("Kestrel-K10", "kestrel k10"),
        ("ＡＢＣ Ｃｏｒｐ", "abc"),  # full-width letters (NFKC)
        ("杭州青岚茶业有限公司", "杭州青岚茶业"),
        ("青岚茶业", "青岚茶业"),
        ("The", "the"),  # an article alone stays
        ("Dr.", "dr"),
        ("---", ""),
    ],
)
def test_entity_key(name: str, key: str) -> None:
    assert entity_key(name) == key


def test_distinct_names_stay_apart() -> None:
    assert entity_key("Jane") != entity_key("Jane Smith")
    assert entity_key("Acme Robotics") != entity_key("Acme")


def test_build_entity_picks_commonest_name_and_type() -> None:
    node = build_entity("jane smith", [
        EntityMention(name="Jane Smith", type="person"), EntityMention(name="Dr. Jane Smith", type="person"),
        EntityMention(name="Jane Smith", type="other"), EntityMention(name="Jane Smith", type="organization"),
    ])
    assert node.name == "Jane Smith" and node.type == "person" and node.aliases == ["Dr. Jane Smith"]
    assert clean_name(' "The Kestrel K10". ') == "Kestrel K10"


@pytest.mark.parametrize(("span", "name"), [
    ("Xuancheng Ren（任宣丞", "Xuancheng Ren"),  # the tagger's span ended inside the bracket
    ("BYVoid(byvoid.kcp@gmail.com", "BYVoid"),
    ("byvoid.kcp@gmail.com) 所開發", "所開發"),  # it began inside one
    ("(Eindhoven", "Eindhoven"),  # nothing with a letter before the bracket: its inside is the name
    ("《西游记", "西游记"),
    ("Robot Vision (Eindhoven)", "Robot Vision (Eindhoven)"),  # closed: kept whole, not trimmed to "…(Eindhoven"
    ("Acme (UK) Ltd", "Acme (UK) Ltd"),
    ("(Eindhoven)", "Eindhoven"),
])
def test_clean_name_leaves_out_a_bracket_it_never_closes(span: str, name: str) -> None:
    assert clean_name(span) == name


def graph(chunks: dict[str, tuple[str, list[str]]], embeddings: dict[str, list[float]] | None = None) -> KnowledgeGraph:
    """chunk id -> (doc id, entity names); chunks of a document in the given order."""
    kg = KnowledgeGraph()
    index: dict[str, int] = {}
    for cid, (doc, names) in chunks.items():
        if kg.get(doc) is None:
            kg.add(DocumentNode(id=doc, path=f"{doc}.md", format="md", content_hash=doc))
        index[doc] = index.get(doc, -1) + 1
        emb = (embeddings or {}).get(cid)
        kg.add(ChunkNode(id=cid, doc_id=doc, text=cid, index=index[doc], embedding=emb,
                         entities=[EntityMention(name=n, type="person") for n in names]))
        kg.add_edge(doc, cid, "has_chunk")
    for doc in {d for d, _ in chunks.values()}:
        link_next(kg, doc)
    link_mentions(kg, kg.chunks())
    return kg


def edges(kg: KnowledgeGraph, kind: str) -> dict[tuple[str, str], float | None]:
    return {(s, d): w for s, d, w in kg.edges(kind)}  # type: ignore[arg-type]


def test_next_and_mentions() -> None:
    kg = graph({"a1": ("A", ["Dr. Jane Smith"]), "a2": ("A", ["Jane Smith", "Acme"]), "b1": ("B", ["ACME"])})
    assert set(edges(kg, "next")) == {("a1", "a2")}
    assert sorted(e.id for e in kg.entities()) == ["acme", "jane smith"]
    assert {c.id for c in kg.chunks_mentioning("jane smith")} == {"a1", "a2"}
    assert kg.entity("jane smith").name == "Jane Smith" and kg.entity("jane smith").aliases == ["Dr. Jane Smith"]


def test_shares_entity_weights_are_shared_counts_and_one_edge_per_pair() -> None:
    kg = graph({
        "a1": ("A", ["Jane", "Acme", "Porto"]), "b1": ("B", ["Jane", "Acme"]), "c1": ("C", ["Porto"]),
        "d1": ("D", ["Nobody"]),
    })
    link_shared_entities(kg, RelationConfig(max_entity_share=1.0))
    assert edges(kg, "shares_entity") == {("a1", "b1"): 2.0, ("a1", "c1"): 1.0}
    assert kg.neighbours("b1", "shares_entity") == [("a1", 2.0)]


def test_shares_entity_skips_entities_mentioned_by_too_many_chunks() -> None:
    chunks = {f"c{i}": (f"D{i}", ["Acme"] + (["Jane"] if i < 2 else [])) for i in range(6)}
    kg = graph(chunks)
    link_shared_entities(kg, RelationConfig(max_entity_chunks=5))
    assert edges(kg, "shares_entity") == {("c0", "c1"): 1.0}  # "Acme" (6 chunks) is a hub, not a bridge
    kg2 = graph(chunks)
    link_shared_entities(kg2, RelationConfig(max_entity_chunks=200, max_entity_share=0.5))
    assert edges(kg2, "shares_entity") == {("c0", "c1"): 1.0}  # 6 of 6 chunks is more than half


def test_shares_entity_top_k_prefers_other_documents() -> None:
    kg = graph({"a1": ("A", ["X"]), "a2": ("A", ["X"]), "b1": ("B", ["X"]), "c1": ("C", ["X"])})
    link_shared_entities(kg, RelationConfig(shared_top_k=1, max_entity_share=1.0))
    found = edges(kg, "shares_entity")
    assert ("a1", "b1") in found and ("a1", "a2") not in found
    assert all(w == 1.0 for w in found.values())


def test_shared_entity_pairs_never_enumerates_all_pairs() -> None:
    postings = [np.array([0, 1]), np.array([2, 3])]
    i, j, w = shared_entity_pairs(postings, np.arange(1000), top_k=5)
    assert sorted(zip(i.tolist(), j.tolist(), strict=True)) == [(0, 1), (2, 3)]


def unit(*v: float) -> list[float]:
    a = np.asarray(v, dtype=np.float32)
    return (a / np.linalg.norm(a)).tolist()


def test_similar_top_k_with_threshold() -> None:
    emb = {"a": unit(1, 0, 0), "b": unit(0.9, 0.1, 0), "c": unit(0.8, 0.3, 0), "d": unit(0, 0, 1)}
    kg = graph({k: ("A" if k in "ab" else "B", []) for k in emb}, emb)
    link_similar(kg, RelationConfig(similar_top_k=1, similar_threshold=0.5))
    found = edges(kg, "similar")
    assert set(found) == {("a", "b"), ("b", "c")}  # d is far from everything
    assert found[("a", "b")] == pytest.approx(float(np.dot(emb["a"], emb["b"])), abs=1e-3)
    link_similar(kg, RelationConfig(similar_top_k=3, similar_threshold=0.99))
    assert set(edges(kg, "similar")) == {("a", "b")}


def clustered(n: int, topics: int, noise: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((topics, 64)).astype(np.float32)
    x = centres[rng.integers(0, topics, n)] + noise * rng.standard_normal((n, 64)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_forest_search_finds_the_exact_neighbours_on_clustered_data() -> None:
    x = clustered(3000, 60, 0.25)
    exact = RelationConfig(similar_top_k=5, similar_threshold=0.5, exact_limit=10**9)
    approx = RelationConfig(similar_top_k=5, similar_threshold=0.5, exact_limit=0, leaf_size=64)
    ei, ej, _ = similar_pairs(x, exact)
    ai, aj, asim = similar_pairs(x, approx)
    truth = set(zip(ei.tolist(), ej.tolist(), strict=True))
    got = set(zip(ai.tolist(), aj.tolist(), strict=True))
    assert len(truth & got) / len(truth) > 0.9
    assert np.all(asim >= 0.5)
    assert np.allclose(asim, np.einsum("ij,ij->i", x[ai], x[aj]), atol=1e-4)  # weights are exact cosines


def test_incremental_relate_touches_only_affected_chunks() -> None:
    emb = {"a": unit(1, 0, 0), "b": unit(0.95, 0.05, 0), "c": unit(0, 1, 0), "d": unit(0.05, 0.95, 0)}
    kg = graph({"a": ("A", ["X"]), "b": ("B", ["X"]), "c": ("C", ["Y"]), "d": ("D", ["Y"])}, emb)
    config = RelationConfig(similar_threshold=0.5, max_entity_share=1.0)
    relate(kg, config)
    full = (edges(kg, "similar"), edges(kg, "shares_entity"))
    assert set(full[0]) == {("a", "b"), ("c", "d")} and set(full[1]) == {("a", "b"), ("c", "d")}
    kg.remove_edges("similar", {"a"})
    kg.remove_edges("shares_entity", {"a"})
    kg.add_edge("c", "d", "similar", 0.123)  # a stale weight outside the affected set stays as it is
    relate(kg, config, affected={"a"})
    assert edges(kg, "similar")[("a", "b")] == full[0][("a", "b")]
    assert edges(kg, "similar")[("c", "d")] == 0.123
    assert set(edges(kg, "shares_entity")) == {("a", "b"), ("c", "d")}
