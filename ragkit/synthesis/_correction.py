"""Corrections: a chat that ends with the user saying they meant another thing ("Sorry, I meant the Porto Plant,
not the Sheffield Plant."). The turn says no question at all: the question is the one before it, asked about the
other thing, and a system that does not read the history cannot know it.

The other thing is a graph entity of the same type as the one the chat is about and plainly of the same kind
("Heron H7" after "Heron H6", "Porto Plant" after "Sheffield Plant"), first among the chat's own passages, then
anywhere in the graph. The corrected question is the previous turn's standalone question with the name swapped; one
call answers it from the passages that mention the other thing and quotes the words that prove it. No such entity,
no answer in the passages, or the same answer as before: no correction, and the chat is kept as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from ragkit.kg import EntityNode, KnowledgeGraph
from ragkit.llm import Judge, Prompt
from ragkit.synthesis._phrasing import language_instruction
from ragkit.synthesis._scenarios import VAGUE_TYPES, same_kind
from ragkit.synthesis._writer import Quote, passage, quote_source
from ragkit.text import normalise, normalise_language


class CorrectedInput(BaseModel):
    passages: list[str]
    question: str
    language: str


class CorrectedOutput(BaseModel):
    answer: str = Field(max_length=400)
    """The answer in one sentence, from the passages only; empty when they do not answer it."""
    quote: Quote
    """A short phrase copied exactly from the passages that proves the answer."""


CORRECTED_PROMPT = Prompt(
    name="generate.correction",
    instruction=(
        "Answer the question from the numbered passages only.\n"
        "1. answer: the answer in one sentence, with the names, numbers and dates exactly as the passages give "
        "them. If the passages do not answer the question, write an empty string.\n"
        "2. quote: a short phrase copied exactly from the passages that proves the answer.\n"
        "Follow the language rule."
    ),
    input=CorrectedInput,
    output=CorrectedOutput,
    max_tokens=250,
)

_MESSAGES = {
    "en": "Sorry, I meant {new}, not {old}.",
    "zh": "不好意思，我问的是{new}，不是{old}。",
    "ja": "すみません、{old}ではなく{new}のことです。",
    "ko": "죄송해요, {old} 말고 {new} 말이었어요.",
}


@dataclass(frozen=True)
class Correction:
    """The turn that ends a chat with a correction: what the user types, the question it stands for, its answer,
    and the chunk its quote was found in."""

    message: str
    question: str
    answer: str
    quote: str
    chunk_id: str


def subject_entity(subject: str, entities: Sequence[EntityNode]) -> EntityNode | None:
    """The entity the chat's subject names: the longest typed one of ``entities`` it holds. None when it holds
    none, or when the subject is more than twice that entity's length (a shared stretch of two CJK questions rather
    than a name: "新建的加工厂有哪些新设备")."""
    low = subject.lower()
    held = [e for e in entities if e.type not in VAGUE_TYPES and len(e.name) >= 2 and e.name.lower() in low]
    entity = max(held, key=lambda e: len(e.name)) if held else None
    return entity if entity is not None and len(subject) <= 2 * len(entity.name) else None


def other_subject(subject: str, entity: EntityNode, candidates: Sequence[EntityNode],
                  said: str) -> tuple[str, EntityNode] | None:
    """The chat's subject with ``entity`` (see ``subject_entity``) swapped for another, and that other entity:
    ("Porto Plant", Porto) for "Sheffield Plant". The other is the first of ``candidates``, neither holding nor held
    by the subject, that is plainly of the same kind (a tagger's types are often wrong: "Heron H7" a person):
    ``same_kind`` by name, or of the same type with the swapped subject in ``said``, the texts that mention the
    other ("Porto Plant", when the subject keeps words around its entity). None when there is none."""
    low = subject.lower()
    start = low.index(entity.name.lower())
    for other in candidates:
        name = other.name.strip()
        if len(name) < 2 or any(x in y for x, y in ((name.lower(), low), (low, name.lower()),
                                                    (entity.name.lower(), name.lower()))):
            continue  # the subject itself, or a narrower name of it ("余杭加工厂" for "加工厂")
        swapped = subject[:start] + name + subject[start + len(entity.name):]
        said_so = other.type == entity.type and swapped != name and swapped.lower() in said.lower()
        if same_kind(name, entity.name) or said_so:
            return swapped, other
    return None


def correction_message(old: str, new: str, language: str) -> str:
    """What the user types to correct themselves, in the chat's language (English for one without a form)."""
    template = _MESSAGES.get(normalise_language(language)[:2], _MESSAGES["en"])
    return template.format(old=old, new=new)


def swapped(question: str, old: str, new: str) -> str | None:
    """``question`` with ``old`` (any case) replaced by ``new`` once; None when it does not name ``old``."""
    out, n = re.subn(re.escape(old), lambda _: new, question, count=1, flags=re.IGNORECASE)
    return out if n else None


def _other(kg: KnowledgeGraph, chunk_ids: Sequence[str], subject: str) -> tuple[str, list[str]] | None:
    """The swapped subject and the chunks to answer it from: the chat's own when they mention the other thing,
    else (the first two) that mention it anywhere in the graph: one of the same kind by name first, then one of
    the same type whose chunks say the swapped subject (only those chunks' texts are read)."""
    here = [e for c in chunk_ids for e in kg.entities_of(c)]
    entity = subject_entity(subject, here)
    if entity is None:
        return None
    found = other_subject(subject, entity, here, " ".join(kg.chunk(c).text for c in chunk_ids))
    if found is not None:
        return found[0], [c for c in chunk_ids if any(e.id == found[1].id for e in kg.entities_of(c))]
    found = other_subject(subject, entity, kg.entities(), "")
    if found is not None:
        return found[0], [c.id for c in kg.chunks_mentioning(found[1].id)[:2]]
    for other in (e for e in kg.entities() if e.type == entity.type):
        chunks = [c.id for c in kg.chunks_mentioning(other.id)[:2]]
        found = other_subject(subject, entity, [other], " ".join(kg.chunk(c).text for c in chunks))
        if found is not None:
            return found[0], chunks
    return None


async def write_correction(judge: Judge, kg: KnowledgeGraph, chunk_ids: Sequence[str], *, question: str,
                           answered: str, subject: str, language: str) -> Correction | None:
    """A correction of ``question`` (the previous turn's standalone question, about ``subject``, whose answer was
    ``answered``, in the chat over ``chunk_ids``): the same question about another entity, answered in one call
    from the chunks that mention it. None when there is no such entity, the question does not name the subject,
    the chunks do not answer it, the quote is in none of them, or the answer is the one the question had."""
    found = _other(kg, chunk_ids, subject)
    corrected = swapped(question, subject, found[0]) if found else None
    if found is None or corrected is None:
        return None
    chunks = found[1]
    out = await judge.structured(CORRECTED_PROMPT, CorrectedInput(
        passages=[passage(kg, c) for c in chunks], question=corrected, language=language_instruction(language)))
    source = quote_source(out.quote, [kg.chunk(c).text for c in chunks]) if out.answer.strip() else None
    if source is None or normalise(out.answer) == normalise(answered):
        return None  # unanswered, or the same answer as before: nothing a correction would test
    return Correction(message=correction_message(subject, found[0], language), question=corrected,
                      answer=out.answer.strip(), quote=out.quote, chunk_id=chunks[source])
