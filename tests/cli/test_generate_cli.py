"""``ragkit generate`` through click, with a scripted model behind the judge factory."""

from __future__ import annotations

import copy
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "generators"))
from kg_builder import BAKERY, build_graph, default_script  # noqa: E402

from ragkit.cli import cli  # noqa: E402
from ragkit.llm._embeddings import Embeddings  # noqa: E402
from ragkit.registry import REGISTRY  # noqa: E402
from ragkit.testing import ScriptedJudge  # noqa: E402
from ragkit.types import TestSample  # noqa: E402

PLUGIN_SRC = Path(__file__).resolve().parent.parent / "plugin_pkg"


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kg") / "bakery.kg.json"
    build_graph(BAKERY, Embeddings(cache=False)).save(path)
    return path


@pytest.fixture
def judges(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedJudge]:
    made: list[ScriptedJudge] = []

    def factory(settings: object) -> ScriptedJudge:
        made.append(ScriptedJudge(default_script))
        return made[-1]

    monkeypatch.setattr("ragkit.cli.generate.make_judge", factory)
    return made


def run(*args: str) -> object:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def read(path: Path) -> list[TestSample]:
    return [TestSample.model_validate_json(line) for line in path.read_text().splitlines()]


def test_generate_from_a_graph_file(graph_file, judges, tmp_path):
    out = tmp_path / "set.jsonl"
    result = run("generate", str(graph_file), "-n", "6", "-o", str(out), "--no-progress", "--seed", "2")
    assert result.exit_code == 0, result.output
    samples = read(out)
    assert len(samples) == 6 and len({s.id for s in samples}) == 6
    assert all(c.chunk_id and c.source for s in samples for c in s.reference_contexts)
    assert "Test set" in result.stderr and "requested" in result.stderr and "LLM calls per kept sample" in \
        result.stderr
    for name in ("single_hop", "multi_hop", "abstract", "noisy_context"):
        assert name in result.stderr


def test_weights_args_personas_and_json(graph_file, judges, tmp_path):
    out = tmp_path / "set.jsonl"
    personas = tmp_path / "personas.yaml"
    personas.write_text("- name: Wholesale buyer\n  description: Buys bread for a chain of cafes.\n")
    result = run("generate", str(graph_file), "-n", "4", "-o", str(out), "--no-progress", "--json",
                 "-g", "single_hop=1", "-g", "noisy_context=1", "-A", "noisy_context.distractors=1",
                 "--personas", str(personas))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["generated"] == 4 and set(report["generators"]) == {"single_hop", "noisy_context"}
    samples = read(out)
    assert {s.generator.name for s in samples} == {"single_hop", "noisy_context"}
    assert {s.persona for s in samples} == {"Wholesale buyer"}
    noisy = [s for s in samples if s.generator.name == "noisy_context"]
    assert noisy and all(sum(c.distractor for c in s.reference_contexts) == 1 for s in noisy)
    assert all(s.generator.args["distractors"] == 1 for s in noisy)
    assert not judges[0].calls_for("generate.personas")


@pytest.mark.parametrize(("args", "code", "message"), [
    (["-g", "single_hopp=1"], 2, "Unknown generator 'single_hopp'. Did you mean: single_hop?"),
    (["-g", "single_hop=lots"], 2, "the weight must be a number"),
    (["-A", "single_hop"], 2, "expected NAME.ARG=VALUE"),
    (["-A", "single_hop.bogus=1"], 2, "bad arguments for generator 'single_hop'"),
])
def test_bad_options_give_one_clear_line(graph_file, judges, tmp_path, args, code, message):
    result = run("generate", str(graph_file), "-n", "2", "-o", str(tmp_path / "x.jsonl"), "--no-progress", *args)
    assert result.exit_code == code
    assert message in result.output


def test_a_bad_option_leaves_an_existing_test_set_byte_identical(graph_file, judges, tmp_path):
    out = tmp_path / "set.jsonl"
    assert run("generate", str(graph_file), "-n", "2", "-o", str(out), "--no-progress").exit_code == 0
    before = out.read_bytes()
    for args in (["--overwrite", "-g", "singel_hop=1"], ["--overwrite", "-A", "single_hop.bogus=1"],
                 ["-g", "single_hop=1"]):  # a typo, a bad argument, and no --overwrite
        result = run("generate", str(graph_file), "-n", "2", "-o", str(out), "--no-progress", *args)
        assert result.exit_code in (1, 2), result.output
        assert out.read_bytes() == before and not out.with_name("set.jsonl.partial").exists()
    assert "exists; pass --overwrite" in result.output
    again = run("generate", str(graph_file), "-n", "3", "-o", str(out), "--no-progress", "--overwrite")
    assert again.exit_code == 0 and len(read(out)) == 3


def test_no_samples_is_an_error_with_the_reason(judges, tmp_path):
    from ragkit.kg._graph import KnowledgeGraph

    empty = tmp_path / "empty.json"
    KnowledgeGraph().save(empty)
    result = run("generate", str(empty), "-n", "2", "-o", str(tmp_path / "x.jsonl"), "--no-progress")
    assert result.exit_code == 1
    assert "no samples were generated: no samples: the graph has no chunks" in result.output


def test_folder_builds_the_graph_once_then_reuses_it(judges, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for path, chunks in BAKERY.items():
        (docs / path).write_text("# " + path.removesuffix(".md") + "\n\n" + "\n\n".join(t for t, _ in chunks))
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    kg = tmp_path / "kg.json"
    args = ["generate", str(docs), "-n", "3", "-k", str(kg), "--extractor", "fast", "--no-progress",
            "-g", "single_hop=1"]
    first = run(*args, "-o", str(tmp_path / "a.jsonl"))
    assert first.exit_code == 0, first.output
    assert kg.exists() and "5 added" in first.stderr and "skipped broken.pdf" in first.stderr
    assert len(read(tmp_path / "a.jsonl")) == 3
    second = run(*args, "-o", str(tmp_path / "b.jsonl"))
    assert second.exit_code == 0 and "5 documents reused" in second.stderr
    assert [s.id for s in read(tmp_path / "a.jsonl")] == [s.id for s in read(tmp_path / "b.jsonl")]


def test_the_folder_graph_lives_in_the_cache_dir_given(judges, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for path, chunks in BAKERY.items():
        (docs / path).write_text("# " + path.removesuffix(".md") + "\n\n" + "\n\n".join(t for t, _ in chunks))
    cache = tmp_path / "cache"
    result = run("generate", str(docs), "-n", "2", "-o", str(tmp_path / "a.jsonl"), "--extractor", "fast",
                 "--cache-dir", str(cache), "--no-progress", "-g", "single_hop=1")
    assert result.exit_code == 0, result.output
    graphs = list((cache / "graphs").glob("docs-*/kg.json"))
    assert len(graphs) == 1 and f"Graph {graphs[0]}" in " ".join(result.stderr.split())


def test_from_chunks(judges, tmp_path):
    chunks = tmp_path / "chunks.jsonl"
    rows = [{"id": f"c{i}", "doc_id": path, "text": text, "source": path}
            for path, items in BAKERY.items() for i, (text, _) in enumerate(items)]
    chunks.write_text("\n".join(json.dumps(r) for r in rows))
    out = tmp_path / "set.jsonl"
    result = run("generate", "--from-chunks", str(chunks), "-n", "3", "-o", str(out), "-k", str(tmp_path / "kg.json"),
                 "--extractor", "fast", "--no-progress", "-g", "single_hop=1")
    assert result.exit_code == 0, result.output
    ids = {r["id"] for r in rows}
    assert all(c.chunk_id in ids for s in read(out) for c in s.reference_contexts)  # the user's own chunk ids


@pytest.fixture
def toy_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """tests/plugin_pkg made visible to importlib.metadata through a temporary dist-info: no pip, no network."""
    site = tmp_path / "site"
    info = site / "ragkit_toy-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ragkit-toy\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[ragkit.generators]\ntoy = ragkit_toy.glossary\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(PLUGIN_SRC))
    monkeypatch.delenv("RAGKIT_PLUGINS", raising=False)
    importlib.invalidate_caches()
    saved_items, saved_loaded = copy.copy(REGISTRY.items["generator"]), set(REGISTRY.loaded_entry_points)
    yield
    REGISTRY.items["generator"], REGISTRY.loaded_entry_points = saved_items, saved_loaded
    sys.modules.pop("ragkit_toy.glossary", None)
    sys.modules.pop("ragkit_toy", None)


def test_plugin_generator_through_its_entry_point(graph_file, judges, toy_plugin, tmp_path):
    assert "toy/glossary" not in REGISTRY.items["generator"]
    out = tmp_path / "set.jsonl"
    result = run("generate", str(graph_file), "-n", "3", "-o", str(out), "--no-progress", "-g", "toy/glossary=1")
    assert result.exit_code == 0, result.output
    samples = read(out)
    assert len(samples) == 3 and {s.generator.name for s in samples} == {"toy/glossary"}
    assert all(s.metadata["term"] in s.question for s in samples)
    assert samples[0].generator.args == {"types": ["product", "organization"]}
    assert "toy/glossary" in result.stderr


def test_one_dropped_candidate_is_shown_per_reason(graph_file, monkeypatch, tmp_path):
    turn: list[int] = []

    def script(call):  # the critic's judge finds no answer to the first candidate only
        if call.prompt_name == "generate.critic" and not turn:
            turn.append(1)
            return {"evidence": [], "answer": ""}
        return default_script(call)

    monkeypatch.setattr("ragkit.cli.generate.make_judge", lambda settings: ScriptedJudge(script))
    out, dropped = tmp_path / "set.jsonl", tmp_path / "dropped.jsonl"
    result = run("generate", str(graph_file), "-n", "2", "-o", str(out), "--no-progress", "-g", "single_hop=1",
                 "--dropped", str(dropped))
    assert result.exit_code == 0, result.output
    assert len(read(out)) == 2
    assert "One dropped candidate per reason:" in result.stderr
    assert "single_hop not_answerable: the judge found no passage sentence answering it" in result.stderr
    (candidate,) = read(dropped)  # the dropped candidate whole, with why, for the user to read
    assert candidate.question and candidate.reference_answer and candidate.id not in {s.id for s in read(out)}
    assert candidate.metadata["dropped"] == {"reason": "not_answerable",
                                             "detail": "the judge found no passage sentence answering it"}
    assert candidate.metadata["critic"]["judge_answer"] == ""


@pytest.mark.parametrize(("max_drops", "drops"), [("1", 4), ("2", 6)])
def test_max_drops_bounds_what_a_failing_generator_may_cost(graph_file, monkeypatch, tmp_path, max_drops, drops):
    """Nothing passes the critic: single_hop asked for 1 sample is stopped at ceil(max_drops × 1) + 1 drops, then
    reopened once for the missing sample with as many again (and, at that allowance, plans no more); the run ends
    short and says what to raise."""
    def script(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": [], "answer": ""}
        return default_script(call)

    from ragkit.settings import Settings

    monkeypatch.setattr("ragkit.cli.generate.make_judge", lambda settings: ScriptedJudge(
        script, settings=Settings(model="openai/scripted-judge", concurrency=1)))
    out = tmp_path / "set.jsonl"
    result = run("generate", str(graph_file), "-n", "1", "-o", str(out), "--no-progress", "-g", "single_hop=1",
                 "--max-drops", max_drops, "--json")
    summary = json.loads(result.stdout)
    report = summary["generators"]["single_hop"]
    assert report["kept"] == 0 and report["dropped"] == {"not_answerable": drops}, report
    assert summary["dropped"] == summary["dropped_written"] == drops
    assert summary["dropped_by_reason"] == {"not_answerable": drops}
    assert "a higher --max-drops gives a full set" in " ".join(result.stderr.split())


def test_max_drops_must_be_positive(graph_file, judges, tmp_path):
    result = run("generate", str(graph_file), "-n", "1", "-o", str(tmp_path / "x.jsonl"), "--max-drops", "0")
    assert result.exit_code == 2 and "--max-drops" in result.output


@pytest.mark.parametrize(("min_support", "kept"), [(None, 1), ("0.7", 0)])
def test_min_support_drops_a_reference_its_judge_is_unsure_of(graph_file, monkeypatch, tmp_path, min_support, kept):
    """The judge labels every reference claim supported, with a probability of 0.6: kept by default (the label
    decides), dropped as unsupported_reference under --min-support 0.7."""
    import math

    from ragkit.settings import Settings
    from ragkit.testing import WithLogprobs

    def script(call):
        reply = default_script(call)
        if call.prompt_name == "claims.split":  # a claim in words of its own (no passage sentence settles it, no
            return {**reply, "claims": ["The bakery stands near a railway station."]}  # number is asked again)
        if call.prompt_name != "claims.check" or not isinstance(reply, dict):
            return reply
        text = json.dumps(dict.fromkeys(reply, "supported"))
        tokens = []
        for i, part in enumerate(text.split("supported")):
            if i:
                tokens.append(("supported", math.log(0.6), [("not", math.log(0.4))]))
            if part:
                tokens.append((part, 0.0))
        return WithLogprobs(text, tokens)

    monkeypatch.setattr("ragkit.cli.generate.make_judge", lambda settings: ScriptedJudge(
        script, settings=Settings(model="openai/scripted-judge", concurrency=1)))
    out = tmp_path / "set.jsonl"
    extra = ["--min-support", min_support] if min_support else []
    result = run("generate", str(graph_file), "-n", "1", "-o", str(out), "--no-progress", "-g", "single_hop=1",
                 "--max-drops", "1", "--json", *extra)
    report = json.loads(result.stdout)["generators"]["single_hop"]
    assert report["kept"] == kept, report
    if not kept:
        assert set(report["dropped"]) == {"unsupported_reference"}, report


def test_min_support_is_a_probability(graph_file, judges, tmp_path):
    result = run("generate", str(graph_file), "-n", "1", "-o", str(tmp_path / "x.jsonl"), "--min-support", "1.5")
    assert result.exit_code == 2 and "--min-support" in result.output
