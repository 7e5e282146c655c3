"""Context relevance: is each retrieved context about the question?"""

from __future__ import annotations

import enum
from typing import Any

from pydantic import BaseModel

from ragkit.evaluation import MetricContext
from ragkit.llm import Prompt, numbered_labels
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import mean, unscorable

GROUP = 4
"""Contexts rated per call (bounds the prompt for small models)."""


class RelevanceInput(BaseModel):
    question: str
    passages: list[str]


class Rating(str, enum.Enum):
    answers = "answers"
    related = "related"
    unrelated = "unrelated"


VALUE = {Rating.answers: 1.0, Rating.related: 0.5, Rating.unrelated: 0.0}


_PROMPTS: dict[int, Prompt[RelevanceInput, Any]] = {}


def relevance_prompt(n: int) -> Prompt[RelevanceInput, Any]:
    if n not in _PROMPTS:
        _PROMPTS[n] = Prompt(
            name="context_relevance.rate",
            instruction="""\
Rate each numbered passage for the question:
- "answers": the passage contains information that answers the question, fully or in part.
- "related": the passage is on the same subject but does not help answer the question.
- "unrelated": the passage is about something else.
Give a rating for every passage number.""",
            input=RelevanceInput,
            output=numbered_labels(f"Ratings{n}", n, Rating, prefix="p"),
            max_tokens=16 + 10 * n,
        )
    return _PROMPTS[n]


@metric(requires=("test.question", "response.retrieved_contexts"), uses=("llm",), calls=1)
def context_relevance() -> MetricFn:
    """Mean relevance of the retrieved contexts to the question (1.0 = every context helps answer it).

    The judge rates each context answers / related / unrelated (1 / 0.5 / 0), ≤ 4 contexts per call;
    ``CRel = mean_k rating_k``. Needs no reference (ragas's nv_context_relevance rates the joined contexts
    0–2 twice; deepeval's contextual relevancy splits contexts into statements). Unscorable without contexts.
    """

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        passages = [c.text for c in sample.response.retrieved_contexts]
        if not passages:
            return unscorable("no retrieved contexts")
        ratings: list[Rating] = []
        for start in range(0, len(passages), GROUP):
            group = passages[start : start + GROUP]
            out = await ctx.judge.structured(relevance_prompt(len(group)),
                                             RelevanceInput(question=sample.test.question, passages=group))
            ratings += [Rating(getattr(out, f"p{i}")) for i in range(len(group))]
        values = [VALUE[r] for r in ratings]
        return Score(value=mean(values), details={"ratings": [r.value for r in ratings]})

    return score
