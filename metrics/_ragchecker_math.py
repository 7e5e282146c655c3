"""RAGChecker's per-sample formulas over graded support values (pure; no LLM).

Inputs are supports in [0, 1] (0/1 when verdicts are binary), named after what is checked against what:

- ``resp_vs_ref[a]``: response claim a entailed by the reference answer (RAGChecker ``answer2response``)
- ``ref_vs_resp[g]``: reference claim g entailed by the response (``response2answer``)
- ``resp_vs_ctx[a][k]``: response claim a attributed to retrieved chunk k (``retrieved2response``, per chunk)
- ``ref_vs_ctx[g][k]``: reference claim g attributed to retrieved chunk k (``retrieved2answer``, per chunk)
- ``resp_vs_set[a]``, ``ref_vs_set[g]``: the claim entailed by the retrieved chunks read together

RAGChecker checks each claim against each chunk and takes "any chunk" as the max; here "found in the retrieved
set" is the set-level support, so that a fact needing two chunks at once counts as found. Where a formula asks
which chunk (relevant chunks, context precision, noise sensitivity), the per-chunk attribution is used.

Each function returns None when the claims it averages over are missing (RAGChecker returns 0 there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Vector = Sequence[float]
Grid = Sequence[Sequence[float]]


@dataclass(frozen=True)
class Supports:
    """The four support matrices of one sample (None when not computed)."""

    resp_vs_ref: Vector | None = None
    ref_vs_resp: Vector | None = None
    resp_vs_ctx: Grid | None = None
    ref_vs_ctx: Grid | None = None
    resp_vs_set: Vector | None = None
    ref_vs_set: Vector | None = None


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _found(vector: Vector | None, grid: Grid | None) -> list[float]:
    """Support of each claim by the retrieved set (the max over chunks when no set-level support is given)."""
    if vector is not None:
        return list(vector)
    return [max(row, default=0.0) for row in grid or []]


def _relevant_chunks(s: Supports, n_ctx: int) -> list[float]:
    """Chunk k is relevant when it entails at least one reference claim (max over reference claims)."""
    grid = s.ref_vs_ctx or []
    return [max((row[k] for row in grid), default=0.0) for k in range(n_ctx)]


def precision(s: Supports) -> float | None:
    """mean_a resp_vs_ref[a]: share of response claims that the reference entails."""
    return _mean(list(s.resp_vs_ref or []))


def recall(s: Supports) -> float | None:
    """mean_g ref_vs_resp[g]: share of reference claims that the response entails."""
    return _mean(list(s.ref_vs_resp or []))


def f1(s: Supports) -> float | None:
    """2PR / (P + R), 0 when either is 0."""
    p, r = precision(s), recall(s)
    if p is None or r is None:
        return None
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0


def claim_recall(s: Supports) -> float | None:
    """mean_g ref_vs_set[g]: share of reference claims found in the retrieved chunks."""
    return _mean(_found(s.ref_vs_set, s.ref_vs_ctx))


def context_precision(s: Supports) -> float | None:
    """mean_k max_g ref_vs_ctx[g][k]: share of chunks that hold at least one reference claim (not rank-aware)."""
    if not s.ref_vs_ctx:
        return None
    return _mean(_relevant_chunks(s, len(s.ref_vs_ctx[0])))


def context_utilization(s: Supports) -> float | None:
    """Σ_g recalled_g · ref_vs_resp[g] / Σ_g recalled_g, recalled_g = ref_vs_set[g]."""
    recalled = _found(s.ref_vs_set, s.ref_vs_ctx)
    used = list(s.ref_vs_resp or [])
    total = sum(recalled)
    if not recalled or total == 0:
        return None
    return sum(r * u for r, u in zip(recalled, used, strict=True)) / total


def noise_sensitivity(s: Supports, *, relevant: bool) -> float | None:
    """Share of response claims that are incorrect (not entailed by the reference) yet entailed by a chunk.

    relevant: ``mean_a rel_a · (1 − resp_vs_ref[a])`` with ``rel_a = max_k relevant_k · resp_vs_ctx[a][k]``;
    irrelevant: ``mean_a irr_a · (1 − rel_a) · (1 − resp_vs_ref[a])`` with
    ``irr_a = max_k (1 − relevant_k) · resp_vs_ctx[a][k]`` (claims a relevant chunk already supports are excluded).
    """
    grid, correct = s.resp_vs_ctx or [], list(s.resp_vs_ref or [])
    if not grid:
        return None
    chunks = _relevant_chunks(s, len(grid[0]))
    out = []
    for row, ok in zip(grid, correct, strict=True):
        rel = max((c * v for c, v in zip(chunks, row, strict=True)), default=0.0)
        if relevant:
            out.append(rel * (1 - ok))
        else:
            irr = max(((1 - c) * v for c, v in zip(chunks, row, strict=True)), default=0.0)
            out.append(irr * (1 - rel) * (1 - ok))
    return _mean(out)


def faithfulness(s: Supports) -> float | None:
    """mean_a resp_vs_set[a]: share of response claims the retrieved chunks entail."""
    return _mean(_found(s.resp_vs_set, s.resp_vs_ctx))


def hallucination(s: Supports) -> float | None:
    """mean_a (1 − resp_vs_set[a]) · (1 − resp_vs_ref[a]): wrong claims that the chunks do not support."""
    found, correct = _found(s.resp_vs_set, s.resp_vs_ctx), list(s.resp_vs_ref or [])
    return _mean([(1 - f) * (1 - ok) for f, ok in zip(found, correct, strict=True)])


def self_knowledge(s: Supports) -> float | None:
    """mean_a (1 − resp_vs_set[a]) · resp_vs_ref[a]: correct claims that the chunks do not support."""
    found, correct = _found(s.resp_vs_set, s.resp_vs_ctx), list(s.resp_vs_ref or [])
    return _mean([(1 - f) * ok for f, ok in zip(found, correct, strict=True)])
