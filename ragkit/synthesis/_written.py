"""The critic's first checks, of the text as written, and the verdict every check gives."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ragkit.synthesis._checks import addresses, first_person, loops, stray_script
from ragkit.text import (
    BRACKETS,
    CJK_CHAR,
    SPACED_LETTER,
    UNDETERMINED,
    english_grammar,
    language_matches,
    normalise_language,
)
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
    contexts = [r.text for r in sample.reference_contexts]
    for name, text in (("question", sample.question), ("answer", answer)):
        if not language_matches(lang, text) and not (name == "answer" and copied_command(text, contexts)):
            return Verdict(False, "wrong_language", f"the {name} is not in {lang}: {text[:80]!r}")
        stray = stray_script(text, lang, contexts)
        if stray:
            return Verdict(False, "wrong_language", f"the {name} has {stray[:10]!r}, which is not {lang} "
                           f"and not in its contexts: {text[:80]!r}")
        if loops(text):
            return Verdict(False, "repeated_text", f"the {name} repeats itself: {text[:80]!r}")
        mark = left_open(text)
        if mark:
            return Verdict(False, "cut_short", f"the {name} stops inside a {mark!r} it never closes: {text[-80:]!r}")
    if addresses(sample.question, sample.persona):
        return Verdict(False, "addresses_persona", f"the question speaks to its own asker, {sample.persona!r}: "
                       f"{sample.question[:80]!r}")
    if lang == "en" and first_person(answer, sample.question):
        return Verdict(False, "first_person_answer", f"the answer speaks as its source's author: "
                       f"{answer[:80]!r}")
    return Verdict(True)


def copied_command(answer: str, contexts: list[str]) -> bool:
    """True when ``answer`` is a command that a context gives on a line of its own, in no CJK script and with no
    English function word outside its code ("pip install pypinyin"; in "cd to/dir" the path is code): code is in
    no language, and "how do I install it?" is answered by it alone in a Chinese sample too. Sessions 59 and 67
    dropped such references as not Chinese. An English sentence copied from a bilingual README has a function word,
    and stays in the wrong language."""
    lines = _code_lines(answer)
    if not lines or any(CJK_CHAR.search(line) for line in lines):
        return False
    if any(english_grammar(line) for line in lines):
        return False
    given = {line for context in contexts for line in _code_lines(context)}
    return all(line in given for line in lines)


def _code_lines(text: str) -> list[str]:
    """The text's non-blank lines, each without the spaces and backticks around it."""
    return [bare for line in text.split("\n") if (bare := line.strip().strip("`").strip())]


def left_open(text: str) -> str | None:
    """The mark that ``text`` opens and never closes: an odd backtick, or a bracket with no closing one. A writer
    that means a quotation mark inside its JSON string ends the string there: "What is the name of the dictionary
    used by the `dict=" was the whole question, and its reply went on to the answer (session 58). Counts only:
    a closing mark with no opening one ("1) …, 2) …") is no cut."""
    if text.count("`") % 2:
        return "`"
    return next((pair[0] for pair in BRACKETS if text.count(pair[0]) > text.count(pair[1])), None)


_STATEMENT_ENDS = {
    "ko": re.compile(r"(?:니다|[었았였했있없이된한]다)[.!]?$"),
    "ja": re.compile(r"(?:です|ます|ました|でした|ません|った|した|ある|いる|なる)。$"),
    "zh": re.compile(r"。$"),
}
_ASKING = {  # question words, question endings and requests: any of them makes the text a question
    "ko": re.compile(r"무엇|뭐|어디|언제|누구|누가|어떻게|어떤|왜|몇|얼마|어느|무슨"
                     r"|인가|는가|나요|까|주세요|알려|싶|[?？]"),
    "ja": re.compile(r"何|どこ|いつ|誰|どう|なぜ|いくら|どの|どれ|どんな|か。|ください|教えて|知りたい|[?？]"),
    "zh": re.compile(r"吗|呢|什么|哪|谁|几|多少|怎么|怎样|为什么|如何|是否|请|介绍|说明|告诉|想知道|想了解|[?？]"),
}


def states(question: str, language: str) -> bool:
    """True when a Korean, Japanese or Chinese question is a statement: it ends as one ("…수행하고 있습니다.",
    "…二交替制です。", "…深表歉意。") and has no question word, question ending or request ("알고 싶습니다",
    "教えてください", "请介绍…"). The writers, asked for a question, sometimes gave a sentence of their passage or
    a statement about both things compared (session 41: 16 of 375 questions of the labelled sets and of dropped
    candidates, every one a statement). An English statement cannot be told from a request ("Explain how …")
    this way, so English is not checked."""
    ends, asking = _STATEMENT_ENDS.get(language), _ASKING.get(language)
    text = question.strip()
    return ends is not None and asking is not None and bool(ends.search(text)) and not asking.search(text)


def written_forms(sample: TestSample) -> list[str]:
    """The question as kept and as the writer wrote it: typos ('the pasage') and search keywords are added after
    writing, and must not hide a pointer from the patterns, nor a repeat from the duplicate check."""
    before = [v for k, v in sample.metadata.items() if k.startswith("question_before_") and isinstance(v, str)]
    return list(dict.fromkeys([sample.question, *before]))


def names_its_asker(sample: TestSample) -> str | None:
    """The persona's name, when a form of the question names its asker and no reference context does: the writer
    made the asker the question's subject ("What version of Python does the software engineer use?" from a
    changelog; "李四在什么情况下可以退款？", the persona call having named its personas 李四 and 王五). Nothing
    in the documents is about the asker, so no reference can answer it. A name in a CJK script is found anywhere
    (a Korean particle follows it: "이은은"), any other as whole words, in any case, a CJK particle after it included
    ("HangulPy Developer는 어떤 조사 형태를 구하는지?", session 58)."""
    name = " ".join((sample.persona or "").split())
    if not name:
        return None
    words = r"\s*".join(re.escape(w) for w in name.split())
    pattern = re.compile(words if CJK_CHAR.search(name) else rf"(?<!{SPACED_LETTER}){words}(?!{SPACED_LETTER})",
                         re.IGNORECASE)
    if any(pattern.search(q) for q in written_forms(sample)) and \
            not any(pattern.search(r.text) for r in sample.reference_contexts):
        return name
    return None

