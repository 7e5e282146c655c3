"""A scripted claim world for metric tests: the judge's replies follow simple, hand-checkable rules.

- split: the claims (and entities) listed for a text in ``claims`` (none for unknown texts);
- check: a claim is entailed by a passage when the passage contains the claim's text (case-insensitive,
  final period dropped), contradicted when listed in ``contradicts``, neutral otherwise;
- attribute: the passages that entail the claim (else the ones that contradict it); a claim listed in
  ``together`` is entailed by the set when every passage it names is in view (or in the passage: the retrieved
  contexts joined into one), and by none of them alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ragkit.evaluation import MetricContext
from ragkit.llm import CallInfo
from ragkit.testing import ScriptedJudge, claim_reply
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

LABELS = {"entailed": "supported", "contradicted": "contradicted", "neutral": "not_mentioned"}


def contains(passage: str, claim: str) -> bool:
    return claim.lower().rstrip(".") in passage.lower()


@dataclass
class World:
    claims: dict[str, list[str]] = field(default_factory=dict)
    entities: dict[str, list[str]] = field(default_factory=dict)
    contradicts: set[tuple[str, str]] = field(default_factory=set)
    together: dict[str, tuple[str, ...]] = field(default_factory=dict)
    other: Callable[[CallInfo], Any] | None = None

    def __call__(self, call: CallInfo) -> Any:
        data: Any = call.data
        reply = claim_reply(call, claims=lambda t: self.claims.get(t, []), entities=lambda t: self.entities.get(t, []),
                            label=lambda p, c: LABELS[self.label(p, c)])
        if reply is None:
            if self.other is None:
                raise AssertionError(f"unexpected prompt {call.prompt_name}")
            return self.other(call)
        if call.prompt_name == "claims.attribute":
            for i, claim in enumerate(data.claims):
                needed = self.together.get(claim, ())
                if needed and all(p in data.passages for p in needed):
                    reply[str(i)] = {"passages": sorted(data.passages.index(p) for p in needed), "verdict": "supported"}
        return reply

    def label(self, passage: str, claim: str) -> str:
        if any(p in passage and c == claim for p, c in self.contradicts):  # also within contexts joined into one
            return "contradicted"
        needed = self.together.get(claim, ())
        if needed and all(p in passage for p in needed):  # the passages it needs, joined into this one
            return "entailed"
        return "entailed" if contains(passage, claim) else "neutral"

    def judge(self) -> ScriptedJudge:
        return ScriptedJudge(self)


def make_sample(question: str = "q?", answer: str = "", reference: str | None = None,
                contexts: list[str] | None = None, *, sample_id: str = "s1",
                ids: list[str] | None = None, reference_ids: list[str] | None = None,
                error: str | None = None, metadata: dict[str, Any] | None = None) -> EvalSample:
    ctx = [ContextRef(text=t, chunk_id=(ids[i] if ids else None)) for i, t in enumerate(contexts or [])]
    refs = [ContextRef(text=f"ref chunk {r}", chunk_id=r) for r in reference_ids or []]
    return EvalSample(
        test=TestSample(id=sample_id, question=question, reference_answer=reference, reference_contexts=refs,
                        metadata=metadata or {}),
        response=RagResponse(answer=answer, retrieved_contexts=ctx, error=error),
    )


# The canonical sample of the metric tables (see test_claim_metrics.py for the hand computation).
QUESTION = "Where and when was the Kestrel launched?"
REFERENCE = "The Kestrel launched in Chicago. It launched in 2019."
RESPONSE = "The Kestrel launched in Chicago in 2020, and it is made in Sheffield."
REF_CLAIMS = ["Kestrel launched in Chicago.", "Kestrel launched in 2019."]
RESP_CLAIMS = ["Kestrel launched in Chicago.", "Kestrel launched in 2020.", "Kestrel is made in Sheffield."]
C_PLANT = "Plant note: Kestrel is made in Sheffield."
C_PRESS = "Press: Kestrel launched in Chicago. Kestrel launched in 2019. A draft said Kestrel launched in 2020."
C_BLOG = "Blog: the Wren is made in Porto."
CONTEXTS = [C_PLANT, C_PRESS, C_BLOG]


def canonical_world(**changes: Any) -> World:
    claims = {REFERENCE: REF_CLAIMS, RESPONSE: RESP_CLAIMS}
    entities = {REFERENCE: ["Kestrel", "Chicago", "2019"]}
    return World(claims=claims, entities=entities, **changes)




def context(judge: ScriptedJudge, needs: frozenset[str] = frozenset(), embeddings: Any = None,
            reference_ids: frozenset[str] = frozenset()) -> MetricContext:
    return MetricContext(judge=judge, embeddings=embeddings, needs=needs, reference_ids=reference_ids)
