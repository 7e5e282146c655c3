"""Conversations: the prompt that writes a short chat from passages, the candidate it makes, and its turns.

A conversational generator makes one candidate per conversation: the sample of its last turn, whose ``history``
holds the earlier turns with their own references (``make_conversation``). The critic reviews it whole, and the
run counts it as one sample; ``conversation_turns`` then writes it out as one sample per turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, Field

from ragkit.kg import KnowledgeGraph
from ragkit.llm import Judge, Prompt
from ragkit.synthesis._ellipsis import frame_follow_up
from ragkit.synthesis._follow_up import shared_subject, shared_thing
from ragkit.synthesis._phrasing import ANY_READER, asked, language_instruction, style_instruction
from ragkit.synthesis._scenarios import SkipScenario, generator_spec, sample_id
from ragkit.synthesis._writer import Quote, answer_source, context_refs, quote_source
from ragkit.text import CJK
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
    """The question standing alone: it names the topic (``follow_up`` turns it into what a chat asks)."""
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
        "correct answer. For each turn:\n"
        "1. question: a question that names the topic, so that someone who has not seen the passages understands "
        "it. Never say 'the passage', 'the text' or 'the document'. Each turn asks about a different fact that the "
        "passages state.\n"
        "2. answer: the answer, using only facts stated in the passages, in one sentence.\n"
        "3. quote: a short phrase copied exactly from the passages that proves the answer.\n"
        "Write the first question in the question_style; the asker only shapes the wording. Follow the language "
        "rule for every question and answer."
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
        asker=persona.name if persona else ANY_READER,
        question_style=style_instruction(scenario.style, scenario.length, scenario.language),
        questions=questions, language=language_instruction(scenario.language))
    out = await judge.structured(CHAT_PROMPT, data)
    if any(not t.question.strip() or not t.answer.strip() for t in out.turns):
        raise SkipScenario("empty_output", "the model returned an empty question or answer")
    name = persona.name if persona else None
    out.turns = [t.model_copy(update={"question": asked(t.question, scenario.language, name)}) for t in out.turns]
    return out


def check_chat_quotes(chat: ChatOutput, passages: Sequence[str]) -> list[int]:
    """The passage each turn's quote is found in; when the quote is in none (a paraphrase, or a title made from
    the passage's headings) but the turn's answer is copied from a passage, the answer is its quote
    (``answer_source``, the critic's rule for its own answers). A turn from the third on with neither ends the
    chat before it (two turns still make a conversation, as when the critic cuts one); SkipScenario when the first
    or second turn has neither."""
    sources = []
    for k, t in enumerate(chat.turns, 1):
        source = quote_source(t.quote, passages)
        if source is None:
            source = answer_source(t.answer, t.question, passages, quoted=bool(t.quote.strip()))
            if source is not None:
                chat.turns[k - 1] = t.model_copy(update={"quote": t.answer})
        if source is None and k > 2:
            chat.turns = chat.turns[: k - 1]
            break
        if source is None:
            raise SkipScenario("quote_not_in_context", f"turn {k}: its quote is not in the passages")
        sources.append(source)
    return sources


class Link(NamedTuple):
    """How a later turn leans on the turns kept before it: the ``subject`` it shares with them, or, when it shares
    none, the question it is asked as (``asked``): the turn before's question of another thing, by ellipsis
    (``frame_follow_up``), with ``subject`` that thing's question."""

    subject: str
    asked: str | None = None


def on_one_subject(chat: ChatOutput, sources: Sequence[int], names: Sequence[str],
                   language: str = "") -> tuple[list[int], list[Link]]:
    """Leave out each later turn that names nothing the turns kept before it named (``shared_subject``), does not
    ask what the turn before asked of another thing (``frame_follow_up``) and calls nothing "the …" that they did
    (``shared_thing``): it cannot be asked as a follow-up ("What
    does a private car cost per mile?" after a hotel's room rate), but the turns after it still can ("What is its
    reach?" after "Who makes the Heron H6?"). When no later turn leans on the first, the chat starts at the first
    turn a later one does: the writer asked about the topic once and went on to a subject of its own
    ("龙坞茶园位于哪里？", "龙坞茶园的采摘标准是什么？" after "杭州市西湖区有哪些自有茶园？").
    Those turns name nothing the first named, so they carry nothing of it, and the critic reviews the new first
    turn as any first turn. The sources of the turns kept, and how each kept later turn leans on those before it;
    SkipScenario when no two turns do."""
    for start in range(len(chat.turns) - 1):
        keep, links = _following(chat, start, names, language)
        if links:
            chat.turns = [chat.turns[i] for i in keep]
            return [sources[i] for i in keep], links
    raise SkipScenario("follow_up_stands_alone", f"turn 2: no later question names what the first one did: "
                       f"{chat.turns[1].question[:80]!r}")


def _following(chat: ChatOutput, start: int, names: Sequence[str], language: str) -> tuple[list[int], list[Link]]:
    """Turn ``start`` and the later turns that each lean on the turns kept before them, and how."""
    keep, links = [start], []
    for k in range(start + 1, len(chat.turns)):
        question = chat.turns[k].question
        earlier = [chat.turns[i].question for i in keep]
        link = _link(earlier, question, names, language)
        if link is not None:
            keep.append(k)
            links.append(link)
    return keep, links


def _link(earlier: list[str], question: str, names: Sequence[str], language: str) -> Link | None:
    """How ``question`` leans on the ``earlier`` ones, if it does. In Chinese, Japanese and Korean, a frame shared
    with the last one wins over a shared "subject" outside the thing asked about: a stretch of CJK text both
    questions have is then the frame itself ("店的负责人" of "西溪店的负责人是谁？" after "河坊街旗舰店的负责人是谁？",
    which a pronoun made "西溪它是谁？"). A subject in English is a name, and a pronoun keeps the question as asked."""
    subject = shared_subject(earlier, question, names)
    framed = frame_follow_up(earlier[-1], question, language)
    cjk = language[:2] in CJK
    if framed is not None and (subject is None or (cjk and subject.lower() not in framed[0].lower())):
        return Link(question, framed[1])
    subject = subject or shared_thing(earlier, question)
    return Link(subject) if subject is not None else None


def turn_chunks(turn: ChatTurn, source: int, passages: Sequence[str]) -> list[int]:
    """The passages a turn stands on, in order: ``source``, where its quote was found, and, when its answer is not
    in that passage, the one the answer is copied from (``answer_source``). The writer reads both passages of a
    chat, and an answer may take its facts from the one after its quote's: the launch quoted, the pack size and
    price copied from the product's highlights, which the reference check then found in no context of the turn.
    An answer found in its quote's passage adds nothing ("560元" may be in the other passage too)."""
    if quote_source(turn.answer, [passages[source]]) is not None:
        return [source]
    copied = answer_source(turn.answer, turn.question, passages, quoted=True)
    return sorted({source} | ({copied} if copied is not None else set()))


def make_conversation(gen: Any, scenario: Scenario, chat: ChatOutput, follow_ups: Sequence[str],
                      kg: KnowledgeGraph, sources: Sequence[int], *, goal: str | None = None,
                      correction_turn: int | None = None) -> TestSample:
    """The candidate: the last turn's sample, with the earlier turns in its history (the first turn asked as it
    stands, turn k as ``follow_ups[k - 2]``; the standalone forms in ``metadata["standalone_questions"]``). Each
    turn's reference contexts are the chunk its quote was found in (``sources``, from ``check_chat_quotes``) and
    the one its answer is copied from, when that is another (``turn_chunks``). ``correction_turn`` is the turn
    that corrects the one before it (``metadata["correction_turn"]``)."""
    turns: list[Turn] = []
    texts = [kg.chunk(c).text for c in scenario.chunk_ids]
    for k, (t, source) in enumerate(zip(chat.turns, sources, strict=True), 1):
        asked = t.question if k == 1 else follow_ups[k - 2]
        chunks = [scenario.chunk_ids[i] for i in turn_chunks(t, source, texts)]
        turns.append(Turn(question=asked.strip(), reference_answer=t.answer.strip(),
                          reference_contexts=context_refs(kg, chunks)))
    quotes = [t.quote for t in chat.turns]  # each found in its passage by check_chat_quotes
    return _chat_sample(gen, scenario, turns, goal=goal, metadata={
        "quotes": quotes, "standalone_questions": [t.question.strip() for t in chat.turns],
        **({"correction_turn": correction_turn} if correction_turn else {})})


def written_chat(gen: Any, scenario: Scenario, written: Sequence[ChatTurn], kg: KnowledgeGraph) -> TestSample:
    """A chat as its writer wrote it (``written``, its turns before any check), for the record of a chat dropped
    before it became a candidate (``SkipScenario.candidate``): each turn's standalone question and answer, on every
    passage the writer read."""
    contexts = context_refs(kg, list(scenario.chunk_ids))
    turns = [Turn(question=t.question.strip(), reference_answer=t.answer.strip(), reference_contexts=contexts)
             for t in written]
    return _chat_sample(gen, scenario, turns, metadata={"quotes": [t.quote for t in written], "as_written": True})


def _chat_sample(gen: Any, scenario: Scenario, turns: list[Turn], *, metadata: dict[str, Any],
                 goal: str | None = None) -> TestSample:
    """The sample of a chat's last turn, with the earlier turns in its history."""
    last, sid = turns[-1], sample_id(scenario)
    return TestSample(
        id=sid, question=last.question, reference_answer=last.reference_answer,
        reference_contexts=last.reference_contexts, generator=generator_spec(gen),
        scenario=scenario.model_dump(mode="json"), persona=scenario.persona.name if scenario.persona else None,
        style=scenario.style, length=scenario.length, language=scenario.language,
        conversation=Conversation(id=sid, turn=len(turns), goal=goal), history=turns[:-1], metadata=metadata,
    )


def turn_sample(sample: TestSample, k: int) -> TestSample:
    """Turn ``k`` (from 1) of a conversation candidate as a sample of its own: its question, references and
    history, the conversation's generator, persona, style and language."""
    assert sample.conversation is not None
    if k == sample.conversation.turn:
        critic = {"critic": sample.metadata["critic"]} if "critic" in sample.metadata else {}
        return sample.model_copy(update={"id": f"{sample.conversation.id}-t{k}",
                                         "metadata": {**turn_metadata(sample.metadata, k), **critic}})
    turn = sample.history[k - 1]
    return sample.model_copy(update={
        "id": f"{sample.conversation.id}-t{k}", "question": turn.question,
        "reference_answer": turn.reference_answer, "reference_contexts": turn.reference_contexts,
        "conversation": sample.conversation.model_copy(update={"turn": k}), "history": sample.history[:k - 1],
        "metadata": turn_metadata(sample.metadata, k),
    })


def turn_metadata(metadata: dict[str, Any], k: int) -> dict[str, Any]:
    """A turn's share of the conversation's metadata: its standalone question, not the others' or the critic's."""
    out = {key: v for key, v in metadata.items() if key not in ("critic", "standalone_questions")}
    standalone = metadata.get("standalone_questions") or []
    if k <= len(standalone):
        out["standalone_question"] = standalone[k - 1]
    return out


def shortened(sample: TestSample, k: int) -> TestSample:
    """A conversation candidate cut after turn ``k``: turn k is its last, the conversation keeps its id."""
    assert sample.conversation is not None
    last = turn_sample(sample, k)
    metadata = {**sample.metadata, "standalone_questions": sample.metadata.get("standalone_questions", [])[:k],
                "turns_written": sample.conversation.turn}
    return last.model_copy(update={"id": sample.id, "metadata": metadata})


def without_second(sample: TestSample) -> TestSample:
    """A conversation candidate of three turns or more as its first and third turns: the third is turn 2 now, with
    the first alone as its history (what the critic reviews when the second turn failed)."""
    assert sample.conversation is not None
    written = sample.conversation.turn
    third = shortened(sample, 3) if written > 3 else sample
    assert third.conversation is not None
    metadata = {key: v for key, v in third.metadata.items() if key != "correction_turn"}
    for key in ("standalone_questions", "quotes"):
        if len(values := third.metadata.get(key) or []) >= 3:
            metadata[key] = [values[0], values[2]]
    metadata.update(turns_written=written, left_out_turn=2)
    return third.model_copy(update={"history": third.history[:1], "metadata": metadata,
                                    "conversation": third.conversation.model_copy(update={"turn": 2})})


def conversation_turns(sample: TestSample) -> list[TestSample]:
    """A kept sample as the samples it is written as: itself, or each turn of a conversation."""
    if sample.conversation is None:
        return [sample]
    total = sample.conversation.turn
    whole = sample.model_copy(update={"conversation": sample.conversation.model_copy(update={"turns": total})})
    return [turn_sample(whole, k) for k in range(1, total + 1)]
