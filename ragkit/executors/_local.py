"""The local executor: every item in this process, on its event loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Generic, TypeVar

from ._base import Work, map_items

T = TypeVar("T")
R = TypeVar("R")


class _LocalPool(Generic[T, R]):
    def __init__(self, work: Work[T, R], concurrency: int) -> None:
        self.work = work
        self.capacity = max(1, concurrency)
        self.reports: list[Any] = []
        self._limit = asyncio.Semaphore(self.capacity)

    async def submit(self, item: T) -> R:
        async with self._limit:
            return await self.work(item)


class LocalExecutor:
    """One worker, this process: ``setup`` once, then ``concurrency`` items at a time."""

    remote = False

    @asynccontextmanager
    async def pool(self, work: Work[T, R], concurrency: int) -> AsyncIterator[_LocalPool[T, R]]:
        await work.setup()
        pool = _LocalPool(work, concurrency)
        yield pool
        pool.reports = [work.report()]

    async def map(self, work: Work[T, R], items: Sequence[T], *, on_result: Callable[[int, R], None],
                  concurrency: int) -> list[Any]:
        return await map_items(self, work, items, on_result=on_result, concurrency=concurrency)
