"""The critic's first checks, of the text as written, and the verdict every check gives."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ragkit.synthesis._checks import addresses, first_person, loops, stray_script
from ragkit.text import UNDETERMINED, language_matches, normalise_language
from ragkit.types import TestSample


@dataclass
class Verdict:
    """The critic's decision on one candidate: ``reason`` is the drop reason when ``ok`` is False."""

    ok: bool
    reason: str | None = None
    detail: str = ""
    checks: dict[str, Any] = field(default_factory=dict)
    kept: TestSample | None = None
    """What to keep instead of the candidate, when the critic kept part of it (a conversation's first turns)."""


def written_checks(sample: TestSample) -> Verdict:
    """The question and answer as written: in the sample's language, with no stray script, no loop, and no
    first-person voice copied from the source."""
    lang = normalise_language(sample.language or UNDETERMINED)
    answer = sample.reference_answer or ""
    for name, text in (("question", sample.question), ("answer", answer)):
        if not language_matches(lang, text):
            return Verdict(False, "wrong_language", f"the {name} is not in {lang}: {text[:80]!r}")
        stray = stray_script(text, lang, [r.text for r in sample.reference_contexts])
        if stray:
            return Verdict(False, "wrong_language", f"the {name} has {stray[:10]!r}, which is not {lang} "
                           f"and not in its contexts: {text[:80]!r}")
        if loops(text):
            return Verdict(False, "repeated_text", f"the {name} repeats itself: {text[:80]!r}")
    if addresses(sample.question, sample.persona):
        return Verdict(False, "addresses_persona", f"the question speaks to its own asker, {sample.persona!r}: "
                       f"{sample.question[:80]!r}")
    if lang == "en" and first_person(answer, sample.question):
        return Verdict(False, "first_person_answer", f"the answer speaks as its source's author: "
                       f"{answer[:80]!r}")
    return Verdict(True)


def written_forms(sample: TestSample) -> list[str]:
    """The question as kept and as the writer wrote it: typos ('the pasage') and search keywords are added after
    writing, and must not hide a pointer from the patterns, nor a repeat from the duplicate check."""
    before = [v for k, v in sample.metadata.items() if k.startswith("question_before_") and isinstance(v, str)]
    return list(dict.fromkeys([sample.question, *before]))
