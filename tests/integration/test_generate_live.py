"""``ragkit generate`` end to end on the embedded default model and embeddings (RAGKIT_LIVE_TESTS=1).

Graphs are built with the fast extractor (no LLM) to keep the budget for generation; the LLM calls of this module
(personas, one generation and one critic call per candidate) are cached in the shared live-test cache.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.kg._graph import KnowledgeGraph
from ragkit.synthesis._checks import mentions_context
from ragkit.text._language import detect_language
from ragkit.types import TestSample

pytestmark = pytest.mark.live
CORPORA = Path(__file__).resolve().parents[2] / "corpora"


def generate(corpus: str, n: int, tmp: Path) -> tuple[list[TestSample], KnowledgeGraph, str]:
    kg_path, out = tmp / f"{corpus}.kg.json", tmp / f"{corpus}.jsonl"
    result = CliRunner().invoke(cli, ["generate", str(CORPORA / corpus), "-n", str(n), "-o", str(out),
                                      "-k", str(kg_path), "--extractor", "fast", "--no-progress"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    samples = [TestSample.model_validate_json(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return samples, KnowledgeGraph.load(kg_path), result.stderr


def check_common(samples: list[TestSample], kg: KnowledgeGraph) -> None:
    for s in samples:
        assert s.question.strip() and (s.reference_answer or "").strip()
        assert s.generator is not None and s.persona and s.style and s.length and s.language
        assert s.reference_contexts
        for ref in s.reference_contexts:
            assert ref.chunk_id in kg.g and kg.chunk(ref.chunk_id).text == ref.text and ref.source
        if s.generator.name == "multi_hop":
            docs = {kg.chunk(r.chunk_id).doc_id for r in s.reference_contexts}
            assert len(docs) >= 2, f"multi-hop sample {s.id} cites one document"


def test_acme(tmp_path: Path) -> None:
    # The README's main job generates these same 4 samples (tests/integration/test_benchmark_live.py runs first):
    # their LLM calls come from the shared live cache, so that CI on a slow 2-core machine stays within its time.
    samples, kg, report = generate("acme", 4, tmp_path)
    print(report)
    assert len(samples) == 4, report
    check_common(samples, kg)
    assert len({s.generator.name for s in samples}) >= 3
    assert all(s.language == "en" for s in samples)
    sources = [r.source for s in samples for r in s.reference_contexts if not r.distractor]
    assert len(set(sources)) >= 4  # spread over the corpus, not piled onto a file


def test_zh(tmp_path: Path) -> None:
    samples, kg, report = generate("zh", 2, tmp_path)  # 2, not 3: CI's time on a slow 2-core machine
    print(report)
    assert len(samples) == 2, report
    check_common(samples, kg)
    for s in samples:
        assert s.language == "zh"
        assert detect_language(s.question) == "zh", s.question
        if s.style != "web_search":
            assert detect_language(s.reference_answer or "") in ("zh", "und"), s.reference_answer


def test_ko(tmp_path: Path) -> None:
    samples, kg, report = generate("ko", 2, tmp_path)  # 2, not 3: CI's time on a slow 2-core machine
    print(report)
    assert len(samples) == 2, report
    check_common(samples, kg)
    for s in samples:
        assert s.language == "ko"
        assert detect_language(s.question) == "ko", s.question
        assert not mentions_context(s.question), s.question
