"""conversational: a short chat about one topic, whose later questions lean on the earlier ones (one LLM call to
write it, then the critic's checks on every turn)."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge
from ragkit.registry import generator
from ragkit.synthesis import (
    ELLIPSIS,
    ChatOutput,
    Correction,
    Plan,
    SkipScenario,
    about_a_person,
    check_chat_quotes,
    follow_up,
    left_out,
    make_conversation,
    on_one_subject,
    passage,
    scenario_language,
    substitute,
    write_conversation,
    write_correction,
    written_chat,
)
from ragkit.text import language_matches
from ragkit.types import Scenario, TestSample

from .single_hop import plan_single


class ConversationalScenario(Scenario):
    """A chunk and the next one of its document (its neighbourhood), the topic, and how many questions."""

    topic: str | None = None
    questions: int = 3
    correction: bool = False
    """End the chat with a correction ("Sorry, I meant the Porto Plant, not the Sheffield Plant."), when the
    passages hold another thing of the same kind."""


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
    corrections: float = 0.3
    """Share of chats of three questions or more planned to end with a correction: the third turn then corrects the
    second. A correction that fails the critic cuts the chat to two turns instead of dropping it."""

    def plan(self, kg: KnowledgeGraph, n: int, rng: Random) -> Plan:
        low, high = max(2, self.min_questions), min(4, max(self.min_questions, self.max_questions))
        base = plan_single(kg, n, rng, name="conversational", min_tokens=self.min_tokens, topics_per_chunk=1)
        scenarios: list[Scenario] = []
        for s in base.scenarios:
            chunk_ids = neighbourhood(kg, s.chunk_ids[0], self.min_tokens)
            questions = rng.randint(low, high)
            correction = questions >= 3 and Random(f"correction {chunk_ids[0]}").random() < self.corrections
            scenarios.append(ConversationalScenario(
                generator="conversational", chunk_ids=chunk_ids, topic=getattr(s, "topic", None),
                questions=questions, correction=correction, language=scenario_language(kg, chunk_ids)))
        return Plan(scenarios, base.notes)

    async def generate(self, scenario: ConversationalScenario, kg: KnowledgeGraph, judge: Judge) -> TestSample:
        passages = [passage(kg, c) for c in scenario.chunk_ids]
        chat = await write_conversation(judge, scenario, passages, topic=scenario.topic or "",
                                        questions=scenario.questions)
        chat.turns = chat.turns[: scenario.questions]
        texts = [kg.chunk(c).text for c in scenario.chunk_ids]
        entities = [e for c in scenario.chunk_ids for e in kg.entities_of(c)]
        names = [e.name for e in entities]
        written = list(chat.turns)  # the checks below replace turns; a chat they drop is kept for --dropped as written
        try:
            sources = check_chat_quotes(chat, texts)  # before paying for the follow-ups
            sources, links = on_one_subject(chat, sources, names, scenario.language)
        except SkipScenario as exc:
            exc.candidate = written_chat(self, scenario, written, kg)
            raise
        people = {e.name for e in entities if e.type == "person"}
        correction = None if links[-1].asked else await self.correction(scenario, chat, links[-1].subject, kg, judge)
        follow_ups = []
        for k, (turn, link) in enumerate(zip(chat.turns[1:], links, strict=True), 1):
            if correction is not None and k == len(chat.turns) - 1:
                follow_ups.append(correction.message)
                break
            if link.asked is not None:  # asked of another thing by ellipsis: written already, no call
                follow_ups.append(link.asked)
                continue
            earlier = [t.question for t in chat.turns[:k]]
            rewritten = await self.rewrite(judge, turn.question, link.subject, earlier, scenario.language)
            if names_a_person(link.subject, people):
                rewritten = about_a_person(rewritten, scenario.language)
            follow_ups.append(rewritten)
        if correction is not None:
            chat.turns[-1] = chat.turns[-1].model_copy(update={
                "question": correction.question, "answer": correction.answer, "quote": correction.quote})
            if correction.chunk_id not in scenario.chunk_ids:  # the other thing is named in another chunk
                scenario = scenario.model_copy(update={"chunk_ids": [*scenario.chunk_ids, correction.chunk_id]})
            sources[-1] = scenario.chunk_ids.index(correction.chunk_id)
        return make_conversation(self, scenario, chat, follow_ups, kg, sources,
                                 correction_turn=len(chat.turns) if correction else None)

    async def rewrite(self, judge: Judge, question: str, subject: str, earlier: list[str], language: str) -> str:
        """``question`` as the chat's next turn: Korean and Japanese leave the subject out (no call; on corpora/ko
        the rewrite call's every reply lost words or kept the name); other languages ask for a pronoun in one
        short call, and replace the name instead when the rewrite lost words of the question, kept the name, or is
        not in the chat's language (on corpora/zh the 1.5B model once gave an English sentence for a Chinese
        turn)."""
        if language[:2] in ELLIPSIS:
            return substitute(question, subject, language)
        rewritten = await follow_up(judge, question, subject)
        leans, lost = left_out(rewritten, question, earlier)
        if lost or not leans or not language_matches(language, rewritten):
            return substitute(question, subject, language)
        return rewritten

    async def correction(self, scenario: ConversationalScenario, chat: ChatOutput, subject: str,
                         kg: KnowledgeGraph, judge: Judge) -> Correction | None:
        """The last turn as a correction of the one before, when planned and possible: ``subject``, what the last
        standalone question shares with the ones before it (``on_one_subject``), swapped for another entity of the
        same kind (one call answers it)."""
        if not scenario.correction or len(chat.turns) < 3:
            return None
        return await write_correction(judge, kg, scenario.chunk_ids, question=chat.turns[-2].question,
                                      answered=chat.turns[-2].answer, subject=subject, language=scenario.language)
