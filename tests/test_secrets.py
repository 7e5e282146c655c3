"""Secrets never reach a file: keys echoed back in errors are masked wherever errors are recorded or printed."""

from __future__ import annotations

import pytest

# -- secrets never reach a file ---------------------------------------------------------------------------------------

KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c"


def test_errors_and_recorded_failures_mask_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragkit.errors import JudgeUnavailableError, redact, register_secret

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    echoed = JudgeUnavailableError(f"401: invalid api key {KEY} (header Authorization: Bearer abc123def456)")
    assert KEY not in str(echoed) and "abc123def456" not in str(echoed) and "[redacted]" in str(echoed)
    register_secret("header-token-98765")
    assert redact("proxy said header-token-98765 is wrong") == "proxy said [redacted] is wrong"
    assert redact("short values like 'abc' stay") == "short values like 'abc' stay"


async def test_a_key_echoed_by_a_target_or_the_judge_is_stored_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragkit.evaluation import evaluate
    from ragkit.targets._target import CallableTarget
    from ragkit.testing import ScriptedJudge
    from ragkit.types import EvalSample, RagResponse, TestSample

    monkeypatch.setenv("MY_GATEWAY_TOKEN", KEY)

    def rag(question: str) -> str:
        raise RuntimeError(f"gateway refused token {KEY}")

    response = await CallableTarget(rag).answer(TestSample(id="s", question="q?"))
    assert response.error is not None and KEY not in response.error and "[redacted]" in response.error

    judge = ScriptedJudge(lambda call: ValueError(f"bad key {KEY}"))
    sample = EvalSample(test=TestSample(id="s", question="q?"), response=RagResponse(answer="An answer here."))
    result = await evaluate([sample], ["answer_relevancy"], judge=judge, progress=False)
    explanation = result.samples[0].scores["answer_relevancy"].explanation or ""
    assert KEY not in explanation and result.samples[0].scores["answer_relevancy"].value is None
