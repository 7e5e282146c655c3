"""The one progress helper: every long stage (graph build, generation, target, evaluation) reports through it.

On a terminal it draws rich progress bars on stderr. Off a terminal (CI logs, ``nohup``, a pipe) bars would print
nothing useful, so it writes one plain line per task instead: when the task starts, at least every ``every``
seconds while it runs (a heartbeat thread, so a slow model call still shows the run is alive), and when it ends:

    [ragkit] generate: 3/10 (30%), 12 LLM calls, 0.05/s, ETA 2m20s
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

Advance = Callable[..., None]
"""``advance(n=1)``: n more steps of a task are done."""


@dataclass
class _Task:
    name: str
    total: int
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    finished: bool = False


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Progress:
    """Progress of one stage's tasks on stderr: bars on a terminal, plain lines elsewhere, nothing when disabled.

    ``calls`` (optional) returns the LLM calls made so far; plain lines show how many were made during the task.

    Examples:
        >>> with Progress(enabled=True, calls=lambda: judge.usage.stage("evaluate").calls) as progress:
        ...     advance = progress.task("evaluate", total=len(samples))
        ...     for sample in samples:
        ...         ...
        ...         advance()
    """

    def __init__(self, enabled: bool = True, *, every: float = 30.0, calls: Callable[[], int] | None = None,
                 stream: TextIO | None = None) -> None:
        self.enabled = enabled
        self.every = every
        self.calls = calls
        self.stream = stream or sys.stderr
        self.bars = enabled and self.stream.isatty()
        self._bar: Any = None
        self._tasks: list[_Task] = []
        self._calls_at: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._heartbeat: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if self.bars:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), console=Console(file=self.stream), transient=False)
            self._bar.start()
        elif self.enabled:
            self._heartbeat = threading.Thread(target=self._beat, name="ragkit-progress", daemon=True)
            self._heartbeat.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._bar is not None:
            self._bar.stop()
        if self._heartbeat is not None:
            self._heartbeat.join(timeout=1)
        with self._lock:
            for task in self._tasks:
                if not task.finished:
                    self._line(task)

    def task(self, name: str, total: int) -> Advance:
        """Start a task of ``total`` steps (0: unknown) and return its ``advance(n=1)``."""
        if not self.enabled:
            return lambda n=1: None
        if self._bar is not None:
            task_id = self._bar.add_task(name, total=total or None)
            return lambda n=1: self._bar.advance(task_id, n)
        task = _Task(name, total)
        with self._lock:
            for earlier in self._tasks:  # a task of unknown size ends when the next one starts
                if not earlier.total and not earlier.finished:
                    earlier.finished = True
                    self._line(earlier)
            self._tasks.append(task)
            self._calls_at[name] = self.calls() if self.calls else 0
            self._line(task)

        def advance(n: int = 1) -> None:
            with self._lock:
                task.done += n
                if task.total and task.done >= task.total and not task.finished:
                    task.finished = True
                    self._line(task)

        return advance

    def _beat(self) -> None:
        while not self._stop.wait(self.every):
            with self._lock:
                for task in self._tasks:
                    if not task.finished:
                        self._line(task)

    def _line(self, task: _Task) -> None:
        elapsed = time.monotonic() - task.started
        parts = [f"{task.done}/{task.total} ({100 * task.done // task.total}%)" if task.total else f"{task.done}"]
        if self.calls is not None:
            parts.append(f"{self.calls() - self._calls_at.get(task.name, 0)} LLM calls")
        if task.done and elapsed > 0:
            parts.append(f"{task.done / elapsed:.2f}/s")
            if task.total and task.done < task.total:
                parts.append(f"ETA {_duration(elapsed / task.done * (task.total - task.done))}")
        parts.append(f"done in {_duration(elapsed)}" if task.finished else f"{_duration(elapsed)} so far")
        print(f"[ragkit] {task.name}: {', '.join(parts)}", file=self.stream, flush=True)
