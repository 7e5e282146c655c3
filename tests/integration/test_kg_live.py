"""Knowledge graphs of the sample corpora, end to end, offline (RAGKIT_LIVE_TESTS=1).

- ``corpora/zh`` and all of ``corpora/acme`` with the ``fast`` extractor (spaCy / jieba, real embeddings);
- three ``corpora/acme`` files and two ``corpora/zh`` ones with the ``llm`` extractor on the embedded default
  model, one call per document. The whole acme folder takes about 14 minutes on 2 cores (bench/README.md), too
  slow for the CI budget, so the tests build subsets whose files share people and products.

Every graph must have entities that link chunks of different documents.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragkit.cli.kg import graph_info
from ragkit.kg import BuildOptions, BuildResult, build_graph_sync
from ragkit.kg._graph import KnowledgeGraph
from ragkit.llm._judge import Judge
from ragkit.settings import Settings

pytestmark = pytest.mark.live
CORPORA = Path(__file__).resolve().parents[2] / "corpora"
LLM_SUBSET = ("cto-announcement-2020.txt", "press-release-kestrel-k10-2019.html", "heron-h6-datasheet.pdf")
ZH_SUBSET = ("org-structure.html", "spring-production-meeting-2024.md")


def cross_document_links(kg: KnowledgeGraph) -> tuple[int, int]:
    """(entities mentioned in 2+ documents, shares_entity edges between chunks of different documents)."""
    info = graph_info(kg, top=10**6)
    bridging = sum(1 for e in info["top_entities"] if e["documents"] >= 2)
    edges = sum(1 for a, b, _ in kg.edges("shares_entity") if kg.chunk(a).doc_id != kg.chunk(b).doc_id)
    return bridging, edges


@pytest.fixture(scope="module")
def zh_fast(live_env: None) -> BuildResult:
    return build_graph_sync(CORPORA / "zh", BuildOptions(extractor="fast", progress=False))


@pytest.fixture(scope="module")
def acme_fast(live_env: None) -> BuildResult:
    return build_graph_sync(CORPORA / "acme", BuildOptions(extractor="fast", progress=False))


@pytest.fixture(scope="module")
def acme_llm(live_env: None, tmp_path_factory: pytest.TempPathFactory) -> tuple[BuildResult, Path]:
    root = tmp_path_factory.mktemp("acme-subset")
    for name in LLM_SUBSET:
        shutil.copy(CORPORA / "acme" / name, root / name)
    return build_graph_sync(root, BuildOptions(extractor="llm", progress=False),
                            judge=Judge(settings=Settings.load())), root


def test_zh_fast(zh_fast: BuildResult) -> None:
    kg, s = zh_fast.kg, zh_fast.summary
    assert s.skipped == [] and s.documents.added == 10 and s.llm_calls == 0
    assert {d.language for d in kg.documents()} == {"zh"} and {d.format for d in kg.documents()} == {"md", "html"}
    assert all(c.language == "zh" and c.embedding for c in kg.chunks())
    assert all(c.keyphrases and c.summary for c in kg.chunks())
    bridging, edges = cross_document_links(kg)
    assert bridging >= 5 and edges >= 5
    assert any(e.name in ("沈嘉禾", "林晓雯", "周立平") for e in kg.entities())  # people named across documents


def test_acme_fast(acme_fast: BuildResult) -> None:
    kg, s = acme_fast.kg, acme_fast.summary
    assert s.skipped == [] and s.documents.added == 20
    assert {d.format for d in kg.documents()} == {"md", "html", "docx", "pdf", "txt"}
    bridging, edges = cross_document_links(kg)
    assert bridging >= 20 and edges >= 20
    priya = kg.entity("priya raman")
    assert len({c.doc_id for c in kg.chunks_mentioning(priya.id)}) >= 3
    assert s.edges.get("similar", 0) > 0 and s.edges["next"] == len(kg.chunks()) - 20


def test_acme_llm_subset(acme_llm: tuple[BuildResult, Path]) -> None:
    result, root = acme_llm
    kg, s = result.kg, result.summary
    print(s.model_dump_json(indent=1))
    assert s.documents.added == 3 and s.model == Settings.load().model
    assert 0 < s.llm_calls + s.llm_cache_hits <= 3 + len(s.failures) * 2  # one reading per (short) document
    enriched = [c for c in kg.chunks() if (c.enrichment or "").startswith("llm:")]
    assert len(enriched) >= 0.6 * len(kg.chunks()), s.failures  # a failed call is recorded, never fatal
    assert all(c.summary and len(c.summary) <= 320 for c in enriched)
    assert sum(1 for c in enriched if c.entities) >= 0.8 * len(enriched)
    bridging, edges = cross_document_links(kg)
    assert bridging >= 2 and edges >= 1, graph_info(kg)["top_entities"][:10]
    assert all(d.summary for d in kg.documents() if d.enrichment)
    # an unchanged rebuild costs no LLM call (only what failed the first time is retried)
    again = build_graph_sync(root, BuildOptions(extractor="llm", progress=False), previous=kg,
                             judge=Judge(settings=Settings.load()))
    failed_docs = {c.doc_id for c in kg.chunks() if not c.enrichment}
    assert again.summary.documents.reused >= 3 - len(failed_docs) - len(s.failures)
    if not s.failures:
        assert again.summary.llm_calls == 0 and again.summary.llm_cache_hits == 0


def test_zh_llm_subset(live_env: None, tmp_path: Path) -> None:
    for name in ZH_SUBSET:
        shutil.copy(CORPORA / "zh" / name, tmp_path / name)
    result = build_graph_sync(tmp_path, BuildOptions(extractor="llm", progress=False),
                              judge=Judge(settings=Settings.load()))
    kg, s = result.kg, result.summary
    print(s.model_dump_json(indent=1))
    assert s.documents.added == 2 and 0 < s.llm_calls + s.llm_cache_hits <= 2 + len(s.failures) * 2
    read = [d for d in kg.documents() if d.enrichment]
    assert read, s.failures
    # the reading is written in the documents' language, and its names are found in the Chinese text
    assert all(sum(1 for ch in d.summary or "" if "\u4e00" <= ch <= "\u9fff") >= 10 for d in read)
    assert all((c.enrichment or "").startswith("llm:") for d in read for c in kg.chunks_of(d.id))
    assert any(e.name in ("沈嘉禾", "林晓雯", "周立平") for e in kg.entities())
