"""The claim engine's three prompts: split a text into claims, check claims against one passage, and attribute
claims to a set of passages.

The output schemas are built per call size (n claims, m passages), so that the grammar lets the judge write
exactly one entry per claim and only passage numbers that exist.
"""

from __future__ import annotations

import enum
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from ragkit.evaluation._claim_text import CLAIM_CHARS, MOST_CLAIMS
from ragkit.llm import Prompt, numbered_labels

ClaimText = Annotated[str, StringConstraints(max_length=CLAIM_CHARS)]
EntityText = Annotated[str, StringConstraints(max_length=80)]

# A claim in which a stretch of text runs three times back to back is a runaway generation, not a fact: re-ask.
# (A phrase that merely recurs, "the country's martyrs … the country's wealth", is ordinary writing.)
_RUNAWAY = re.compile(r"(.{10,}?)\1{2,}", re.DOTALL)


class SplitInput(BaseModel):
    question: str
    text: str


class SplitOutput(BaseModel):
    claims: list[ClaimText] = Field(max_length=MOST_CLAIMS)
    entities: list[EntityText] = Field(default_factory=list, max_length=12)

    @field_validator("claims")
    @classmethod
    def _no_runaway(cls, claims: list[str]) -> list[str]:
        for claim in claims:
            if _RUNAWAY.search(claim):
                raise ValueError(f"claim repeats itself: {claim[:60]!r}…; write each fact once")
        return claims


SPLIT = Prompt(
    name="claims.split",
    instruction="""\
Break the text into atomic claims: short factual statements that can each be checked on their own.
- One fact per claim: a sentence that states several facts (a date and a place, two names, a number and a \
cause) gives several claims. Keep every fact of the text.
- A list gives one claim per item, each with the list's shared subject and verb: lists joined by commas, \
"and" / "or", 、, 和 / 及 / 与 / 或, 및 / 와 / 과 / 이나, や / と, bullets, numbers or table rows.
- Each claim must make sense alone: replace pronouns and vague words ("it", "she", "this", "there") with the \
names they stand for.
- Keep the answer: when the text answers the question, the claim must contain the answer itself (the name, \
number or date) and what it answers.
- Use the question only to understand what the text refers to. A fact that only the question states is not \
a claim of the text.
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
            SplitInput(question="这款相机支持哪些存储卡？", text="支持SD卡、microSD卡和CFexpress卡。"),
            SplitOutput(
                claims=["这款相机支持SD卡。", "这款相机支持microSD卡。", "这款相机支持CFexpress卡。"],
                entities=["SD卡", "microSD卡", "CFexpress卡"],
            ),
        ),
        (
            SplitInput(question="What does the Model Z cost?", text="Sorry, I could not find that in the documents."),
            SplitOutput(claims=[], entities=[]),
        ),
    ),
    max_tokens=1200,
)


# The labels the judge writes: distinct first words, so the first label token decides their probability.
class Judgement(str, enum.Enum):
    supported = "supported"
    contradicted = "contradicted"
    not_mentioned = "not_mentioned"


LABEL: dict[str, Literal["entailed", "contradicted", "neutral"]] = {
    "supported": "entailed", "contradicted": "contradicted", "not_mentioned": "neutral"}


class CheckInput(BaseModel):
    question: str
    passage: str
    claims: list[str]


_CHECK_INSTRUCTION = """\
The passage is an answer to the question. For each numbered claim, decide what the passage says about it:
- "supported": the passage states the fact in the claim (same names, numbers and dates). Read the passage \
together with its question: the short answer "Oslo." to "Where was the treaty signed?" states that the treaty \
was signed in Oslo.
- "contradicted": the passage states a different value for the same fact (another date, number, name or place).
- "not_mentioned": the passage does not state this fact, even if it talks about the same topic.
Use only the passage and its question; ignore what you know. Give a label for every claim number."""

_CHECK_PROMPTS: dict[int, Prompt[CheckInput, Any]] = {}


def check_prompt(n: int) -> Prompt[CheckInput, Any]:
    """The check prompt for a group of ``n`` claims (its output schema has exactly ``n`` labels)."""
    if n not in _CHECK_PROMPTS:
        _CHECK_PROMPTS[n] = Prompt(
            name="claims.check",
            instruction=_CHECK_INSTRUCTION,
            input=CheckInput,
            output=numbered_labels(f"Verdicts{n}", n, Judgement, prefix="c", optional=True, bare_labels=True),
            max_tokens=16 + 12 * n,
        )
    return _CHECK_PROMPTS[n]


class AttributeInput(BaseModel):
    passages: list[str]
    claims: list[str]


_ATTRIBUTE_INSTRUCTION = """\
Check each numbered claim against the numbered passages, read together:
- "supported": the passages state the claim's fact, in one passage or in several read together (one passage \
may name a person and another give that person's birthplace). In "passages", list the number of every \
passage the fact needs.
- "contradicted": a passage states a different value for the same fact (another date, number, name or place). \
List that passage.
- "not_mentioned": no passage states the fact, even if they talk about the same topic. List no passage.
Use only the passages; ignore what you know. Give an entry for every claim number."""

_ATTRIBUTE_PROMPTS: dict[tuple[int, int], Prompt[AttributeInput, Any]] = {}


def attribute_prompt(n: int, m: int) -> Prompt[AttributeInput, Any]:
    """The attribution prompt for ``n`` claims against ``m`` passages (passage numbers 0 … m-1)."""
    if (n, m) not in _ATTRIBUTE_PROMPTS:
        number = Literal[tuple(range(m))]  # type: ignore[valid-type]

        class Attributed(BaseModel):
            model_config = ConfigDict(title=None, json_schema_extra=_untitled)
            passages: list[number] = Field(max_length=m)  # type: ignore[valid-type]
            verdict: Judgement

        _ATTRIBUTE_PROMPTS[(n, m)] = Prompt(
            name="claims.attribute",
            instruction=_ATTRIBUTE_INSTRUCTION,
            input=AttributeInput,
            output=numbered_labels(f"Attributions{n}x{m}", n, Attributed, prefix="c", optional=True,
                                   bare_labels=True),
            max_tokens=16 + (20 + 4 * m) * n,
        )
    return _ATTRIBUTE_PROMPTS[(n, m)]


def _untitled(schema: dict[str, Any]) -> None:
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
        prop.pop("default", None)
