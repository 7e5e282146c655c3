"""The scripted judge's rule for the Ray tests, importable by the Ray workers (they get this folder on their
path): ``rule_reply``, slowed down so that a node can be killed while calls are in flight, and ``corpus_reply``
for a whole benchmark from documents."""

from __future__ import annotations

import functools
import os
from typing import Any

from kg_builder import default_script
from run_fixtures import rule_reply

from ragkit.testing import Delayed


def _trace(call: Any) -> None:
    """A line "node-id prompt-name" appended to the file that RAGKIT_TEST_RAY_TRACE names: set on the cluster's
    nodes only, so that only calls made in Ray workers are traced."""
    trace = os.environ.get("RAGKIT_TEST_RAY_TRACE")
    if trace:
        import ray

        with open(trace, "a", encoding="utf-8") as fh:
            fh.write(f"{ray.get_runtime_context().get_node_id()} {call.prompt_name}\n")


def slow_rule_reply(call: Any) -> object:
    """``rule_reply`` after a quarter second, traced."""
    _trace(call)
    return Delayed(rule_reply(call), 0.25)


def corpus_reply(call: Any) -> object:
    """A benchmark from documents, traced: the graph's readings of documents, generation's prompts answered like
    the generator tests' script, the baseline's answers and the metrics' claims like ``rule_reply``."""
    _trace(call)
    if call.prompt_name == "kg.read_document":
        names = [w.strip(".,") for section in call.data.sections for w in section.split() if w[:1].isupper()]
        return {"summary": call.data.sections[0][:120], "topics": names[:3],
                "sections": [{"entities": [f"{n} (other)" for n in names[:2]]}
                             for _ in call.data.sections]}
    if call.prompt_name.startswith("generate."):
        return default_script(call)
    return rule_reply(call)


def make_slow_reply(seconds: float) -> Any:
    """``rule_reply`` after ``seconds`` (a fixed-latency judge, for bench/ray_scaling.py)."""
    return functools.partial(_delayed, seconds=seconds)


def _delayed(call: Any, *, seconds: float) -> object:
    return Delayed(rule_reply(call), seconds)


def make_slow_corpus_reply(seconds: float) -> Any:
    """``corpus_reply`` after ``seconds`` (a fixed-latency judge reading documents, for bench/ray_scaling.py)."""
    return functools.partial(_delayed_corpus, seconds=seconds)


def _delayed_corpus(call: Any, *, seconds: float) -> object:
    return Delayed(corpus_reply(call), seconds)


class EnvProbe:
    """Work that answers each item (an environment variable's name) with its value in the actor."""

    async def setup(self) -> None:
        return None

    async def __call__(self, item: str, /) -> str | None:
        return os.environ.get(item)

    def report(self) -> None:
        return None
