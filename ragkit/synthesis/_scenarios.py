"""Building blocks for scenario generators: the generator protocol, plans, the question prompts and samples.

How questions read (language, style, length, typos, keywords) is in ``ragkit.synthesis._phrasing``.

A generator is a small class (usually a frozen dataclass) registered with ``@generator``::

    plan(kg, n, rng) -> Plan                       # seeded graph walk, no LLM, never raises
    async generate(scenario, kg, judge) -> TestSample  # may raise SkipScenario(reason)

The runner (``ragkit.synthesis._generate``) sets each scenario's persona, style and length after planning, and fills the
sample's id, generator spec, scenario, persona, style, length and language when the generator leaves them out.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, is_dataclass
from random import Random
from typing import Annotated, Any, Protocol, TypeVar, runtime_checkable

import numpy as np
from pydantic import BaseModel, Field, StringConstraints

from ragkit.kg import ChunkNode, KnowledgeGraph
from ragkit.llm import Judge, Prompt, content_key
from ragkit.registry import GeneratorInfo
from ragkit.synthesis._phrasing import (
    CJK,
    add_typos,
    language_instruction,
    normalise_language,
    search_keywords,
    style_instruction,
)
from ragkit.text import UNDETERMINED, detect_language, units
from ragkit.types import ContextRef, PluginSpec, Scenario, TestSample

T = TypeVar("T")

VAGUE_TYPES = frozenset({"other", "misc", "unknown", ""})
"""Entity types that say nothing about what the entity is."""


class SkipScenario(Exception):  # noqa: N818  (a control-flow signal, not an error)
    """Raised by ``generate`` when one scenario cannot give a usable sample; the runner counts ``reason``."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason, self.detail = reason, detail
        super().__init__(f"{reason}: {detail}" if detail else reason)


@dataclass
class Plan:
    """Scenarios in order of preference, and plain-language notes on why there are fewer than asked."""

    scenarios: list[Scenario] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@runtime_checkable
class Generator(Protocol):
    """What ``@generator`` registers."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan | list[Scenario]: ...

    async def generate(self, scenario: Any, kg: KnowledgeGraph, judge: Judge) -> TestSample: ...


def generator_name(gen: Any) -> str:
    info = getattr(type(gen), "info", None)
    return info.name if isinstance(info, GeneratorInfo) else type(gen).__name__


def generator_spec(gen: Any) -> PluginSpec:
    """The generator's registry name and its dataclass fields (the recorded arguments)."""
    args = asdict(gen) if is_dataclass(gen) and not isinstance(gen, type) else {}
    return PluginSpec(name=generator_name(gen), args=args)


def scenario_language(kg: KnowledgeGraph, chunk_ids: Sequence[str]) -> str:
    """The most common language of the chunks (detected from their text when the graph says ``und``)."""
    votes: Counter[str] = Counter()
    for cid in chunk_ids:
        chunk = kg.chunk(cid)
        lang = normalise_language(chunk.language)
        if lang == UNDETERMINED:
            lang = normalise_language(detect_language(chunk.text))
        votes[lang] += 1
    known = [(lang, n) for lang, n in votes.most_common() if lang != UNDETERMINED]
    return known[0][0] if known else UNDETERMINED


# -- the shared question-writing prompt -------------------------------------------------------------


class QAInput(BaseModel):
    passages: list[str]
    task: str
    topic: str
    asker: str
    question_style: str
    language: str


Quote = Annotated[str, StringConstraints(max_length=200)]


class QAOutput(BaseModel):
    question: str = Field(max_length=300)
    answer: str = Field(max_length=500)
    quotes: list[Quote] = Field(default_factory=list, max_length=3)
    """Short exact phrases from the passages that support the answer."""


_QA_RULES = (
    "The question must make sense to someone who has not seen the passages: name the company, product, place or "
    "person it is about. Never say 'the passage', 'the text' or 'the document'.\n"
    "- Ask in your own words; do not copy a sentence of a passage.\n"
    "- Write the question in the question_style, as the asker would ask it. The asker only shapes the wording; "
    "every fact comes from the passages.\n"
    "- The answer uses only facts stated in the passages, in one or two sentences.\n"
    "- Follow the language rule for both the question and the answer."
)

QA_PROMPT = Prompt(
    name="generate.qa",
    instruction=(
        "You write one test question for a question-answering assistant, and its correct answer, from the "
        "numbered passages.\n"
        "Rules:\n"
        "- Do the task. Ask about the topic and name it in the question.\n"
        f"- {_QA_RULES}\n"
        "- quotes: one to three short phrases copied exactly from the passages that prove the answer."
    ),
    input=QAInput,
    output=QAOutput,
    max_tokens=800,
)


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
    """Facts first, then the question: a small model that has copied one fact from each passage writes a question
    that needs both."""

    fact_from_passage_0: Quote
    """A short phrase copied exactly from passage_0 that states a fact about the topic."""
    fact_from_passage_1: Quote
    """A short phrase copied exactly from passage_1 that states another fact about the topic."""
    question: str = Field(max_length=300)
    answer: str = Field(max_length=500)

    def to_qa(self) -> QAOutput:
        quotes = [self.fact_from_passage_0, self.fact_from_passage_1]
        return QAOutput(question=self.question, answer=self.answer, quotes=quotes)


BRIDGE_QA_PROMPT = Prompt(
    name="generate.bridge_qa",
    instruction=(
        "You write one test question for a question-answering assistant, and its correct answer, that needs facts "
        "from two passages (passage_0 and passage_1) which both mention the topic.\n"
        "Steps:\n"
        "1. fact_from_passage_0: copy exactly a short phrase of passage_0 that states a fact about the topic.\n"
        "2. fact_from_passage_1: copy exactly a short phrase of passage_1 that states a different fact about the "
        "topic.\n"
        "3. question: one question that can only be answered by combining the two facts (for example, ask about "
        "both facts, or about how they relate). Name the topic in the question.\n"
        "4. answer: states both facts, in one or two sentences.\n"
        "Rules:\n"
        f"- {_QA_RULES}"
    ),
    input=BridgeQAInput,
    output=BridgeQAOutput,
    max_tokens=800,
)


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
        "asker": persona.name if persona else "a reader of these documents",
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
    prompt: Prompt[QAInput, QAOutput] = QA_PROMPT,
) -> QAOutput:
    """One LLM call: a question, its answer and supporting quotes for ``scenario`` over ``passages``."""
    data = QAInput(passages=list(passages), **asker_fields(scenario, task=task, topic=topic))
    return non_empty(await judge.structured(prompt, data))


async def write_bridge_qa(judge: Judge, scenario: Scenario, passages: Sequence[str], *, task: str,
                          topic: str) -> QAOutput:
    """One LLM call: a question over two passages, written after copying one fact about ``topic`` from each."""
    first, second = passages
    data = BridgeQAInput(passage_0=first, passage_1=second, **asker_fields(scenario, task=task, topic=topic))
    out = await judge.structured(BRIDGE_QA_PROMPT, data)
    return non_empty(out.to_qa())


def non_empty(out: QAOutput) -> QAOutput:
    if not out.question.strip() or not out.answer.strip():
        raise SkipScenario("empty_output", "the model returned an empty question or answer")
    return out


_SPACE = re.compile(r"\s+")


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


def sample_id(scenario: Scenario) -> str:
    """A stable id: the generator name and a hash of the scenario."""
    return f"{scenario.generator}-{content_key(scenario.model_dump(mode='json'))[:12]}"


def make_sample(
    gen: Any, scenario: Scenario, qa: QAOutput, contexts: list[ContextRef], **metadata: Any
) -> TestSample:
    """A complete TestSample for ``scenario``."""
    question = qa.question.strip()
    if scenario.style == "typos" and normalise_language(scenario.language) not in CJK:
        question = add_typos(question, sample_id(scenario))
    if scenario.style == "web_search" and (question.endswith(("?", "？")) or len(question.split()) > 6):
        question = search_keywords(question, scenario.language)  # small models write full questions anyway
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
        metadata={"quotes": qa.quotes, **({f"question_before_{scenario.style}": qa.question.strip()}
                                          if question != qa.question.strip() else {}), **metadata},
    )


# -- planning helpers -------------------------------------------------------------------------------


def usable_chunks(kg: KnowledgeGraph, min_tokens: int = 8) -> list[ChunkNode]:
    """Chunks with at least ``min_tokens`` words (CJK: characters), in a stable order (document path, then
    position)."""
    paths = {d.id: d.path for d in kg.documents()}
    chunks = [c for c in kg.chunks() if len(units(c.text)) >= min_tokens]
    return sorted(chunks, key=lambda c: (paths.get(c.doc_id, c.doc_id), c.index, c.id))


def spread(items: Sequence[T], key: Callable[[T], Hashable], rng: Random) -> list[T]:
    """Shuffle ``items``, then interleave them round-robin over ``key`` (e.g. the document), so no group piles up.

    Groups take turns in a shuffled order; within a group the shuffled order is kept.
    """
    groups: dict[Hashable, list[T]] = defaultdict(list)
    shuffled = list(items)
    rng.shuffle(shuffled)
    for item in shuffled:
        groups[key(item)].append(item)
    order = list(groups)
    out: list[T] = []
    depth = 0
    while len(out) < len(shuffled):
        out += [groups[k][depth] for k in order if depth < len(groups[k])]
        depth += 1
    return out


def chunk_topics(kg: KnowledgeGraph, chunk: ChunkNode) -> list[str]:
    """Things a question about ``chunk`` can be about: its named entities (people, organisations, products,
    places ...) first, then entities of unknown type, then keyphrases, then its heading."""
    entities = kg.entities_of(chunk.id)
    typed = [e.name for e in entities if e.type not in VAGUE_TYPES]
    vague = [e.name for e in entities if e.type in VAGUE_TYPES]
    if not entities:
        typed = [e.name for e in chunk.entities if e.type not in VAGUE_TYPES]
        vague = [e.name for e in chunk.entities if e.type in VAGUE_TYPES]
    topics = list(dict.fromkeys([*typed, *vague, *chunk.keyphrases]))
    if not topics and chunk.heading_path:
        topics = [chunk.heading_path[-1]]
    return topics


def entity_documents(kg: KnowledgeGraph) -> dict[str, dict[str, list[str]]]:
    """For every entity, the chunks mentioning it grouped by document (chunk ids in a stable order)."""
    out: dict[str, dict[str, list[str]]] = {}
    for entity in kg.entities():
        by_doc: dict[str, list[str]] = defaultdict(list)
        for chunk in sorted(kg.chunks_mentioning(entity.id), key=lambda c: (c.doc_id, c.index)):
            by_doc[chunk.doc_id].append(chunk.id)
        if by_doc:
            out[entity.id] = dict(by_doc)
    return out


def chunk_vectors(kg: KnowledgeGraph) -> tuple[list[str], np.ndarray | None]:
    """Ids and unit embedding rows of the chunks that have an embedding (None when no chunk has one)."""
    chunks = [c for c in usable_chunks(kg, 1) if c.embedding]
    if not chunks:
        return [], None
    matrix = np.asarray([c.embedding for c in chunks], dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return [c.id for c in chunks], matrix / np.where(norms == 0, 1.0, norms)


def related_chunks(kg: KnowledgeGraph, chunk_id: str, vectors: tuple[list[str], np.ndarray | None],
                   limit: int = 10) -> list[str]:
    """Chunks most related to ``chunk_id``: ``similar`` edges by weight, else embedding cosine, else chunks
    sharing an entity; best first."""
    found = sorted(kg.neighbours(chunk_id, "similar"), key=lambda x: -(x[1] or 0.0))
    out = [c for c, _ in found if c != chunk_id]
    ids, matrix = vectors
    if not out and matrix is not None and chunk_id in ids:
        sims = matrix @ matrix[ids.index(chunk_id)]
        out = [ids[i] for i in np.argsort(-sims) if ids[i] != chunk_id]
    if not out:
        shared = sorted(kg.neighbours(chunk_id, "shares_entity"), key=lambda x: -(x[1] or 0.0))
        out = [c for c, _ in shared if c != chunk_id]
    return list(dict.fromkeys(out))[:limit]
