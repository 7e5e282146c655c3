"""Targets for RAG systems built with LangChain, LlamaIndex or Haystack, read by duck typing.

Nothing here imports a framework: an object is recognised by what it offers, and its output by its shape, so the
frameworks stay optional extras (``ragkit[langchain]``, ``ragkit[llamaindex]``, ``ragkit[haystack]``).

- LangChain: a Runnable (an LCEL chain, ``create_retrieval_chain``, a legacy ``RetrievalQA``). The question goes
  in as the string, or under the input key the chain declares (``input``, ``question``, ``query``). The answer is
  the output string or message, or its ``answer`` / ``result`` / ``output`` field; the contexts are the
  ``Document`` lists under ``context`` / ``source_documents`` / ``documents``.
- LlamaIndex: a query engine; ``response.response`` is the answer and ``response.source_nodes`` the contexts,
  with node ids and scores.
- Haystack: a Pipeline. Every input socket named ``query`` or ``question`` gets the question; the answer is
  the first reply (``replies``) or ``GeneratedAnswer`` (``answers``) in its outputs, and the contexts are the
  documents of the retriever (or of the answer).

Context ids come from the framework (a Document's ``id``, else its ``metadata`` ``id`` / ``chunk_id`` /
``doc_id``; a node's ``node_id``), so that id-based retrieval metrics match them to the test set's chunks.
Async entry points (``ainvoke``, ``aquery``, ``run_async``) are used where the object has them; otherwise the
call runs in a worker thread, so several questions are in flight either way.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable, Mapping
from typing import Any

from ragkit.errors import ConfigError
from ragkit.targets._protocol import TargetKind, TargetSpec
from ragkit.types import ContextRef, RagResponse, TestSample

FRAMEWORKS = ("langchain", "llamaindex", "haystack")
_INPUT_KEYS = ("input", "question", "query")
_ANSWER_KEYS = ("answer", "result", "output", "response", "text")
_DOC_KEYS = ("context", "source_documents", "documents", "docs", "sources")
_META_IDS = ("id", "chunk_id", "doc_id", "document_id")
_HISTORY_KEYS = ("chat_history", "history", "messages")
NO_HISTORY = "not sent: the target takes no conversation history"


def detect_framework(obj: Any) -> str | None:
    """Which framework an object comes from, by its module and what it offers."""
    module = type(obj).__module__ or ""
    if module.startswith("haystack") or (hasattr(obj, "run") and hasattr(obj, "inputs") and hasattr(obj, "graph")):
        return "haystack"
    if module.startswith("llama_index") or hasattr(obj, "aquery") or hasattr(obj, "query"):
        return "llamaindex"
    if module.startswith("langchain") or (hasattr(obj, "invoke") and hasattr(obj, "ainvoke")):
        return "langchain"
    return None


def _text(value: Any) -> str:
    """An answer from a string, a chat message (``content`` / ``text``) or a generated answer (``data``)."""
    if isinstance(value, str):
        return value
    for attr in ("content", "text", "data"):
        inner = getattr(value, attr, None)
        if isinstance(inner, str):
            return inner
    return "" if value is None else str(value)


def _document(doc: Any, score: float | None = None) -> tuple[ContextRef, float | None]:
    """A context from a LangChain / Haystack Document or a LlamaIndex node (with its score)."""
    node = getattr(doc, "node", None)
    if node is not None:  # LlamaIndex NodeWithScore
        score = getattr(doc, "score", None)
        doc = node
    text = getattr(doc, "page_content", None)
    if text is None:
        getter = getattr(doc, "get_content", None)
        text = getter() if callable(getter) else getattr(doc, "content", None) or getattr(doc, "text", "")
    meta = getattr(doc, "metadata", None) or getattr(doc, "meta", None) or {}
    ident = getattr(doc, "node_id", None) or getattr(doc, "id", None) or \
        next((meta[k] for k in _META_IDS if meta.get(k) not in (None, "")), None)
    source = meta.get("source") or meta.get("file_path") or meta.get("file_name")
    if score is None and isinstance(getattr(doc, "score", None), int | float):
        score = float(doc.score)
    return ContextRef(chunk_id=None if ident is None else str(ident), text=str(text or ""),
                      source=None if source is None else str(source)), score


def _response(answer: Any, docs: list[Any]) -> RagResponse:
    contexts, scores = zip(*(_document(d) for d in docs), strict=True) if docs else ((), ())
    metadata = {"context_scores": list(scores)} if any(s is not None for s in scores) else {}
    return RagResponse(answer=_text(answer), retrieved_contexts=list(contexts), metadata=metadata)


class FrameworkTarget:
    """One RAG object of a framework; ``answer`` never raises for one question (the error goes on the sample)."""

    def __init__(self, obj: Any, framework: str | None = None, *, name: str | None = None) -> None:
        framework = framework or detect_framework(obj)
        if framework not in FRAMEWORKS:
            raise ConfigError(f"target {name or type(obj).__name__}: not a LangChain runnable, LlamaIndex query "
                              "engine or Haystack pipeline")
        self.obj, self.framework = obj, framework
        kind: TargetKind = framework  # type: ignore[assignment]  # one of FRAMEWORKS, checked above
        self.spec = TargetSpec(kind=kind, name=name or f"{type(obj).__module__}.{type(obj).__qualname__}",
                               args={})
        self._input_key = _langchain_input_key(obj) if framework == "langchain" else None
        self._history_key = _langchain_key(obj, _HISTORY_KEYS) if framework == "langchain" else None

    async def answer(self, sample: TestSample) -> RagResponse:
        started = time.perf_counter()
        try:
            response: RagResponse = await getattr(self, f"_{self.framework}")(sample.question, sample.messages()[:-1])
        except Exception as exc:  # the system's own failure: recorded on the sample, the run goes on
            text = str(exc).splitlines()[0][:300] if str(exc) else ""
            return RagResponse(error=f"{self.framework} target raised {type(exc).__name__}: {text}".rstrip(": "),
                               latency_s=time.perf_counter() - started)
        response.latency_s = time.perf_counter() - started
        return response

    async def _call(self, async_name: str, sync_name: str, *args: Any, **kwargs: Any) -> Any:
        method = getattr(self.obj, async_name, None)
        if method is not None and inspect.iscoroutinefunction(method):
            return await method(*args, **kwargs)
        return await asyncio.to_thread(getattr(self.obj, sync_name), *args, **kwargs)

    async def _langchain(self, question: str, history: list[dict[str, str]]) -> RagResponse:
        arg: Any = {self._input_key: question} if self._input_key else question
        if self._history_key and isinstance(arg, dict):  # (role, content) pairs: LangChain reads them as messages
            arg[self._history_key] = [("human" if m["role"] == "user" else "ai", m["content"]) for m in history]
        out = await self._call("ainvoke", "invoke", arg)
        if not isinstance(out, Mapping):
            return _unheard(_response(out, []), history, self._history_key)
        answer = next((out[k] for k in _ANSWER_KEYS if k in out), None)
        docs: list[Any] = next((out[k] for k in _DOC_KEYS if isinstance(out.get(k), list)), [])
        if answer is None:
            raise ValueError(f"no answer in the chain's output (keys: {', '.join(list(out)[:8])})")
        return _unheard(_response(answer, docs), history, self._history_key)

    async def _llamaindex(self, question: str, history: list[dict[str, str]]) -> RagResponse:
        chat = hasattr(self.obj, "achat") or hasattr(self.obj, "chat")
        if chat:  # a chat engine takes the conversation as ChatMessages
            from llama_index.core.llms import ChatMessage

            messages = [ChatMessage(role=m["role"], content=m["content"]) for m in history]
            out = await self._call("achat", "chat", question, chat_history=messages)
        else:
            out = await self._call("aquery", "query", question)
        response = _response(getattr(out, "response", out), list(getattr(out, "source_nodes", None) or []))
        return _unheard(response, history, "chat_history" if chat else None)

    async def _haystack(self, question: str, history: list[dict[str, str]]) -> RagResponse:
        data, took_history = _haystack_inputs(self.obj, question, history)
        components = {name for name, _ in self.obj.walk()} if hasattr(self.obj, "walk") else set()
        kwargs = {"include_outputs_from": components} if components else {}
        out = await self._call("run_async", "run", data, **kwargs)
        return _unheard(_haystack_response(out), history, "history" if took_history else None)


def _unheard(response: RagResponse, history: list[dict[str, str]], took: str | None) -> RagResponse:
    """Says on the response when a conversation's earlier turns had nowhere to go: the follow-up was asked
    alone, and its scores say so."""
    if history and took is None:
        response.metadata["history"] = NO_HISTORY
    return response


def _langchain_keys(obj: Any) -> list[str] | None:
    """The input keys of a runnable, or None when it takes the string itself."""
    keys = getattr(obj, "input_keys", None)  # legacy chains
    if isinstance(keys, list) and keys:
        return [str(k) for k in keys]
    try:
        schema = obj.get_input_schema().model_json_schema()
    except Exception:  # a runnable without a schema takes what it is given
        return None
    props = schema.get("properties") or {}
    return list(props) if schema.get("type") == "object" and props else None


def _langchain_input_key(obj: Any) -> str | None:
    """The key a runnable takes the question under, or None when it takes the string itself."""
    keys = _langchain_keys(obj)
    if not keys:
        return None
    if getattr(obj, "input_keys", None):
        return keys[0]
    return next((k for k in _INPUT_KEYS if k in keys), keys[0])


def _langchain_key(obj: Any, wanted: tuple[str, ...]) -> str | None:
    keys = _langchain_keys(obj) or []
    return next((k for k in wanted if k in keys), None)


def _haystack_inputs(pipeline: Any, question: str,
                     history: list[dict[str, str]]) -> tuple[dict[str, dict[str, Any]], bool]:
    """The pipeline's inputs: the question on every free ``query`` / ``question`` socket, the conversation so far
    (as Haystack ChatMessages) on every ``chat_history`` / ``history`` one; and whether any took the history."""
    data: dict[str, dict[str, Any]] = {}
    took_history = False
    for component, sockets in pipeline.inputs().items():
        for socket in sockets:
            if socket in ("query", "question"):
                data.setdefault(component, {})[socket] = question
            elif socket in _HISTORY_KEYS[:2]:  # an empty list for a first turn: the socket may be required
                from haystack.dataclasses import ChatMessage

                data.setdefault(component, {})[socket] = [
                    ChatMessage.from_user(m["content"]) if m["role"] == "user"
                    else ChatMessage.from_assistant(m["content"]) for m in history]
                took_history = True
    if not any("query" in d or "question" in d for d in data.values()):
        raise ConfigError("the Haystack pipeline has no free input named 'query' or 'question' for the question")
    return data, took_history


def _haystack_response(out: Mapping[str, Any]) -> RagResponse:
    answer: Any = None
    docs: list[Any] = []
    for outputs in out.values():
        if not isinstance(outputs, Mapping):
            continue
        answers = outputs.get("answers") or []
        if answers and answer is None:
            answer = answers[0]
            docs = docs or list(getattr(answer, "documents", None) or [])
        replies = outputs.get("replies") or []
        if replies and answer is None:
            answer = replies[0]
        if isinstance(outputs.get("documents"), list) and outputs["documents"]:
            docs = list(outputs["documents"])  # the retriever's list: every document it returned
    if answer is None:
        raise ValueError("no 'replies' or 'answers' in the pipeline's outputs")
    return _response(answer, docs)


def load_framework_target(ref: str, load_object: Callable[[str, str], Any]) -> FrameworkTarget:
    """``langchain:pkg.module:obj`` (likewise ``llamaindex:`` and ``haystack:``): import the object with
    ``load_object(path, ref)`` and wrap it. An object that is a zero-argument factory is called to build it."""
    framework, _, path = ref.partition(":")
    obj = load_object(path, ref)
    if callable(obj) and detect_framework(obj) is None and not _takes_arguments(obj):
        obj = obj()
    needs = _ENTRY_POINTS[framework]
    if not any(hasattr(obj, name) for name in needs):
        raise ConfigError(f"target '{ref}': {type(obj).__name__} is not a {framework} object "
                          f"(it has no {' or '.join(needs)} method)")
    return FrameworkTarget(obj, framework, name=ref)


_ENTRY_POINTS = {"langchain": ("ainvoke", "invoke"), "llamaindex": ("aquery", "query", "achat", "chat"),
                 "haystack": ("run",)}


def _takes_arguments(fn: Any) -> bool:
    try:
        return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                   for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True
