"""Conversations in test sets: one sample per turn with its history; ragkit, ragas and DeepEval files round-trip
them (ragas and DeepEval hold a whole conversation per record); the peers' own multi-turn files are read; the
formats with no turns keep what they can; a broken conversation is one line naming the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from ragkit.errors import ConfigError, DataError
from ragkit.runs import load_samples, read_testset, write_samples
from ragkit.types import ContextRef, Conversation, EvalSample, RagResponse, TestSample, Turn

PEERS = Path(__file__).resolve().parents[1] / "fixtures" / "peers"
TURNS = [
    ("Which plant builds the Wren W300?", "The Porto plant builds the Wren W300.",
     [ContextRef(chunk_id="porto-c0", text="The Porto plant opened in 2021 and builds the Wren W300.",
                 source="plant-porto.md")]),
    ("And how many people work there?", "The Porto plant employs 180 people.",
     [ContextRef(chunk_id="porto-c1", text="Porto employs 180 people on two lines.", source="plant-porto.md")]),
    ("那里什么时候开工的？", "波尔图工厂于2021年开工。",
     [ContextRef(chunk_id="porto-c0", text="The Porto plant opened in 2021 and builds the Wren W300.")]),
]


def conversation(cid: str = "conv-1", *, answered: bool = False, goal: str | None = "Learn about Porto") -> list[
        EvalSample]:
    """A three-turn conversation as generation writes it (history replies: the references), answered or not."""
    out: list[EvalSample] = []
    history: list[Turn] = []
    for k, (question, reference, refs) in enumerate(TURNS, 1):
        test = TestSample(id=f"{cid}-t{k}", question=question, reference_answer=reference, reference_contexts=refs,
                          persona="plant visitor", language="zh" if k == 3 else "en",
                          conversation=Conversation(id=cid, turn=k, goal=goal, turns=len(TURNS)),
                          history=list(history))
        answer = f"Answer {k}." if answered else ""
        response = RagResponse(answer=answer, retrieved_contexts=[ContextRef(chunk_id="porto-c0", text=refs[0].text)]
                               if answered else [])
        out.append(EvalSample(test=test, response=response))
        history.append(Turn(question=question, reference_answer=reference, reference_contexts=refs,
                            answer=answer if answered else None))
    return out


def single(sid: str) -> EvalSample:
    return EvalSample(test=TestSample(id=sid, question="Where is Acme based?", reference_answer="In Manchester."))


def test_a_turn_knows_the_conversation_so_far() -> None:
    third = conversation()[2].test
    assert [m["role"] for m in third.messages()] == ["user", "assistant", "user", "assistant", "user"]
    assert third.messages()[1]["content"] == "The Porto plant builds the Wren W300."  # no answer yet: the reference
    answered = conversation(answered=True)[2].test
    assert answered.messages()[3]["content"] == "Answer 2." and answered.messages()[-1]["content"] == TURNS[2][0]


def test_a_turn_needs_its_conversation_and_all_earlier_turns() -> None:
    with pytest.raises(ValidationError, match="needs its conversation"):
        TestSample(id="x", question="And then?", history=[Turn(question="What?")])
    with pytest.raises(ValidationError, match="turn 3 of a conversation needs the 2 turn"):
        TestSample(id="x", question="And then?", conversation=Conversation(id="c", turn=3),
                   history=[Turn(question="What?")])


def test_a_single_question_is_written_as_before() -> None:
    line = single("a").test.model_dump(mode="json")
    assert "conversation" not in line and "history" not in line
    assert "history" in conversation()[1].test.model_dump(mode="json")


@pytest.mark.parametrize("answered", [False, True])
@pytest.mark.parametrize("fmt,suffix", [("ragkit", "jsonl"), ("ragas", "jsonl"), ("deepeval", "json")])
def test_conversations_round_trip(tmp_path: Path, fmt: str, suffix: str, answered: bool) -> None:
    """Files that ragas 0.4.3 and deepeval 4.3.1 read back with their own readers (make_peer_files.py check-*)."""
    singles = [] if fmt == "deepeval" else [single("s1")]  # DeepEval keeps the two kinds apart
    samples = [*singles, *conversation(answered=answered), *conversation("conv-2", answered=answered, goal=None)]
    path = write_samples(samples, tmp_path / f"t.{suffix}", fmt)
    records = json.loads(path.read_text()) if suffix == "json" else [
        json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == (7 if fmt == "ragkit" else len(singles) + 2)  # ragas, DeepEval: a record per conversation
    back = load_samples(path)
    if fmt == "ragkit":
        assert back == samples
        return
    turns = slice(len(singles), None)
    assert [s.test for s in back[turns]] == [s.test for s in samples[turns]]
    assert [(s.response.answer, s.response.retrieved_contexts) for s in back[turns]] == [
        (s.response.answer, s.response.retrieved_contexts) for s in samples[turns]]


def test_deepeval_refuses_a_mix_of_questions_and_conversations(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="1 single question.s. and 3 conversation turn"):
        write_samples([single("s1"), *conversation()], tmp_path / "t.json", "deepeval")


def test_ragas_multi_turn_file_written_by_ragas(tmp_path: Path) -> None:
    """ragas 0.4.3's own ``EvaluationDataset.to_jsonl`` of a MultiTurnSample (tests/fixtures/peers)."""
    first, second = load_samples(PEERS / "ragas_multiturn.jsonl")
    assert first.test.conversation == Conversation(id="row-1", turn=1, goal="The user learns where the K10 is built.",
                                                   turns=2)  # a record per conversation: its length is known
    assert (first.test.question, first.response.answer) == ("Where is Acme Robotics based?",
                                                            "Acme Robotics is based in Manchester.")
    assert second.test.history == [Turn(question="Where is Acme Robotics based?",
                                        answer="Acme Robotics is based in Manchester.")]
    assert second.test.question == "And where is the Kestrel K10 built?" and second.response.answer.startswith("In")
    assert first.test.metadata["reference_topics"] == ["manufacturing"]


def test_deepeval_conversational_goldens_written_by_deepeval() -> None:
    """deepeval 4.3.1's own ``save_as(file_type="json")`` of ConversationalGoldens (tests/fixtures/peers)."""
    samples = load_samples(PEERS / "deepeval_conversations.json")
    first, second = (s for s in samples if s.test.conversation and s.test.conversation.id == "acme-plants")
    assert first.test.conversation.goal == "A plant visitor asks where Acme builds its products."
    assert first.test.persona == "A visitor planning a trip to a plant."
    assert second.test.history[0].answer == "Acme Robotics is based in Manchester."
    assert [c.text for c in second.response.retrieved_contexts] == ["Sheffield builds the Kestrel K10 arm."]
    assert second.test.metadata["expected_outcome"] == "The visitor knows where the K10 is built."
    assert any(s.test.conversation and s.test.conversation.turn == 1 and not s.response.answer for s in samples)


def test_formats_without_turns_keep_the_conversation_as_they_can(tmp_path: Path) -> None:
    samples = conversation(answered=True)
    giskard = write_samples(samples, tmp_path / "g.jsonl", "giskard")
    third = json.loads(giskard.read_text().splitlines()[2])
    assert [m["content"] for m in third["conversation_history"]] == [TURNS[0][0], "Answer 1.", TURNS[1][0], "Answer 2."]
    back = read_testset(giskard)[2]
    assert back.conversation == Conversation(id="conv-1-t3", turn=3, turns=3) and back.history[1].answer == "Answer 2."
    checker = json.loads(write_samples(samples, tmp_path / "r.json", "ragchecker").read_text())["results"]
    assert checker[2]["query"].startswith("User: Which plant builds") and checker[2]["query"].endswith(TURNS[2][0])
    assert checker[0]["query"] == TURNS[0][0]


def test_a_broken_conversation_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"user_input": [{"content": "Hi", "type": "human"}, {"type": "ai"}]}) + "\n")
    with pytest.raises(DataError, match=r"bad.jsonl line 1: field 'user_input\[1\]' must be a message"):
        load_samples(path)
    path.write_text(json.dumps([{"scenario": "A visit", "turns": [{"role": "assistant", "content": "Hello"}]}]))
    with pytest.raises(DataError, match=r"bad.json item \[0\]: field 'turns' has no user message"):
        load_samples(path.rename(tmp_path / "bad.json"))
