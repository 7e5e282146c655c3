"""Remote models fail the same way for chat and embeddings: transient errors are retried, a dead, silent or
credential-rejecting endpoint stops the run at once with one line naming it."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.errors import JudgeUnavailableError
from ragkit.llm import Embeddings, Judge
from ragkit.settings import Settings
from ragkit.testing import FakeOpenAIServer, completion


def vectors(n: int) -> dict:
    return {"object": "list", "model": "m", "usage": {"prompt_tokens": 1, "total_tokens": 1},
            "data": [{"object": "embedding", "index": i, "embedding": [1.0, float(i), 0.5]} for i in range(n)]}


def remote(tmp_path: Path, base: str, monkeypatch: pytest.MonkeyPatch, **kw: object) -> Embeddings:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_BASE", base)
    settings = Settings(cache_dir=tmp_path, max_retries=2, **kw)  # type: ignore[arg-type]
    return Embeddings("litellm:openai/text-embedding-3-small", settings=settings, cache=False, backoff=0.01)


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts connections and never answers (a hung proxy)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    sock.close()


def test_embeddings_retry_a_transient_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    busy = {"error": {"message": "overloaded", "type": "server_error"}}
    with FakeOpenAIServer([(503, busy), (200, vectors(2))]) as server:
        matrix = remote(tmp_path, server.base_url, monkeypatch).embed(["a", "b"])
        assert matrix.shape == (2, 3) and len(server.requests) == 2


def test_embeddings_stop_at_once_on_rejected_credentials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    denied = {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
    with FakeOpenAIServer([(401, denied)]) as server:
        with pytest.raises(JudgeUnavailableError, match="Incorrect API key") as caught:
            remote(tmp_path, server.base_url, monkeypatch).embed(["a"])
        assert caught.value.fatal and len(server.requests) == 1


def test_embeddings_name_an_unreachable_endpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(JudgeUnavailableError, match=r"cannot be reached \(3 attempts\).*127.0.0.1', 9") as caught:
        remote(tmp_path, "http://127.0.0.1:9/v1", monkeypatch).embed(["a"])
    assert caught.value.fatal


def test_a_silent_judge_stops_the_run_after_the_first_call_timeout(
        tmp_path: Path, silent_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    judge = Judge("openai/gpt-4o-mini", settings=Settings(cache_dir=tmp_path, first_call_timeout=1.0),
                  cache=False, api_base=silent_server, api_key="k")
    started = time.monotonic()
    with pytest.raises(JudgeUnavailableError, match="did not answer within 1 s") as caught:
        asyncio.run(judge.text("hi", max_tokens=4))
    assert caught.value.fatal and time.monotonic() - started < 10


def test_a_slow_answer_after_the_first_is_not_cut_short(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAIServer([(200, completion("ok"))]) as server:
        judge = Judge("openai/gpt-4o-mini", settings=Settings(cache_dir=tmp_path, first_call_timeout=5.0),
                      cache=False, api_base=server.base_url, api_key="k")
        assert asyncio.run(judge.text("hi", max_tokens=4)) == "ok"
        assert judge._retrier.reached  # from now on the attempt limit is RAGKIT_TIMEOUT


def test_kg_build_with_a_dead_embedding_endpoint_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nThe Porto plant builds the Wren W300 robot arm.\n")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_API_BASE", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("RAGKIT_MAX_RETRIES", "1")
    result = CliRunner().invoke(cli, ["kg", "build", str(tmp_path / "docs"), "-o", str(tmp_path / "g.json"),
                                      "--extractor", "fast", "--embeddings", "litellm:openai/text-embedding-3-small",
                                      "--no-progress", "--cache-dir", str(tmp_path / "cache")])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and not (tmp_path / "g.json").exists()
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "cannot be reached" in lines[0], lines
    json.dumps(lines)


def test_the_first_call_limit_never_applies_to_the_local_model(tmp_path: Path) -> None:
    """The embedded model's first call includes loading it; it times itself (RAGKIT_TIMEOUT from the start)."""
    from ragkit.llm._retry import Retrier

    judge = Judge("local/qwen2.5-coder-1.5b", settings=Settings(cache_dir=tmp_path, first_call_timeout=0.01),
                  cache=False)
    assert judge._retrier.first_call_timeout is None and judge._retrier.timeout is None

    async def slow() -> str:
        await asyncio.sleep(0.1)
        return "loaded and answered"

    retrier = Retrier("local/x", None, 0, local=True, first_call_timeout=0.01)
    assert asyncio.run(retrier.run(slow, "a call")) == "loaded and answered"
