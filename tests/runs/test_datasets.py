"""Input formats: ragkit JSONL, ragas names (JSONL / CSV / DataFrame), RAGChecker JSON; one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ragkit.errors import DataError
from ragkit.runs import load_samples, save_jsonl, to_dataframe, write_samples
from ragkit.runs._datasets import records_as
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

FIXTURE = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "ragchecker" / "checking_inputs.json"


def sample(sid: str = "q1") -> EvalSample:
    return EvalSample(
        test=TestSample(id=sid, question="Who runs Porto?", reference_answer="Ana Costa.",
                        reference_contexts=[ContextRef(chunk_id="c1", text="Ana Costa runs Porto.")],
                        metadata={"rubric": {"1": "bad", "2": "b", "3": "c", "4": "d", "5": "great"}}),
        response=RagResponse(answer="Ana Costa runs it.", retrieved_contexts=[
            ContextRef(chunk_id="c1", text="Ana Costa runs Porto."), ContextRef(chunk_id="c9", text="龙坞茶园")]),
    )


def test_ragchecker_input_file() -> None:
    samples = load_samples(FIXTURE)
    assert [s.id for s in samples] == ["0", "1"]
    first = samples[0]
    assert first.test.question == "What's the longest river in the world?"
    assert first.test.reference_answer and first.test.reference_answer.startswith("The Nile")
    assert [c.chunk_id for c in first.response.retrieved_contexts] == ["000", "001", "002", "003"]
    assert first.response.answer.startswith("The longest river")
    again = load_samples(records_as(samples, "ragchecker"))
    assert [s.test for s in again] == [s.test for s in samples]


def test_ragkit_jsonl_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    save_jsonl([sample("a"), sample("b")], path)
    assert load_samples(path) == [sample("a"), sample("b")]


def test_testsample_lines_with_a_response(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        {"id": "a", "question": "Q?", "reference_answer": "R", "response": "The answer.",
         "retrieved_contexts": ["ctx one", {"text": "ctx two", "chunk_id": "k2"}]},
        {"id": "b", "question": "Q2?", "response": {"answer": "A2", "retrieved_contexts": ["x"], "latency_s": 1.5}},
        {"id": "c", "question": "Q3?"},
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n")
    a, b, c = load_samples(path)
    assert a.response.answer == "The answer." and [r.chunk_id for r in a.response.retrieved_contexts] == [None, "k2"]
    assert b.response.latency_s == 1.5 and b.response.retrieved_contexts[0].text == "x"
    assert c.response.answer == "" and c.test.reference_answer is None


def test_ragas_names_jsonl_csv_and_dataframe(tmp_path: Path) -> None:
    samples = [sample("a"), sample("b")]
    for name in ("r.jsonl", "r.csv"):
        path = tmp_path / name
        write_samples(samples, path, "ragas")
        assert load_samples(path) == samples, name
    assert load_samples(to_dataframe(samples)) == samples
    assert set(records_as(samples, "ragas")[0]) >= {"user_input", "response", "retrieved_contexts", "reference",
                                         "reference_contexts"}


def test_ragas_csv_with_python_list_literals_and_no_ids(tmp_path: Path) -> None:
    path = tmp_path / "ragas.csv"
    frame = pd.DataFrame([{"user_input": "Q?", "response": "A", "retrieved_contexts": ["it's one", "two"],
                           "reference": "R"}, {"user_input": "Q2?", "response": "B", "retrieved_contexts": []}])
    frame.to_csv(path, index=False)  # pandas writes lists as Python literals, as ragas's to_csv does
    first, second = load_samples(path)
    assert [c.text for c in first.response.retrieved_contexts] == ["it's one", "two"]
    assert (first.id, second.id) == ("row-2", "row-3")
    assert second.test.reference_answer is None and second.response.retrieved_contexts == []


def test_dataframe_with_missing_values() -> None:
    frame = pd.DataFrame([{"user_input": "Q?", "response": "A", "reference": None, "retrieved_contexts": ["c"]},
                          {"user_input": "Q2?", "response": "B", "reference": "R", "retrieved_contexts": None}])
    first, second = load_samples(frame)
    assert first.test.reference_answer is None and second.response.retrieved_contexts == []


@pytest.mark.parametrize(("content", "suffix", "message"), [
    ('{"user_input": "Q", "response": "A"}\n{"user_input": "Q", "retrieved_contexts": 5}\n', ".jsonl",
     "line 2: field 'retrieved_contexts' must be a list, got int"),
    ('{"user_input": "Q"}\n{bad json\n', ".jsonl", "line 2: invalid JSON"),
    ('{"response": "A"}\n', ".jsonl", "line 1: unrecognised record"),
    ('{"user_input": "", "response": "A"}\n', ".jsonl", "line 1: field 'user_input' is missing"),
    ('{"id": "x", "question": "Q"}\n{"id": "x", "question": "Q2"}\n', ".jsonl",
     "line 2: sample id 'x' is used twice"),
    ('{"id": "x", "question": 5}\n', ".jsonl", "line 1: field 'question': Input should be a valid string"),
    ('{"test": {"id": "x"}}\n', ".jsonl", "line 1: field 'test.question': Field required"),
    ('{"user_input": "Q", "retrieved_contexts": ["a", "b"], "retrieved_context_ids": ["1"]}\n', ".jsonl",
     "line 1: field 'retrieved_context_ids' has 1 ids for 2 contexts"),
    ('{"results": [{"query": "Q", "gt_answer": "G", "retrieved_context": [{"doc_id": 1}]}]}', ".json",
     "results[0]: field 'retrieved_context[0]' must be an object with a 'text' string"),
    ('{"results": 3}', ".json", "expected a JSON list of records"),
    ("user_input,retrieved_contexts\nQ,\"['a', 'b'\"\n", ".csv", "line 2: field 'retrieved_contexts' is not a "
     "readable list"),
    ("\n\n", ".jsonl", "no samples"),
])
def test_malformed_input_gives_one_line_errors(tmp_path: Path, content: str, suffix: str, message: str) -> None:
    path = tmp_path / f"data{suffix}"
    path.write_text(content)
    with pytest.raises(DataError) as err:
        load_samples(path)
    text = str(err.value)
    assert message in text and str(path) in text and "\n" not in text, text


def test_missing_file() -> None:
    with pytest.raises(DataError, match="no such file"):
        load_samples("/nonexistent/data.jsonl")
