"""The shared question-writing prompt, the quotes that prove an answer, and the sample a generator makes.

A generator's ``generate`` usually makes one call here (``write_qa``, or a writer of ``_facts`` that copies its
facts first), checks the model's quotes against its passages (``check_quotes``) when it needs them and returns
``make_sample(...)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge, Prompt
from ragkit.synthesis._checks import distinct, informative
from ragkit.synthesis._phrasing import (
    ANY_READER,
    add_typos,
    asked,
    language_instruction,
    search_keywords,
    style_instruction,
)
from ragkit.synthesis._scenarios import SkipScenario, generator_spec, sample_id
from ragkit.text import CJK, QUESTION_MARKS, normalise_language, units
from ragkit.types import ContextRef, Scenario, TestSample

# -- the shared question-writing prompt -------------------------------------------------------------


class QAInput(BaseModel):
    passages: list[str]
    task: str
    topic: str
    asker: str
    question_style: str
    language: str


QUESTION_CHARS = 300
"""The longest question a writer may write (a bound on a small model's runaway output)."""
QUOTE_CHARS = 200
SUB_QUESTION_CHARS = 150  # two of them, asked together, fit a question
Quote = Annotated[str, StringConstraints(max_length=QUOTE_CHARS)]


class Asked(BaseModel):
    """A question alone: what a writer is asked for when its answer is not kept (the unanswerable generator's)."""

    question: str = Field(max_length=QUESTION_CHARS)


class Answered(Asked):
    """A question and its answer: what a writer is asked for when no check reads its quotes."""

    answer: str = Field(max_length=500)


class QAOutput(Answered):
    quotes: list[Quote] = Field(default_factory=list, max_length=3)
    """Short exact phrases from the passages that support the answer."""


class AskedTogether(QAOutput):
    """A ``QAOutput`` whose question is two questions asked together (``both_asked``), kept apart in ``parts``; no
    prompt's output. The sample records them (``metadata["questions"]``), so that the critic answers each apart even
    when a keyword style has run them into one query."""

    question: str = Field(max_length=2 * SUB_QUESTION_CHARS + 2)
    """Two questions and what joins them: a space, or ", " between keyword queries."""
    parts: list[str] = Field(min_length=2, max_length=2)


_QUESTION_RULES = (
    "The question must make sense to someone who has not seen the passages: name the company, product, place or "
    "person it is about. Never say 'the passage', 'the text' or 'the document'.\n"
    "- Ask in your own words; do not copy a sentence of a passage.\n"
    "- Write the question in the question_style, as the asker would ask it. The asker only shapes the wording; "
    "every fact comes from the passages.\n"
)
QA_RULES = (
    f"{_QUESTION_RULES}"
    "- The answer uses only facts stated in the passages, in one or two sentences.\n"
    "- Follow the language rule for both the question and the answer."
)

_QA_INSTRUCTION = (
    "You write one test question for a question-answering assistant, and its correct answer, from the numbered "
    "passages.\n"
    "Rules:\n"
    "- Do the task. Ask about the topic and name it in the question.\n"
    f"- {QA_RULES}"
)
QA_PROMPT = Prompt(
    name="generate.qa",
    instruction=f"{_QA_INSTRUCTION}\n- quotes: one to three short phrases copied exactly from the passages that "
                "prove the answer.",
    input=QAInput,
    output=QAOutput,
    max_tokens=800,
)
ANSWERED_PROMPT = Prompt(name="generate.qa", instruction=_QA_INSTRUCTION, input=QAInput, output=Answered,
                         max_tokens=600)
"""``QA_PROMPT`` without quotes, for a writer whose quotes no check reads: they came after the answer, so they
never shaped it, and were a third of the reply's tokens (session 41)."""
ASKED_PROMPT = Prompt(
    name="generate.qa",
    instruction=(
        "You write one test question for a question-answering assistant from the numbered passages.\n"
        "Rules:\n"
        "- Do the task. Ask about the topic and name it in the question.\n"
        f"- {_QUESTION_RULES}"
        "- Follow the language rule."
    ),
    input=QAInput,
    output=Asked,
    max_tokens=200,
)
"""The question alone, for a writer whose answer is not kept."""


def passage(kg: KnowledgeGraph, chunk_id: str, limit: int = 2400) -> str:
    """A chunk's text for a prompt, headed by its document title and section, trimmed to ``limit`` characters."""
    chunk = kg.chunk(chunk_id)
    doc = kg.document(chunk.doc_id) if chunk.doc_id in kg.g else None
    where = [(doc.title or doc.path) if doc else chunk.source, *chunk.heading_path]
    head = " > ".join(w for w in where if w)
    text = chunk.text if len(chunk.text) <= limit else chunk.text[:limit] + " …"
    return f"(from: {head})\n{text}" if head else text


def asker_fields(scenario: Scenario, *, task: str, topic: str = "") -> dict[str, str]:
    """What the question-writing prompts know besides the passages: task, topic, asker, style, length and
    language."""
    persona = scenario.persona
    return {
        "task": task,
        "topic": topic or "(any important fact of the passages)",
        "asker": persona.name if persona else ANY_READER,
        "question_style": style_instruction(scenario.style, scenario.length, scenario.language),
        "language": language_instruction(scenario.language),
    }


async def write_qa(
    judge: Judge,
    scenario: Scenario,
    passages: Sequence[str],
    *,
    task: str,
    topic: str = "",
    quotes: bool = True,
    prompt: Prompt[QAInput, Any] | None = None,
) -> QAOutput:
    """One LLM call: a question, its answer and (``quotes``, for ``check_quotes``) the quotes that support it, for
    ``scenario`` over ``passages``. ``prompt`` replaces the built-in one (``QA_PROMPT``, or ``ANSWERED_PROMPT``
    without quotes); its output needs ``question`` and ``answer``."""
    data = QAInput(passages=list(passages), **asker_fields(scenario, task=task, topic=topic))
    out = await judge.structured(prompt or (QA_PROMPT if quotes else ANSWERED_PROMPT), data)
    return non_empty(out if isinstance(out, QAOutput) else QAOutput(question=out.question, answer=out.answer))


async def write_question(judge: Judge, scenario: Scenario, passages: Sequence[str], *, task: str,
                         topic: str = "") -> str:
    """One LLM call: a question alone for ``scenario`` over ``passages``, in its language, style and length, for a
    generator that keeps no answer of the writer's (the unanswerable one writes its own refusal); an answer
    would cost its tokens for nothing."""
    data = QAInput(passages=list(passages), **asker_fields(scenario, task=task, topic=topic))
    question = (await judge.structured(ASKED_PROMPT, data)).question
    if not question.strip():
        raise SkipScenario("empty_output", "the model returned an empty question")
    return question


_FULL_WIDTH_ENDS = ("？", "。", "！")
_ENDS = (*QUESTION_MARKS, *_FULL_WIDTH_ENDS, ".", "!")


def both_asked(first: str, second: str) -> str:
    """Two questions asked together, in any language: "What does the Wren W300 carry? Where is the Wren W300
    built?", "龙井茶产自哪里？青岚茶业每年收购多少龙井茶？". The first takes the second's question mark when it
    has none; keywords ("Wren W300 payload", "Wren W300 factory") are run together, for ``search_keywords``."""
    first, second = first.strip(), second.strip()
    if second.endswith(QUESTION_MARKS) and not first.endswith(_ENDS):
        first += second[-1]
    return first + ("" if first.endswith(_FULL_WIDTH_ENDS) else " ") + second


_ASKED_APART = re.compile(r"(?:(?<=[?？])|(?<=か。))\s*")


def questions_of(question: str) -> list[str]:
    """The questions ``both_asked`` joined, each with its mark ("Where is X made? Who runs it?" → two; a Japanese
    question may end in "か。" instead); a question with one mark or none is one question."""
    parts = [p.strip() for p in _ASKED_APART.split(question.strip()) if p.strip()]
    return parts if len(parts) >= 2 else [question]


def asked_apart(sample: TestSample) -> list[str]:
    """The questions a sample asks together: those its writer recorded (``metadata["questions"]``), which a keyword
    query runs together ("Wren W300 payload, Wren W300 factory"), or else those ``questions_of`` finds at its
    question marks (a sample written before they were recorded, or by hand)."""
    kept = sample.metadata.get("questions")
    if isinstance(kept, list) and len(kept) >= 2 and all(isinstance(q, str) and q.strip() for q in kept):
        return kept
    return questions_of(sample.question)


def non_empty(out: QAOutput) -> QAOutput:
    if not out.question.strip() or not out.answer.strip():
        raise SkipScenario("empty_output", "the model returned an empty question or answer")
    return out


_SPACE = re.compile(r"\s+")
_PASSAGE_LABEL = re.compile(r"^\s*\[\d+\]\s*")


def unlabelled(quote: str) -> str:
    """``quote`` without a leading passage number: prompts show passages numbered ("[0] …"), and a model copies
    the number with the sentence, or gives the number alone, which is a label, not a quote."""
    return _PASSAGE_LABEL.sub("", quote)


def _squash(text: str) -> str:
    return _SPACE.sub(" ", re.sub(r"[^\w]+", " ", text.lower())).strip()


def quote_source(quote: str, passages: Sequence[str], min_score: float = 85.0) -> int | None:
    """Index of the passage that contains ``quote``, or None.

    Matching ignores case and punctuation, and forgives small slips: a fuzzy partial match of ``min_score`` or
    more, or (for quotes of four or more tokens that skip a few words) 85% of the quote's tokens found in the
    passage in runs of three or more, in order.
    """
    import difflib

    from rapidfuzz import fuzz

    quote = unlabelled(quote)  # "[0]" alone would be "0", found in any passage with a zero
    q = _squash(quote)
    if not q:
        return None
    q_tokens = units(quote)
    best, best_score = None, 0.0
    for i, passage in enumerate(passages):
        p = _squash(passage)
        score = 100.0 if q in p else fuzz.partial_ratio(q, p)
        if score < min_score and len(q_tokens) >= 4:
            blocks = difflib.SequenceMatcher(None, q_tokens, units(passage), autojunk=False).get_matching_blocks()
            if sum(b.size for b in blocks if b.size >= 3) >= 0.85 * len(q_tokens):
                score = min_score
        if score > best_score:
            best, best_score = i, score
    return best if best_score >= min_score else None


def answer_source(answer: str, question: str, passages: Sequence[str], *, quoted: bool) -> int | None:
    """The passage an answer copied from it is found in: such an answer is its own evidence when no quote of the
    model's is found. Only an answer of two words or more, and beside a quote of its own words (``quoted``), only
    one with two words the question lacks, which a short span ("In 2010", a name) would match by chance."""
    if len(units(answer)) < 2 or (quoted and len(informative(answer, question)) < 2):
        return None
    return quote_source(answer, passages)


def check_quotes(out: QAOutput, passages: Sequence[str], *, need_passages: int = 1) -> list[int]:
    """Passages proven by the model's quotes; SkipScenario when the quotes are invented or too few."""
    found = sorted({i for q in out.quotes if (i := quote_source(q, passages)) is not None})
    if not found:
        raise SkipScenario("quote_not_in_context", "no supporting quote was found in the passages")
    if len(found) < need_passages:
        raise SkipScenario("single_passage", f"quotes come from {len(found)} passage(s), {need_passages} needed")
    return found


# -- samples ----------------------------------------------------------------------------------------


def context_refs(kg: KnowledgeGraph, chunk_ids: Iterable[str], distractors: Iterable[str] = ()) -> list[ContextRef]:
    """Reference contexts with chunk ids and source files (distractor chunks marked as such)."""
    noise = set(distractors)
    refs = []
    for cid in chunk_ids:
        chunk = kg.chunk(cid)
        source = chunk.source or kg.document_of(cid).path
        refs.append(ContextRef(chunk_id=cid, text=chunk.text, source=source, distractor=cid in noise))
    return refs


def make_sample(
    gen: Any, scenario: Scenario, qa: QAOutput, contexts: list[ContextRef], **metadata: Any
) -> TestSample:
    """A complete TestSample for ``scenario``. Questions asked together (``AskedTogether``) are each put in the
    scenario's style and recorded as the sample's ``questions``."""
    asker = scenario.persona.name if scenario.persona else None
    written = asked(qa.question, scenario.language, asker)
    if isinstance(qa, AskedTogether):
        parts = [styled(asked(p, scenario.language, asker), scenario, f"{sample_id(scenario)}:{k}", typos=1)
                 for k, p in enumerate(qa.parts)]
        keywords = scenario.style == "web_search" and not any(p.endswith(_ENDS) for p in parts)
        question = ", ".join(parts) if keywords else both_asked(*parts)  # a keyword query has no mark to end it
        metadata = {"questions": parts, **metadata}
    else:
        question = styled(written, scenario, sample_id(scenario))
    return TestSample(
        id=sample_id(scenario),
        question=question,
        reference_answer=qa.answer.strip(),
        reference_contexts=contexts,
        generator=generator_spec(gen),
        scenario=scenario.model_dump(mode="json"),
        persona=scenario.persona.name if scenario.persona else None,
        style=scenario.style,
        length=scenario.length,
        language=scenario.language,
        metadata={"quotes": found_quotes(qa.quotes, [c.text for c in contexts]),
                  **({f"question_before_{scenario.style}": written} if question != written else {}), **metadata},
    )


def styled(question: str, scenario: Scenario, seed: str, *, typos: int = 2) -> str:
    """``question`` in the scenario's style, where the writer's own wording cannot be trusted to have it: typing
    mistakes (seeded by ``seed``; none in CJK) or keywords cut from a full question."""
    if scenario.style == "typos" and normalise_language(scenario.language) not in CJK:
        return add_typos(question, seed, typos)
    if scenario.style == "web_search" and (question.endswith(QUESTION_MARKS) or len(question.split()) > 6):
        return search_keywords(question, scenario.language)  # small models write full questions anyway
    return question


def found_quotes(quotes: Sequence[str], texts: Sequence[str]) -> list[str]:
    """The quotes found in one of ``texts``, each once: what the writer invented, or left of its template (a
    literal "quotes"), is not kept as evidence."""
    return [q for q in distinct(list(quotes)) if quote_source(q, texts) is not None]
