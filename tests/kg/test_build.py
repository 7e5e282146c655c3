"""Building graphs: enrichment with a scripted judge, the fast extractor, failures, strict mode, incremental
rebuilds that reuse exactly what they should (LLM calls counted), pre-chunked input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ragkit.errors import CorpusError
from ragkit.kg import BuildOptions, BuildResult, KnowledgeGraph, build_graph
from ragkit.llm import CallInfo
from ragkit.llm._embeddings import Embeddings
from ragkit.testing import ScriptedJudge

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NAMES = ["Ingrid Solberg", "Ola Berg", "Harbour Lights", "Tromsø", "Nordmel", "英格丽·索尔贝格", "诺德面粉公司"]
SMALL = {"max_tokens": 60, "min_tokens": 20, "progress": False}


def facts(passage: str) -> dict[str, Any]:
    entities = [{"name": n, "type": "person"} for n in NAMES if n in passage]
    if "Ingrid Solberg" in passage and "team" in passage:
        entities.append({"name": "Dr. Ingrid Solberg", "type": "person"})  # a variant of the same person
    return {"summary": "About: " + passage.split("\n")[-1][:40], "entities": entities, "keyphrases": ["bakery"]}


def responder(call: CallInfo) -> Any:
    data: Any = call.data
    if call.prompt_name == "kg.chunk_facts":
        if hasattr(data, "passage"):
            return facts(data.passage)
        return {"items": [facts(p) for p in data.passages]}
    assert call.prompt_name == "kg.document_summary"
    return {"summary": f"Summary of {data.title}.", "themes": ["bread", "staff"]}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("guide.md", "team.html", "delivery-notes.txt", "bakery-zh.md"):
        shutil.copy(FIXTURES / "corpus" / name, root / name)
    return root


@pytest.fixture(scope="module")
def embeddings() -> Embeddings:
    return Embeddings(cache=False)


async def build(corpus: Path, judge: ScriptedJudge, embeddings: Embeddings, previous: KnowledgeGraph | None = None,
                **kw: Any) -> BuildResult:
    return await build_graph(corpus, BuildOptions(extractor="llm", **{**SMALL, **kw}), previous=previous, judge=judge,
                             embeddings=embeddings)


def multi_chunk_docs(result: BuildResult) -> int:
    return sum(1 for d in result.kg.documents() if len(result.kg.chunks_of(d.id)) > 1)


async def test_llm_build_enriches_everything(corpus: Path, embeddings: Embeddings) -> None:
    judge = ScriptedJudge(responder)
    result = await build(corpus, judge, embeddings, batch_size=4)
    kg, s = result.kg, result.summary
    chunks = kg.chunks()
    assert s.documents.added == 4 and s.chunks.added == len(chunks) > 4
    assert all(c.summary and c.keyphrases == ["bakery"] and c.embedding for c in chunks)
    assert all(c.enrichment == "llm:openai/scripted-judge:v1" for c in chunks)
    per_language: dict[str, int] = {}
    for c in chunks:
        per_language[c.language] = per_language.get(c.language, 0) + 1
    batches = sum(-(-n // 4) for n in per_language.values())
    assert len(judge.calls_for("kg.chunk_facts")) == batches  # up to four chunks per call, one language per call
    assert len(judge.calls_for("kg.document_summary")) == multi_chunk_docs(result)
    assert s.llm_calls == len(judge.calls) and s.failures == []
    zh_calls = [c for c in judge.calls_for("kg.chunk_facts") if c.data.language == "Chinese"]  # type: ignore[union-attr]
    assert zh_calls and all("面包" in "".join(c.data.passages) for c in zh_calls)  # type: ignore[union-attr]
    for d in kg.documents():
        assert d.summary and d.summary_embedding
    # variants of one name become one node, which links chunks of different documents
    ingrid = kg.entity("ingrid solberg")
    assert "Dr. Ingrid Solberg" in ingrid.aliases
    assert len({c.doc_id for c in kg.chunks_mentioning("ingrid solberg")}) >= 2
    cross = [(a, b) for a, b, _ in kg.edges("shares_entity") if kg.chunk(a).doc_id != kg.chunk(b).doc_id]
    assert cross
    assert s.edges["has_chunk"] == len(chunks) and s.edges["next"] == len(chunks) - 4
    assert kg.info.extractor == "llm" and kg.info.last_build["summary"]["llm_calls"] == s.llm_calls


async def test_one_chunk_per_call_and_single_chunk_documents_need_no_summary_call(
        corpus: Path, embeddings: Embeddings) -> None:
    judge = ScriptedJudge(responder)
    result = await build(corpus, judge, embeddings, batch_size=1, max_tokens=400, min_tokens=100)
    n_chunks = len(result.kg.chunks())
    assert len(judge.calls_for("kg.chunk_facts")) == n_chunks
    assert len(judge.calls_for("kg.document_summary")) == multi_chunk_docs(result)
    single = [d for d in result.kg.documents() if len(result.kg.chunks_of(d.id)) == 1]
    assert single and all(d.summary == result.kg.chunks_of(d.id)[0].summary for d in single)


def sent_passages(judge: ScriptedJudge) -> list[str]:
    out: list[str] = []
    for call in judge.calls_for("kg.chunk_facts"):
        data: Any = call.data
        out += [data.passage] if hasattr(data, "passage") else data.passages
    return out


def refuse(call: CallInfo) -> Any:
    raise AssertionError(f"unexpected LLM call for {call.prompt_name}")


async def test_unchanged_rebuild_costs_zero_calls(corpus: Path, embeddings: Embeddings) -> None:
    first = await build(corpus, ScriptedJudge(responder), embeddings)
    judge = ScriptedJudge(refuse)
    second = await build(corpus, judge, embeddings, previous=first.kg)
    s = second.summary
    assert judge.calls == [] and s.llm_calls == 0
    assert s.documents.model_dump() == {"reused": 4, "added": 0, "changed": 0, "removed": 0}
    assert s.chunks.reused == len(first.kg.chunks()) and s.chunks.added == s.chunks.changed == s.chunks.removed == 0
    assert second.kg.to_json()["nodes"] == first.kg.to_json()["nodes"]
    assert sorted(second.kg.edges("similar")) == sorted(first.kg.edges("similar"))


async def test_rebuild_after_changing_one_file(corpus: Path, embeddings: Embeddings) -> None:
    first = await build(corpus, ScriptedJudge(responder), embeddings)
    guide = corpus / "guide.md"
    old = {c.id: c for c in first.kg.chunks()}
    doc_id = next(d.id for d in first.kg.documents() if d.path == "guide.md")
    before = [c.id for c in first.kg.chunks_of(doc_id)]
    guide.write_text(guide.read_text(encoding="utf-8") + "\n## Holidays\n\nClosed on 17 May. Ola Berg bakes "
                     "extra cinnamon buns the day before for the Harbour Lights regulars.\n", encoding="utf-8")
    judge = ScriptedJudge(responder)
    second = await build(corpus, judge, embeddings, previous=first.kg)
    s = second.summary
    after = [c.id for c in second.kg.chunks_of(doc_id)]
    new_ids = [c for c in after if c not in old]
    assert s.documents.model_dump() == {"reused": 3, "added": 0, "changed": 1, "removed": 0}
    assert s.chunks.changed == len(new_ids) >= 1
    assert s.chunks.removed == len(set(before) - set(after))
    # only the new chunks of the changed file are sent to the LLM, plus one summary for that document
    assert len(sent_passages(judge)) == len(new_ids)
    assert [c.data.title for c in judge.calls_for("kg.document_summary")] == ["Harbour Lights Bakery"]  # type: ignore[union-attr]
    assert s.llm_calls == len(judge.calls) < len(first.kg.chunks()) // 2
    assert s.enrichment_reused == len(after) - len(new_ids)
    for cid in set(after) & set(old):  # unchanged chunks of the changed file keep their enrichment
        assert second.kg.chunk(cid).summary == old[cid].summary
    assert any(n == "ola berg" for n in {e.id for e in second.kg.entities_of(new_ids[-1])})


async def test_rebuild_after_deleting_a_file(corpus: Path, embeddings: Embeddings) -> None:
    first = await build(corpus, ScriptedJudge(responder), embeddings)
    assert first.kg.get("nordmel") is not None  # only team.html mentions Nordmel
    (corpus / "team.html").unlink()
    second = await build(corpus, ScriptedJudge(refuse), embeddings, previous=first.kg)
    s = second.summary
    assert s.documents.removed == 1 and s.documents.reused == 3 and s.llm_calls == 0
    assert s.chunks.removed == len(first.kg.chunks()) - len(second.kg.chunks()) > 0
    assert second.kg.get("nordmel") is None
    assert all(c.source != "team.html" for c in second.kg.chunks())
    ingrid = second.kg.entity("ingrid solberg")
    assert "Dr. Ingrid Solberg" not in ingrid.aliases  # that variant was only in the deleted file
    assert first.kg.get("nordmel") is not None  # the previous graph object is left as it was


async def test_one_failed_batch_is_recorded_and_retried_next_time(corpus: Path, embeddings: Embeddings) -> None:
    def flaky(call: CallInfo) -> Any:
        if call.prompt_name == "kg.chunk_facts" and "Nordmel" in json.dumps(call.messages, ensure_ascii=False):
            return "this is not JSON at all"
        return responder(call)

    first = await build(corpus, ScriptedJudge(flaky), embeddings, batch_size=1)
    s = first.summary
    assert len(s.failures) == 1 and "team.html" in s.failures[0] and "JudgeOutputError" in s.failures[0]
    bad = [c for c in first.kg.chunks() if c.enrichment is None]
    assert len(bad) == 1 and "Nordmel" in bad[0].text and bad[0].summary is None and bad[0].embedding
    assert all(c.summary for c in first.kg.chunks() if c.enrichment is not None)
    judge = ScriptedJudge(responder)
    second = await build(corpus, judge, embeddings, previous=first.kg, batch_size=1)
    assert second.summary.failures == [] and all(c.enrichment for c in second.kg.chunks())
    retried = sent_passages(judge)
    assert len(retried) == 1 and "Nordmel" in retried[0]
    assert second.summary.documents.changed == 1 and second.summary.documents.reused == 3


async def test_strict_mode_fails_before_any_llm_call(corpus: Path, embeddings: Embeddings) -> None:
    shutil.copy(FIXTURES / "bad" / "encrypted.pdf", corpus / "secret.pdf")
    judge = ScriptedJudge(refuse)
    with pytest.raises(CorpusError, match=r"strict mode: 1 file\(s\) skipped: secret.pdf: encrypted PDF"):
        await build(corpus, judge, embeddings, strict=True)
    relaxed = await build(corpus, ScriptedJudge(responder), embeddings)
    assert [(x.path, x.reason) for x in relaxed.summary.skipped] == [
        ("secret.pdf", "encrypted PDF (a password is needed to read it)")]
    assert relaxed.kg.info.skipped == relaxed.summary.skipped


async def test_fast_extractor(corpus: Path, embeddings: Embeddings) -> None:
    result = await build_graph(corpus, BuildOptions(extractor="fast", **SMALL), embeddings=embeddings)
    kg, s = result.kg, result.summary
    assert s.llm_calls == 0 and s.model is None and s.failures == []
    assert all(c.enrichment == "fast:v1" and c.summary for c in kg.chunks())
    names = {e.name for e in kg.entities()}
    assert {"Ingrid Solberg", "Ola Berg"} <= names
    zh = [c for c in kg.chunks() if c.language == "zh"]
    assert zh and any(c.entities for c in zh) and all(c.keyphrases for c in zh)
    assert len({c.doc_id for c in kg.chunks_mentioning("ola berg")}) >= 2
    assert all(d.themes for d in kg.documents())
    # switching extractor re-enriches everything
    again = await build(corpus, ScriptedJudge(responder), embeddings, previous=kg)
    assert again.summary.documents.changed == 4 and again.summary.documents.reused == 0
    assert all(c.enrichment.startswith("llm:") for c in again.kg.chunks())  # type: ignore[union-attr]


async def test_prechunked_input_is_kept_as_given(tmp_path: Path, embeddings: Embeddings) -> None:
    rows = [
        {"id": "kb-1", "text": "Ingrid Solberg founded Harbour Lights in 2015. " * 40, "doc_id": "kb", "source": "kb"},
        {"id": "kb-2", "text": "Ola Berg joined Harbour Lights in 2019.", "doc_id": "kb", "source": "kb"},
        {"id": "faq-1", "text": "Harbour Lights opens at seven.", "source": "faq.md"},
        {"text": "line without id"},
    ]
    path = tmp_path / "chunks.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    judge = ScriptedJudge(responder)
    result = await build_graph([], BuildOptions(chunks_jsonl=path, extractor="llm", progress=False, batch_size=4),
                               judge=judge, embeddings=embeddings)
    kg = result.kg
    assert sorted(c.id for c in kg.chunks()) == ["faq-1", "kb-1", "kb-2"]
    assert kg.chunk("kb-1").text == rows[0]["text"]  # never re-split, however long
    assert [c.id for c in kg.chunks_of("kb")] == ["kb-1", "kb-2"] and ("kb-1", "kb-2", None) in kg.edges("next")
    assert [(x.path, x.reason) for x in result.summary.skipped] == [("chunks.jsonl:4", "missing field 'id'")]
    assert len({c.doc_id for c in kg.chunks_mentioning("harbour lights")}) == 2
    again = await build_graph([], BuildOptions(chunks_jsonl=path, extractor="llm", progress=False, batch_size=4),
                              previous=kg, judge=ScriptedJudge(refuse), embeddings=embeddings)
    assert again.summary.documents.reused == 2


async def test_unreachable_model_stops_the_build_with_its_error(corpus: Path, embeddings: Embeddings) -> None:
    from ragkit.errors import JudgeUnavailableError

    judge = ScriptedJudge(lambda call: ValueError("model 'nope' does not exist"))
    with pytest.raises(JudgeUnavailableError, match="does not exist"):
        await build(corpus, judge, embeddings, batch_size=1)
