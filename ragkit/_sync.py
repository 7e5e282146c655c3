"""The one way to run ragkit's async code from sync code (scripts, the CLI, notebooks)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result.

    Inside a running event loop (a notebook, an async web handler) ``asyncio.run`` is not allowed, so the
    coroutine then runs on a fresh loop in a worker thread; ragkit never patches the caller's loop.
    """
    try:
        asyncio.get_running_loop()
        inside_a_loop = True
    except RuntimeError:
        inside_a_loop = False
    if not inside_a_loop:  # run outside the except block: errors of the run must not chain to this RuntimeError
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ragkit-sync") as pool:
        return pool.submit(asyncio.run, coro).result()
