"""Context relevance: is each retrieved context about what the question asks?"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

from ragkit.evaluation import MetricContext
from ragkit.llm import Prompt
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import YesNo, mean, unscorable


class PassageInput(BaseModel):
    question: str
    passage: str


class PassageOutput(BaseModel):
    helps_answer: YesNo


PASSAGE = Prompt(
    name="context_relevance.passage",
    instruction="""\
Read the question and the passage. Say "yes" if the passage states what the question asks for, or part of it, or \
a fact needed to find it (for example who or what the question's description refers to). Say "no" if it does \
not: it talks about something else, or gives other facts about the same subject. Use only the passage.""",
    input=PassageInput,
    output=PassageOutput,
    max_tokens=20,
)


async def _helps(question: str, passage: str, ctx: MetricContext) -> tuple[float, str]:
    """P(yes) for one passage from its label's token probabilities (0/1 when the model gives none), and the label."""
    scored = await ctx.judge.structured_scored(PASSAGE, PassageInput(question=question, passage=passage))
    return scored.expected("helps_answer", {"yes": 1.0}), scored.output.helps_answer


@metric(requires=("test.question", "response.retrieved_contexts"), uses=("llm",), calls=4)
def context_relevance() -> MetricFn:
    """Mean relevance of the retrieved contexts to the question (1.0 = every context helps answer it).

    One call per context asks the judge whether it states what the question asks for, part of it, or a fact
    needed to find it (the link of a two-passage question); ``CRel = mean_k P_k(yes)``. Needs no reference.
    Each context is judged alone: with the contexts numbered in one call, the embedded judge told them apart far
    less well (bench/README.md, "Context relevance"). ragas's nv_context_relevance rates the joined contexts 0–2
    twice; DeepEval's contextual relevancy splits them into statements. Unscorable without contexts.
    """

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        passages = [c.text for c in sample.response.retrieved_contexts]
        if not passages:
            return unscorable("no retrieved contexts")
        judged = await asyncio.gather(*(_helps(sample.test.question, p, ctx) for p in passages))
        values = [p for p, _ in judged]
        helping = sum(1 for p in values if p >= 0.5)
        return Score(value=mean(values), explanation=f"{helping} of {len(passages)} contexts help answer the question",
                     details={"labels": [w for _, w in judged], "relevance": values})

    return score
