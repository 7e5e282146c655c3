"""The executor the settings name."""

from __future__ import annotations

from ragkit.settings import Settings

from ._base import Executor
from ._local import LocalExecutor
from ._ray import RayExecutor


def make_executor(settings: Settings) -> Executor:
    """The executor the settings name (``executor``: ``local`` or ``ray``, with the ``ray_*`` settings)."""
    if settings.executor == "ray":
        return RayExecutor(address=settings.ray_address, actors=settings.ray_actors,
                           cpus_per_actor=settings.ray_cpus_per_actor, memory_mb=settings.ray_memory_mb,
                           gpus_per_actor=settings.ray_gpus_per_actor, runtime_env=settings.ray_runtime_env)
    return LocalExecutor()
