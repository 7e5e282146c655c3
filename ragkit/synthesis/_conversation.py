"""Conversations: the prompt that writes a short chat from passages, the candidate it makes, and its turns.

A conversational generator makes one candidate per conversation: the sample of its last turn, whose ``history``
holds the earlier turns with their own references (``make_conversation``). The critic reviews it whole, and the
run counts it as one sample; ``conversation_turns`` then writes it out as one sample per turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge, Prompt
from ragkit.synthesis._phrasing import language_instruction, style_instruction
from ragkit.synthesis._scenarios import SkipScenario, generator_spec, sample_id
from ragkit.synthesis._writer import Quote, context_refs, found_quotes, quote_source
from ragkit.types import Conversation, Scenario, TestSample, Turn


class ChatInput(BaseModel):
    passages: list[str]
    topic: str
    asker: str
    question_style: str
    questions: int
    language: str


class ChatTurn(BaseModel):
    question: str = Field(max_length=300)
    answer: str = Field(max_length=400)
    quote: Quote
    """A short phrase copied exactly from the passages that proves the answer."""


class ChatOutput(BaseModel):
    turns: list[ChatTurn] = Field(min_length=2, max_length=4)


CHAT_PROMPT = Prompt(
    name="generate.conversation",
    instruction=(
        "You write a short chat between a user and a question-answering assistant, from the numbered passages: "
        "the user asks the given number of questions about the topic, one after another, and each gets its "
        "correct answer.\n"
        "Rules:\n"
        "- The first question names the topic, so that someone who has not seen the passages understands it. "
        "Never say 'the passage', 'the text' or 'the document'.\n"
        "- Every later question follows on from the chat, the way people talk: instead of naming the topic again "
        "it points back to it ('it', 'they', 'there', 'that one') or leaves words out ('And the price?'). Read "
        "alone it would be unclear; after the earlier questions it is clear.\n"
        "- Each question asks about a different fact that the passages state. Write the first question in the "
        "question_style; the asker only shapes the wording.\n"
        "- Each answer uses only facts stated in the passages, in one sentence.\n"
        "- quote: a short phrase copied exactly from the passages that proves that answer.\n"
        "- Follow the language rule for every question and answer."
    ),
    input=ChatInput,
    output=ChatOutput,
    max_tokens=900,
)


async def write_conversation(judge: Judge, scenario: Scenario, passages: Sequence[str], *, topic: str,
                             questions: int) -> ChatOutput:
    """One LLM call: a chat of ``questions`` questions (the model may write 2 to 4) about ``topic``."""
    persona = scenario.persona
    data = ChatInput(
        passages=list(passages), topic=topic or "(an important subject of the passages)",
        asker=persona.name if persona else "a reader of these documents",
        question_style=style_instruction(scenario.style, scenario.length, scenario.language),
        questions=questions, language=language_instruction(scenario.language))
    out = await judge.structured(CHAT_PROMPT, data)
    if any(not t.question.strip() or not t.answer.strip() for t in out.turns):
        raise SkipScenario("empty_output", "the model returned an empty question or answer")
    return out


def make_conversation(gen: Any, scenario: Scenario, chat: ChatOutput, kg: KnowledgeGraph,
                      passages: Sequence[str], *, goal: str | None = None) -> TestSample:
    """The candidate: the last turn's sample, with the earlier turns in its history. Each turn's reference
    contexts are the chunks its quote is found in; a turn whose quote is in none is dropped with the candidate."""
    turns: list[Turn] = []
    quotes: list[str] = []
    for k, t in enumerate(chat.turns, 1):
        source = quote_source(t.quote, passages)
        if source is None:
            raise SkipScenario("quote_not_in_context", f"turn {k}: its quote is not in the passages")
        turns.append(Turn(question=t.question.strip(), reference_answer=t.answer.strip(),
                          reference_contexts=context_refs(kg, [scenario.chunk_ids[source]])))
        quotes += found_quotes([t.quote], list(passages))
    last = turns[-1]
    sid = sample_id(scenario)
    return TestSample(
        id=sid, question=last.question, reference_answer=last.reference_answer,
        reference_contexts=last.reference_contexts, generator=generator_spec(gen),
        scenario=scenario.model_dump(mode="json"), persona=scenario.persona.name if scenario.persona else None,
        style=scenario.style, length=scenario.length, language=scenario.language,
        conversation=Conversation(id=sid, turn=len(turns), goal=goal), history=turns[:-1],
        metadata={"quotes": quotes},
    )


def turn_sample(sample: TestSample, k: int) -> TestSample:
    """Turn ``k`` (from 1) of a conversation candidate as a sample of its own: its question, references and
    history, the conversation's generator, persona, style and language."""
    assert sample.conversation is not None
    if k == sample.conversation.turn:
        return sample.model_copy(update={"id": f"{sample.conversation.id}-t{k}"})
    turn = sample.history[k - 1]
    return sample.model_copy(update={
        "id": f"{sample.conversation.id}-t{k}", "question": turn.question,
        "reference_answer": turn.reference_answer, "reference_contexts": turn.reference_contexts,
        "conversation": sample.conversation.model_copy(update={"turn": k}), "history": sample.history[:k - 1],
        "metadata": {key: v for key, v in sample.metadata.items() if key != "critic"},
    })


def conversation_turns(sample: TestSample) -> list[TestSample]:
    """A kept sample as the samples it is written as: itself, or each turn of a conversation."""
    if sample.conversation is None:
        return [sample]
    return [turn_sample(sample, k) for k in range(1, sample.conversation.turn + 1)]
