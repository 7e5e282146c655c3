"""unanswerable: a plausible, on-topic question that the corpus does not answer; the reference answer says so.

Small models asked to invent a question "whose answer is not in the text" mostly write answerable ones, so the
question is built from one they do well: a factual question about entity A, written from a chunk about A, is
turned into the same question about entity B of the same type (two products, two plants, two people). The critic
then checks it against B's chunk and the graph chunks nearest to the new question, and drops it as
``answerable`` when they answer it after all. Samples carry ``metadata["answerable"] = False``; the reference
answer is a fixed refusal in the chunk language; the reference context is B's chunk (on topic, without the
answer). Tests refusal.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    QUESTION_CHARS,
    VAGUE_TYPES,
    Plan,
    QAOutput,
    SkipScenario,
    context_refs,
    entity_documents,
    make_sample,
    passage,
    same_kind,
    scenario_language,
    write_question,
)
from ragkit.types import Scenario, TestSample

from ._shared import chunk_similarity, entities_by_type, mentioning_chunks, rank_candidates

REFUSALS = {
    "en": "The documents do not contain this information.",
    "zh": "文档中没有提供这一信息。",
    "ja": "資料にはこの情報が記載されていません。",
    "ko": "문서에는 이 정보가 없습니다.",
    "fr": "Les documents ne contiennent pas cette information.",
    "de": "Die Dokumente enthalten diese Information nicht.",
    "es": "Los documentos no contienen esta información.",
    "pt": "Os documentos não contêm esta informação.",
    "it": "I documenti non contengono questa informazione.",
    "nl": "De documenten bevatten deze informatie niet.",
    "ru": "В документах нет этой информации.",
}
"""The reference answer, by language."""


class UnanswerableScenario(Scenario):
    """Ask about ``topic`` (entity B, whose chunk is ``chunk_ids[0]``) what ``source_chunk`` says about
    ``pattern`` (entity A)."""

    topic: str
    pattern: str
    source_chunk: str


@generator(answerable=False)
@dataclass(frozen=True)
class Unanswerable:
    """An on-topic question the corpus does not answer: a real question about one entity, asked of another."""

    max_entities_per_type: int = 40

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        ent_docs = entity_documents(kg)
        similarity = chunk_similarity(kg)
        candidates = []
        for a, b, kin in self._pairs(kg, sorted(ent_docs), rng):
            source = [c for c in mentioning_chunks(ent_docs, a) if b not in _mentioned(kg, c)]
            target = [c for c in mentioning_chunks(ent_docs, b) if a not in _mentioned(kg, c)]
            if not source or not target:
                continue
            src, dst = rng.choice(source), rng.choice(target)
            lang = scenario_language(kg, [src])
            if lang not in REFUSALS or scenario_language(kg, [dst]) != lang:
                continue
            # a pair plainly of one kind by name first ("Porto Plant" for "Sheffield Plant"): a tagger's types
            # alone pair "npm cache clean" with "API" and a person with a department
            candidates.append((2.0 * kin + similarity(src, dst, rng), a, b, src, dst, lang))
        if not candidates:
            return Plan([], ["unanswerable questions ask about one named entity what the corpus says about another "
                             "of the same type; no two such entities (with their own chunks, in a language with a "
                             f"refusal text: {', '.join(sorted(REFUSALS))}) were found"])
        # entities of the same kind, in similar contexts, first; documents taking turns
        ordered = rank_candidates(candidates, n, similarity=lambda c: c[0], group=lambda c: kg.chunk(c[4]).doc_id,
                                  floor=40, rng=rng)
        used: set[str] = set()
        scenarios: list[Scenario] = []
        for _, a, b, src, dst, lang in ordered:
            if b in used:
                continue
            used.add(b)
            scenarios.append(UnanswerableScenario(
                generator="unanswerable", chunk_ids=[dst], topic=kg.entity(b).name, pattern=kg.entity(a).name,
                source_chunk=src, language=lang))
        notes = [] if len(scenarios) >= n else [f"only {len(scenarios)} entities to ask unanswerable questions about"]
        return Plan(scenarios[:n], notes)

    def _pairs(self, kg: KnowledgeGraph, entity_ids: list[str], rng: Random) -> list[tuple[str, str, bool]]:
        """(asked about, asked of, plainly of one kind by name): two entities of one type, or of one kind by name
        whatever their types (a tagger calls "Heron H7" a person), never one thing by two names (asked of the
        other, the question is answered: "西湖区" and "杭州西湖区")."""
        by_type = entities_by_type(kg, entity_ids, lambda kind, entity: kind not in VAGUE_TYPES
                                   and len(entity.name) >= 2)
        pairs: set[tuple[str, str]] = set()
        for _, members in sorted(by_type.items()):
            rng.shuffle(members)
            pairs.update(itertools.permutations(members[: self.max_entities_per_type], 2))
        name = {e: kg.entity(e).name for members in by_type.values() for e in members}
        kin = {(a, b) for a, b in itertools.permutations(name, 2) if same_kind(name[a], name[b])}
        return [(a, b, (a, b) in kin) for a, b in sorted(pairs | kin)
                if not _holds(name[a], name[b]) and not _holds(name[b], name[a])]

    async def generate(self, scenario: UnanswerableScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        written = await write_question(
            judge, scenario, [passage(kg, scenario.source_chunk)], topic=scenario.pattern,
            task=f"Ask about one specific fact that passage [0] states about the topic. Write the topic in the "
                 f"question exactly as '{scenario.pattern}'.",
        )
        span = find_name(scenario.pattern, written)
        if span is None:
            raise SkipScenario("topic_not_named", f"the question does not name {scenario.pattern!r}")
        question = written[:span[0]] + scenario.topic + written[span[1]:]
        if len(question) > QUESTION_CHARS:  # the other name is longer than the one the writer wrote
            raise SkipScenario("question_too_long", f"asked of {scenario.topic[:40]!r}, the question has "
                               f"{len(question)} characters, over {QUESTION_CHARS}")
        refusal = REFUSALS.get(scenario.language, REFUSALS["en"])
        out = QAOutput(question=question, answer=refusal, quotes=[])
        return make_sample(self, scenario, out, context_refs(kg, scenario.chunk_ids), answerable=False,
                           asked_of=scenario.pattern, original_question=written)


def find_name(name: str, text: str, min_score: float = 85.0) -> tuple[int, int] | None:
    """Where ``text`` names ``name``: an exact (case-insensitive) match, else, for names of four or more
    characters, a close spelling ("Heron-H6" for "Heron H6") widened to whole Latin words and still close;
    None when absent ("York" is not named by "Yorkshire")."""
    from rapidfuzz import fuzz

    exact = re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text, re.IGNORECASE)
    if exact:
        return exact.span()
    if len(name) < 4:
        return None
    found = fuzz.partial_ratio_alignment(name.lower(), text.lower())
    if found is None or found.score < min_score:
        return None
    start, end = found.dest_start, found.dest_end
    while start > 0 and text[start - 1].isascii() and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isascii() and text[end].isalnum():
        end += 1
    return (start, end) if fuzz.ratio(name.lower(), text[start:end].lower()) >= min_score else None


def _holds(name: str, other: str) -> bool:
    """Whether ``other``'s characters all appear in ``name`` in order: a narrower or shortened name of the same thing
    ("西湖区" in "杭州西湖区", "湖州安吉县" in "湖州市安吉县", "K10" in "Kestrel K10")."""
    rest = iter("".join(name.lower().split()))
    return all(ch in rest for ch in "".join(other.lower().split()))


def _mentioned(kg: KnowledgeGraph, chunk_id: str) -> set[str]:
    return {e.id for e in kg.entities_of(chunk_id)}
