"""unanswerable: a plausible, on-topic question that the corpus does not answer; the reference answer says so.

The critic checks the question against its seed chunks and the graph chunks nearest to the question, and drops
it when they do answer it. Samples carry ``metadata["answerable"] = False``; their reference contexts are the
on-topic chunks a retriever should find (none of which holds the answer). Tests refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from pydantic import BaseModel, Field

from ragkit.graph import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.prompts import Prompt
from ragkit.registry import generator
from ragkit.scenarios import (
    Plan,
    QAOutput,
    SkipScenario,
    chunk_vectors,
    context_refs,
    language_instruction,
    make_sample,
    passage,
    related_chunks,
    style_instruction,
)
from ragkit.types import Scenario, TestSample

from .single_hop import plan_single


class UnanswerableScenario(Scenario):
    """The seed chunk and its neighbours (``chunk_ids``), and the topic to ask about."""

    topic: str | None = None


class UnanswerableInput(BaseModel):
    passages: list[str]
    topic: str
    asker: str
    question_style: str
    language: str


class UnanswerableOutput(BaseModel):
    question: str = Field(max_length=250)
    missing: str = Field(max_length=150)
    """What the question asks for that the passages do not give."""
    answer: str = Field(max_length=250)


UNANSWERABLE_PROMPT = Prompt(
    name="generate.unanswerable",
    instruction=(
        "You write one test question that a question-answering assistant should NOT be able to answer from the "
        "numbered passages, to test whether it admits that it does not know.\n"
        "1. The question is about the topic and sounds natural for the asker: something a reader of these "
        "passages could well want to know next.\n"
        "2. The passages must NOT contain the answer: ask for a detail they never give (a figure, a date, a "
        "name, a reason or a plan that is not mentioned anywhere in them).\n"
        "3. The question names what it is about; never mention 'the passage' or 'the document'.\n"
        "4. missing: say briefly what information the passages lack.\n"
        "5. answer: one sentence saying that the available documents do not provide this information.\n"
        "6. Write the question in the question_style and follow the language rule for the question and the "
        "answer."
    ),
    input=UnanswerableInput,
    output=UnanswerableOutput,
    max_tokens=400,
)


@generator
@dataclass(frozen=True)
class Unanswerable:
    """An on-topic question whose answer is not in the corpus; the reference answer is a refusal."""

    neighbours: int = 1
    """Related chunks added to the seed chunk as on-topic reference contexts."""
    min_tokens: int = 15

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        base = plan_single(kg, n, rng, name="unanswerable", min_tokens=self.min_tokens, topics_per_chunk=1)
        vectors = chunk_vectors(kg)
        scenarios: list[Scenario] = []
        for s in base.scenarios:
            near = related_chunks(kg, s.chunk_ids[0], vectors, limit=self.neighbours)
            scenarios.append(UnanswerableScenario(**s.model_dump(exclude={"generator", "chunk_ids"}),
                                                  generator="unanswerable", chunk_ids=[s.chunk_ids[0], *near]))
        return Plan(scenarios, base.notes)

    async def generate(self, scenario: UnanswerableScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        persona = scenario.persona
        data = UnanswerableInput(
            passages=[passage(kg, c, limit=1500) for c in scenario.chunk_ids],
            topic=scenario.topic or "(the main subject of the passages)",
            asker=f"{persona.name}: {persona.description}" if persona else "a curious reader of these documents",
            question_style=style_instruction(scenario.style, scenario.length, scenario.language),
            language=language_instruction(scenario.language),
        )
        out = await judge.structured(UNANSWERABLE_PROMPT, data)
        if not out.question.strip() or not out.answer.strip():
            raise SkipScenario("empty_output", "the model returned an empty question or answer")
        qa = QAOutput(question=out.question, answer=out.answer, quotes=[])
        return make_sample(self, scenario, qa, context_refs(kg, scenario.chunk_ids), answerable=False,
                           missing=out.missing)
