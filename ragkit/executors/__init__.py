"""Where per-item work runs: in this process (``local``, the default) or across a Ray cluster (``ray``).

A stage is written once against :class:`Executor`: it hands over a picklable :class:`Work` (heavy state such as a
Judge is built by ``setup`` once per worker) and the items, and gets each item's result back as it finishes.

Examples:
    >>> executor = make_executor(settings)           # settings.executor: "local" or "ray"
    >>> reports = await executor.map(work, items, on_result=lambda i, result: ..., concurrency=4)
"""

from ._base import Executor, Pool, Work
from ._choose import make_executor
from ._local import LocalExecutor
from ._ray import RayExecutor

__all__ = ["Executor", "LocalExecutor", "Pool", "RayExecutor", "Work", "make_executor"]
