"""The local executor: every item in this process, on its event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ._base import Work

T = TypeVar("T")
R = TypeVar("R")


class LocalExecutor:
    """One worker, this process: ``setup`` once, then ``concurrency`` items at a time."""

    name = "local"
    remote = False

    async def map(self, work: Work[T, R], items: Sequence[T], *, on_result: Callable[[int, R], None],
                  concurrency: int) -> list[Any]:
        await work.setup()
        limit = asyncio.Semaphore(max(1, concurrency))

        async def one(i: int, item: T) -> None:
            async with limit:
                result = await work(item)
            on_result(i, result)

        await asyncio.gather(*(one(i, item) for i, item in enumerate(items)))
        return [work.report()]
