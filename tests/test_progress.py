"""The one progress helper and the one sync runner."""

from __future__ import annotations

import asyncio
import io
import time

from ragkit import run_sync
from ragkit._progress import Progress


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_off_a_terminal_each_task_prints_plain_lines_with_a_heartbeat() -> None:
    out = Pipe()
    calls = [0]
    with Progress(True, every=0.05, calls=lambda: calls[0], stream=out) as progress:
        advance = progress.task("generate", 4)
        time.sleep(0.2)  # a slow step: the heartbeat still says the run is alive
        calls[0] = 3
        advance(2)
        advance(2)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[ragkit] generate: 0/4 (0%), 0 LLM calls")
    assert sum(1 for line in lines if "0/4" in line) >= 3  # the start line and at least two heartbeats
    assert lines[-1].startswith("[ragkit] generate: 4/4 (100%), 3 LLM calls") and "done in" in lines[-1]


def test_disabled_progress_prints_nothing() -> None:
    out = Pipe()
    with Progress(False, every=0.01, stream=out) as progress:
        progress.task("evaluate", 2)(2)
        time.sleep(0.05)
    assert out.getvalue() == ""


def test_an_unfinished_task_is_reported_when_the_stage_ends() -> None:
    out = Pipe()
    with Progress(True, every=60, stream=out) as progress:
        progress.task("target", 5)(3)
    assert out.getvalue().splitlines()[-1].startswith("[ragkit] target: 3/5 (60%)")


async def _answer() -> int:
    await asyncio.sleep(0)
    return 42


def test_a_task_of_unknown_size_ends_when_the_next_starts() -> None:
    out = io.StringIO()
    with Progress(True, every=0.05, stream=out) as progress:
        progress.task("parse", 0)(3)
        advance = progress.task("embed", 2)
        time.sleep(0.2)  # heartbeats: only the running task is reported
        advance(2)
    lines = out.getvalue().splitlines()
    assert [ln for ln in lines if ln.startswith("[ragkit] parse")][-1].startswith("[ragkit] parse: 3, ")
    assert "done in" in [ln for ln in lines if ln.startswith("[ragkit] parse")][-1]
    assert sum(ln.startswith("[ragkit] parse") for ln in lines) == 2  # started, finished; no heartbeat after


def test_run_sync_works_with_and_without_a_running_loop() -> None:
    assert run_sync(_answer()) == 42

    async def inside() -> int:
        return run_sync(_answer())  # a notebook's running loop: runs on a fresh loop in a worker thread

    assert asyncio.run(inside()) == 42
