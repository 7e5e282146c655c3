"""Peers' test-set formats: files their own writers produce, read as they are; every format and container
written and read back; ``format=`` overrides the detection; a hub that cannot be reached is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragkit.errors import DataError
from ragkit.runs import EXPORTS, load_samples, read_testset, to_hf_dataset, write_samples
from ragkit.types import ContextRef, Conversation, EvalSample, PluginSpec, RagResponse, TestSample, Turn

PEERS = Path(__file__).resolve().parents[1] / "fixtures" / "peers"


def sample(sid: str, *, answered: bool = True) -> EvalSample:
    test = TestSample(id=sid, question=f"Where is plant {sid}?", reference_answer=f"Plant {sid} is in Porto.",
                      reference_contexts=[ContextRef(chunk_id=f"{sid}-c1", text=f"Plant {sid} is in Porto."),
                                          ContextRef(chunk_id=f"{sid}-c2", text="工厂在波尔图。")],
                      generator=PluginSpec(name="multi_hop"))
    response = RagResponse(answer=f"Porto ({sid}).", retrieved_contexts=[
        ContextRef(chunk_id=f"{sid}-c1", text=f"Plant {sid} is in Porto."), ContextRef(chunk_id="x", text="Noise.")])
    return EvalSample(test=test, response=response if answered else RagResponse())


def held(s: EvalSample, fmt: str) -> tuple:
    """What a format holds of a sample: Giskard keeps no answer; RAGChecker keeps no reference contexts."""
    refs = [(c.chunk_id, c.text) for c in s.test.reference_contexts]
    got = [(c.chunk_id, c.text) for c in s.response.retrieved_contexts]
    gen = s.test.generator.name if s.test.generator else None
    if fmt == "giskard":
        return s.id, s.test.question, s.test.reference_answer, refs, gen
    if fmt == "ragchecker":
        return s.id, s.test.question, s.test.reference_answer, s.response.answer, got
    return s.id, s.test.question, s.test.reference_answer, refs, gen, s.response.answer, got


@pytest.mark.parametrize("fmt", EXPORTS)
def test_every_format_round_trips(tmp_path: Path, fmt: str) -> None:
    samples = [sample("a"), sample("b")]
    out = tmp_path / ("hf_folder" if fmt == "hf" else f"data.{ {'csv': 'csv', 'parquet': 'parquet'}.get(fmt, 'x')}")
    out = out.with_suffix(".json") if fmt in ("deepeval", "ragchecker") else out
    out = out.with_suffix(".jsonl") if fmt in ("ragkit", "ragas", "giskard") else out
    write_samples(samples, out, fmt)
    again = load_samples(out)
    view = "ragas" if fmt in ("csv", "parquet", "hf") else fmt
    assert [held(s, view) for s in again] == [held(s, view) for s in samples]


def test_a_test_set_round_trips_without_answers(tmp_path: Path) -> None:
    tests = [sample("a", answered=False), sample("b", answered=False)]
    write_samples(tests, tmp_path / "t.jsonl", "ragkit")
    assert json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])["id"] == "a"  # TestSample lines
    assert read_testset(tmp_path / "t.jsonl") == [s.test for s in tests]
    for fmt in ("deepeval", "giskard", "ragas"):
        path = write_samples(tests, tmp_path / f"t-{fmt}.{'json' if fmt == 'deepeval' else 'jsonl'}", fmt)
        assert [t.question for t in read_testset(path)] == [s.test.question for s in tests], fmt


def test_a_datasets_object_and_a_dataframe_are_read() -> None:
    samples = [sample("a"), sample("b")]
    dataset = to_hf_dataset(samples)
    assert dataset.column_names[:2] == ["id", "user_input"]
    assert [held(s, "ragas") for s in load_samples(dataset)] == [held(s, "ragas") for s in samples]
    assert [held(s, "ragas") for s in load_samples(dataset.to_pandas())] == [held(s, "ragas") for s in samples]


def test_giskard_testset_as_giskard_writes_it() -> None:
    g1, g2, g3 = read_testset(PEERS / "giskard_testset.jsonl")
    assert (g1.id, g1.question, g1.reference_answer) == ("g1", "Where is Acme Robotics based?",
                                                         "Acme Robotics is based in Manchester.")
    assert [(c.chunk_id, c.text[:11]) for c in g1.reference_contexts] == [("3", "Document 3:")]
    assert g1.generator == PluginSpec(name="single_hop") and g1.metadata["question_type"] == "simple"
    assert g2.history == [Turn(question="I am asking about Acme's products.")] and g2.generator is None
    assert g2.conversation == Conversation(id="g2", turn=2, turns=2) and g1.conversation is None
    assert g3.question == "公司的总部在哪里？" and g3.generator == PluginSpec(name="multi_hop")


def test_format_overrides_detection(tmp_path: Path) -> None:
    path = tmp_path / "both.jsonl"
    path.write_text(json.dumps({"id": "1", "question": "ragkit's question", "user_input": "ragas's question"}) + "\n")
    assert load_samples(path)[0].test.question == "ragkit's question"
    assert load_samples(path, format="ragas")[0].test.question == "ragas's question"
    with pytest.raises(DataError, match=r"both.jsonl line 1: field 'input' is missing"):
        load_samples(path, format="deepeval")


def test_unreachable_hub_and_bad_folders_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets
    import huggingface_hub

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # read at import: set on the already imported modules too
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    with pytest.raises(DataError) as err:
        load_samples("hf:someone/rag-testset")
    assert str(err.value).startswith("hf:someone/rag-testset: cannot load from the Hugging Face hub") \
        and "\n" not in str(err.value)
    (tmp_path / "folder").mkdir()
    with pytest.raises(DataError, match="must be a run directory or a Hugging Face save_to_disk folder"):
        load_samples(tmp_path / "folder")
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(DataError, match="bad.parquet: not a readable parquet file"):
        load_samples(tmp_path / "bad.parquet")


def test_ragas_files_as_ragas_writes_them() -> None:
    for name in ("ragas_testset.jsonl", "ragas_testset.csv"):
        single, multi = read_testset(PEERS / name)
        assert (single.id, single.question) == ("row-1" if name.endswith("jsonl") else "row-2",
                                                "Where is Acme Robotics based?"), name
        assert single.generator == PluginSpec(name="single_hop_specific_query_synthesizer")
        assert [c.text for c in multi.reference_contexts] == ["Priya Raman is the CTO of Acme. She joined in 2015.",
                                                               "Acme has about 640 staff."], name
    for name in ("ragas_eval.jsonl", "ragas_eval.csv"):
        (answered,) = load_samples(PEERS / name)
        assert answered.response.answer == "In Manchester." and answered.test.reference_answer, name
        assert [c.text[:13] for c in answered.response.retrieved_contexts] == ["Acme Robotics"], name


def test_deepeval_goldens_as_deepeval_writes_them() -> None:
    first, second = load_samples(PEERS / "deepeval_goldens.json")
    assert first.test.question == "Where is Acme Robotics based?" and first.response.answer == ""
    assert [(c.text[:13], c.source) for c in first.test.reference_contexts] == [("Acme Robotics", "acme.md")]
    assert second.test.reference_answer == "In 2019." and second.test.metadata == {"topic": "products"}
    assert (first.id, second.id) == ("row-0", "row-1")


def test_notebook_views_of_results_runs_and_summaries(tmp_path: Path) -> None:
    from run_fixtures import make_run

    from ragkit.evaluation import evaluate_sync
    from ragkit.report import summarize

    run = make_run(tmp_path / "run", n=6, payload=True)
    frame = run.to_pandas()
    assert len(frame) == 6 and {"question", "answer", "faithfulness", "hallucination"} <= set(frame.columns)
    summary = summarize(run)
    run.write_summary(summary)
    assert list(summary.to_pandas()["metric"]) == list(summary.metrics)
    for html_view in (run._repr_html_(), summary._repr_html_()):
        assert html_view.startswith("<table>") and "faithfulness" in html_view and "<script>" not in html_view
    from ragkit.testing import ScriptedJudge

    result = evaluate_sync([sample("a")], ["hit_rate", "exact_match"], judge=ScriptedJudge([]))
    assert "hit_rate" in result._repr_html_() and list(result.to_pandas().columns) == ["sample_id", "error",
                                                                                      "hit_rate", "exact_match"]
