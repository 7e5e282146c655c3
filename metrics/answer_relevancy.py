"""Answer relevancy: does the answer address the question that was asked?

Two methods. ``direct`` (the default) shows the judge the question and the answer and reads how sure it is that
the answer gives what is asked (for a question whether something is so, how sure it is that the answer says yes or
no); it needs no embedding model, so it reads Chinese, Japanese and Korean as well as the judge does.
``reverse`` is ragas's formula: questions written from the answer alone, compared with the question by embedding
cosine, which the English-only default embedding model cannot do for CJK text (bench/README.md, "Answer
relevancy", measures both).
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext
from ragkit.llm import Prompt
from ragkit.registry import MetricFn, metric, variant
from ragkit.text import asks_yes_or_no
from ragkit.types import EvalSample, Score

from ._shared import YesNo, clip01, mean, unscorable

# -- direct: the judge reads the question and the answer ---------------------------------------------------


class DirectInput(BaseModel):
    question: str
    answer: str


class DirectOutput(BaseModel):
    gives_what_is_asked: YesNo


DIRECT = Prompt(
    name="answer_relevancy.direct",
    instruction="""\
A user asked the question and an assistant gave the answer. Say "yes" if the answer gives what the question asks \
for, or part of it (the name, number, date, place, reason or list item asked about), and "no" if it does not: it \
talks about something else, gives other facts about the same subject, or does not answer. Judge what it says, \
not whether it is true: a wrong answer still gives what is asked.""",
    input=DirectInput,
    output=DirectOutput,
    max_tokens=20,
)


class WhetherOutput(BaseModel):
    answer_says: Literal["yes", "no", "not said"]


WHETHER = Prompt(
    name="answer_relevancy.whether",
    instruction="""\
A user asked a question that asks whether something is so, and an assistant gave the answer. Going by the answer \
alone, what does it say to the question: "yes" (it is so, perhaps with a condition), "no" (it is not so, in any \
words: "no", "cannot", "is not", "only others may"), or "not said" (the answer talks about something else, gives \
other facts about the same subject, or does not answer).""",
    input=DirectInput,
    output=WhetherOutput,
    max_tokens=20,
)
"""Asked of a yes-or-no question instead of ``DIRECT``. Asked whether an answer "gives what is asked", the 1.5B
judge said "no" to answers that say no: "No, the library does not lend e-readers" scored 0.39 and "Patients pay two
pounds an hour" (to "Is parking free?") 0.12, as low as another fact of the subject. Asked what the answer says,
it tells a "no" from a fact that says neither (bench/README.md, "Answer relevancy: a question whether something
is so")."""


async def _direct(sample: EvalSample, ctx: MetricContext) -> Score:
    data = DirectInput(question=sample.test.question, answer=sample.response.answer.strip())
    if asks_yes_or_no(data.question):
        return await _whether(data, ctx)
    scored = await ctx.judge.structured_scored(DIRECT, data)
    value = scored.expected("gives_what_is_asked", {"yes": 1.0})
    return Score(value=value, explanation=f"P(the answer gives what is asked) = {value:.2f}",
                 details={"label": scored.output.gives_what_is_asked})


async def _whether(data: DirectInput, ctx: MetricContext) -> Score:
    """A yes-or-no question: P(the answer says yes or no)."""
    scored = await ctx.judge.structured_scored(WHETHER, data)
    value = scored.expected("answer_says", {"yes": 1.0, "no": 1.0})
    return Score(value=value, explanation=f"P(the answer says yes or no) = {value:.2f}",
                 details={"label": scored.output.answer_says})


# -- reverse: ragas's questions written from the answer --------------------------------------------------------


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


def _reverse(n: int) -> MetricFn:
    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        out = await ctx.judge.structured(reverse_prompt(n), ReverseInput(answer=sample.response.answer.strip()))
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


@metric(requires=("test.question", "response.answer"), uses=("llm",), calls=1)
def answer_relevancy(*, method: Literal["direct", "reverse"] = "direct", n: int = 3) -> MetricFn:
    """How well the answer addresses the question (1.0 = on point; a refusal, a hedge or another subject scores
    near 0).

    ``direct``: one call shows the judge the question and the answer; ``AR = P(yes)`` to "does the answer give
    what the question asks for, or part of it?", from the label's token probabilities (0/1 when the model gives
    none). A question whether something is so (a question mark, no question word, no choice between things) asks
    instead what the answer says to it: ``AR = P(yes) + P(no)`` against "not said". A wrong answer still gives
    what is asked: correctness is the other metrics' business; other facts about the same subject, another
    subject, and "I don't know" do not.
    ``reverse`` (ragas): the judge writes up to ``n`` questions the answer would answer and flags a noncommittal
    answer; ``AR = mean_i max(0, cos(E(question), E(q_i))) × (1 − noncommittal)``, on the embedding model.
    Unscorable when the answer is empty.
    """
    if method not in ("direct", "reverse"):
        raise ConfigError(f"answer_relevancy: method must be 'direct' or 'reverse', not {method!r}")
    if not 1 <= n <= 5:
        raise ConfigError(f"answer_relevancy: n must be between 1 and 5, not {n}")
    chosen = _reverse(n) if method == "reverse" else _direct

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        if not sample.response.answer.strip():
            return unscorable("the answer is empty")
        return await chosen(sample, ctx)

    return variant(score, uses=("llm", "embeddings")) if method == "reverse" else score
