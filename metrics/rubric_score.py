"""Rubric score: a 1–5 grade of the answer against a rubric (dataset-wide or per sample)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, StringConstraints

from ragkit.errors import DataError
from ragkit.evaluation import MetricContext
from ragkit.llm import Prompt
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

from ._shared import unscorable

WITH_REFERENCE = {
    1: "The answer is wrong or unrelated to the reference answer.",
    2: "The answer gets a small part right but misses or contradicts most of the reference answer.",
    3: "The answer is partly right: it covers the main point but misses or misstates important details.",
    4: "The answer is right and covers nearly all of the reference answer, with minor gaps.",
    5: "The answer is fully right and complete compared with the reference answer.",
}
WITHOUT_REFERENCE = {
    1: "The answer does not address the question, or is wrong or incoherent.",
    2: "The answer addresses the question poorly, with major gaps or errors.",
    3: "The answer addresses the question but is incomplete or unclear in places.",
    4: "The answer addresses the question well, with minor gaps.",
    5: "The answer addresses the question fully, clearly and accurately.",
}


class RubricInput(BaseModel):
    rubric: str
    question: str
    answer: str
    reference_answer: str | None


class RubricOutput(BaseModel):
    feedback: Annotated[str, StringConstraints(max_length=240)]
    score: Literal[1, 2, 3, 4, 5]


GRADE = Prompt(
    name="rubric_score.grade",
    instruction="""\
Grade the answer with the rubric: pick the score (1 to 5) whose description fits the answer best. First give \
one sentence of feedback, then the score.""",
    input=RubricInput,
    output=RubricOutput,
    max_tokens=160,
)


def parse_rubric(raw: Any, where: str) -> dict[int, str]:
    """A rubric as {score: description} for scores 1–5, from a mapping with int or string keys."""
    if not isinstance(raw, Mapping):
        raise DataError(where, f"a rubric must map the scores 1-5 to descriptions, got {type(raw).__name__}")
    try:
        rubric = {int(k): str(v) for k, v in raw.items()}
    except (TypeError, ValueError):
        raise DataError(where, f"rubric keys must be the scores 1-5, got {sorted(map(str, raw))}") from None
    if set(rubric) != {1, 2, 3, 4, 5}:
        raise DataError(where, f"a rubric needs descriptions for the scores 1-5, got {sorted(rubric)}")
    return rubric


@metric(requires=("test.question", "response.answer"), range=(1.0, 5.0), uses=("llm",), calls=1)
def rubric_score(*, rubric: Mapping[int | str, str] | None = None) -> MetricFn:
    """A 1–5 grade of the answer against a rubric (5 = best).

    The rubric is, in order of precedence: the sample's ``test.metadata["rubric"]`` (per-sample rubrics), the
    ``rubric`` argument (dataset-wide), or a default that compares with the reference answer when the sample has
    one and judges the answer on its own otherwise. One call per sample; the feedback is the explanation.
    """
    fixed = parse_rubric(rubric, "rubric_score(rubric=...)") if rubric is not None else None

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        if not sample.response.answer.strip():
            return unscorable("the answer is empty")
        own = sample.test.metadata.get("rubric")
        if own is not None:
            chosen = parse_rubric(own, f"sample {sample.id}: metadata.rubric")
        elif fixed is not None:
            chosen = fixed
        else:
            chosen = WITH_REFERENCE if sample.test.reference_answer else WITHOUT_REFERENCE
        text = "\n".join(f"{k}: {chosen[k]}" for k in sorted(chosen))
        out = await ctx.judge.structured(GRADE, RubricInput(rubric=text, question=sample.test.question,
                                                            answer=sample.response.answer,
                                                            reference_answer=sample.test.reference_answer))
        return Score(value=float(out.score), explanation=out.feedback, details={"rubric": text})

    return score
