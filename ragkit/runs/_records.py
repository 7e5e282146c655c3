"""One record of a peer's format ⇄ one ``EvalSample``: ragkit, ragas, RAGChecker, DeepEval and Giskard.

Each format has a reader (``from_<format>(record, where, default_id)``) and a writer (``to_<format>(sample)``).
``detect`` tells the format of a record by its field names, so a file may be read without saying what it is.
A record holds what its format holds: a ragkit sample written as Giskard and read back keeps its question,
reference and contexts' text, but Giskard has one reference context string where ragkit has a list, so the
contexts come back joined (their ids travel in Giskard's ``metadata``).
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from ragkit.errors import DataError, validation_error
from ragkit.runs._conversations import exchanges, from_deepeval_conversation, from_ragas_conversation
from ragkit.types import ContextRef, Conversation, EvalSample, PluginSpec, RagResponse, TestSample, Turn

FORMATS = ("ragkit", "ragas", "ragchecker", "deepeval", "giskard")
"""The record formats, by the name ``--format`` and ``ragkit export --to`` use."""


def _describe(exc: ValidationError) -> str:
    loc, msg = validation_error(exc) or ("(record)", str(exc))
    return f"field '{loc}': {msg}"


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _text(record: dict[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
    value = record.get(key)
    if _blank(value) or value == "":
        if required:
            raise DataError(where, f"field '{key}' is missing")
        return None
    if not isinstance(value, str | int | float):
        raise DataError(where, f"field '{key}' must be a string, got {type(value).__name__}")
    return str(value)


def _list(record: dict[str, Any], key: str, where: str) -> list[Any]:
    value = record.get(key)
    if value is not None and hasattr(value, "tolist"):  # numpy arrays from DataFrames and parquet
        value = value.tolist()
    if _blank(value) or value == "":
        return []
    if isinstance(value, str):  # CSV cells: a JSON array or a Python list literal (ragas's to_csv)
        text = value.strip()
        if not text.startswith("["):
            return [value]
        try:
            value = json.loads(text)
        except ValueError:
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                raise DataError(where, f"field '{key}' is not a readable list: {text[:60]!r}") from None
    if not isinstance(value, list | tuple):
        raise DataError(where, f"field '{key}' must be a list, got {type(value).__name__}")
    return list(value)


def _mapping(record: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = record.get(key)
    if _blank(value) or value == "":
        return {}
    if isinstance(value, str):  # CSV cells hold JSON
        try:
            value = json.loads(value)
        except ValueError:
            raise DataError(where, f"field '{key}' is not a readable JSON object: {value[:60]!r}") from None
    if not isinstance(value, dict):
        raise DataError(where, f"field '{key}' must be an object, got {type(value).__name__}")
    return {k: v for k, v in value.items() if not _blank(v)}  # parquet fills absent struct fields with None


def _contexts(record: dict[str, Any], key: str, ids_key: str, where: str) -> list[ContextRef]:
    texts = _list(record, key, where)
    ids = _list(record, ids_key, where) if ids_key else []
    if all(_blank(i) for i in ids):  # a column of nulls (parquet, DataFrames) says nothing
        ids = []
    if ids and texts and len(ids) != len(texts):
        raise DataError(where, f"field '{ids_key}' has {len(ids)} ids for {len(texts)} contexts in '{key}'")
    if ids and not texts:  # ids only: id-based metrics still work
        return [ContextRef(chunk_id=str(i), text="") for i in ids]
    out = []
    for n, item in enumerate(texts):
        if isinstance(item, dict):
            try:
                ref = ContextRef.model_validate({k: v for k, v in item.items() if not _blank(v)})
            except ValidationError as exc:
                raise DataError(where, f"{key}[{n}]: {_describe(exc)}") from None
        elif isinstance(item, str):
            ref = ContextRef(text=item)
        else:
            raise DataError(where, f"field '{key}[{n}]' must be a string, got {type(item).__name__}")
        if ids and not _blank(ids[n]):
            ref.chunk_id = str(ids[n])
        out.append(ref)
    return out


def _generator(name: str | None) -> PluginSpec | None:
    return PluginSpec(name=name) if name else None


# -- ragkit ------------------------------------------------------------------------------------------


def from_ragkit(record: dict[str, Any], where: str, default_id: str = "") -> EvalSample:
    """An EvalSample line, or a TestSample line with the target's output under ``response``."""
    try:
        if "test" in record:
            return EvalSample.model_validate(record)
        fields = {k: v for k, v in record.items() if not _blank(v)}
        response = fields.pop("response", None)
        contexts = fields.pop("retrieved_contexts", None)
        for key in ("reference_contexts", "scenario", "metadata", "generator", "conversation", "history"):  # JSON
            # cells in CSV / parquet
            cell = fields.get(key)
            if isinstance(cell, str) and cell.strip()[:1] in ("[", "{"):
                try:
                    fields[key] = json.loads(cell)
                except ValueError:
                    raise DataError(where, f"field '{key}' is not readable JSON: {cell[:60]!r}") from None
        if hasattr(fields.get("reference_contexts"), "tolist"):
            fields["reference_contexts"] = _contexts(fields, "reference_contexts", "", where)
        test = TestSample.model_validate(fields)
        for name in ("id", "question"):
            if not getattr(test, name).strip():
                raise DataError(where, f"field '{name}' is empty")
        if response is None or isinstance(response, str):
            resp = RagResponse.model_validate({"answer": response or "", "retrieved_contexts": contexts or []})
        else:
            resp = RagResponse.model_validate(response)
        return EvalSample(test=test, response=resp)
    except ValidationError as exc:
        raise DataError(where, _describe(exc)) from None


def to_ragkit(sample: EvalSample) -> dict[str, Any]:
    return sample.model_dump(mode="json")


# -- ragas -------------------------------------------------------------------------------------------


def from_ragas(record: dict[str, Any], where: str, default_id: str) -> EvalSample:
    """A ragas ``SingleTurnSample`` record: a row of an EvaluationDataset, or of a generated Testset (which adds
    ``synthesizer_name``, and in some versions nests the sample under ``eval_sample``)."""
    if isinstance(record.get("eval_sample"), dict):
        record = {**record["eval_sample"], **{k: v for k, v in record.items() if k != "eval_sample"}}
    sample_id = _text(record, "id", where) or _text(record, "sample_id", where) or default_id
    metadata: dict[str, Any] = {}
    rubric = record.get("rubrics")
    if not _blank(rubric) and rubric:
        metadata["rubric"] = json.loads(rubric) if isinstance(rubric, str) else rubric
    test = TestSample(
        id=sample_id,
        question=_text(record, "user_input", where, required=True) or "",
        reference_answer=_text(record, "reference", where),
        reference_contexts=_contexts(record, "reference_contexts", "reference_context_ids", where),
        generator=_generator(_text(record, "synthesizer_name", where)),
        persona=_text(record, "persona_name", where),
        style=_text(record, "query_style", where),
        length=_text(record, "query_length", where),
        metadata=metadata,
    )
    response = RagResponse(
        answer=_text(record, "response", where) or "",
        retrieved_contexts=_contexts(record, "retrieved_contexts", "retrieved_context_ids", where),
    )
    return EvalSample(test=test, response=response)


def to_ragas(s: EvalSample) -> dict[str, Any]:
    """The ragas column names (plus ``id``, the context ids and the generator as ``synthesizer_name``)."""
    record: dict[str, Any] = {
        "id": s.id,
        "user_input": s.test.question,
        "response": s.response.answer,
        "retrieved_contexts": [c.text for c in s.response.retrieved_contexts],
        "reference": s.test.reference_answer,
        "reference_contexts": [c.text for c in s.test.reference_contexts],
        "retrieved_context_ids": [c.chunk_id for c in s.response.retrieved_contexts],
        "reference_context_ids": [c.chunk_id for c in s.test.reference_contexts],
        "synthesizer_name": s.test.generator.name if s.test.generator else None,
    }
    if "rubric" in s.test.metadata:
        record["rubrics"] = s.test.metadata["rubric"]
    return record


# -- RAGChecker --------------------------------------------------------------------------------------


def from_ragchecker(record: dict[str, Any], where: str, default_id: str) -> EvalSample:
    """One RAGChecker ``results[]`` entry."""
    contexts = []
    for n, item in enumerate(_list(record, "retrieved_context", where)):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise DataError(where, f"field 'retrieved_context[{n}]' must be an object with a 'text' string")
        doc_id = item.get("doc_id")
        contexts.append(ContextRef(chunk_id=None if doc_id is None else str(doc_id), text=item["text"]))
    test = TestSample(
        id=_text(record, "query_id", where) or default_id,
        question=_text(record, "query", where, required=True) or "",
        reference_answer=_text(record, "gt_answer", where),
    )
    return EvalSample(test=test, response=RagResponse(answer=_text(record, "response", where) or "",
                                                      retrieved_contexts=contexts))


def to_ragchecker(s: EvalSample) -> dict[str, Any]:
    """One ``results[]`` entry; RAGChecker has no turns, so a conversation's turn asks its transcript."""
    query = s.test.transcript() if s.test.history else s.test.question
    return {"query_id": s.id, "query": query, "gt_answer": s.test.reference_answer or "",
            "response": s.response.answer,
            "retrieved_context": [{"doc_id": c.chunk_id or str(i), "text": c.text}
                                  for i, c in enumerate(s.response.retrieved_contexts)]}


# -- DeepEval ----------------------------------------------------------------------------------------


def from_deepeval(record: dict[str, Any], where: str, default_id: str) -> EvalSample:
    """A DeepEval golden (or test case): ``input``, ``expected_output``, ``context`` (the ground-truth passages),
    ``actual_output`` and ``retrieval_context`` (what the system answered and retrieved), ``additional_metadata``."""
    metadata = _mapping(record, "additional_metadata", where)
    ids = metadata.pop("reference_context_ids", None) or []
    retrieved_ids = metadata.pop("retrieved_context_ids", None) or []
    extra = {"reference_context_ids": ids, "retrieved_context_ids": retrieved_ids}
    test = TestSample(
        id=_text(record, "name", where) or str(metadata.pop("id", "") or "") or default_id,
        question=_text(record, "input", where, required=True) or "",
        reference_answer=_text(record, "expected_output", where),
        reference_contexts=_contexts({**record, **extra}, "context", "reference_context_ids", where),
        generator=_generator(metadata.pop("generator", None)),
        metadata=metadata,
    )
    if record.get("source_file"):
        for ref in test.reference_contexts:
            ref.source = ref.source or str(record["source_file"])
    response = RagResponse(
        answer=_text(record, "actual_output", where) or "",
        retrieved_contexts=_contexts({**record, **extra}, "retrieval_context", "retrieved_context_ids", where),
    )
    return EvalSample(test=test, response=response)


def to_deepeval(s: EvalSample) -> dict[str, Any]:
    """A golden; with an answer, also the test-case fields (DeepEval reads both from one file)."""
    metadata: dict[str, Any] = {**s.test.metadata,
                                "reference_context_ids": [c.chunk_id for c in s.test.reference_contexts]}
    if s.test.generator:
        metadata["generator"] = s.test.generator.name
    record: dict[str, Any] = {
        "name": s.id,
        "input": s.test.question,
        "expected_output": s.test.reference_answer,
        "context": [c.text for c in s.test.reference_contexts] or None,
        "source_file": next((c.source for c in s.test.reference_contexts if c.source), None),
        "additional_metadata": metadata,
    }
    if s.response.answer or s.response.retrieved_contexts:
        record["actual_output"] = s.response.answer
        record["retrieval_context"] = [c.text for c in s.response.retrieved_contexts]
        metadata["retrieved_context_ids"] = [c.chunk_id for c in s.response.retrieved_contexts]
    return record


# -- Giskard -----------------------------------------------------------------------------------------

_GISKARD_TYPES = {"simple": "single_hop", "complex": "single_hop", "double": "multi_hop",
                  "distracting element": "noisy_context", "out of scope": "unanswerable"}
"""Giskard RAGET question types and the nearest ragkit generator (kept as ``metadata.question_type`` too)."""


def from_giskard(record: dict[str, Any], where: str, default_id: str) -> EvalSample:
    """A row of a Giskard RAGET ``QATestset`` (``testset.save("x.jsonl")``): ``id``, ``question``,
    ``reference_answer``, ``reference_context`` (one string), ``conversation_history``, ``metadata``."""
    metadata = _mapping(record, "metadata", where)
    ids = metadata.pop("reference_context_ids", None)
    context = _text(record, "reference_context", where)
    texts = metadata.pop("reference_contexts", None) or ([context] if context else [])
    if ids is None:
        seed = metadata.get("seed_document_id")
        ids = [None if _blank(seed) else str(seed)] if texts else []
    if len(ids) != len(texts):
        ids = [None] * len(texts)
    kind = metadata.get("question_type")
    sample_id = _text(record, "id", where) or default_id
    history = _giskard_history(_list(record, "conversation_history", where), where)
    test = TestSample(
        conversation=Conversation(id=sample_id, turn=len(history) + 1, turns=len(history) + 1) if history else None,
        history=history,
        id=sample_id,
        question=_text(record, "question", where, required=True) or "",
        reference_answer=_text(record, "reference_answer", where),
        reference_contexts=[ContextRef(chunk_id=i, text=t) for i, t in zip(ids, texts, strict=True)],
        generator=_generator(metadata.pop("generator", None) or _GISKARD_TYPES.get(str(kind))),
        metadata=metadata,
    )
    return EvalSample(test=test, response=RagResponse(answer=_text(record, "agent_answer", where) or ""))


def to_giskard(s: EvalSample) -> dict[str, Any]:
    texts = [c.text for c in s.test.reference_contexts]
    kinds = {v: k for k, v in _GISKARD_TYPES.items() if k != "complex"}
    generator = s.test.generator.name if s.test.generator else None
    metadata: dict[str, Any] = {
        "question_type": kinds.get(generator or "", "simple"),
        "seed_document_id": s.test.reference_contexts[0].chunk_id if s.test.reference_contexts else None,
        "topic": s.test.scenario.get("topic") or s.test.metadata.get("topic") or "",
        "generator": generator,
        "reference_context_ids": [c.chunk_id for c in s.test.reference_contexts],
        "reference_contexts": texts,
    }
    return {"id": s.id, "question": s.test.question, "reference_answer": s.test.reference_answer or "",
            "reference_context": "\n\n".join(texts), "conversation_history": s.test.messages()[:-1],
            "metadata": metadata}


def _giskard_history(messages: list[Any], where: str) -> list[Turn]:
    """Giskard's ``conversation_history`` (``{"role", "content"}`` messages) as the turns before the question:
    each user message with the assistant's reply after it, which the conversation keeps as given."""
    said = exchanges(messages, where, role_key="role", field="conversation_history", need_user=False)
    return [Turn(question=ex.question, answer=ex.answer) for ex in said]


# -- detection ---------------------------------------------------------------------------------------

Reader = Callable[[dict[str, Any], str, str], EvalSample]
READERS: dict[str, Reader] = {"ragkit": from_ragkit, "ragas": from_ragas, "ragchecker": from_ragchecker,
                              "deepeval": from_deepeval, "giskard": from_giskard}
WRITERS: dict[str, Callable[[EvalSample], dict[str, Any]]] = {
    "ragkit": to_ragkit, "ragas": to_ragas, "ragchecker": to_ragchecker, "deepeval": to_deepeval,
    "giskard": to_giskard}


def detect(record: dict[str, Any]) -> str | None:
    """The format of a record, by its field names (None when no format fits)."""
    if "test" in record:
        return "ragkit"
    if "reference_context" in record or "conversation_history" in record:
        return "giskard"
    if "question" in record and "id" in record:
        return "ragkit"
    if "user_input" in record or isinstance(record.get("eval_sample"), dict):
        return "ragas"
    if "query" in record and ("gt_answer" in record or "retrieved_context" in record):
        return "ragchecker"
    if "scenario" in record and "turns" in record:
        return "deepeval"
    if "input" in record and ({"expected_output", "actual_output", "context", "retrieval_context"} & set(record)):
        return "deepeval"
    return None


def parse_record(record: Any, where: str, default_id: str, fmt: str | None = None) -> list[EvalSample]:
    """Read one record in format ``fmt``, or in the format its fields show: one sample, or one per turn of a
    conversation (a ragas ``MultiTurnSample``, a DeepEval ``ConversationalGolden``)."""
    if not isinstance(record, dict):
        raise DataError(where, f"expected a JSON object, got {type(record).__name__}")
    fmt = fmt or detect(record)
    if fmt is None:
        raise DataError(where, "unrecognised record: expected the fields of ragkit (id, question, ...), ragas "
                               "(user_input, ...), RAGChecker (query, gt_answer, ...), DeepEval (input, "
                               "expected_output, ...) or Giskard (question, reference_context, ...)")
    if fmt == "ragas" and isinstance(messages := _messages(record, where), list):
        return from_ragas_conversation({**record, "user_input": messages}, where, default_id)
    if fmt == "deepeval" and "turns" in record and "input" not in record:
        return from_deepeval_conversation(record, where, default_id)
    return [READERS[fmt](record, where, default_id)]


def _messages(record: dict[str, Any], where: str) -> list[Any] | None:
    """ragas's ``user_input`` when it is a message list (a multi-turn sample; a JSON cell in CSV), else None."""
    value: Any = record.get("user_input")
    if isinstance(value, str) and value.lstrip().startswith("[{"):
        value = _list(record, "user_input", where)
    if hasattr(value, "tolist"):
        value = value.tolist()
    return list(value) if isinstance(value, list | tuple) else None
