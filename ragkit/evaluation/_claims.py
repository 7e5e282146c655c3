"""The shared claim engine: split texts into atomic claims and check claims against passages, once per run.

Two primitives carry most metrics:

- ``split(text, question=...)``: one LLM call per text → atomic, self-contained claims in the text's language
  (pronouns resolved, the answer entity kept), plus the named entities of the text.
- ``check(passage, claims)``: one LLM call per (passage, group of ≤ ``group_size`` claims) → a ``Verdict`` per
  claim: ``entailed`` / ``contradicted`` / ``neutral``.

Both are memoised by content hash for the whole run in an asyncio-safe memo: concurrent requests for the same key
await one task, so asking for faithfulness, context recall, noise sensitivity and the RAGChecker family on one
sample splits each text once and checks each (passage, claim group) once.

``SampleClaims`` is the per-sample view the metrics read: the claims of the response and of the reference, and the
four claim × passage matrices (named after what is checked against what):

==========================  =================================  ==========================  ====================
matrix                      claims                             checked against             RAGChecker name
==========================  =================================  ==========================  ====================
``response_vs_contexts``    response claims                    each retrieved context      retrieved2response
``reference_vs_contexts``   reference claims                   each retrieved context      retrieved2answer
``response_vs_reference``   response claims                    the reference answer        answer2response
``reference_vs_response``   reference claims                   the response                response2answer
==========================  =================================  ==========================  ====================

By default each context is checked against the response claims and against the reference claims separately, so
that a verdict on a reference claim never depends on the answer being scored: retrieval metrics (context recall,
claim recall, context precision) are then identical for two systems that retrieved the same contexts, and shared
across their runs by the memo and the cache. ``ClaimStore(joint_contexts=True)`` checks each context once against
both lists together instead, which halves the calls per context at the price of that independence (measured: a
small judge's verdicts on one claim shift with the other claims in the list).

The verdict types and the ``Score.details["claims"]`` payload live in ``_verdicts``; they are re-exported
here (``from ragkit.evaluation._claims import Verdict, ClaimDetails, claim_details`` keeps working).
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, StringConstraints

from ragkit.errors import JudgeError
from ragkit.evaluation._verdicts import (  # noqa: F401  (ClaimDetails, ClaimRow, PassageRef, claim_details: re-exported)
    ClaimDetails,
    ClaimRow,
    Label,
    Matrix,
    PassageRef,
    Verdict,
    claim_details,
)
from ragkit.llm import Judge, Prompt, content_key, numbered_labels

if TYPE_CHECKING:
    from ragkit.llm import Embeddings
    from ragkit.types import EvalSample

MatrixName = Literal["response_vs_contexts", "reference_vs_contexts", "response_vs_reference",
                     "reference_vs_response"]
T = TypeVar("T")

ENGINE_VERSION = "2"
"""Bumped when a prompt changes: part of every memo key, so old cached results are never mixed in."""


# -- prompts --------------------------------------------------------------------------------------

ClaimText = Annotated[str, StringConstraints(max_length=300)]
EntityText = Annotated[str, StringConstraints(max_length=80)]


class SplitInput(BaseModel):
    question: str
    text: str


class SplitOutput(BaseModel):
    claims: list[ClaimText] = Field(max_length=32)
    entities: list[EntityText] = Field(default_factory=list, max_length=12)


SPLIT = Prompt(
    name="claims.split",
    instruction="""\
Break the text into atomic claims: short factual statements that can each be checked on their own.
- One fact per claim: a sentence that states several facts (a date and a place, two names, a number and a \
cause) gives several claims. Keep every fact of the text.
- Each claim must make sense alone: replace pronouns and vague words ("it", "she", "this", "there") with the \
names they stand for.
- Keep the answer: when the text answers the question, the claim must contain the answer itself (the name, \
number or date) and what it answers.
- Copy names, numbers and units exactly. Add nothing that is not in the text; do not correct it.
- Write the claims in the language of the text.
- Apologies, refusals ("I don't know", "I could not find it"), hedges and greetings are not claims: a text \
made only of those has an empty claim list.
Also list the named entities of the text (people, organisations, places, products, dates, amounts), copied \
exactly as they are written.""",
    input=SplitInput,
    output=SplitOutput,
    examples=(
        (
            SplitInput(
                question="Who designed the Harbour Bridge and when did it open?",
                text="It was designed by Lena Ortiz. The bridge opened in 1932, and it cost 4 million dollars.",
            ),
            SplitOutput(
                claims=[
                    "The Harbour Bridge was designed by Lena Ortiz.",
                    "The Harbour Bridge opened in 1932.",
                    "The Harbour Bridge cost 4 million dollars.",
                ],
                entities=["Harbour Bridge", "Lena Ortiz", "1932", "4 million dollars"],
            ),
        ),
        (
            SplitInput(question="What does the Model Z cost?", text="Sorry, I could not find that in the documents."),
            SplitOutput(claims=[], entities=[]),
        ),
    ),
    max_tokens=1200,
)


class CheckInput(BaseModel):
    passage: str
    claims: list[str]


# The labels the judge writes: distinct first words, so the first label token decides their probability.
class _Judgement(str, enum.Enum):
    supported = "supported"
    contradicted = "contradicted"
    not_mentioned = "not_mentioned"


_LABEL: dict[str, Label] = {"supported": "entailed", "contradicted": "contradicted", "not_mentioned": "neutral"}

_CHECK_INSTRUCTION = """\
For each numbered claim, decide what the passage says about it:
- "supported": the passage states the fact in the claim (same names, numbers and dates).
- "contradicted": the passage states a different value for the same fact (another date, number, name or place).
- "not_mentioned": the passage does not state this fact, even if it talks about the same topic.
Use only the passage; ignore what you know. Give a label for every claim number."""


_CHECK_PROMPTS: dict[int, Prompt[CheckInput, Any]] = {}


def check_prompt(n: int) -> Prompt[CheckInput, Any]:
    """The check prompt for a group of ``n`` claims (its output schema has exactly ``n`` labels)."""
    if n not in _CHECK_PROMPTS:
        _CHECK_PROMPTS[n] = Prompt(
            name="claims.check",
            instruction=_CHECK_INSTRUCTION,
            input=CheckInput,
            output=numbered_labels(f"Verdicts{n}", n, _Judgement, prefix="c", optional=True,
                                   bare_labels=True),
            max_tokens=16 + 12 * n,
        )
    return _CHECK_PROMPTS[n]


# -- the store ------------------------------------------------------------------------------------


@dataclass
class ClaimStats:
    """What the claim engine did in a run."""

    split_calls: int = 0
    check_calls: int = 0
    memo_hits: int = 0
    padded_verdicts: int = 0
    """Verdicts the judge left out (counted as neutral)."""


@dataclass(frozen=True)
class Split:
    """The claims and named entities of one text."""

    claims: list[str]
    entities: list[str]


class ClaimStore:
    """Memoised ``split`` and ``check`` for one run, shared by every metric and sample.

    Examples:
        >>> store = ClaimStore(judge)
        >>> claims = await store.split("Paris is the capital of France.", question="What is France's capital?")
        >>> verdicts = await store.check("France's capital is Paris.", claims)
    """

    def __init__(self, judge: Judge, *, group_size: int = 8, max_claims: int = 32,
                 joint_contexts: bool = False) -> None:
        self.judge = judge
        self.joint_contexts = joint_contexts
        self.group_size = max(1, group_size)
        self.max_claims = max_claims
        self.stats = ClaimStats()
        self._memo: dict[str, asyncio.Future[Any]] = {}

    async def _once(self, key: str, make: Callable[[], Awaitable[T]]) -> T:
        """Run ``make()`` once per key; concurrent callers await the same task. Failures are not kept."""
        fut = self._memo.get(key)
        if fut is None:
            fut = asyncio.ensure_future(make())
            self._memo[key] = fut

            def forget_failure(done: asyncio.Future[Any], key: str = key) -> None:
                if done.cancelled() or done.exception() is not None:
                    if self._memo.get(key) is done:
                        del self._memo[key]

            fut.add_done_callback(forget_failure)
        else:
            self.stats.memo_hits += 1
        result: T = await asyncio.shield(fut)
        return result

    async def split_full(self, text: str, question: str | None = None) -> Split:
        """Claims and entities of ``text`` (one LLM call, memoised)."""
        if not text.strip():
            return Split([], [])
        key = content_key("split", ENGINE_VERSION, self.judge.model, text.strip(), question or "")

        async def run() -> Split:
            self.stats.split_calls += 1
            out = await self.judge.structured(SPLIT, SplitInput(question=question or "(none)", text=text.strip()))
            return Split(_clean(out.claims)[: self.max_claims], _clean(out.entities))

        return await self._once(key, run)

    async def split(self, text: str, question: str | None = None) -> list[str]:
        """Atomic, self-contained claims of ``text`` in its language (one LLM call per text, memoised)."""
        return (await self.split_full(text, question)).claims

    async def entities(self, text: str, question: str | None = None) -> list[str]:
        """Named entities of ``text``; they come with the split, so they cost no extra call."""
        return (await self.split_full(text, question)).entities

    async def check(self, passage: str, claims: Sequence[str]) -> list[Verdict]:
        """A verdict per claim against ``passage``: one call per group of ≤ ``group_size`` claims, memoised."""
        claims = list(claims)
        if not claims:
            return []
        if not passage.strip():
            return [Verdict(label="neutral") for _ in claims]
        groups = [claims[i : i + self.group_size] for i in range(0, len(claims), self.group_size)]
        results = await asyncio.gather(*(self._check_group(passage.strip(), g) for g in groups))
        return [v for part in results for v in part]

    async def _check_group(self, passage: str, claims: list[str]) -> list[Verdict]:
        key = content_key("check", ENGINE_VERSION, self.judge.model, passage, claims)

        async def run() -> list[Verdict]:
            self.stats.check_calls += 1
            scored = await self.judge.structured_scored(check_prompt(len(claims)),
                                                        CheckInput(passage=passage, claims=claims))
            verdicts = []
            for i in range(len(claims)):
                value = getattr(scored.output, f"c{i}", None)
                if value is None:
                    self.stats.padded_verdicts += 1
                    verdicts.append(Verdict(label="neutral", padded=True))
                    continue
                prob = scored.label(str(i))
                p = prob.expected({"supported": 1.0}) if prob is not None else None
                verdicts.append(Verdict(label=_LABEL[_Judgement(value).value], p=p))
            return verdicts

        return await self._once(key, run)

    async def matrix(self, passages: Sequence[str], claims: Sequence[str]) -> Matrix:
        """Claims × passages verdicts: one ``check`` per passage, concurrently."""
        columns = await asyncio.gather(*(self.check(p, claims) for p in passages))
        return [[col[i] for col in columns] for i in range(len(claims))]

    def sample(self, sample: EvalSample, needs: frozenset[str] = frozenset()) -> SampleClaims:
        """The per-sample view that metrics read."""
        return SampleClaims(self, sample, needs)


def _clean(items: Sequence[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        text = " ".join(item.split())
        if text and text not in out:
            out.append(text)
    return out


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

        Joint checking applies when the run needs both context matrices; if one of the two splits failed, the
        other matrix is still computed on its own.
        """
        if not self.store.joint_contexts or not {"response_vs_contexts", "reference_vs_contexts"} <= self.needs:
            return None
        try:
            return await self.response_claims(), await self.reference_claims()
        except JudgeError as exc:
            if exc.fatal:
                raise
            return None

    async def response_vs_contexts(self) -> Matrix:
        resp = await self.response_claims()
        joint = await self._joint()
        if joint is not None:
            return (await self.store.matrix(self.contexts, joint[0] + joint[1]))[: len(resp)]
        return await self.store.matrix(self.contexts, resp)

    async def reference_vs_contexts(self) -> Matrix:
        ref = await self.reference_claims()
        joint = await self._joint()
        if joint is not None:
            return (await self.store.matrix(self.contexts, joint[0] + joint[1]))[len(joint[0]) :]
        return await self.store.matrix(self.contexts, ref)

    async def response_vs_reference(self) -> list[Verdict]:
        return await self.store.check(self.reference, await self.response_claims())

    async def reference_vs_response(self) -> list[Verdict]:
        return await self.store.check(self.response, await self.reference_claims())


# -- what metrics receive -------------------------------------------------------------------------


@dataclass
class MetricContext:
    """What every metric receives besides the sample: the judge, embeddings and the run's claim store."""

    judge: Judge
    embeddings: Embeddings | None = None
    claims: ClaimStore = field(default=None)  # type: ignore[assignment]
    needs: frozenset[str] = frozenset()
    """Union of the claim matrices the run's metrics read (lets the store batch them)."""

    def __post_init__(self) -> None:
        if self.claims is None:
            self.claims = ClaimStore(self.judge)

    def sample_claims(self, sample: EvalSample) -> SampleClaims:
        return self.claims.sample(sample, self.needs)

    def require_embeddings(self) -> Embeddings:
        """The run's embeddings; the embedded default model is loaded when none was given."""
        if self.embeddings is None:
            from ragkit.llm import Embeddings

            self.embeddings = Embeddings()
        return self.embeddings
