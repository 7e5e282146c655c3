"""The Ray executor: items spread over Ray actors, each holding one copy of the work (one Judge per actor).

Ray is imported only here and only when a map runs (``pip install 'ragkit[ray]'``). The driver keeps every
actor ``concurrency`` items deep and takes each result as it lands, so the caller writes the run directory
alone, in one process. An actor lost with its node is restarted by Ray (on a node with room) and its in-flight
items are retried there; an item that still fails ends the map, and the run's resume redoes only unfinished items.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from ragkit.errors import ConfigError

from ._base import Work, map_items

T = TypeVar("T")
R = TypeVar("R")

RESTARTS = 4
"""Restarts of a lost actor, and retries of the items it had in flight, before the map fails."""


class _Worker:
    """The actor: one copy of the work, set up on its first item (``setup`` is async; actor constructors are
    not)."""

    def __init__(self, work: Work[Any, Any]) -> None:
        self.work = work
        self._ready: asyncio.Future[None] | None = None

    async def run(self, item: Any) -> Any:
        if self._ready is None:
            self._ready = asyncio.ensure_future(self.work.setup())
        await self._ready
        return await self.work(item)

    def report(self) -> Any:
        return self.work.report()

    def node(self) -> str:
        import ray

        return str(ray.get_runtime_context().get_node_id())


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError("executor 'ray' needs Ray: pip install 'ragkit[ray]'") from None
    return ray


def connect(address: str | None) -> Any:
    """Ray, connected: to ``address`` (``auto``, ``ray://host:10001``, ``host:6379``), else to the cluster of
    ``RAY_ADDRESS``, else to a Ray started for this process."""
    ray = _ray()
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        try:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        except ConnectionError as exc:
            raise ConfigError(f"ray address {address!r}: no Ray cluster there ({exc})") from None
    return ray


@dataclass
class RayExecutor:
    """Items over ``actors`` Ray actors, each with ``cpus_per_actor`` CPUs, ``memory_mb`` of memory and
    ``gpus_per_actor`` GPUs reserved, so that Ray places them where they fit, and started in ``runtime_env``."""

    address: str | None = None
    actors: int = 2
    cpus_per_actor: float = 1.0
    memory_mb: int | None = None
    gpus_per_actor: float = 0.0
    runtime_env: dict[str, Any] | None = None
    remote = True

    def _spawn(self, ray: Any, work: Work[Any, Any], concurrency: int) -> tuple[Any, list[Any]]:
        # spread over the nodes: one node's loss takes the fewest actors with it, and each actor has its cores
        options: dict[str, Any] = {"num_cpus": self.cpus_per_actor, "max_restarts": RESTARTS,
                                   "max_task_retries": RESTARTS, "max_concurrency": max(1, concurrency) + 1,
                                   "scheduling_strategy": "SPREAD"}
        if self.memory_mb:
            options["memory"] = self.memory_mb * 1024 * 1024
        if self.gpus_per_actor:
            options["num_gpus"] = self.gpus_per_actor
        if self.runtime_env:  # per actor, not in ray.init: it applies when the driver is already connected too
            options["runtime_env"] = self.runtime_env
        actor = ray.remote(_Worker).options(**options)
        # pickled once into the object store (the work carries the test set's chunk ids); the caller holds the
        # ref until the map ends, so that an actor restarted after its node died still finds its argument
        shipped = ray.put(work)
        return shipped, [actor.remote(shipped) for _ in range(max(1, self.actors))]

    @asynccontextmanager
    async def pool(self, work: Work[T, R], concurrency: int) -> AsyncIterator[_RayPool]:
        ray = connect(self.address)
        shipped, actors = self._spawn(ray, work, concurrency)
        pool = _RayPool(actors, max(1, concurrency))
        try:
            yield pool
            pool.reports = list(await asyncio.gather(*(asyncio.wrap_future(a.report.remote().future())
                                                       for a in actors)))
        finally:
            for actor in actors:
                ray.kill(actor)
            del shipped

    async def map(self, work: Work[T, R], items: Sequence[T], *, on_result: Callable[[int, R], None],
                  concurrency: int) -> list[Any]:
        return await map_items(self, work, items, on_result=on_result, concurrency=concurrency)


class _RayPool:
    """Items to the actor with the fewest in flight (the first such: a deterministic spread)."""

    def __init__(self, actors: list[Any], concurrency: int) -> None:
        self.actors = actors
        self.capacity = len(actors) * concurrency
        self.reports: list[Any] = []
        self._load = [0] * len(actors)

    async def submit(self, item: Any) -> Any:
        k = min(range(len(self.actors)), key=self._load.__getitem__)
        self._load[k] += 1
        try:
            return await asyncio.wrap_future(self.actors[k].run.remote(item).future())
        finally:
            self._load[k] -= 1
