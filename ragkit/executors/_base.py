"""The executor interface."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")
T_contra = TypeVar("T_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


class Work(Protocol[T_contra, R_co]):
    """Per-item work. It must pickle (a Ray executor ships a copy to each worker), so heavy state (a Judge, a
    loaded model) is built by ``setup``, once per worker, not in the constructor."""

    async def setup(self) -> None: ...

    async def __call__(self, item: T_contra, /) -> R_co: ...

    def report(self) -> Any:
        """What this worker did (usage, counters), collected once at the end."""


class Executor(Protocol):
    """Runs ``work`` over ``items``, ``concurrency`` items in flight per worker, calling ``on_result(index,
    result)`` in the caller's process as each item finishes (in completion order). Returns each worker's
    ``report()``. An exception from ``work`` ends the map: work that must not stop a run catches its own."""

    remote: bool
    """True when the work runs in other processes (its side effects, such as LLM usage, come back in reports)."""

    async def map(self, work: Work[T, R], items: Sequence[T], *, on_result: Callable[[int, R], None],
                  concurrency: int) -> list[Any]: ...  # pragma: no cover
