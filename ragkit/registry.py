"""Registration of metrics and generators: decorators, lookup with did-you-mean, entry-point plugins."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from ragkit.errors import PluginError, UnknownPluginError
from ragkit.types import EvalSample, PluginSpec, Score

log = logging.getLogger("ragkit")

Kind = Literal["metric", "generator"]
_BUILTIN = {"metric": "ragkit.metrics", "generator": "ragkit.generators"}
_GROUP = {"metric": "ragkit.metrics", "generator": "ragkit.generators"}


@runtime_checkable
class MetricFn(Protocol):
    """What a metric factory returns: ``async score(sample, ctx) -> Score``."""

    async def __call__(self, sample: EvalSample, ctx: Any) -> Score: ...


Direction = Literal["higher", "lower"]
MATRICES = ("response_vs_contexts", "reference_vs_contexts", "response_vs_reference", "reference_vs_response")
"""The claim × passage matrices of the claim engine: (whose claims)_vs_(which passages)."""
RESOURCES = ("llm", "embeddings", *MATRICES)
"""What a metric may use: the judge directly, the embedding model, or claim matrices (which imply the judge)."""


@dataclass(frozen=True)
class MetricInfo:
    """Everything a metric declares, in one record: read by ``ragkit list``, the gate, the report and the advice.

    The decorator fills ``name``, ``description`` (the docstring's first line) and ``factory``; a factory whose
    variants differ (``context_recall(reference="ids")`` needs chunk ids and no LLM) returns
    ``variant(score, ...)`` with the changed fields, so every scoring function carries its own exact record.
    """

    name: str
    factory: Callable[..., MetricFn]
    requires: tuple[str, ...]
    """Sample fields it needs: ``test.reference_answer``, ``response.answer``, ``response.retrieved_contexts`` ..."""
    direction: Direction = "higher"
    """Which way is better."""
    range: tuple[float, float] = (0.0, 1.0)
    uses: frozenset[str] = frozenset()
    """Of RESOURCES: ``llm``, ``embeddings`` and the claim matrices it reads; empty for a pure computation."""
    calls: float | None = None
    """Rough LLM calls per sample for this metric alone, with 4 retrieved contexts; None: derived from the claim
    matrices it reads (``estimated_calls``). The claim engine shares those between metrics, so a suite costs
    less than the sum."""
    description: str = ""

    def __post_init__(self) -> None:
        unknown = sorted(set(self.uses) - set(RESOURCES))
        if unknown:
            raise PluginError(f"metric '{self.name}' uses unknown resource(s) {', '.join(unknown)}; "
                              f"known: {', '.join(RESOURCES)}")
        if self.direction not in ("higher", "lower"):
            raise PluginError(f"metric '{self.name}': direction must be 'higher' or 'lower', not {self.direction!r}")
        low, high = self.range
        if not low < high:
            raise PluginError(f"metric '{self.name}': range must be (low, high) with low < high, not {self.range}")

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    @property
    def needs_llm(self) -> bool:
        return bool(set(self.uses) - {"embeddings"})

    @property
    def matrices(self) -> frozenset[str]:
        """The claim matrices it reads (batched by the runner across metrics)."""
        return frozenset(self.uses) & frozenset(MATRICES)

    @property
    def kind(self) -> Literal["claims", "llm", "embeddings", "none"]:
        """What it is built on, for listings: claims, a direct LLM call, embeddings, or plain computation."""
        if self.matrices:
            return "claims"
        if "llm" in self.uses:
            return "llm"
        return "embeddings" if "embeddings" in self.uses else "none"

    def estimated_calls(self) -> float:
        """``calls`` when declared; otherwise one split per text whose claims it reads (both texts for a check
        of one answer against the other) plus one call per claim check: the contexts are attributed together."""
        if self.calls is not None:
            return self.calls
        texts = {side for m in self.matrices for side in m.split("_vs_") if side != "contexts"}
        return float(len(texts) + len(self.matrices))

    def arguments(self) -> dict[str, Any]:
        """The factory's keyword arguments and their defaults."""
        return {
            p.name: (None if p.default is inspect.Parameter.empty else p.default)
            for p in inspect.signature(self.factory).parameters.values()
        }


def info_of(fn: MetricFn) -> MetricInfo:
    """The record of a built metric (every function a ``@metric`` factory returns carries one)."""
    info = getattr(fn, "info", None)
    if not isinstance(info, MetricInfo):
        raise PluginError(f"{fn!r} is not a registered metric: build it with a @metric factory")
    return info


def spec_of(fn: MetricFn) -> PluginSpec:
    """The name and arguments a built metric was made with (recorded in runs, so that they can be rebuilt)."""
    spec = getattr(fn, "spec", None)
    if not isinstance(spec, PluginSpec):
        raise PluginError(f"{fn!r} is not a registered metric: build it with a @metric factory")
    return spec


def variant(fn: MetricFn, **changes: Any) -> MetricFn:
    """Mark a scoring function whose facts differ from its factory's declaration for these arguments.

    ``changes`` are MetricInfo fields: ``requires``, ``direction``, ``range``, ``uses``, ``calls``.

    Examples:
        >>> return variant(score, requires=("test.reference_contexts[].chunk_id",), uses=())
    """
    allowed = {"requires", "direction", "range", "uses", "calls"}
    if set(changes) - allowed:
        raise PluginError(f"variant() can change only {', '.join(sorted(allowed))}, not "
                          f"{', '.join(sorted(set(changes) - allowed))}")
    fn._variant = changes  # type: ignore[attr-defined]
    return fn


@dataclass
class _Registry:
    items: dict[Kind, dict[str, Any]] = field(default_factory=lambda: {"metric": {}, "generator": {}})
    loaded_builtins: set[str] = field(default_factory=set)
    loaded_entry_points: set[str] = field(default_factory=set)

    def add(self, kind: Kind, name: str, obj: Any) -> None:
        current = self.items[kind].get(name)
        if current is not None and _identity(current) != _identity(obj):
            raise PluginError(f"two different {kind}s are registered as '{name}': {_identity(current)} "
                              f"and {_identity(obj)}")
        self.items[kind][name] = obj


def _identity(obj: Any) -> str:
    target = obj.factory if isinstance(obj, MetricInfo) else obj
    return f"{target.__module__}.{target.__qualname__}"


REGISTRY = _Registry()
F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)


def _reject_async_factory(factory: Callable[..., Any], name: str) -> None:
    """The mistake of decorating the scoring function itself, named at import time rather than at the first score."""
    if inspect.iscoroutinefunction(factory):
        raise PluginError(
            f"metric '{name}' is an async function: @metric decorates a factory (a plain function) "
            "that returns the async scoring function"
        )


def metric(
    *,
    requires: tuple[str, ...] = (),
    direction: Direction = "higher",
    range: tuple[float, float] = (0.0, 1.0),  # noqa: A002  (the natural name)
    uses: tuple[str, ...] = (),
    calls: float | None = None,
    name: str | None = None,
) -> Callable[[F], F]:
    """Register a metric factory. The factory returns an ``async score(sample, ctx) -> Score``.

    The arguments are the metric's MetricInfo record (for the factory's default arguments). Every function the
    factory builds carries ``.info`` (that record, with any ``variant`` changes) and ``.spec`` (name and the
    arguments used), which runs record so that they can be reproduced.

    Examples:
        >>> @metric(requires=("response.answer",))
        ... def answer_length(*, max_words: int = 100) -> MetricFn:
        ...     async def score(sample, ctx):
        ...         return Score(value=min(1.0, len(sample.response.answer.split()) / max_words))
        ...     return score
    """

    def wrap(factory: F) -> F:
        reg_name = name or factory.__name__
        _reject_async_factory(factory, reg_name)
        sig = inspect.signature(factory)

        @functools.wraps(factory)
        def build(*args: Any, **kwargs: Any) -> Any:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            return _tagged(factory(*args, **kwargs), info, PluginSpec(name=reg_name, args=dict(bound.arguments)))

        info = MetricInfo(
            name=reg_name,
            factory=build,
            requires=tuple(requires),
            direction=direction,
            range=range,
            uses=frozenset(u for u in uses if u),
            calls=calls,
            description=(inspect.getdoc(factory) or "").split("\n")[0],
        )
        REGISTRY.add("metric", reg_name, info)
        return build  # type: ignore[return-value]

    return wrap


def _tagged(fn: Any, info: MetricInfo, spec: PluginSpec) -> Any:
    """A built scoring function, checked and tagged with its record (``variant`` changes applied) and its spec."""
    if not inspect.iscoroutinefunction(fn) and not inspect.iscoroutinefunction(type(fn).__call__):
        raise PluginError(f"metric '{info.name}' must return an async scoring function")
    changes = dict(getattr(fn, "_variant", {}))
    if "uses" in changes:
        changes["uses"] = frozenset(u for u in changes["uses"] if u)
    fn.info = dataclasses.replace(info, **changes)
    fn.spec = spec
    return fn


def snake_case(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True)
class GeneratorInfo:
    """Everything a generator declares, in one record (``GeneratorClass.info``): read by ``ragkit list`` and
    the generation runner."""

    name: str
    description: str = ""
    passages: int = 1
    """Reference chunks a sample is built from and needs (2 or more for questions that bridge passages)."""
    answerable: bool = True
    """False for questions the corpus does not answer (the critic then checks that nothing answers them)."""
    calls: float = 2.0
    """LLM calls per candidate: usually one to write it and one for the critic's check."""

    def __post_init__(self) -> None:
        if self.passages < 1:
            raise PluginError(f"generator '{self.name}': passages must be at least 1, not {self.passages}")


def generator(cls: C | None = None, *, name: str | None = None, passages: int = 1, answerable: bool = True,
              calls: float = 2.0) -> Any:
    """Register a generator class (usually a frozen dataclass with ``plan`` and async ``generate``).

    The keyword arguments are its GeneratorInfo record, attached as ``cls.info``; the name defaults to the
    snake_case class name.

    Examples:
        >>> @generator(passages=2)
        ... @dataclass(frozen=True)
        ... class Bridge:
        ...     def plan(self, kg, n, rng): ...
        ...     async def generate(self, scenario, kg, judge): ...
    """

    def wrap(c: C) -> C:
        for method in ("plan", "generate"):
            if not callable(getattr(c, method, None)):
                raise PluginError(f"generator {c.__qualname__} has no {method}() method")
        if not inspect.iscoroutinefunction(getattr(c, "generate")):  # noqa: B009 (C is a bare TypeVar)
            raise PluginError(f"generator {c.__qualname__}.generate must be async")
        info = GeneratorInfo(name=name or snake_case(c.__name__), passages=passages, answerable=answerable,
                             calls=calls, description=(inspect.getdoc(c) or "").split("\n")[0])
        c.info = info  # type: ignore[attr-defined]
        REGISTRY.add("generator", info.name, c)
        return c

    return wrap(cls) if cls is not None else wrap


def _load_builtins(kind: Kind) -> None:
    if kind not in REGISTRY.loaded_builtins:
        REGISTRY.loaded_builtins.add(kind)
        importlib.import_module(_BUILTIN[kind])


def _load_entry_points(kind: Kind) -> None:
    from importlib.metadata import entry_points

    allowed = {p.strip() for p in os.environ.get("RAGKIT_PLUGINS", "").split(",") if p.strip()}
    for ep in entry_points(group=_GROUP[kind]):
        key = f"{kind}:{ep.name}"
        if key in REGISTRY.loaded_entry_points or (allowed and ep.name not in allowed):
            continue
        REGISTRY.loaded_entry_points.add(key)
        try:
            ep.load()
        except Exception as exc:  # a broken plugin must not break the run
            log.warning("plugin entry point '%s' (%s) failed to load: %s", ep.name, ep.value, exc)


def available(kind: Kind, *, plugins: bool = True) -> dict[str, Any]:
    """Every registered object of a kind, built-ins first, then entry-point plugins."""
    _load_builtins(kind)
    if plugins:
        _load_entry_points(kind)
    return dict(sorted(REGISTRY.items[kind].items()))


def lookup(kind: Kind, name: str) -> Any:
    """The registered object ``name`` of ``kind``; raises UnknownPluginError with suggestions."""
    _load_builtins(kind)
    if name not in REGISTRY.items[kind]:
        _load_entry_points(kind)
    try:
        return REGISTRY.items[kind][name]
    except KeyError:
        raise UnknownPluginError(kind, name, sorted(REGISTRY.items[kind])) from None
