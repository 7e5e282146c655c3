"""conversational: a short chat about one topic, whose later questions lean on the earlier ones (one LLM call to
write it, then the critic's checks on every turn)."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    Plan,
    about_a_person,
    check_chat_quotes,
    follow_up,
    left_out,
    make_conversation,
    passage,
    scenario_language,
    shared_subject,
    substitute,
    write_conversation,
)
from ragkit.types import Scenario, TestSample

from .single_hop import plan_single


class ConversationalScenario(Scenario):
    """A chunk and the next one of its document (its neighbourhood), the topic, and how many questions."""

    topic: str | None = None
    questions: int = 3


def neighbourhood(kg: KnowledgeGraph, chunk_id: str, min_tokens: int) -> list[str]:
    """The chunk and the one after it in its document (else the one before), when that has text enough."""
    chunk = kg.chunk(chunk_id)
    siblings = sorted(kg.chunks_of(chunk.doc_id), key=lambda c: c.index)
    near = [c for c in siblings if abs(c.index - chunk.index) == 1 and c.tokens >= min_tokens]
    near.sort(key=lambda c: c.index < chunk.index)  # the next chunk first
    return [chunk_id, *(c.id for c in near[:1])]


def names_a_person(subject: str, people: set[str]) -> bool:
    """Whether the chat's shared subject is one of the graph's people, by its whole name: a part of a longer
    subject is not enough (jieba tags "青岚" a person's name inside "青岚茶业"; spaCy finds "Max" in "Max
    payload")."""
    return subject.strip().lower() in {name.strip().lower() for name in people}


@generator(calls=8.0)
@dataclass(frozen=True)
class Conversational:
    """A chat of 2 to 4 questions about one topic of a chunk and its neighbour; each later question points back
    to the earlier ones ("and how many people work there?"), and each turn has its own reference."""

    min_tokens: int = 20
    """Chunks with fewer words (CJK: characters) are not talked about: a chat needs two or three facts."""
    min_questions: int = 2
    max_questions: int = 3

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        low, high = max(2, self.min_questions), min(4, max(self.min_questions, self.max_questions))
        base = plan_single(kg, n, rng, name="conversational", min_tokens=self.min_tokens, topics_per_chunk=1)
        scenarios: list[Scenario] = []
        for s in base.scenarios:
            chunk_ids = neighbourhood(kg, s.chunk_ids[0], self.min_tokens)
            scenarios.append(ConversationalScenario(
                generator="conversational", chunk_ids=chunk_ids, topic=getattr(s, "topic", None),
                questions=rng.randint(low, high), language=scenario_language(kg, chunk_ids)))
        return Plan(scenarios, base.notes)

    async def generate(self, scenario: ConversationalScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        passages = [passage(kg, c) for c in scenario.chunk_ids]
        chat = await write_conversation(judge, scenario, passages, topic=scenario.topic or "",
                                        questions=scenario.questions)
        chat.turns = chat.turns[: scenario.questions]
        texts = [kg.chunk(c).text for c in scenario.chunk_ids]
        sources = check_chat_quotes(chat, texts)  # before paying for the follow-ups
        entities = [e for c in scenario.chunk_ids for e in kg.entities_of(c)]
        names = [e.name for e in entities]
        people = {e.name for e in entities if e.type == "person"}
        follow_ups = []
        for k, turn in enumerate(chat.turns[1:], 1):
            earlier = [t.question for t in chat.turns[:k]]
            subject = shared_subject(earlier, turn.question, names)
            if subject is None:  # no name shared with the earlier questions: no follow-up (the critic drops it)
                follow_ups.append(turn.question)
                continue
            rewritten = await follow_up(judge, turn.question, subject)
            leans, lost = left_out(rewritten, turn.question, earlier)
            if lost or not leans:  # the rewrite changed the question, or kept the name: replace the name only
                rewritten = substitute(turn.question, subject, scenario.language)
            if names_a_person(subject, people):
                rewritten = about_a_person(rewritten, scenario.language)
            follow_ups.append(rewritten)
        return make_conversation(self, scenario, chat, follow_ups, kg, sources)
