"""The writers that copy their facts first, and the sentences they copy from.

Told to copy a fact from a passage and then ask about it, the 1.5B writer often copied nothing found there, or
one passage twice. These writers are decoded with each fact chosen among the sentences of the passage it must
come from (``choices``), so that every fact is a real sentence before the question is written:

- ``write_bridge_qa`` (multi_hop): a fact of each of two passages that mention one topic, a question on each,
  asked together;
- ``write_comparison_qa`` (comparison): a fact about each of two things, then the question that compares them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from pydantic import BaseModel, Field

from ragkit.kg import KnowledgeGraph, mentioned_in
from ragkit.llm import Judge, Prompt
from ragkit.synthesis._checks import informative
from ragkit.synthesis._phrasing import asked
from ragkit.synthesis._scenarios import SkipScenario
from ragkit.synthesis._writer import (
    QA_RULES,
    QUOTE_CHARS,
    SUB_QUESTION_CHARS,
    AskedTogether,
    QAOutput,
    Quote,
    asker_fields,
    both_asked,
    non_empty,
)
from ragkit.text import split_sentences
from ragkit.types import Scenario

# -- the bridge writer (multi_hop) ------------------------------------------------------------------


class BridgeQAInput(BaseModel):
    """Two passages as separate sections: a small model tells ``passage_0`` from ``passage_1`` more reliably than
    items of one numbered list."""

    passage_0: str
    passage_1: str
    task: str
    topic: str
    asker: str
    question_style: str
    language: str


class BridgeQAOutput(BaseModel):
    """Facts first, then a question on each, then the answer to both. Asked for one question that needs both
    facts, the 1.5B writer asked about one of them (9 of the critic's 10 multi-hop drops on corpora/acme, session
    38); a question on each fact, asked together (``both_asked``), needs both passages by its making."""

    fact_from_passage_0: Quote
    """A short phrase copied exactly from passage_0 that states a fact about the topic."""
    fact_from_passage_1: Quote
    """A short phrase copied exactly from passage_1 that states another fact about the topic."""
    question_about_fact_0: str = Field(max_length=SUB_QUESTION_CHARS)
    question_about_fact_1: str = Field(max_length=SUB_QUESTION_CHARS)
    answer: str = Field(max_length=500)


BRIDGE_QA_PROMPT = Prompt(
    name="generate.bridge_qa",
    instruction=(
        "You write a test question for a question-answering assistant, and its correct answer, that needs facts "
        "from two passages (passage_0 and passage_1) which both mention the topic. The question is two questions "
        "asked together, one on a fact of each passage.\n"
        "Steps:\n"
        "1. fact_from_passage_0: copy exactly a short phrase of passage_0 that states a fact about the topic.\n"
        "2. fact_from_passage_1: copy exactly a short phrase of passage_1 that states a different fact about the "
        "topic.\n"
        "3. question_about_fact_0: a question that fact_from_passage_0 answers. Name the topic in it.\n"
        "4. question_about_fact_1: a question that fact_from_passage_1 answers and fact_from_passage_0 does not. "
        "Name the topic in it.\n"
        "5. answer: the answer to both questions, in one or two sentences.\n"
        "Rules:\n"
        f"- {QA_RULES}"
    ),
    input=BridgeQAInput,
    output=BridgeQAOutput,
    max_tokens=800,
)


async def write_bridge_qa(judge: Judge, scenario: Scenario, passages: Sequence[str], *, task: str,
                          topic: str, headings: Collection[str] = ()) -> QAOutput:
    """One LLM call: a fact about ``topic`` copied from each of two passages, each decoded among its passage's
    sentences other than ``headings`` (``fact_choices``), a question on each, asked together (``both_asked``),
    and the answer to both."""
    first, second = passages
    data = BridgeQAInput(passage_0=first, passage_1=second, **asker_fields(scenario, task=task, topic=topic))
    out = await judge.structured(BRIDGE_QA_PROMPT, data, choices=fact_choices(passages, topic, headings))
    questions = [asked(q, scenario.language) for q in (out.question_about_fact_0, out.question_about_fact_1)]
    if not all(questions):
        raise SkipScenario("empty_output", "the model returned an empty question")
    if not informative(questions[0], questions[1]) and not informative(questions[1], questions[0]):
        raise SkipScenario("single_passage", f"both questions ask the same: {questions[1][:80]!r}")
    quotes = [out.fact_from_passage_0, out.fact_from_passage_1]
    return non_empty(AskedTogether(question=both_asked(*questions), answer=out.answer, quotes=quotes, parts=questions))


def fact_choices(passages: Sequence[str], topic: str, headings: Collection[str] = ()) -> dict[str, list[str]]:
    """The sentences each ``fact_from_passage_k`` of the bridge writer is decoded among.

    Told to copy a fact from each passage, the small writer often did not: of 17 bridge replies on corpora/acme, 4
    quoted nothing found in a passage and 5 quoted one passage twice, and each was a call spent for no candidate.
    Decoded among passage k's sentences, its fact is from passage k. The sentences are those that name ``topic``
    (all, when none does), short enough for a quote, and not the same fact as the other passage: a sentence with
    no informative word the other passage lacks ("Reach: 850 mm" beside "a reach of 850 mm") would give a
    question that one passage answers. A line that is one of ``headings`` (the documents' titles and section
    headings: "Milestones", "2. Main specifications") names a section and states no fact; it is never offered."""
    out: dict[str, list[str]] = {}
    titles = {heading_form(h) for h in headings}
    for k, text in enumerate(passages):
        other = "\n".join(p for i, p in enumerate(passages) if i != k)
        if offered := _naming([s for s in _quotable(text, titles) if informative(s, other)], topic):
            out[f"fact_from_passage_{k}"] = offered
    return out


def _quotable(passage_text: str, titles: Collection[str]) -> list[str]:
    """The sentences of a prompt passage a writer may copy as a fact: short enough for a quote, and none that is
    one of ``titles`` (``heading_form`` of the documents' headings)."""
    return [s for s in split_sentences(passage_body(passage_text)) if len(s) <= QUOTE_CHARS
            and heading_form(s) not in titles]


def _naming(sentences: list[str], name: str) -> list[str]:
    """Those of ``sentences`` that name ``name``; all of them when none does."""
    return [s for s in sentences if mentioned_in(name, s)] or sentences


def headings_of(kg: KnowledgeGraph, chunk_ids: Iterable[str]) -> set[str]:
    """The titles and section headings of the documents that hold ``chunk_ids``: a chunk's text repeats its
    section's heading as a line of its own."""
    docs = [d for d in {kg.chunk(c).doc_id for c in chunk_ids} if d in kg.g]  # a chunk may stand without one
    out = {kg.document(d).title for d in docs}
    out.update(h for d in docs for chunk in kg.chunks_of(d) for h in chunk.heading_path)
    return {h for h in out if h}


_SECTION_NUMBER = re.compile(r"^\(?\d{1,3}(?:\.\d{1,3})*[.)]?\s+")


def heading_form(line: str) -> str:
    """A line as a heading is compared: without marks around it or its section number ("2. Main specifications",
    "## Milestones:"), case folded."""
    return _SECTION_NUMBER.sub("", line.strip().strip("#*-:：. ")).casefold()


def passage_body(passage_text: str) -> str:
    """A prompt passage without its "(from: …)" heading (``passage``), which is no fact to quote."""
    head, _, rest = passage_text.partition("\n")
    return rest if head.startswith("(from: ") and head.endswith(")") else passage_text


# -- the comparison writer --------------------------------------------------------------------------


class ComparisonInput(BaseModel):
    passages: list[str]
    first: str
    second: str
    asker: str
    question_style: str
    language: str


class ComparisonOutput(BaseModel):
    """A fact about each thing first, then the question. Asked for a comparison in one go, the 1.5B writer quoted
    nothing found in its passages in 5 of 14 dropped candidates on corpora/acme, and compared facts no passage
    gives (session 41)."""

    fact_about_first: Quote
    """A sentence copied from the passages that states a fact about ``first``."""
    fact_about_second: Quote
    """A sentence copied from the passages that states the same kind of fact about ``second``."""
    question: str = Field(max_length=300)
    answer: str = Field(max_length=500)


COMPARISON_QA_PROMPT = Prompt(
    name="generate.comparison_qa",
    instruction=(
        "You write a test question for a question-answering assistant that compares two things, first and "
        "second, and its correct answer, from the numbered passages.\n"
        "Steps:\n"
        "1. fact_about_first: copy exactly a sentence of the passages that states a fact about first: a figure, a "
        "date, a place, a size or a role.\n"
        "2. fact_about_second: copy exactly a sentence of the passages that states the same kind of fact about "
        "second.\n"
        "3. question: a question that asks this kind of fact for both first and second. Name both in it.\n"
        "4. answer: what each fact says, for first and for second, in one or two sentences.\n"
        "Rules:\n"
        f"- {QA_RULES}"
    ),
    input=ComparisonInput,
    output=ComparisonOutput,
    max_tokens=800,
)


async def write_comparison_qa(judge: Judge, scenario: Scenario, passages: Sequence[str], first: str, second: str,
                              *, headings: Collection[str] = ()) -> QAOutput:
    """One LLM call: a fact about ``first`` and one about ``second``, each decoded among the sentences that name
    it (``comparison_choices``), then the question that compares them and its answer. The facts are the quotes."""
    fields = asker_fields(scenario, task="")
    data = ComparisonInput(passages=list(passages), first=first, second=second, asker=fields["asker"],
                           question_style=fields["question_style"], language=fields["language"])
    out = await judge.structured(COMPARISON_QA_PROMPT, data,
                                 choices=comparison_choices(passages, first, second, headings))
    return non_empty(QAOutput(question=out.question, answer=out.answer,
                              quotes=[out.fact_about_first, out.fact_about_second]))


def comparison_choices(passages: Sequence[str], first: str, second: str,
                       headings: Collection[str] = ()) -> dict[str, list[str]]:
    """The sentences each fact of the comparison writer is decoded among: those that name its thing (all, when
    none does), short enough for a quote and not a heading. With two passages, one per thing (the plan's chunk
    of each), each fact comes from its own thing's passage; with one, both come from it, and a sentence that
    names both may serve for both ("The W300 carries 300 kg, the K10 10 kg")."""
    titles = {heading_form(h) for h in headings}
    sources = list(passages) if len(passages) == 2 else [passages[0], passages[0]]
    out: dict[str, list[str]] = {}
    for field, name, text in (("fact_about_first", first, sources[0]), ("fact_about_second", second, sources[1])):
        if offered := _naming(_quotable(text, titles), name):
            out[field] = offered
    return out
