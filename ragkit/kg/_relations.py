"""Relations between chunks: ``next`` (document order), ``mentions`` (chunk → entity), ``shares_entity`` (an
inverted entity index, never all pairs) and ``similar`` (nearest neighbours over normalised embeddings).

Cost grows near-linearly with the number of chunks:

- ``shares_entity``: pairs are generated only inside each entity's posting list; an entity mentioned by more
  than ``max_entity_chunks`` chunks (or by more than ``max_entity_share`` of them) is too common to bridge and
  is skipped, which bounds the work per chunk. Each chunk keeps its ``shared_top_k`` best partners (most shared
  entities, partners in other documents first); the edge weight is the number of shared entities.
- ``similar``: exact top-k by blocked matrix products up to ``exact_limit`` chunks; above that, a forest of
  random-projection trees proposes candidates (chunks sharing a leaf), refined once through neighbours of
  neighbours, then scored exactly. Each chunk keeps its ``similar_top_k`` neighbours with cosine ≥
  ``similar_threshold``; the edge weight is the cosine.

Both are symmetric: one edge per pair, stored from the smaller id to the larger. An incremental rebuild
recomputes the top-k lists of the affected chunks only; other chunks keep their edges.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ragkit.kg._entities import build_entity, entity_key
from ragkit.kg._graph import ChunkNode, EntityMention, EntityNode, KnowledgeGraph


@dataclass(frozen=True)
class RelationConfig:
    similar_top_k: int = 5
    similar_threshold: float = 0.6
    """Cosine floor for ``similar`` edges (all-MiniLM-L6-v2: ~0.6 and above reads as clearly on one topic)."""
    shared_top_k: int = 5
    max_entity_chunks: int = 200
    max_entity_share: float = 0.5
    exact_limit: int = 8000
    """Exact nearest-neighbour search up to this many chunks, the random-projection forest above."""
    trees: int = 8
    leaf_size: int = 256
    block: int = 2048
    seed: int = 0


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector during bulk inserts: with millions of live graph objects its full
    passes grow with the heap and make insertion superlinear. Reference counting still frees memory."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# -- next and mentions ---------------------------------------------------------------------------------

@paused_gc()
def link_next(kg: KnowledgeGraph, doc_id: str) -> None:
    """``has_chunk`` from the document to each chunk and ``next`` between consecutive chunks."""
    chunks = sorted((c for c in kg.chunks_of(doc_id)), key=lambda c: c.index)
    for a, b in zip(chunks, chunks[1:], strict=False):
        kg.add_edge(a.id, b.id, "next")


def entity_node_id(kg: KnowledgeGraph, key: str) -> str:
    """The node id for an entity key (prefixed only if a document or chunk already uses that id)."""
    node = kg.get(key)
    return key if node is None or isinstance(node, EntityNode) else f"entity:{key}"


@paused_gc()
def link_mentions(kg: KnowledgeGraph, chunks: list[ChunkNode]) -> set[str]:
    """Entity nodes and ``mentions`` edges for ``chunks``; returns the ids of the entities touched.

    New entities are named from these chunks' mentions; entities already in the graph are refreshed from every
    chunk that mentions them."""
    ids: dict[str, str] = {}
    found: dict[str, list[EntityMention]] = defaultdict(list)
    existing: set[str] = set()
    edges: list[tuple[str, str]] = []
    for chunk in chunks:
        linked: set[str] = set()
        for mention in chunk.entities:
            key = entity_key(mention.name)
            if not key:
                continue
            eid = ids.get(key)
            if eid is None:
                eid = ids[key] = entity_node_id(kg, key)
                if kg.get(eid) is not None:
                    existing.add(eid)
            found[eid].append(mention)
            if eid not in linked:
                linked.add(eid)
                edges.append((chunk.id, eid))
    for eid, mentions in found.items():
        if eid not in existing:
            kg.add(build_entity(eid, mentions))
    for chunk_id, eid in edges:
        kg.add_edge(chunk_id, eid, "mentions")
    refresh_entities(kg, existing)
    return set(found)


def refresh_entities(kg: KnowledgeGraph, entity_ids: set[str]) -> None:
    """Recompute name, type and aliases of entities from every chunk that still mentions them (one pass)."""
    if not entity_ids:
        return
    mentions: dict[str, list[EntityMention]] = {}
    ids: dict[str, str] = {}
    for chunk in kg.chunks():
        for m in chunk.entities:
            key = entity_key(m.name)
            eid = ids.get(key)
            if eid is None:
                eid = ids[key] = entity_node_id(kg, key)
            if eid in entity_ids:
                mentions.setdefault(eid, []).append(m)
    for eid, found in mentions.items():
        if kg.get(eid) is not None:
            kg.add(build_entity(eid, found))


# -- shares_entity ----------------------------------------------------------------------------------------

def _top_k_pairs(src: np.ndarray, dst: np.ndarray, weight: np.ndarray, score: np.ndarray,
                 k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keep each source's ``k`` best (by score) rows of a directed pair list."""
    if len(src) == 0:
        return src, dst, weight
    order = np.lexsort((-score, src))  # stable: ties keep their input order
    src, dst, weight = src[order], dst[order], weight[order]
    starts = np.flatnonzero(np.r_[True, src[1:] != src[:-1]])
    rank = np.arange(len(src)) - np.repeat(starts, np.diff(np.r_[starts, len(src)]))
    keep = rank < k
    return src[keep], dst[keep], weight[keep]


def _undirected(src: np.ndarray, dst: np.ndarray, weight: np.ndarray,
                n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a, b = np.minimum(src, dst), np.maximum(src, dst)
    keys, first = np.unique(a.astype(np.int64) * n + b, return_index=True)
    return keys // n, keys % n, weight[first]


def shared_entity_pairs(
    postings: list[np.ndarray], doc_of: np.ndarray, *, top_k: int, rows: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected pairs (i, j, shared count) from entity posting lists (chunk indices per usable entity).

    With ``rows``, only the top-k lists of those chunks are computed (incremental update)."""
    n = len(doc_of)
    if rows is None:
        parts = []
        for p in postings:
            if len(p) > 1:
                i, j = np.triu_indices(len(p), 1)
                parts.append(p[i].astype(np.int64) * n + p[j])
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        keys, counts = np.unique(np.concatenate(parts), return_counts=True)
        i, j = keys // n, keys % n
        src, dst, w = np.r_[i, j], np.r_[j, i], np.r_[counts, counts]
    else:
        by_chunk: dict[int, list[np.ndarray]] = defaultdict(list)
        for p in postings:
            for r in np.intersect1d(p, rows, assume_unique=True):
                by_chunk[int(r)].append(p)
        srcs, dsts, ws = [], [], []
        for r, lists in by_chunk.items():
            others, counts = np.unique(np.concatenate(lists), return_counts=True)
            mask = others != r
            srcs.append(np.full(int(mask.sum()), r))
            dsts.append(others[mask])
            ws.append(counts[mask])
        if not srcs:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        src, dst, w = np.concatenate(srcs), np.concatenate(dsts), np.concatenate(ws)
    score = w + 0.5 * (doc_of[src] != doc_of[dst])  # partners in other documents first on ties
    src, dst, w = _top_k_pairs(src, dst, w, score, top_k)
    return _undirected(src, dst, w, n)


@paused_gc()
def link_shared_entities(kg: KnowledgeGraph, config: RelationConfig, affected: set[str] | None = None,
                         *, clear: bool = True) -> int:
    """(Re)build ``shares_entity`` edges (all, or those of ``affected`` chunks); returns the edges added.
    ``clear=False`` skips removing old edges (a graph that has none yet)."""
    chunks = kg.chunks()
    index = {c.id: i for i, c in enumerate(chunks)}
    docs = {d: k for k, d in enumerate(sorted({c.doc_id for c in chunks}))}
    doc_of = np.array([docs[c.doc_id] for c in chunks], dtype=np.int64)
    limit = min(config.max_entity_chunks, max(2, int(config.max_entity_share * len(chunks))))
    members: dict[str, set[int]] = defaultdict(set)
    ids: dict[str, str] = {}
    for k, chunk in enumerate(chunks):  # the same keys link_mentions made the mentions edges from
        for m in chunk.entities:
            key = entity_key(m.name)
            if key:
                eid = ids.get(key)
                if eid is None:
                    eid = ids[key] = entity_node_id(kg, key)
                members[eid].add(k)
    postings = [np.array(sorted(m), dtype=np.int64) for m in members.values() if 1 < len(m) <= limit]
    if clear:
        kg.remove_edges("shares_entity", affected)
    rows = None if affected is None else np.array(sorted(index[c] for c in affected if c in index), dtype=np.int64)
    i, j, w = shared_entity_pairs(postings, doc_of, top_k=config.shared_top_k, rows=rows)
    for a, b, weight in zip(i.tolist(), j.tolist(), w.tolist(), strict=True):
        _add_pair(kg, chunks[a].id, chunks[b].id, "shares_entity", float(weight))
    return len(i)


def _add_pair(kg: KnowledgeGraph, a: str, b: str, kind: str, weight: float) -> None:
    src, dst = (a, b) if a < b else (b, a)
    kg.add_edge(src, dst, kind, weight)  # type: ignore[arg-type]


# -- similar ----------------------------------------------------------------------------------------

def _exact(x: np.ndarray, queries: np.ndarray, k: int, threshold: float,
           block: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Directed pairs (query, neighbour, cosine): each query's top-k neighbours (not itself) at or above
    ``threshold``, by blocked matrix products. Only rows with many candidates pay for a partial sort."""
    srcs, dsts, sims = [], [], []
    for s in range(0, len(queries), block):
        q = queries[s : s + block]
        scores = x[q] @ x.T
        scores[np.arange(len(q)), q] = -np.inf
        hits = scores >= threshold
        crowded = np.flatnonzero(hits.sum(axis=1) > 4 * k)
        if len(crowded):  # keep only each crowded row's k best
            part = scores[crowded]
            kth = -np.partition(-part, k - 1, axis=1)[:, k - 1 : k]
            hits[crowded] &= part >= kth
        r, c = np.nonzero(hits)
        srcs.append(q[r])
        dsts.append(c)
        sims.append(scores[r, c])
    src, dst, sim = np.concatenate(srcs), np.concatenate(dsts), np.concatenate(sims)
    return _top_k_pairs(src, dst, sim, sim, k)


@contextlib.contextmanager
def _one_blas_thread() -> Iterator[None]:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional: only a speed-up
        yield
        return
    with threadpool_limits(1, user_api="blas"):
        yield


def _leaves(x: np.ndarray, leaf_size: int, rng: np.random.Generator) -> np.ndarray:
    """One random-projection tree: split at the median of a random direction until leaves are small.

    Returns the leaves as rows of a matrix, padded with -1 (median splits keep leaf sizes nearly equal)."""
    todo, leaves = [np.arange(len(x))], []
    while todo:
        idx = todo.pop()
        if len(idx) <= leaf_size:
            leaves.append(idx)
            continue
        a, b = rng.choice(idx, 2, replace=False)
        direction = x[a] - x[b]
        if not np.any(direction):
            direction = np.asarray(rng.standard_normal(x.shape[1]), dtype=np.float32)
        proj = x[idx] @ direction
        half = len(idx) // 2
        order = np.argpartition(proj, half)
        todo += [idx[order[:half]], idx[order[half:]]]
    out = np.full((len(leaves), max(len(leaf) for leaf in leaves)), -1, dtype=np.int64)
    for i, leaf in enumerate(leaves):
        out[i, : len(leaf)] = leaf
    return out


def _row_top_k(cand: np.ndarray, sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row of candidate matrices, the ``k`` best distinct candidates (padding: -1 / -inf)."""
    order = np.argsort(cand, axis=1, kind="stable")
    cand, sims = np.take_along_axis(cand, order, 1), np.take_along_axis(sims, order, 1)
    dup = np.zeros_like(cand, dtype=bool)
    dup[:, 1:] = cand[:, 1:] == cand[:, :-1]
    sims = np.where(dup | (cand < 0), -np.inf, sims)
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    cand, sims = np.take_along_axis(cand, top, 1), np.take_along_axis(sims, top, 1)
    return np.where(np.isfinite(sims), cand, -1), sims


def _forest(x: np.ndarray, config: RelationConfig) -> tuple[np.ndarray, np.ndarray]:
    """Approximate top-k neighbours: candidates from the leaves of random-projection trees (scored exactly),
    then one round through neighbours of neighbours. Cost ~ n * (trees * leaf_size + k^2) * d."""
    n, k = len(x), config.similar_top_k
    rng = np.random.default_rng(config.seed)
    # the trees only need rough directions: split in a 48-d random projection (angles roughly kept), 8x less data
    sketch = x @ rng.standard_normal((x.shape[1], min(48, x.shape[1]))).astype(np.float32)
    cands, sims = [], []
    with _one_blas_thread():  # many small products: threads only add contention
        for _ in range(config.trees):
            leaves = _leaves(sketch, config.leaf_size, rng)
            valid = leaves >= 0
            xl = x[np.where(valid, leaves, 0)]  # (leaves, size, d)
            scores = np.matmul(xl, xl.transpose(0, 2, 1))
            size = leaves.shape[1]
            scores[:, np.arange(size), np.arange(size)] = -np.inf
            scores = np.where(valid[:, None, :] & valid[:, :, None], scores, -np.inf)
            kk = min(k, size - 1)
            top = np.argpartition(-scores, kk - 1, axis=2)[:, :, :kk]
            tree_c = np.full((n, kk), -1, dtype=np.int64)
            tree_s = np.full((n, kk), -np.inf, dtype=np.float32)
            rows = leaves[valid]
            tree_c[rows] = np.take_along_axis(np.broadcast_to(leaves[:, None, :], scores.shape), top, 2)[valid]
            tree_s[rows] = np.take_along_axis(scores, top, 2)[valid]
            cands.append(tree_c)
            sims.append(tree_s)
    nbr, sim = _row_top_k(np.concatenate(cands, 1), np.concatenate(sims, 1), k)
    # one refinement round: the neighbours of my neighbours are likely my neighbours too
    extra_c = np.full((n, k * k), -1, dtype=np.int64)
    extra_s = np.full((n, k * k), -np.inf, dtype=np.float32)
    for s in range(0, n, config.block):
        part = nbr[s : s + config.block]
        cand = np.where(np.repeat(part >= 0, k, axis=1), nbr[np.where(part >= 0, part, 0)].reshape(len(part), -1), -1)
        own = np.arange(s, s + len(part))[:, None]
        cand = np.where(cand == own, -1, cand)
        scores = np.einsum("id,icd->ic", x[s : s + len(part)], x[np.where(cand >= 0, cand, 0)])
        extra_c[s : s + len(part)] = cand
        extra_s[s : s + len(part)] = np.where(cand >= 0, scores, -np.inf)
    return _row_top_k(np.concatenate([nbr, extra_c], 1), np.concatenate([sim, extra_s], 1), k)


def similar_pairs(x: np.ndarray, config: RelationConfig,
                  queries: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected pairs (i, j, cosine) of top-k neighbours above the threshold (rows of ``x`` are unit vectors)."""
    n = len(x)
    if n < 2:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.float32)
    if queries is None and n > config.exact_limit:
        nbr, sim = _forest(x, config)
        src = np.repeat(np.arange(n), nbr.shape[1])
        dst, s = nbr.ravel(), sim.ravel()
        keep = (dst >= 0) & (s >= config.similar_threshold)
        return _undirected(src[keep], dst[keep], s[keep], n)
    q = np.arange(n) if queries is None else queries
    src, dst, s = _exact(x, q, config.similar_top_k, config.similar_threshold, config.block)
    return _undirected(src, dst, s, n)


@paused_gc()
def link_similar(kg: KnowledgeGraph, config: RelationConfig, affected: set[str] | None = None,
                 *, clear: bool = True) -> int:
    """(Re)build ``similar`` edges over chunks that have embeddings; returns the edges added."""
    chunks = [c for c in kg.chunks() if c.embedding is not None]
    if clear:
        kg.remove_edges("similar", affected)
    if len(chunks) < 2:
        return 0
    x = np.asarray([c.embedding for c in chunks], dtype=np.float32)
    queries = None
    if affected is not None:
        queries = np.array([i for i, c in enumerate(chunks) if c.id in affected], dtype=np.int64)
        if len(queries) == 0:
            return 0
    i, j, s = similar_pairs(x, config, queries)
    for a, b, weight in zip(i.tolist(), j.tolist(), s.tolist(), strict=True):
        _add_pair(kg, chunks[a].id, chunks[b].id, "similar", round(float(weight), 4))
    return len(i)


def relate(kg: KnowledgeGraph, config: RelationConfig | None = None,
           affected: set[str] | None = None, *, clear: bool = True) -> dict[str, float]:
    """``shares_entity`` and ``similar`` edges (all, or for ``affected`` chunks); returns seconds per relation.
    ``clear=False`` skips the removal of old edges (one full scan of the edges) for a graph that has none."""
    config = config or RelationConfig()
    seconds = {}
    started = time.perf_counter()
    link_shared_entities(kg, config, affected, clear=clear)
    seconds["shares_entity"] = time.perf_counter() - started
    started = time.perf_counter()
    link_similar(kg, config, affected, clear=clear)
    seconds["similar"] = time.perf_counter() - started
    return seconds
