"""Reading and writing evaluation data: ragkit JSONL, ragas column names, RAGChecker JSON.

``load_samples(source)`` accepts, and detects per record:

- ragkit JSONL: ``EvalSample`` lines ``{"test": {...}, "response": {...}}``, or ``TestSample`` lines
  (``id``, ``question``, ...) with the target's output under ``response`` (a ``RagResponse`` object, or the
  answer as a string next to an optional ``retrieved_contexts`` list);
- the ragas column names, as JSONL, a JSON list, CSV or a pandas DataFrame: ``user_input``, ``response``,
  ``retrieved_contexts``, ``reference``, ``reference_contexts``, and optionally ``retrieved_context_ids``,
  ``reference_context_ids``, ``rubrics`` and an ``id`` / ``sample_id`` column (else ids are ``row-N``);
- RAGChecker JSON: ``{"results": [{query_id, query, gt_answer, response, retrieved_context: [{doc_id, text}]}]}``
  (``doc_id`` becomes the context's ``chunk_id``).

A malformed record raises ``DataError`` with a one-line message naming the file, the line (or row / sample)
and the field. Writers: ``save_jsonl`` (ragkit), ``to_ragas`` / ``save_ragas`` (JSONL or CSV),
``to_dataframe``, ``to_ragchecker``.
"""

from __future__ import annotations

import ast
import csv
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ragkit._atomic import open_atomic
from ragkit.errors import DataError, validation_error, validation_message
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

if TYPE_CHECKING:
    import pandas as pd

RAGAS_COLUMNS = ("user_input", "response", "retrieved_contexts", "reference", "reference_contexts")


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
    if value is not None and hasattr(value, "tolist"):  # numpy arrays from DataFrames
        value = value.tolist()
    if not isinstance(value, list | tuple):
        raise DataError(where, f"field '{key}' must be a list, got {type(value).__name__}")
    return list(value)


def _contexts(record: dict[str, Any], key: str, ids_key: str, where: str) -> list[ContextRef]:
    texts = _list(record, key, where)
    ids = _list(record, ids_key, where)
    if ids and texts and len(ids) != len(texts):
        raise DataError(where, f"field '{ids_key}' has {len(ids)} ids for {len(texts)} contexts in '{key}'")
    if ids and not texts:  # ids only: id-based metrics still work
        return [ContextRef(chunk_id=str(i), text="") for i in ids]
    out = []
    for n, item in enumerate(texts):
        if isinstance(item, dict):
            try:
                ref = ContextRef.model_validate(item)
            except ValidationError as exc:
                raise DataError(where, f"{key}[{n}]: {_describe(exc)}") from None
        elif isinstance(item, str):
            ref = ContextRef(text=item)
        else:
            raise DataError(where, f"field '{key}[{n}]' must be a string, got {type(item).__name__}")
        if ids:
            ref.chunk_id = str(ids[n])
        out.append(ref)
    return out


def from_ragas(record: dict[str, Any], where: str, default_id: str) -> EvalSample:
    """One ragas-named record (a row of a ragas dataset) as an EvalSample."""
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
        metadata=metadata,
    )
    response = RagResponse(
        answer=_text(record, "response", where) or "",
        retrieved_contexts=_contexts(record, "retrieved_contexts", "retrieved_context_ids", where),
    )
    return EvalSample(test=test, response=response)


def from_ragchecker(record: dict[str, Any], where: str, default_id: str) -> EvalSample:
    """One RAGChecker ``results[]`` entry as an EvalSample."""
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


def from_ragkit(record: dict[str, Any], where: str) -> EvalSample:
    """An EvalSample line, or a TestSample line with the target's output under ``response``."""
    try:
        if "test" in record:
            return EvalSample.model_validate(record)
        fields = dict(record)
        response = fields.pop("response", None)
        contexts = fields.pop("retrieved_contexts", None)
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


def parse_record(record: Any, where: str, default_id: str) -> EvalSample:
    """Detect the format of one record and read it."""
    if not isinstance(record, dict):
        raise DataError(where, f"expected a JSON object, got {type(record).__name__}")
    if "test" in record or ("question" in record and "id" in record):
        return from_ragkit(record, where)
    if "user_input" in record:
        return from_ragas(record, where, default_id)
    if "query" in record and ("gt_answer" in record or "retrieved_context" in record):
        return from_ragchecker(record, where, default_id)
    raise DataError(where, "unrecognised record: expected ragkit (test/response, or id/question), ragas "
                           "(user_input, response, ...) or RAGChecker (query, gt_answer, ...) fields")


Record = tuple[Any, str, str]
"""A raw record, where it is (``file line 3``, ``file item [0]``) and the sample id it gets when it has none."""


def parse_records(records: Iterable[Record]) -> list[EvalSample]:
    """Read each record (``parse_record``); a sample id used twice is an error naming both places."""
    samples: list[EvalSample] = []
    seen: dict[str, str] = {}
    for record, where, default_id in records:
        sample = parse_record(record, where, default_id)
        if sample.id in seen:
            raise DataError(where, f"sample id '{sample.id}' is used twice (first at {seen[sample.id]})")
        seen[sample.id] = where
        samples.append(sample)
    return samples


def load_samples(source: str | Path | pd.DataFrame | Sequence[dict[str, Any]]) -> list[EvalSample]:
    """Read evaluation samples from a file (.jsonl, .json, .csv), a DataFrame or a list of records."""
    if isinstance(source, str | Path):
        return parse_records(read_records(Path(source)))
    if hasattr(source, "to_dict"):
        records = source.to_dict(orient="records")
        return parse_records(_numbered(records, "DataFrame row {n}", first=0))
    return parse_records(_numbered(list(source), "record {n}", first=0))


def _numbered(records: Iterable[Any], label: str, *, first: int = 1) -> list[Record]:
    """Records with their place: ``label`` names one, with ``{n}`` for its position."""
    return [(record, label.format(n=n), f"row-{n}") for n, record in enumerate(records, first)]


def read_records(path: str | Path) -> list[Record]:
    """The raw records of a .jsonl, .json (a list, or RAGChecker's ``{"results": [...]}``) or .csv file, each
    with its place in the file; an unreadable file or line is an error naming it."""
    path = Path(path)
    if not path.is_file():
        raise DataError(str(path), "no such file")
    suffix = path.suffix.lower()
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(path), f"cannot read: {exc}") from None
    if suffix == ".csv":
        records = _csv_records(path, text)
    elif suffix == ".json" or (suffix != ".jsonl" and text.lstrip()[:1] in "[" and text.strip()):
        records = _json_records(path, text)
    else:
        records = _jsonl_records(path, text)
    if not records:
        raise DataError(str(path), "no samples")
    return records


def _csv_records(path: Path, text: str) -> list[Record]:
    try:
        rows = list(csv.DictReader(text.splitlines()))
    except csv.Error as exc:
        raise DataError(str(path), f"invalid CSV: {exc}") from None
    return _numbered(rows, f"{path} line {{n}}", first=2)  # line 1 is the header


def _json_records(path: Path, text: str) -> list[Record]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise DataError(str(path), f"invalid JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        return _numbered(data["results"], f"{path} results[{{n}}]", first=0)
    if isinstance(data, list):
        return _numbered(data, f"{path} item [{{n}}]", first=0)
    raise DataError(str(path), "expected a JSON list of records or a RAGChecker {\"results\": [...]} object")


def _jsonl_records(path: Path, text: str) -> list[Record]:
    records: list[Record] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path} line {n}"
        try:
            records.append((json.loads(line), where, f"row-{n}"))
        except ValueError as exc:
            raise DataError(where, f"invalid JSON: {exc}") from None
    return records


def read_testset(path: str | Path) -> list[TestSample]:
    """A ragkit test set: JSONL of TestSample lines (EvalSample lines are accepted too)."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DataError(str(path), f"test set cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise DataError(str(path), f"not UTF-8 text (byte {exc.start}): a test set is JSONL of TestSample") from None
    out: list[TestSample] = []
    seen: set[str] = set()
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = TestSample.model_validate_json(line) if '"test"' not in line[:20] else \
                EvalSample.model_validate_json(line).test
        except ValueError as exc:
            raise DataError(f"{path}:{lineno}", validation_message(exc)) from None
        if raw.id in seen:
            raise DataError(f"{path}:{lineno}", f"duplicate sample id {raw.id!r}")
        seen.add(raw.id)
        out.append(raw)
    if not out:
        raise DataError(str(path), "the test set is empty")
    return out



# -- writers --------------------------------------------------------------------------------------


def save_jsonl(samples: Iterable[EvalSample], path: str | Path) -> None:
    """Write EvalSample lines (ragkit JSONL)."""
    with open_atomic(path) as fh:
        for sample in samples:
            fh.write(sample.model_dump_json() + "\n")


def to_ragas(samples: Iterable[EvalSample]) -> list[dict[str, Any]]:
    """Records with the ragas column names (plus ``id`` and the context ids)."""
    out = []
    for s in samples:
        record: dict[str, Any] = {
            "id": s.id,
            "user_input": s.test.question,
            "response": s.response.answer,
            "retrieved_contexts": [c.text for c in s.response.retrieved_contexts],
            "reference": s.test.reference_answer,
            "reference_contexts": [c.text for c in s.test.reference_contexts],
            "retrieved_context_ids": [c.chunk_id for c in s.response.retrieved_contexts],
            "reference_context_ids": [c.chunk_id for c in s.test.reference_contexts],
        }
        if "rubric" in s.test.metadata:
            record["rubrics"] = s.test.metadata["rubric"]
        out.append(record)
    return out


def to_dataframe(samples: Iterable[EvalSample]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(to_ragas(samples))


def save_ragas(samples: Iterable[EvalSample], path: str | Path) -> None:
    """Write ragas-named records as JSONL, or CSV (lists as JSON arrays) when ``path`` ends in .csv."""
    records = to_ragas(samples)
    path = Path(path)
    with open_atomic(path, newline="") as fh:
        if path.suffix.lower() == ".csv":
            writer = csv.DictWriter(fh, fieldnames=list(records[0]) if records else list(RAGAS_COLUMNS))
            writer.writeheader()
            for r in records:
                writer.writerow({k: json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict) else v
                                 for k, v in r.items()})
        else:
            for r in records:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def to_ragchecker(samples: Iterable[EvalSample]) -> dict[str, Any]:
    """The RAGChecker input JSON object."""
    return {"results": [
        {"query_id": s.id, "query": s.test.question, "gt_answer": s.test.reference_answer or "",
         "response": s.response.answer,
         "retrieved_context": [{"doc_id": c.chunk_id or str(i), "text": c.text}
                               for i, c in enumerate(s.response.retrieved_contexts)]}
        for s in samples
    ]}
