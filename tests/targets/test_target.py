"""Target adapters against real local modules and a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ragkit.errors import ConfigError, DataError, TargetError
from ragkit.kg._graph import ChunkNode, DocumentNode, KnowledgeGraph
from ragkit.targets._baseline import BM25, BaselineRag
from ragkit.targets._target import (
    CallableTarget,
    HttpTarget,
    JsonlTarget,
    TargetOptions,
    load_callable,
    make_target,
    to_response,
)
from ragkit.testing import ScriptedJudge
from ragkit.text import search_terms
from ragkit.types import TestSample

Q = TestSample(id="q-1", question="Where is the Porto plant?")


# -- callable ----------------------------------------------------------------------------------------

MODULE = '''
import asyncio
from ragkit.types import RagResponse, ContextRef

def answer(question):
    return {"answer": "In Portugal: " + question, "contexts": ["ctx one", {"text": "ctx two", "id": "c2",
            "metadata": {"source": "plant-porto.html"}}]}

async def aanswer(question):
    await asyncio.sleep(0)
    return RagResponse(answer="async " + question, retrieved_contexts=[ContextRef(text="t", chunk_id="c9")])

def plain(question):
    return "just text"

def broken(question):
    raise RuntimeError("index not loaded")

def by_sample(sample):
    return {"answer": sample.id}

def weird(question):
    return 42
'''


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = f"user_rag_{id(tmp_path)}"
    (tmp_path / f"{name}.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


async def test_callable_sync_dict(user_module: str) -> None:
    target = make_target(f"{user_module}:answer")
    assert isinstance(target, CallableTarget)
    r = await target.answer(Q)
    assert r.error is None and r.answer.startswith("In Portugal")
    assert [c.text for c in r.retrieved_contexts] == ["ctx one", "ctx two"]
    assert r.retrieved_contexts[1].chunk_id == "c2" and r.retrieved_contexts[1].source == "plant-porto.html"
    assert r.latency_s is not None and r.latency_s >= 0


async def test_callable_async_and_plain_and_sample(user_module: str) -> None:
    r = await make_target(f"{user_module}:aanswer").answer(Q)
    assert r.answer == "async " + Q.question and r.retrieved_contexts[0].chunk_id == "c9"
    assert (await make_target(f"{user_module}:plain").answer(Q)).answer == "just text"
    assert (await make_target(f"{user_module}:by_sample").answer(Q)).answer == "q-1"


async def test_callable_failures_are_recorded(user_module: str) -> None:
    r = await make_target(f"{user_module}:broken").answer(Q)
    assert r.answer == "" and "RuntimeError" in (r.error or "") and "index not loaded" in (r.error or "")
    r = await make_target(f"{user_module}:weird").answer(Q)
    assert "expected a dict" in (r.error or "")


def test_callable_from_file_path(tmp_path: Path) -> None:
    f = tmp_path / "my_rag_file.py"
    f.write_text("def go(q):\n    return {'answer': q.upper()}\n")
    fn = load_callable(f"{f}:go")
    assert fn("x") == {"answer": "X"}


def test_bad_callable_refs(user_module: str) -> None:
    with pytest.raises(ConfigError, match="no attribute 'nope'"):
        load_callable(f"{user_module}:nope")
    with pytest.raises(ConfigError, match="cannot import"):
        load_callable("no_such_module_xyz:fn")
    with pytest.raises(ConfigError, match="cannot tell what target"):
        make_target("whatever")


def test_to_response_shapes() -> None:
    r = to_response({"data": {"text": "A", "docs": [{"page_content": "p", "doc_id": 3}]}}, where="x",
                    answer_field="data.text", contexts_field="data.docs")
    assert r.answer == "A" and r.retrieved_contexts[0].chunk_id == "3"
    with pytest.raises(DataError, match="no 'reply' field"):
        to_response({"answer": "a"}, where="x", answer_field="reply")
    with pytest.raises(DataError, match="no text field"):
        to_response({"answer": "a", "contexts": [{"id": 1}]}, where="x")


# -- HTTP --------------------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    hits: dict[str, int] = {}

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def _send(self, code: int, payload: object, raw: bool = False) -> None:
        body = payload.encode() if raw else json.dumps(payload).encode()  # type: ignore[union-attr]
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        n = self.hits[self.path] = self.hits.get(self.path, 0) + 1
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/query":
            self._send(200, {"answer": f"echo {body['question']}", "contexts": [{"text": "c", "id": body["id"]}]})
        elif self.path == "/chat":  # a chat endpoint: says what history it was sent
            said = [m["content"] for m in body.get("turns_so_far", [])]
            self._send(200, {"answer": f"{body['question']} after {said}"})
        elif self.path == "/custom":
            self._send(200, {"result": {"text": body["q"]}, "sources": [{"content": "s1"}]})
        elif self.path == "/flaky":
            self._send(503, {"error": "busy"}) if n < 3 else self._send(200, {"answer": "ok now"})
        elif self.path == "/slow":
            time.sleep(1.0)
            self._send(200, {"answer": "late"})
        elif self.path == "/auth":
            ok = self.headers.get("Authorization") == "Bearer s3cret" and self.headers.get("X-Team") == "rag"
            self._send(200 if ok else 401, {"answer": "authorised"} if ok else {"error": "no"})
        elif self.path == "/garbage":
            self._send(200, "<html>oops", raw=True)
        else:
            self._send(404, {"error": "not found"})


@pytest.fixture
def server() -> Iterator[str]:
    _Handler.hits = {}
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


async def test_http_ok(server: str) -> None:
    target = make_target(f"{server}/query")
    assert isinstance(target, HttpTarget)
    r = await target.answer(Q)
    await target.aclose()
    assert r.error is None and r.answer == f"echo {Q.question}"
    assert r.retrieved_contexts[0].chunk_id == "q-1" and r.latency_s is not None


async def test_http_field_names(server: str) -> None:
    opts = TargetOptions(question_field="q", answer_field="result.text", contexts_field="sources")
    target = HttpTarget(f"{server}/custom", opts)
    r = await target.answer(Q)
    await target.aclose()
    assert r.answer == Q.question and [c.text for c in r.retrieved_contexts] == ["s1"]


async def test_http_sends_a_conversations_history(server: str) -> None:
    from ragkit.types import Conversation, Turn

    target = HttpTarget(f"{server}/chat", TargetOptions(history_field="turns_so_far"))
    follow_up = TestSample(id="c-t2", question="And its size?", conversation=Conversation(id="c", turn=2),
                           history=[Turn(question="Where is Porto?", answer="In Portugal.")])
    r = await target.answer(follow_up)
    first = await target.answer(Q)
    await target.aclose()
    assert r.answer == "And its size? after ['Where is Porto?', 'In Portugal.']"
    assert first.answer == f"{Q.question} after []"  # a single question sends no history


async def test_http_retries_then_succeeds(server: str) -> None:
    target = HttpTarget(f"{server}/flaky", TargetOptions(retries=3, backoff=0.01))
    r = await target.answer(Q)
    await target.aclose()
    assert r.answer == "ok now" and _Handler.hits["/flaky"] == 3


async def test_http_timeout_and_4xx_are_recorded(server: str) -> None:
    target = HttpTarget(f"{server}/slow", TargetOptions(timeout=0.2, retries=1, backoff=0.01))
    r = await target.answer(Q)
    await target.aclose()
    assert "timed out" in (r.error or "") and "2 attempts" in (r.error or "")
    target = HttpTarget(f"{server}/missing", TargetOptions(retries=3, backoff=0.01))
    target._answered = True  # the endpoint answered before, so this 404 is one sample's failure
    r = await target.answer(Q)
    await target.aclose()
    assert "HTTP 404" in (r.error or "") and _Handler.hits["/missing"] == 1  # 4xx is not retried
    target = HttpTarget(f"{server}/garbage", TargetOptions(retries=0))
    r = await target.answer(Q)
    await target.aclose()
    assert "bad reply" in (r.error or "")


async def test_http_connection_refused_before_any_answer_stops_the_run() -> None:
    target = HttpTarget("http://127.0.0.1:9/none", TargetOptions(retries=1, backoff=0.01, timeout=2))
    with pytest.raises(TargetError, match=r"target http://127.0.0.1:9/none is unusable: connection failed: "
                                          r"ConnectError.*\(after 2 attempts\)"):
        await target.answer(Q)
    await target.aclose()


async def test_a_wrong_url_stops_the_run_but_after_an_answer_fails_one_sample(server: str) -> None:
    target = HttpTarget(f"{server}/missing", TargetOptions(retries=3, backoff=0.01))
    with pytest.raises(TargetError, match="HTTP 404"):
        await target.answer(Q)
    target._answered = True  # the endpoint answered before: the 404 is this sample's
    r = await target.answer(Q)
    await target.aclose()
    assert "HTTP 404" in (r.error or "")


async def test_http_headers_from_env(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_TOKEN", "Bearer s3cret")
    monkeypatch.setenv("RAGKIT_TARGET_HEADER_X_TEAM", "rag")
    target = HttpTarget(f"{server}/auth", TargetOptions(header_env={"Authorization": "MY_TOKEN"}))
    assert "s3cret" not in json.dumps(target.spec.model_dump())  # secrets never reach spec.json
    r = await target.answer(Q)
    await target.aclose()
    assert r.answer == "authorised", r.error
    with pytest.raises(ConfigError, match="NOT_SET_VAR"):
        HttpTarget(f"{server}/auth", TargetOptions(header_env={"Authorization": "NOT_SET_VAR"}))


# -- JSONL -------------------------------------------------------------------------------------------


async def test_jsonl_matches_by_id_then_question(tmp_path: Path) -> None:
    f = tmp_path / "answers.jsonl"
    lines = [
        {"id": "q-1", "answer": "by id", "contexts": ["a"]},
        {"question": "  what IS   the warranty? ", "response": "by question", "retrieved_contexts": ["b"]},
        {"test": {"id": "q-3", "question": "x"}, "response": {"answer": "eval sample line"}},
    ]
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    target = make_target(str(f))
    assert isinstance(target, JsonlTarget)
    assert (await target.answer(Q)).answer == "by id"
    assert (await target.answer(TestSample(id="zz", question="What is the warranty?"))).answer == "by question"
    assert (await target.answer(TestSample(id="q-3", question="?"))).answer == "eval sample line"
    missing = await target.answer(TestSample(id="q-9", question="unknown"))
    assert "no precomputed answer for sample q-9" in (missing.error or "")


def test_jsonl_bad_line_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "answers.jsonl"
    f.write_text('{"id": "a", "answer": "x"}\n{not json\n')
    with pytest.raises(DataError, match=r"answers.jsonl:2"):
        JsonlTarget(f)


# -- baseline ----------------------------------------------------------------------------------------


def tiny_graph() -> KnowledgeGraph:
    kg = KnowledgeGraph()
    docs = {
        "d1": ("plant-porto.html", ["The Porto plant opened in 2021 and builds the Wren W300.",
                                    "Porto employs 180 people on two lines."]),
        "d2": ("plant-sheffield.md", ["Sheffield builds the Kestrel K10 arm since 2013."]),
        "d3": ("zh.md", ["龙井茶产自杭州西湖，春季采摘。", "余杭工厂生产冷泡茶。"]),
    }
    for doc_id, (path, texts) in docs.items():
        kg.add(DocumentNode(id=doc_id, path=path, format="md", content_hash=doc_id))
        for i, text in enumerate(texts):
            cid = f"{doc_id}-c{i}"
            kg.add(ChunkNode(id=cid, doc_id=doc_id, text=text, index=i, source=path))
            kg.add_edge(doc_id, cid, "has_chunk")
    return kg


def test_tokenize_and_bm25() -> None:
    assert search_terms("The Porto plant") == ["porto", "plant"]
    assert "西湖" in search_terms("龙井茶产自杭州西湖") and "龙井" in search_terms("龙井")
    bm = BM25(["porto plant wren", "sheffield kestrel arm", "porto porto employs people"])
    top = bm.top("Which plant is in Porto?", 3)
    assert top[0][0] == 0 and {i for i, _ in top} == {0, 2}  # doc 1 shares no term
    assert bm.top("nothing matches", 2) == []


async def test_baseline_bm25_answers_with_contexts() -> None:
    seen = []

    def reply(call):  # the answer prompt must carry the retrieved contexts and the question
        seen.append(call.messages)
        return "The Porto plant builds the Wren W300."

    judge = ScriptedJudge(reply)
    rag = BaselineRag(tiny_graph(), judge, top_k=2)
    r = await rag.answer(TestSample(id="s", question="What does the Porto plant build?"))
    assert r.error is None and r.answer == "The Porto plant builds the Wren W300."
    assert [c.chunk_id for c in r.retrieved_contexts][0] == "d1-c0"
    assert all(c.source for c in r.retrieved_contexts) and len(r.retrieved_contexts) == 2
    user = seen[0][-1]["content"]
    assert "Wren W300" in user and "What does the Porto plant build?" in user
    assert judge.usage.stages["target"].calls == 1


async def test_baseline_chinese_question_retrieves_chinese_chunk() -> None:
    judge = ScriptedJudge(["龙井茶产自杭州西湖。"])
    r = await BaselineRag(tiny_graph(), judge, top_k=1).answer(TestSample(id="z", question="龙井茶产自哪里？"))
    assert r.retrieved_contexts[0].chunk_id == "d3-c0"


async def test_baseline_judge_failure_is_recorded() -> None:
    def fail(call):
        return RuntimeError("model exploded")

    judge = ScriptedJudge(fail)  # every attempt fails: the Judge gives up with a JudgeError
    r = await BaselineRag(tiny_graph(), judge).answer(Q)
    assert r.answer == "" and "baseline answer failed" in (r.error or "") and r.retrieved_contexts


async def test_baseline_embedding_retrieval() -> None:
    from ragkit.llm._embeddings import Embeddings

    judge = ScriptedJudge(["ok"])
    rag = BaselineRag(tiny_graph(), judge, top_k=1, retrieval="embedding", embeddings=Embeddings())
    r = await rag.answer(TestSample(id="e", question="Which factory makes the Kestrel robot arm?"))
    assert r.retrieved_contexts[0].chunk_id == "d2-c0"


def test_make_target_baseline_needs_graph() -> None:
    with pytest.raises(ConfigError, match="baseline"):
        make_target("baseline")
