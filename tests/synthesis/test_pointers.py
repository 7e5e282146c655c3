"""A question's pointer at its source: an idiom is no pointer, and one that only opens or ends a question that
names its subject is left out of the question as written, so the candidate is not dropped for it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generators"))
from kg_builder import BAKERY, build_graph, default_script, qa_reply  # noqa: E402

from ragkit.llm._embeddings import Embeddings  # noqa: E402
from ragkit.synthesis import GenerateOptions, generate  # noqa: E402
from ragkit.synthesis._pointers import mentions_context, without_pointer  # noqa: E402
from ragkit.testing import ScriptedJudge  # noqa: E402


@pytest.mark.parametrize(("question", "mentions"), [
    ("What is the difference between '1st' and '2nd' in the context of numerals?", False),  # "as to numerals"
    ("What is the purpose of the inflect.py library in the context of word representation?", False),
    ("What does the reply say in the given context?", True),
    ("Which contexts are retrieved, according to the context?", True),
    ("passage [0] 中提到的「东西」是什么意思？", True),  # the prompt's label of a passage, in any language
    ("What does passage_1 say about Acme's York plant?", True),
])
def test_what_points_at_the_source_and_what_does_not(question: str, mentions: bool) -> None:
    assert mentions_context(question) is mentions


@pytest.mark.parametrize(("question", "language", "asked"), [
    ("What is the purpose of the `xmltodict.parse()` function in the given passage?", "en",
     "What is the purpose of the `xmltodict.parse()` function?"),
    ("What is the purpose of the PathSpec class in the passage?", "en", "What is the purpose of the PathSpec class?"),
    ("According to the text, when did the Leeds bakery open?", "en", "When did the Leeds bakery open?"),
    ("How many staff did Acme have in 2021, based on the excerpt above?", "en",
     "How many staff did Acme have in 2021?"),
    ("根据上文，青岚茶业成立于哪一年？", "zh", "青岚茶业成立于哪一年？"),
    ("本文によると、あおい食堂はいつ開店しましたか？", "ja", "あおい食堂はいつ開店しましたか？"),
    ("본문에 따르면 한결전자는 언제 설립되었습니까?", "ko", "한결전자는 언제 설립되었습니까?"),
])
def test_a_pointer_that_only_opens_or_ends_a_question_is_left_out(question: str, language: str, asked: str) -> None:
    assert without_pointer(question, language) == asked
    assert mentions_context(question) and not mentions_context(asked)


@pytest.mark.parametrize("question", [
    "What is the word for zero in the passage about converting numbers to words?",  # the pointer holds the topic
    "What extra dependencies are mentioned in the passage?",  # "mentioned" where, without it?
    "What is the main idea of the text?",
    "What does the function return in the given passage?",  # names nothing once the pointer goes
    "What is the maximum index of the vector in the example?",  # the example's own vector: no answer without it
])
def test_a_pointer_that_holds_part_of_the_question_stays(question: str) -> None:
    assert without_pointer(question, "en") == question and mentions_context(question)


async def test_a_writers_question_ending_at_the_passage_is_kept_without_it() -> None:
    emb = Embeddings(cache=False)
    kg = build_graph({k: v for k, v in BAKERY.items() if k == "company.md"}, emb)

    def script(call):
        if call.prompt_name == "generate.qa":
            reply = qa_reply(call.data)
            return {**reply, "question": reply["question"].rstrip("?") + " in the given passage?"}
        return default_script(call)

    options = GenerateOptions(progress=False, seed=1, distribution={"single_hop": 1.0})
    result = await generate(kg, 2, options, judge=ScriptedJudge(script), embeddings=emb)
    assert len(result.samples) == 2 and not result.report["single_hop"].dropped
    assert all("passage" not in s.question for s in result.samples), [s.question for s in result.samples]
