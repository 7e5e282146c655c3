"""The pytest plugin: docs/examples/test_rag_quality.py passes on good answers and fails, readably, on bad
ones; ``check`` names the worst samples and their unsupported claims; ``ragkit_eval.run`` reads a run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from run_fixtures import make_run, rule_reply

import ragkit.llm
from ragkit.pytest_plugin import Evaluator
from ragkit.settings import Settings
from ragkit.testing import ScriptedJudge

pytest_plugins = ["pytester"]
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "test_rag_quality.py"


def bad_answers(path: Path) -> Path:
    """The example's answers with retrieval broken on three of four questions and two answers made up."""
    rows = [json.loads(line) for line in EXAMPLE.with_name("answers.jsonl").read_text().splitlines()]
    for row in rows[1:]:
        row["retrieved_contexts"], row["retrieved_context_ids"] = row["retrieved_contexts"][::-1][:1], ["travel-3"]
    rows[2]["response"] = "Jane Doe runs everything."
    rows[3]["response"] = "Nobody knows."
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def run_example(pytester: pytest.Pytester, **env: str) -> pytest.RunResult:
    pytester.makepyfile(test_example=EXAMPLE.read_text())
    (pytester.path / "answers.jsonl").write_text(EXAMPLE.with_name("answers.jsonl").read_text())
    for key, value in env.items():
        os.environ[key] = value
    try:
        return pytester.runpytest_subprocess("-p", "no:cacheprovider")
    finally:
        for key in env:
            del os.environ[key]


def test_the_example_passes_on_good_answers(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGKIT_LIVE_TESTS", raising=False)  # its judge test is the live test below
    result = run_example(pytester)
    result.assert_outcomes(passed=2, skipped=1)


def test_the_example_fails_readably_on_bad_answers(pytester: pytest.Pytester, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGKIT_LIVE_TESTS", raising=False)
    result = run_example(pytester, RAG_ANSWERS=str(bad_answers(tmp_path / "bad.jsonl")))
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 2, result.stdout.str()
    out = result.stdout.str()
    assert "ragkit: 2 of 2 thresholds failed" in out
    assert "hit_rate = 0.250 < 0.9 (4 samples scored); worst:" in out
    assert "q2 (0.00) 'When did the Kestrel K10 launch?'" in out
    assert "ragkit: 1 of 1 thresholds failed" in out and "rouge_l = 0.500 < 0.6" in out


def test_check_shows_unsupported_claims(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(ragkit.llm, "Judge", lambda *a, **k: ScriptedJudge(
        rule_reply, settings=Settings(model="openai/scripted-judge", concurrency=1, max_retries=0)))
    scores = Evaluator(None)(str(bad_answers(tmp_path / "bad.jsonl")), metrics=["faithfulness"])
    assert scores["faithfulness"] == pytest.approx(0.25)  # only q1 kept its passage
    with pytest.raises(AssertionError) as err:
        scores.check(faithfulness=0.9)
    text = str(err.value)
    assert "faithfulness = 0.250 < 0.9" in text and "Jane Doe runs everything.'" in text
    scores.check(faithfulness=0.25)
    with pytest.raises(ValueError, match="no scores for hit_rate"):
        scores.check(hit_rate=0.5)


def test_run_scores_and_lower_is_better(tmp_path: Path) -> None:
    make_run(tmp_path / "run", n=8)
    scores = Evaluator(None).run(tmp_path / "run")
    halluc = scores["hallucination"]
    assert halluc is not None
    scores.check(hallucination=halluc + 0.01)  # lower is better: passes at or under the limit
    with pytest.raises(AssertionError, match=r"hallucination = \d\.\d{3} > "):
        scores.check(hallucination=halluc - 0.01)


@pytest.mark.live
def test_the_example_on_the_embedded_judge(pytester: pytest.Pytester) -> None:
    result = run_example(pytester, RAGKIT_LIVE_TESTS="1")
    result.assert_outcomes(passed=3)
