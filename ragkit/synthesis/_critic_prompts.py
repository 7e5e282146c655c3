"""The critic's two prompts: its own answer from the passages (with the evidence it copies), and whether a question
can be understood with no document at hand."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from ragkit.llm import Prompt


class CriticInput(BaseModel):
    passages: list[str]
    question: str


Evidence = Annotated[str, StringConstraints(max_length=300)]


class CriticOutput(BaseModel):
    evidence: list[Evidence] = Field(default_factory=list, max_length=3)
    """The sentences or table rows of the passages needed to answer the question, copied; empty when none."""
    answer: str = Field(max_length=150)
    """The answer in a few words, taken from the evidence; empty when there is none."""


CRITIC_PROMPT = Prompt(
    name="generate.critic",
    instruction=(
        "Answer the question using only the numbered passages, never your own knowledge.\n"
        "1. evidence: copy the sentences or table rows of the passages that are needed to answer the question "
        "(one from each passage that is needed, at most three). If no passage answers it, give an empty list.\n"
        "2. answer: the answer in a few words, taken from the evidence. If there is no evidence, write an empty "
        "string."
    ),
    input=CriticInput,
    output=CriticOutput,
    max_tokens=250,
)


class QuestionCheckInput(BaseModel):
    question: str


class QuestionCheckOutput(BaseModel):
    self_contained: bool
    """Someone with no document at hand can tell exactly what is asked."""


QUESTION_CHECK_PROMPT = Prompt(
    name="generate.question_check",
    instruction=(
        "You review a test question for a question-answering assistant. Users ask it with no document in front "
        "of them, and you see none either.\n"
        "self_contained: true if a reader with no document at hand can tell exactly what is asked: it names the "
        "company, product, person, place or thing it is about. false if it points at something it does not "
        "name: 'the example', 'the code above', 'this section', 'the table', 'this product', 'the project', or "
        "an 'it', 'its' or 'they' that nothing in the question explains."
    ),
    input=QuestionCheckInput,
    output=QuestionCheckOutput,
    examples=(
        (QuestionCheckInput(question="How many items does the vector in the example hold?"),
         QuestionCheckOutput(self_contained=False)),
        (QuestionCheckInput(question="In which year did Harbor Books open its Leeds shop?"),
         QuestionCheckOutput(self_contained=True)),
        (QuestionCheckInput(question="Who approved its budget?"), QuestionCheckOutput(self_contained=False)),
    ),
    max_tokens=20,
)
