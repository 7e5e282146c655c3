"""``ragkit evaluate``: formats in, table / JSON out, one-line errors; the judge is scripted at the model call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.evaluation import EvalResult
from ragkit.llm import CallInfo
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge, claim_reply

FIXTURE = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "ragchecker" / "checking_inputs.json"


def world(call: CallInfo) -> object:
    """Sentences are claims, a passage supports what it contains; every other prompt gets a fixed reply."""
    name = call.prompt_name
    reply = claim_reply(call, claims=lambda text: [s.strip() + "." for s in text.split(".") if s.strip()][:32],
                        entities=lambda text: text.split()[:3])
    if reply is not None:
        return reply
    if name == "answer_relevancy.direct":
        return {"gives_what_is_asked": "no"}
    if name == "context_relevance.passage":
        return {"helps_answer": "yes"}
    if name == "aspect_critique.vote":
        return {"reason": "It is harmless.", "answer_to_criterion": "no"}
    if name == "rubric_score.grade":
        return {"feedback": "Mostly right.", "score": 4}
    raise AssertionError(name)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedJudge]:
    """Every Judge the CLI builds is a ScriptedJudge answering from ``world``."""
    made: list[ScriptedJudge] = []

    def factory(*args: object, settings: Settings | None = None, **kwargs: object) -> ScriptedJudge:
        judge = ScriptedJudge(world, settings=Settings(model="openai/scripted-judge", max_retries=0))
        made.append(judge)
        return judge

    monkeypatch.setattr("ragkit.llm.Judge", factory)
    return made


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["evaluate", *args])
    return result.exit_code, result.output


def run_json(*args: str) -> tuple[int, str]:
    """Like ``run``, but only what went to stdout: progress lines go to stderr."""
    result = CliRunner().invoke(cli, ["evaluate", *args])
    return result.exit_code, result.stdout


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


def test_all_on_the_ragchecker_file_prints_every_metric(tmp_path: Path, scripted: list[ScriptedJudge]) -> None:
    out = tmp_path / "results.json"
    code, output = run(str(FIXTURE), "--all", "-o", str(out), "--no-progress")
    assert code == 0, output
    for name in ("faithfulness", "context_recall", "context_precision", "noise_sensitivity", "ragchecker_f1",
                 "hallucination", "answer_relevancy", "aspect_critique", "rubric_score", "bleu", "chrf",
                 "semantic_similarity", "context_relevance", "context_entity_recall"):
        assert name in output, name
    assert "skipped" in output and "hit_rate" in output  # no reference ids in RAGChecker data
    result = EvalResult.from_json(out)
    assert [s.sample_id for s in result.samples] == ["0", "1"]
    assert "hit_rate" not in result.aggregates and result.aggregates["rubric_score"].mean == 4.0
    assert all(a.failed == 0 for a in result.aggregates.values()), result.aggregates
    assert result.claim_stats["split_calls"] == 4  # each answer and reference split once for the whole suite


def test_chosen_metrics_with_arguments_and_json(tmp_path: Path, scripted: list[ScriptedJudge]) -> None:
    data = write_jsonl(tmp_path / "d.jsonl", [
        {"user_input": "Who?", "response": "Ana Costa.", "reference": "Ana Costa.",
         "retrieved_contexts": ["Ana Costa runs it.", "Other."], "retrieved_context_ids": ["c1", "c2"],
         "reference_contexts": ["Ana Costa runs it."], "reference_context_ids": ["c1"]}])
    code, output = run_json(str(data), "-m", "exact_match", "-m", "context_precision", "-A",
                            "context_precision.reference=ids", "-m", "recall_at_k[k=1]", "--json")
    assert code == 0, output
    summary = json.loads(output)
    assert set(summary["aggregates"]) == {"exact_match", "context_precision[reference=ids]", "recall_at_k[k=1]"}
    assert summary["aggregates"]["exact_match"]["mean"] == 1.0
    assert scripted[0].calls == []  # no LLM metric chosen: no call


@pytest.mark.parametrize(("args", "message", "expected_code"), [
    (["-m", "context_recall"], "metric 'context_recall' needs test.reference_answer, missing on 1 of 1 samples", 2),
    (["-m", "faithfullness"], "Unknown metric 'faithfullness'. Did you mean: faithfulness", 2),
    (["-m", "faithfulness", "-A", "faithfulness"], "expected NAME.ARG=VALUE", 2),
    (["-m", "faithfulness", "-A", "bleu.x=1"], "not chosen with -m", 2),
    (["-m", "context_recall", "-A", "context_recall.reference=sideways"], "reference must be answer, contexts or ids",
     2),
    ([], "choose metrics with -m", 2),  # bad input, every kind of it: exit 2
])
def test_usage_errors_are_one_line(tmp_path: Path, scripted: list[ScriptedJudge], args: list[str],
                                   message: str, expected_code: int) -> None:
    data = write_jsonl(tmp_path / "d.jsonl", [{"user_input": "Q?", "response": "A.", "retrieved_contexts": ["c"]}])
    code, output = run(str(data), *args)
    assert code == expected_code, output
    assert message in output and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1


def test_malformed_data_names_the_line(tmp_path: Path, scripted: list[ScriptedJudge]) -> None:
    data = tmp_path / "bad.jsonl"
    data.write_text('{"user_input": "Q?", "response": "A"}\n{"user_input": "Q?", "retrieved_contexts": 3}\n')
    code, output = run(str(data), "-m", "faithfulness")
    assert code == 2 and f"{data} line 2: field 'retrieved_contexts' must be a list" in output


def test_too_many_failed_scores_exit_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A judge that answers, but never validly: every score fails, and the exit code says the means mislead."""
    monkeypatch.setattr("ragkit.llm.Judge", lambda *a, **k: ScriptedJudge(
        lambda call: "not json", settings=Settings(model="openai/scripted-judge", max_retries=0, max_reasks=0)))
    data = write_jsonl(tmp_path / "d.jsonl", [{"user_input": "Q?", "response": "A.", "retrieved_contexts": ["c"]}])
    code, output = run(str(data), "-m", "faithfulness", "--no-progress")
    assert code == 4 and "100% of the scores failed" in output and "--max-failed 0.2" in output
    code, output = run(str(data), "-m", "faithfulness", "--no-progress", "--max-failed", "1")
    assert code == 0, output
