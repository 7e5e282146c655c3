"""Knowledge graph to test set: the generation runner, scenario helpers for generators, phrasing,
personas and the critic."""

from __future__ import annotations

from ragkit.synthesis._conversation import (
    ChatOutput,
    check_chat_quotes,
    conversation_turns,
    make_conversation,
    on_one_subject,
    write_conversation,
    written_chat,
)
from ragkit.synthesis._correction import Correction, write_correction
from ragkit.synthesis._facts import headings_of, write_bridge_qa, write_comparison_qa
from ragkit.synthesis._follow_up import ELLIPSIS, about_a_person, follow_up, left_out, shared_subject, substitute
from ragkit.synthesis._generate import GenerateOptions, check_options, generate, generate_sync
from ragkit.synthesis._personas import load_personas
from ragkit.synthesis._result import DEFAULT_DISTRIBUTION, GenerationResult
from ragkit.synthesis._scenarios import (
    VAGUE_TYPES,
    Plan,
    SkipScenario,
    chunk_topics,
    chunk_vectors,
    entity_documents,
    related_chunks,
    same_kind,
    scenario_language,
    spread,
    usable_chunks,
)
from ragkit.synthesis._writer import (
    QUESTION_CHARS,
    QAOutput,
    check_quotes,
    context_refs,
    make_sample,
    passage,
    write_qa,
    write_question,
)

__all__ = [
    "ChatOutput",
    "Correction",
    "DEFAULT_DISTRIBUTION",
    "ELLIPSIS",
    "GenerateOptions",
    "GenerationResult",
    "Plan",
    "QAOutput",
    "QUESTION_CHARS",
    "SkipScenario",
    "VAGUE_TYPES",
    "about_a_person",
    "check_chat_quotes",
    "check_options",
    "check_quotes",
    "chunk_topics",
    "chunk_vectors",
    "context_refs",
    "conversation_turns",
    "entity_documents",
    "follow_up",
    "generate",
    "generate_sync",
    "headings_of",
    "left_out",
    "load_personas",
    "make_conversation",
    "make_sample",
    "on_one_subject",
    "passage",
    "related_chunks",
    "same_kind",
    "scenario_language",
    "shared_subject",
    "spread",
    "substitute",
    "usable_chunks",
    "write_bridge_qa",
    "write_comparison_qa",
    "write_conversation",
    "write_correction",
    "write_qa",
    "write_question",
    "written_chat",
]
