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
    shapes = "keys sk-proj-Ab12Cd34Ef56Gh78Ij90, AKIAIOSFODNN7EXAMPLE and hf_" + "x1Y2z3" * 6
    assert redact(shapes) == "keys [redacted], [redacted] and [redacted]"


def test_every_writer_redacts(tmp_path) -> None:
    from ragkit._atomic import open_atomic, write_atomic
    from ragkit.runs._rundir import JsonlAppender
    from ragkit.types import Score

    write_atomic(tmp_path / "a.html", f"<p>{SHAPED}</p>")
    with open_atomic(tmp_path / "b.jsonl", "wb") as fh:
        fh.write(f"{SHAPED}\n".encode())
    appender = JsonlAppender(tmp_path / "c.jsonl")
    appender.append(Score(value=None, explanation=f"echo {SHAPED}"))
    appender.close()
    for name in ("a.html", "b.jsonl", "c.jsonl"):
        text = (tmp_path / name).read_text()
        assert SHAPED not in text and "[redacted]" in text, name


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


SHAPED = "ghp_" + "a1B2c3D4" * 5  # a key shape that no variable holds


def test_after_a_full_benchmark_no_key_is_stored_anywhere(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A target and a judge that echo keys in their errors: afterwards a byte search of the run directory and
    the cache finds neither key."""
    from click.testing import CliRunner
    from run_fixtures import rule_reply, write_target, write_testset

    import ragkit.llm
    from ragkit.cli import cli
    from ragkit.llm import Cache
    from ragkit.settings import Settings
    from ragkit.testing import ScriptedJudge

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    cache_dir = tmp_path / "cache"
    calls = [0]

    def echoing(call):  # type: ignore[no-untyped-def]
        calls[0] += 1
        if calls[0] % 3 == 0:
            raise ValueError(f"upstream 401: invalid key {KEY} / {SHAPED}")
        return rule_reply(call)

    def make(*args, **kwargs) -> ScriptedJudge:  # type: ignore[no-untyped-def]
        settings = Settings(model="openai/scripted-judge", cache_dir=cache_dir, max_retries=0, max_reasks=0)
        return ScriptedJudge(echoing, settings=settings, cache=Cache(settings.llm_cache_path))

    monkeypatch.setattr(ragkit.llm, "Judge", make)
    testset = tmp_path / "testset.jsonl"
    write_testset(testset)
    target = write_target(tmp_path / "rag.py", broken=2)
    module = (tmp_path / "rag.py").read_text().replace('"index offline"', f'"gateway refused {KEY} and {SHAPED}"')
    (tmp_path / "rag.py").write_text(module)
    run = tmp_path / "run"
    result = CliRunner().invoke(cli, ["benchmark", "--testset", str(testset), "--target", target, "-m",
                                      "faithfulness", "-m", "answer_relevancy", "-o", str(run), "--no-progress",
                                      "--cache-dir", str(cache_dir), "--max-failed", "1"])
    assert result.exit_code == 0, result.output
    assert "gateway refused [redacted]" in (run / "responses.jsonl").read_text()  # the error itself is kept
    assert "[redacted]" in (run / "scores.jsonl").read_text()  # and so is the judge's
    files = [p for p in [*run.rglob("*"), *cache_dir.rglob("*")] if p.is_file()]
    assert any(p.suffix == ".html" for p in files) and any("sqlite" in p.name for p in files)
    for path in files:
        data = path.read_bytes()
        assert KEY.encode() not in data and SHAPED.encode() not in data, path
    assert KEY not in result.output and SHAPED not in result.output
