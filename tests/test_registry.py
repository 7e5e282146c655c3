"""Registration of metrics and generators: lookup, did-you-mean, duplicates, shapes, recorded specs."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from ragkit import EvalSample, PluginError, Score, UnknownPluginError, generator, metric
from ragkit.registry import REGISTRY, MetricInfo, available, lookup
from ragkit.types import RagResponse, TestSample


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    """Test plugins registered here must not leak into other tests (e.g. `ragkit list`)."""
    available("metric")  # the built-ins are loaded (once per process) before the snapshot, so it holds them
    available("generator")
    saved = copy.copy(REGISTRY.items["metric"]), copy.copy(REGISTRY.items["generator"])
    yield
    REGISTRY.items["metric"], REGISTRY.items["generator"] = saved


def sample(answer: str = "one two three") -> EvalSample:
    return EvalSample(test=TestSample(id="q1", question="?"), response=RagResponse(answer=answer))


async def test_metric_registration_and_spec() -> None:
    @metric(requires=("response.answer",), range=(0.0, 1.0))
    def answer_words_zz(*, max_words: int = 10, unit: str = "word") -> Any:
        """Share of the word budget used (1.0 = at the budget).

        More text that is not the summary line.
        """

        async def score(s: EvalSample, ctx: Any) -> Score:
            return Score(value=min(1.0, len(s.response.answer.split()) / max_words))

        return score

    info = lookup("metric", "answer_words_zz")
    assert isinstance(info, MetricInfo)
    assert info.requires == ("response.answer",) and info.needs_llm is False and info.higher_is_better
    assert info.description == "Share of the word budget used (1.0 = at the budget)."
    assert info.arguments() == {"max_words": 10, "unit": "word"}
    fn = info.factory(max_words=6)
    assert fn.spec.name == "answer_words_zz"
    assert fn.spec.args == {"max_words": 6, "unit": "word"}  # defaults recorded too, so runs can be reproduced
    assert fn.info == info  # the declared record (a variant would carry its changes)
    assert (await fn(sample(), None)).value == 0.5
    assert answer_words_zz().spec.args == {"max_words": 10, "unit": "word"}


def test_factory_returning_a_sync_function_is_rejected() -> None:
    @metric()
    def sync_metric_zz() -> Any:
        def score(s: EvalSample, ctx: Any) -> Score:
            return Score(value=1.0)

        return score

    with pytest.raises(PluginError, match="must return an async scoring function"):
        sync_metric_zz()


def test_async_function_decorated_directly_is_rejected() -> None:
    with pytest.raises(PluginError, match="decorates a factory"):

        @metric()
        async def not_a_factory_zz(s: EvalSample, ctx: Any) -> Score:
            return Score(value=1.0)


def test_callable_object_with_async_call_is_accepted() -> None:
    class Scorer:
        async def __call__(self, s: EvalSample, ctx: Any) -> Score:
            return Score(value=1.0)

    @metric()
    def object_metric_zz() -> Any:
        return Scorer()

    assert object_metric_zz().spec.name == "object_metric_zz"


def test_unknown_name_suggests_close_matches() -> None:
    @metric()
    def faithfulness_zz() -> Any:
        async def score(s: EvalSample, ctx: Any) -> Score:
            return Score(value=1.0)

        return score

    with pytest.raises(UnknownPluginError) as info:
        lookup("metric", "faithfulnes_zz")
    err = info.value
    assert "Unknown metric 'faithfulnes_zz'." in str(err) and "Did you mean: faithfulness_zz" in str(err)
    assert "faithfulness_zz" in err.available
    with pytest.raises(UnknownPluginError) as info:
        lookup("metric", "qqqqqqqq")
    assert "Did you mean" not in str(info.value)


def test_two_different_metrics_under_one_name_are_refused() -> None:
    def first() -> Any:
        async def score(s: EvalSample, ctx: Any) -> Score:
            return Score(value=1.0)

        return score

    def second() -> Any:
        return first()

    metric(name="dup_zz")(first)
    metric(name="dup_zz")(first)  # the same object again (a re-import) is fine
    with pytest.raises(PluginError, match="two different metrics are registered as 'dup_zz'"):
        metric(name="dup_zz")(second)


def test_generator_registration() -> None:
    @generator
    @dataclass(frozen=True)
    class PairwiseZz:
        """Questions about two chunks."""

        depth: int = 2

        def plan(self, kg: Any, n: int, rng: Any) -> list[Any]:
            return []

        async def generate(self, scenario: Any, kg: Any, judge: Any) -> Any:
            return None

    assert lookup("generator", "pairwise_zz") is PairwiseZz
    assert PairwiseZz.info.name == "pairwise_zz"  # type: ignore[attr-defined]
    assert "pairwise_zz" in available("generator", plugins=False)
    with pytest.raises(UnknownPluginError, match="Did you mean: pairwise_zz"):
        lookup("generator", "pairwise_z")


@pytest.mark.parametrize("shape", ["no_plan", "sync_generate"])
def test_badly_shaped_generator_is_refused(shape: str) -> None:
    class Bad:
        def plan(self, kg: Any, n: int, rng: Any) -> list[Any]:
            return []

        def generate(self, scenario: Any, kg: Any, judge: Any) -> Any:
            return None

    if shape == "no_plan":
        del Bad.plan
    with pytest.raises(PluginError):
        generator(Bad)


def test_builtins_are_reached_as_ragkit_packages() -> None:
    for kind in ("metric", "generator"):
        for name, obj in available(kind, plugins=False).items():  # type: ignore[arg-type]
            target = obj.factory if isinstance(obj, MetricInfo) else obj
            module = target.__module__
            assert module.split(".")[0] not in ("metrics", "generators"), (name, module)
