"""What metrics receive: the per-sample view of the claim store (``SampleClaims``) and the ``MetricContext``.

``SampleClaims`` is the per-sample view of the claim store (``_claims``) that the metrics read: the claims of the
response and of the reference, and the four claim checks (named after what is checked against what):

==========================  ===============  ==================================  ====================
check                       claims           checked against                     RAGChecker name
==========================  ===============  ==================================  ====================
``response_vs_contexts``    response claims  the retrieved contexts (attribution)  retrieved2response
``reference_vs_contexts``   reference claims the retrieved contexts (attribution)  retrieved2answer
``response_vs_reference``   response claims  the reference answer                  answer2response
``reference_vs_response``   reference claims the response                          response2answer
==========================  ===============  ==================================  ====================

By default the response claims and the reference claims are attributed separately, so that a verdict on a
reference claim never depends on the answer being scored: retrieval metrics (context recall, claim recall,
context precision) are then identical for two systems that retrieved the same contexts, and shared across their
runs by the memo and the cache. ``ClaimStore(joint_contexts=True)`` attributes both lists in one call instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ragkit.errors import JudgeError
from ragkit.evaluation._claims import ClaimStore
from ragkit.evaluation._verdicts import Attribution, Verdict
from ragkit.llm import Judge

if TYPE_CHECKING:
    from ragkit.llm import Embeddings
    from ragkit.types import EvalSample


# -- per-sample view ------------------------------------------------------------------------------


class SampleClaims:
    """The claims and claim × passage matrices of one sample, computed on first use through the store.

    ``needs`` is the set of matrices the whole run will read for this sample; when it holds both context
    matrices and the store checks contexts jointly, each context is checked once against the response and
    reference claims together.
    """

    def __init__(self, store: ClaimStore, sample: EvalSample, needs: frozenset[str] = frozenset()) -> None:
        self.store = store
        self.sample = sample
        self.needs = needs

    @property
    def question(self) -> str:
        return self.sample.test.question

    @property
    def contexts(self) -> list[str]:
        return [c.text for c in self.sample.response.retrieved_contexts]

    @property
    def reference(self) -> str:
        return self.sample.test.reference_answer or ""

    @property
    def response(self) -> str:
        return self.sample.response.answer

    async def response_claims(self) -> list[str]:
        return await self.store.split(self.response, self.question)

    async def reference_claims(self) -> list[str]:
        return await self.store.split(self.reference, self.question)

    async def reference_entities(self) -> list[str]:
        return await self.store.entities(self.reference, self.question)

    async def _joint(self) -> tuple[list[str], list[str]] | None:
        """(response claims, reference claims) when contexts are checked against both at once, else None.

        Joint checking applies when the run needs both context checks; if one of the two splits failed, the
        other is still computed on its own.
        """
        if not self.store.joint_contexts or not {"response_vs_contexts", "reference_vs_contexts"} <= self.needs:
            return None
        try:
            return await self.response_claims(), await self.reference_claims()
        except JudgeError as exc:
            if exc.fatal:
                raise
            return None

    async def response_vs_contexts(self, *, name_contexts: bool = False) -> list[Attribution]:
        """Each response claim against the retrieved contexts read together (``name_contexts``: and which)."""
        resp = await self.response_claims()
        joint = await self._joint()
        if joint is not None:
            both = joint[0] + joint[1]
            return (await self.store.attribute(self.contexts, both, name_contexts=name_contexts,
                                                     asked=self.question))[: len(resp)]
        return await self.store.attribute(self.contexts, resp, name_contexts=name_contexts,
                                          asked=self.question)

    async def reference_vs_contexts(self, *, name_contexts: bool = False) -> list[Attribution]:
        """Each reference claim against the retrieved contexts read together (``name_contexts``: and which)."""
        ref = await self.reference_claims()
        joint = await self._joint()
        if joint is not None:
            both = joint[0] + joint[1]
            return (await self.store.attribute(self.contexts, both, name_contexts=name_contexts,
                                                     asked=self.question))[len(joint[0]) :]
        return await self.store.attribute(self.contexts, ref, name_contexts=name_contexts,
                                          asked=self.question)

    async def response_vs_reference(self) -> list[Verdict]:
        """Each response claim against the reference answer, read as an answer to the question."""
        return await self.store.check(self.reference, await self.response_claims(), question=self.question,
                                      known=await self.reference_claims())

    async def reference_vs_response(self) -> list[Verdict]:
        """Each reference claim against the response, read as an answer to the question."""
        return await self.store.check(self.response, await self.reference_claims(), question=self.question,
                                      known=await self.response_claims())


# -- what metrics receive -------------------------------------------------------------------------


@dataclass
class MetricContext:
    """What every metric receives besides the sample: the judge, embeddings and the run's claim store."""

    judge: Judge
    embeddings: Embeddings | None = None
    claims: ClaimStore = field(default=None)  # type: ignore[assignment]
    needs: frozenset[str] = frozenset()
    """Union of the claim matrices the run's metrics read (lets the store batch them)."""
    reference_ids: frozenset[str] = frozenset()
    """Every reference chunk id of the test set: the ids a target's contexts are matched against."""

    def __post_init__(self) -> None:
        if self.claims is None:
            self.claims = ClaimStore(self.judge)

    def sample_claims(self, sample: EvalSample) -> SampleClaims:
        return SampleClaims(self.claims, sample, self.needs)

    def require_embeddings(self) -> Embeddings:
        """The run's embeddings; the embedded default model is loaded when none was given."""
        if self.embeddings is None:
            from ragkit.llm import Embeddings

            self.embeddings = Embeddings()
        return self.embeddings
