"""Context recall: did retrieval find what the reference needs?"""

from __future__ import annotations

from typing import Literal

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext, claim_details
from ragkit.registry import MetricFn, metric, variant
from ragkit.types import EvalSample, Score

from ._ids import rank_ids
from ._shared import mean, string_similarity, unscorable

REQUIRES = {
    "answer": ("test.reference_answer", "response.retrieved_contexts"),
    "contexts": ("test.reference_contexts", "response.retrieved_contexts"),
    "ids": ("test.reference_contexts[].chunk_id", "response.retrieved_contexts"),
}


@metric(requires=REQUIRES["answer"], uses=("reference_vs_contexts",))
def context_recall(*, reference: Literal["answer", "contexts", "ids"] = "answer", threshold: float = 0.5) -> MetricFn:
    """Share of the reference covered by the retrieved contexts (1.0 = everything needed was retrieved).

    - ``reference="answer"``: ``CR = (1/|G|) Σ_{g ∈ G} support(contexts ⊨ g)`` over the reference answer's
      claims ``G``, the contexts read together so that a fact that needs two of them counts as found (the
      shared ``reference_vs_contexts`` attribution; this equals RAGChecker's claim recall).
    - ``reference="contexts"``: ``CR = mean_r [max_k sim(r, ctx_k) > threshold]`` over the reference contexts,
      sim = 1 − normalised Levenshtein distance (ragas's non-LLM context recall).
    - ``reference="ids"``: ``CR = |ref_ids ∩ retrieved_ids| / |ref_ids|``, each retrieved context matched to a
      reference chunk by id or, for a target with ids of its own, by text (unscorable when neither can match).

    No retrieved contexts scores 0; a reference without claims is unscorable.
    """
    if reference not in REQUIRES:
        raise ConfigError(f"context_recall: reference must be answer, contexts or ids, not {reference!r}")

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        retrieved = sample.response.retrieved_contexts
        if reference == "ids":
            ranking = rank_ids(sample, ctx.reference_ids)
            if isinstance(ranking, str):
                return unscorable(ranking)
            found = ranking.relevant & set(ranking.ranked)
            return Score(value=len(found) / len(ranking.relevant),
                         explanation=f"{len(found)} of {len(ranking.relevant)} reference chunks retrieved",
                         details={"found": sorted(found), "missed": sorted(ranking.relevant - found),
                                  "matched_by_text": ranking.by_text})
        if reference == "contexts":
            refs = [c.text for c in sample.test.reference_contexts]
            best = [max((string_similarity(r, c.text) for c in retrieved), default=0.0) for r in refs]
            hits = [1.0 if b > threshold else 0.0 for b in best]
            return Score(value=mean(hits), explanation=f"{int(sum(hits))} of {len(refs)} reference contexts found",
                         details={"similarity": best})
        view = ctx.sample_claims(sample)
        claims = await view.reference_claims()
        if not claims:
            return unscorable("the reference answer contains no checkable claims")
        attributions = await view.reference_vs_contexts()
        value = mean([a.support for a in attributions])
        found_n = sum(1 for a in attributions if a.support >= 0.5)
        return Score(value=value, explanation=f"{found_n} of {len(claims)} reference claims found in the contexts",
                     details={"claims": claim_details(sample, reference_claims=claims,
                                                      reference_vs_contexts=attributions)})

    matrices = ("reference_vs_contexts",) if reference == "answer" else ()
    return variant(score, requires=REQUIRES[reference], uses=matrices)
