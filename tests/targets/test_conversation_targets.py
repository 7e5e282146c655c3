"""Targets in a conversation: turns asked in order, each with the conversation so far (the target's own earlier
replies, or the references where it has none); every adapter's way of taking the history; a target with no place
for it says so on the answer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from ragkit.pipeline import run_target
from ragkit.targets._baseline import BaselineRag, usable_rewrite
from ragkit.targets._frameworks import NO_HISTORY, FrameworkTarget
from ragkit.targets._target import CallableTarget
from ragkit.testing import ScriptedJudge
from ragkit.types import Conversation, EvalSample, RagResponse, TestSample, Turn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_target import tiny_graph  # noqa: E402  (the baseline's graph)

QUESTIONS = ["Which plant builds the Wren W300?", "How many people work there?", "When did it open?"]
REFERENCES = ["The Porto plant.", "180 people.", "In 2021."]


def turns(cid: str = "c1") -> list[TestSample]:
    out, history = [], []
    for k, (q, ref) in enumerate(zip(QUESTIONS, REFERENCES, strict=True), 1):
        out.append(TestSample(id=f"{cid}-t{k}", question=q, reference_answer=ref,
                              conversation=Conversation(id=cid, turn=k), history=list(history)))
        history.append(Turn(question=q, reference_answer=ref))
    return out


async def test_turns_are_asked_in_order_with_the_targets_own_replies() -> None:
    seen: list[tuple[str, list[dict[str, str]]]] = []

    async def chat(question: str, history: list[dict[str, str]]) -> str:
        seen.append((question, history))
        return f"reply to {question}"

    got: list[EvalSample] = []
    samples = [*reversed(turns()), TestSample(id="single", question="Where is Acme based?")]
    failed = await run_target(samples, CallableTarget(chat), got.append, concurrency=4, progress=False)
    assert failed == 0 and len(got) == 4
    convo = [q for q, _ in seen if q in QUESTIONS]
    assert convo == QUESTIONS  # given in reverse, asked in order
    third = dict(seen)[QUESTIONS[2]]
    assert [m["content"] for m in third] == [QUESTIONS[0], f"reply to {QUESTIONS[0]}", QUESTIONS[1],
                                             f"reply to {QUESTIONS[1]}"]
    assert dict(seen)["Where is Acme based?"] == []
    recorded = {s.id: s for s in got}["c1-t3"]
    assert recorded.test.history[1].answer == f"reply to {QUESTIONS[1]}"  # the record shows what was sent


async def test_a_failed_or_missing_turn_leaves_its_reference_in_the_history() -> None:
    seen: dict[str, list[dict[str, str]]] = {}

    def chat(question: str, history: list[dict[str, str]]) -> str:
        seen[question] = history
        if question == QUESTIONS[0]:
            raise RuntimeError("index not ready")
        return "ok"

    got: list[EvalSample] = []
    assert await run_target(turns(), CallableTarget(chat), got.append, progress=False) == 1
    assert seen[QUESTIONS[1]][1] == {"role": "assistant", "content": REFERENCES[0]}
    # a resumed run: turns 1 and 2 answered before, only turn 3 asked now
    earlier = [EvalSample(test=t, response=RagResponse(answer=f"before {k}")) for k, t in enumerate(turns()[:2], 1)]
    await run_target(turns()[2:], CallableTarget(chat), got.append, progress=False, answered=earlier)
    assert [m["content"] for m in seen[QUESTIONS[2]] if m["role"] == "assistant"] == ["before 1", "before 2"]


async def test_a_callable_that_takes_only_the_question_is_marked() -> None:
    target = CallableTarget(lambda question: "ok")
    follow_up = await target.answer(turns()[1])
    assert follow_up.metadata["history"] == NO_HISTORY
    assert "history" not in (await target.answer(turns()[0])).metadata


async def test_baseline_rewrites_a_follow_up_before_retrieving() -> None:
    calls: list[Any] = []

    def reply(call: Any) -> str:
        calls.append(call)
        if call.prompt_name == "baseline_rewrite":
            return "How many people work at the Porto plant?"
        return "180 people work there."

    rag = BaselineRag(tiny_graph(), ScriptedJudge(reply), top_k=1)
    sample = turns()[1]
    r = await rag.answer(sample)
    assert [c.prompt_name for c in calls] == ["baseline_rewrite", "baseline_answer"]
    assert "Which plant builds the Wren W300?" in calls[0].messages[-1]["content"]
    assert r.metadata["search_query"] == "How many people work at the Porto plant?"
    assert r.retrieved_contexts[0].chunk_id == "d1-c1"  # "Porto employs 180 people": found by the rewrite
    roles = [m["role"] for m in calls[1].messages]
    assert roles == ["system", "user", "assistant", "user"]  # the conversation, then contexts and question


async def test_baseline_falls_back_to_the_earlier_questions_when_the_rewrite_fails() -> None:
    def reply(call: Any) -> Any:
        return RuntimeError("down") if call.prompt_name == "baseline_rewrite" else "180."

    r = await BaselineRag(tiny_graph(), ScriptedJudge(reply), top_k=1).answer(turns()[1])
    assert r.error is None and r.metadata["search_query"] == f"{QUESTIONS[0]} {QUESTIONS[1]}"


@pytest.mark.parametrize("rewrite", [
    "How many people work at the Porto plant?",  # a question in the same language: searched with
    "How many people work there?",  # returned as it was asked
    "180 people work at the Porto plant.",  # an answer, not a question
    "波尔图工厂有多少员工？",  # another language
])
async def test_baseline_searches_with_the_earlier_questions_unless_the_rewrite_is_a_new_question(
        rewrite: str) -> None:
    def reply(call: Any) -> str:
        return rewrite if call.prompt_name == "baseline_rewrite" else "180."

    r = await BaselineRag(tiny_graph(), ScriptedJudge(reply), top_k=1).answer(turns()[1])
    expected = rewrite if "Porto plant?" in rewrite else f"{QUESTIONS[0]} {QUESTIONS[1]}"
    assert r.metadata["search_query"] == expected


@pytest.fixture
def langchain_chat() -> Any:
    from langchain_core.runnables import RunnableLambda, RunnablePassthrough
    from pydantic import BaseModel

    class ChatInput(BaseModel):
        input: str
        chat_history: list[tuple[str, str]] = []

    def answer(d: dict[str, Any]) -> str:
        said = [text for role, text in d["chat_history"] if role == "human"]
        return f"{len(d['chat_history'])} messages; last said: {said[-1] if said else '-'}"

    chain = RunnablePassthrough.assign(answer=RunnableLambda(answer)).with_types(input_type=ChatInput)
    return chain


async def test_a_langchain_chain_gets_chat_history(langchain_chat: Any) -> None:
    target = FrameworkTarget(langchain_chat, "langchain")
    r = await target.answer(turns()[2])
    assert r.error is None and r.answer == f"4 messages; last said: {QUESTIONS[1]}"
    assert "history" not in r.metadata


async def test_a_langchain_chain_without_history_is_marked() -> None:
    from langchain_core.runnables import RunnableLambda

    r = await FrameworkTarget(RunnableLambda(lambda q: f"echo {q}"), "langchain").answer(turns()[1])
    assert r.answer == f"echo {QUESTIONS[1]}" and r.metadata["history"] == NO_HISTORY


async def test_a_haystack_pipeline_gets_chat_messages() -> None:
    from haystack import Pipeline, component
    from haystack.dataclasses import ChatMessage

    @component
    class Chat:
        @component.output_types(replies=list[str])
        def run(self, query: str, chat_history: list[ChatMessage]) -> dict[str, list[str]]:
            said = [m.text for m in chat_history if m.is_from("user")]
            return {"replies": [f"{query} after {said}"]}

    pipeline = Pipeline()
    pipeline.add_component("chat", Chat())
    target = FrameworkTarget(pipeline, "haystack")
    r = await target.answer(turns()[2])
    assert r.error is None and r.answer == f"{QUESTIONS[2]} after {QUESTIONS[:2]}"
    assert "history" not in r.metadata
    assert (await target.answer(turns()[0])).answer == f"{QUESTIONS[0]} after []"  # a first turn: an empty one


@pytest.mark.parametrize(("question", "rewrite", "usable"), [
    ("それの保証期間は？", "CZ-3型炒茶機の保証期間は何年ですか？", True),
    ("保証期間は？", "炒茶機保証期間何年？", True),  # Japanese may be written in kanji only (detected as Chinese)
    ("它的电池多大？", "它的电池多大？", False),  # returned as it was asked
    ("它的电池多大？", "How large is the K10's battery?", False),  # another language
    ("그것은 얼마예요?", "그 자전거는 얼마입니까?", True),
])
def test_a_rewrite_is_checked_with_the_critics_language_check(question: str, rewrite: str, usable: bool) -> None:
    assert usable_rewrite(question, rewrite) is usable
