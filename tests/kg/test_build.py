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
from ragkit.kg._nlp import FAST_VERSION
from ragkit.kg._reading import MAX_SECTION_ENTITIES
from ragkit.llm import CallInfo
from ragkit.llm._embeddings import Embeddings
from ragkit.testing import ScriptedJudge

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NAMES = ["Ingrid Solberg", "Ola Berg", "Harbour Lights", "Tromsø", "Nordmel", "英格丽·索尔贝格", "诺德面粉公司"]
SMALL = {"max_tokens": 60, "min_tokens": 20, "progress": False}


def reading(sections: list[str]) -> dict[str, Any]:
    text = "\n\n".join(sections)
    entities = [f"{n} (person)" for n in NAMES if n in text]
    if "Ingrid Solberg" in text and "team" in text:
        entities.append("Dr. Ingrid Solberg (person)")  # a variant of the same person
    entities.append("Sven Invented (person)")  # in no document: never reaches the graph
    # the names fill the last sections' lists: which list holds a name does not matter, its text does
    lists: list[dict[str, Any]] = [{"entities": []} for _ in sections]
    for i, name in enumerate(entities[:MAX_SECTION_ENTITIES * len(sections)]):
        lists[-1 - i % len(sections)]["entities"].append(name)
    return {"summary": "About: " + text.split("\n")[-1][:40], "topics": ["bakery", "sourdough"], "sections": lists}


def responder(call: CallInfo) -> Any:
    data: Any = call.data
    if call.prompt_name == "kg.read_document":
        return reading(data.sections)
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


async def test_llm_build_reads_each_document_in_one_call(corpus: Path, embeddings: Embeddings) -> None:
    judge = ScriptedJudge(responder)
    result = await build(corpus, judge, embeddings)
    kg, s = result.kg, result.summary
    chunks = kg.chunks()
    assert s.documents.added == 4 and s.chunks.added == len(chunks) > 4 and multi_chunk_docs(result) >= 2
    assert len(judge.calls_for("kg.read_document")) == 4 and judge.calls_for("kg.document_summary") == []
    assert s.llm_calls == len(judge.calls) == 4 and s.failures == []
    assert all(c.summary and c.keyphrases and c.embedding for c in chunks)
    assert all(c.enrichment == "llm:openai/scripted-judge:v3" for c in chunks)
    # a chunk holds the names (and topics) its own text mentions, never one the document lacks; spaCy's (or
    # jieba's) names of the chunk come after the reading's
    for c in chunks:
        names = [e.name for e in c.entities]
        mentioned = {n for n in NAMES if n in c.text}
        assert set(names[: len(mentioned)]) <= mentioned | {"Dr. Ingrid Solberg"} and mentioned <= set(names)
        assert ("sourdough" in c.keyphrases) == ("sourdough" in c.text.lower())
    assert kg.get("sven invented") is None
    zh_calls = [c for c in judge.calls_for("kg.read_document") if c.data.language == "Chinese"]  # type: ignore[union-attr]
    assert len(zh_calls) == 1 and "面包" in "".join(zh_calls[0].data.sections)  # type: ignore[union-attr]
    for d in kg.documents():
        assert d.summary and d.summary.startswith("About: ") and d.summary_embedding
        assert d.themes == ["bakery", "sourdough"]
    # variants of one name become one node, which links chunks of different documents
    ingrid = kg.entity("ingrid solberg")
    assert "Dr. Ingrid Solberg" in ingrid.aliases
    assert len({c.doc_id for c in kg.chunks_mentioning("ingrid solberg")}) >= 2
    cross = [(a, b) for a, b, _ in kg.edges("shares_entity") if kg.chunk(a).doc_id != kg.chunk(b).doc_id]
    assert cross
    assert s.edges["has_chunk"] == len(chunks) and s.edges["next"] == len(chunks) - 4
    assert kg.info.extractor == "llm" and kg.info.last_build["summary"]["llm_calls"] == s.llm_calls


async def test_a_long_document_is_read_in_parts_then_condensed(corpus: Path, embeddings: Embeddings) -> None:
    judge = ScriptedJudge(responder)
    result = await build(corpus, judge, embeddings, part_tokens=70)
    kg = result.kg
    reads = judge.calls_for("kg.read_document")
    condensed = judge.calls_for("kg.document_summary")
    assert len(reads) > 4 and 1 <= len(condensed) <= multi_chunk_docs(result)
    for call in condensed:
        data: Any = call.data
        assert len(data.section_summaries) >= 2 and all(x.startswith("About: ") for x in data.section_summaries)
        doc = next(d for d in kg.documents() if d.summary == f"Summary of {data.title}.")
        assert doc.themes == ["bread", "staff"]
    for c in kg.chunks():  # entities still come from the chunk's own part
        assert {e.name for e in c.entities} >= {n for n in NAMES if n in c.text}


def sent_texts(judge: ScriptedJudge) -> list[str]:
    return ["\n\n".join(call.data.sections) for call in judge.calls_for("kg.read_document")]  # type: ignore[union-attr]


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
    # the changed file is read again, in one call; nothing else is
    texts = sent_texts(judge)
    assert len(texts) == 1 and "Closed on 17 May" in texts[0] and s.llm_calls == len(judge.calls) == 1
    for cid in set(after) & set(old):  # unchanged chunks of the changed file get the same facts again
        assert second.kg.chunk(cid).summary == old[cid].summary
        assert second.kg.chunk(cid).entities == old[cid].entities
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


async def test_one_failed_reading_is_recorded_and_retried_next_time(corpus: Path, embeddings: Embeddings) -> None:
    def flaky(call: CallInfo) -> Any:
        if call.prompt_name == "kg.read_document" and "Nordmel" in json.dumps(call.messages, ensure_ascii=False):
            return "this is not JSON at all"
        return responder(call)

    first = await build(corpus, ScriptedJudge(flaky), embeddings)
    s = first.summary
    assert len(s.failures) == 1 and "team.html" in s.failures[0] and "JudgeOutputError" in s.failures[0]
    team = next(d for d in first.kg.documents() if d.path == "team.html")
    bad = first.kg.chunks_of(team.id)
    # that document keeps the fast extractor's facts, marked as such, so that the next build reads it again
    assert bad and all(c.enrichment == FAST_VERSION and c.summary and c.embedding for c in bad)
    assert team.enrichment is None
    assert all(c.enrichment == "llm:openai/scripted-judge:v3" for c in first.kg.chunks() if c.doc_id != team.id)
    judge = ScriptedJudge(responder)
    second = await build(corpus, judge, embeddings, previous=first.kg)
    assert second.summary.failures == [] and all(c.enrichment.startswith("llm:") for c in second.kg.chunks())  # type: ignore[union-attr]
    retried = sent_texts(judge)
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
    assert all(c.enrichment == FAST_VERSION and c.summary for c in kg.chunks())
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
    result = await build_graph([], BuildOptions(chunks_jsonl=path, extractor="llm", progress=False),
                               judge=judge, embeddings=embeddings)
    kg = result.kg
    assert sorted(c.id for c in kg.chunks()) == ["faq-1", "kb-1", "kb-2"]
    assert kg.chunk("kb-1").text == rows[0]["text"]  # never re-split, however long
    assert [c.id for c in kg.chunks_of("kb")] == ["kb-1", "kb-2"] and ("kb-1", "kb-2", None) in kg.edges("next")
    assert [(x.path, x.reason) for x in result.summary.skipped] == [("chunks.jsonl:4", "missing field 'id'")]
    assert len({c.doc_id for c in kg.chunks_mentioning("harbour lights")}) == 2
    again = await build_graph([], BuildOptions(chunks_jsonl=path, extractor="llm", progress=False),
                              previous=kg, judge=ScriptedJudge(refuse), embeddings=embeddings)
    assert again.summary.documents.reused == 2


async def test_unreachable_model_stops_the_build_with_its_error(corpus: Path, embeddings: Embeddings) -> None:
    from ragkit.errors import JudgeUnavailableError

    judge = ScriptedJudge(lambda call: ValueError("model 'nope' does not exist"))
    with pytest.raises(JudgeUnavailableError, match="does not exist"):
        await build(corpus, judge, embeddings)


async def test_the_build_work_travels_with_the_file_bytes_and_model_names(corpus: Path, embeddings: Embeddings
                                                                           ) -> None:
    """What a Ray actor gets: a file read from the bytes sent along (not the driver's disk) parses the same, and
    the enrichment work rebuilds its extractor and embedding model from their names."""
    import dataclasses
    import pickle

    from ragkit.kg._inputs import list_files
    from ragkit.kg._limits import FileLimits
    from ragkit.kg._work import EnrichWork, ReadWork

    files, _ = list_files([corpus], None, None, FileLimits(), [])
    work = ReadWork(FileLimits(), **{k: SMALL[k] for k in ("max_tokens", "min_tokens")})
    here = await work(files[0])
    sent = pickle.loads(pickle.dumps(dataclasses.replace(files[0], send_bytes=True)))  # read as it is pickled
    assert sent.data == Path(files[0].path).read_bytes()
    sent = dataclasses.replace(sent, path="/nowhere/on/this/node")
    there = await pickle.loads(pickle.dumps(work))(sent)
    assert there.document == here.document and there.chunks == here.chunks and here.chunks
    assert here.document is not None and here.document.elements == []  # the chunks carry the text back

    judge = ScriptedJudge(responder)
    enrich = pickle.loads(pickle.dumps(EnrichWork("llm", judge, embeddings, None, {})))
    assert enrich.engine is None and enrich.embeddings.name == embeddings.name
    await enrich.setup()
    assert type(enrich.engine).__name__ == "LLMExtractor" and enrich.report()["usage"].calls == 0
