"""Answer relevancy: does the answer address the question that was asked?"""

from __future__ import annotations

from functools import cache
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext
from ragkit.llm import Prompt
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import clip01, mean, unscorable


class ReverseInput(BaseModel):
    answer: str


class ReverseOutput(BaseModel):
    questions: list[Annotated[str, StringConstraints(max_length=200)]] = Field(max_length=5)
    noncommittal: bool


@cache
def reverse_prompt(n: int) -> Prompt[ReverseInput, ReverseOutput]:
    """The prompt for ``n`` questions. The count is in the instruction, not the input: shown as a field beside
    the answer ("how_many_questions: 3"), the 1.5B judge took it for part of the answer and asked "How many
    questions are there in the answer?" of short answers (bench/README.md, "Answer relevancy")."""
    count = "one question" if n == 1 else f"{n} different questions"
    return Prompt(
        name="answer_relevancy.reverse",
        instruction=f"""\
Read an answer and write {count} that it answers: questions a user could have asked to get exactly this \
answer, written in the language of the answer, one short question each.
Then set "noncommittal" to true if the answer dodges: it refuses, says it does not know, or stays vague instead \
of answering; otherwise false.""",
        input=ReverseInput,
        output=ReverseOutput,
        max_tokens=300,
    )


@metric(requires=("test.question", "response.answer"), uses=("llm", "embeddings"), calls=1)
def answer_relevancy(*, n: int = 3) -> MetricFn:
    """How well the answer addresses the question (1.0 = on point; noncommittal answers score 0).

    The judge writes up to ``n`` questions the answer would answer (one call) and flags a noncommittal answer;
    ``AR = mean_i max(0, cos(E(question), E(q_i))) × (1 − noncommittal)``. Unscorable when the answer is empty;
    0 when the judge finds no question the answer answers.
    """
    if not 1 <= n <= 5:
        raise ConfigError(f"answer_relevancy: n must be between 1 and 5, not {n}")

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        answer = sample.response.answer.strip()
        if not answer:
            return unscorable("the answer is empty")
        out = await ctx.judge.structured(reverse_prompt(n), ReverseInput(answer=answer))
        questions = [q.strip() for q in out.questions if q.strip()][:n]
        details: dict[str, object] = {"questions": questions, "noncommittal": out.noncommittal}
        if out.noncommittal:
            return Score(value=0.0, explanation="the answer is noncommittal", details=details)
        if not questions:
            return Score(value=0.0, explanation="no question could be derived from the answer", details=details)
        vectors = await ctx.require_embeddings().aembed([sample.test.question, *questions])
        sims = [clip01(float(vectors[0] @ v)) for v in vectors[1:]]
        details["similarities"] = sims
        return Score(value=mean(sims), details=details)

    return score
