"""The executor interface, and the one ``map`` every executor shares."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
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


class Pool(Protocol[T_contra, R_co]):
    """Workers holding one work, open for items: for stages whose next item depends on earlier results (the
    generation loop). ``reports`` holds each worker's ``report()`` once the pool is closed."""

    capacity: int
    """Items worth keeping in flight: workers × concurrency per worker."""
    reports: list[Any]

    async def submit(self, item: T_contra, /) -> R_co: ...


class Executor(Protocol):
    """Runs work in workers: ``pool(work, concurrency)`` opens them, ``concurrency`` items in flight per worker;
    ``map`` runs a known list of items through a pool."""

    remote: bool
    """True when the work runs in other processes (its side effects, such as LLM usage, come back in reports)."""

    def pool(self, work: Work[T, R], concurrency: int) -> AbstractAsyncContextManager[Pool[T, R]]:
        ...  # pragma: no cover

    async def map(self, work: Work[T, R], items: Sequence[T], *, on_result: Callable[[int, R], None],
                  concurrency: int) -> list[Any]:
        ...  # pragma: no cover


async def map_items(executor: Executor, work: Work[T, R], items: Sequence[T], *,
                    on_result: Callable[[int, R], None], concurrency: int) -> list[Any]:
    """``items`` through a pool of ``executor``, the pool kept full, ``on_result(index, result)`` called in this
    process as each item finishes (in completion order). Returns each worker's ``report()``. An exception from
    ``work`` ends the map: work that must not stop a run catches its own."""
    queue = deque(enumerate(items))
    async with executor.pool(work, concurrency) as pool:
        running: dict[asyncio.Future[R], int] = {}
        try:
            while queue or running:
                while queue and len(running) < pool.capacity:
                    i, item = queue.popleft()
                    running[asyncio.ensure_future(pool.submit(item))] = i
                done, _ = await asyncio.wait(list(running), return_when=asyncio.FIRST_COMPLETED)
                for fut in done:
                    on_result(running.pop(fut), fut.result())
        finally:
            for fut in running:
                fut.cancel()
    return pool.reports
