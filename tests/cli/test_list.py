"""``ragkit list metrics|generators``: whatever is registered, with arguments and defaults."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from click.testing import CliRunner

from ragkit import EvalSample, Score, generator, metric
from ragkit.cli import cli
from ragkit.registry import REGISTRY, available


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    available("metric"), available("generator")  # built-ins in the snapshot, or they vanish for later tests
    saved = copy.copy(REGISTRY.items["metric"]), copy.copy(REGISTRY.items["generator"])
    yield
    REGISTRY.items["metric"], REGISTRY.items["generator"] = saved


def register_examples() -> None:
    @metric(requires=("response.answer", "test.reference_answer"), range=(0.0, 5.0), direction="lower", uses=("llm",))
    def listed_metric_zz(threshold: float, *, mode: str = "strict", n: int = 3) -> Any:
        """Distance to the reference (0 = identical).

        Details that the listing leaves out.
        """

        async def score(sample: EvalSample, ctx: Any) -> Score:
            return Score(value=0.0)

        return score

    @generator
    @dataclass(frozen=True)
    class ListedGeneratorZz:
        """Questions that compare two entities."""

        hops: int = 2
        language: str | None = None

        def plan(self, kg: Any, n: int, rng: Any) -> list[Any]:
            return []

        async def generate(self, scenario: Any, kg: Any, judge: Any) -> Any:
            return None


def test_list_metrics_json_shows_everything_registered() -> None:
    register_examples()
    result = CliRunner().invoke(cli, ["list", "metrics", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [r["name"] for r in rows] == sorted(available("metric"))  # built-ins and plugins, nothing hard-coded
    row = next(r for r in rows if r["name"] == "listed_metric_zz")
    assert row["arguments"] == [
        {"name": "threshold", "type": "float", "required": True},
        {"name": "mode", "type": "str", "default": "strict"},
        {"name": "n", "type": "int", "default": 3},
    ]
    assert row["requires"] == ["response.answer", "test.reference_answer"]
    assert row["range"] == [0.0, 5.0] and row["direction"] == "lower is better" and row["needs_llm"] is True
    assert row["description"] == "Distance to the reference (0 = identical)."


def test_list_metrics_table_fits_80_columns_and_details_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    register_examples()
    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(cli, ["list", "metrics"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    row = next(line for line in lines if line.startswith("listed_metric_zz"))
    assert "↓ 0–5" in row and "llm" in row and "Distance to the reference" in row
    details = CliRunner().invoke(cli, ["list", "metrics", "listed_metric_zz"]).output
    assert "threshold (required), mode='strict', n=3" in details
    assert "[0, 5], lower is better" in details and "Details that the listing leaves out." in details


def test_list_shows_the_direction_of_the_default_variant() -> None:
    rows = json.loads(CliRunner().invoke(cli, ["list", "metrics", "--json"]).output)
    by_name = {r["name"]: r for r in rows}
    assert by_name["aspect_critique"]["direction"] == "lower is better"  # the default aspect is harmfulness
    assert by_name["faithfulness"]["direction"] == "higher is better"
    assert by_name["hallucination"]["direction"] == "lower is better"
    assert all(r["range"][0] < r["range"][1] for r in rows)
    assert by_name["bleu"]["uses"] == [] and by_name["faithfulness"]["uses"] == ["response_vs_contexts"]
    assert by_name["faithfulness"]["calls_per_sample"] == 2.0  # one split + one attribution to the contexts


def test_list_unknown_name_suggests() -> None:
    result = CliRunner().invoke(cli, ["list", "metrics", "faithfullness"])
    assert result.exit_code == 2 and "faithfulness" in result.output


def test_list_generators(monkeypatch: pytest.MonkeyPatch) -> None:
    register_examples()
    monkeypatch.setenv("COLUMNS", "200")
    rows = json.loads(CliRunner().invoke(cli, ["list", "generators", "--json"]).output)
    row = next(r for r in rows if r["name"] == "listed_generator_zz")
    assert row["arguments"] == [{"name": "hops", "type": "int", "default": 2},
                                {"name": "language", "type": "str | None", "default": None}]
    assert row["description"] == "Questions that compare two entities."
    table = CliRunner().invoke(cli, ["list", "generators"]).output
    assert "listed_generator_zz" in table
    details = CliRunner().invoke(cli, ["list", "generators", "listed_generator_zz"]).output
    assert "hops=2, language=None" in details


def test_list_rejects_unknown_kind() -> None:
    result = CliRunner().invoke(cli, ["list", "scorers"])
    assert result.exit_code == 2 and "metrics" in result.output
