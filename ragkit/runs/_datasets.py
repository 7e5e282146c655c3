"""Reading and writing test sets and answered samples, in every peer's format and container.

``load_samples(source)`` and ``read_testset(source)`` accept:

- a file: ``.jsonl``, ``.json`` (a list, or RAGChecker's ``{"results": [...]}``), ``.csv`` or ``.parquet``;
- a folder written by Hugging Face ``datasets`` (``save_to_disk``), or a ragkit run directory;
- ``hf:owner/name`` (``hf:owner/name:split``) from the Hugging Face hub, when it can be reached;
- a ``datasets.Dataset``, a pandas DataFrame or a list of dicts.

Each record's format (``_records.FORMATS``: ragkit, ragas, RAGChecker, DeepEval, Giskard) is told by its fields,
or forced with ``format=``. A malformed record raises ``DataError`` with a one-line message naming the file,
the line (or row) and the field. ``write_samples`` writes any of those formats, and the ``csv``, ``parquet``
and ``hf`` containers (with ragas's column names, the common tongue of RAG datasets).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragkit._atomic import open_atomic
from ragkit.errors import ConfigError, DataError
from ragkit.runs._conversations import group_turns, to_deepeval_conversation, to_ragas_conversation
from ragkit.runs._records import FORMATS, WRITERS, parse_record, to_ragas
from ragkit.types import EvalSample, TestSample

if TYPE_CHECKING:
    import pandas as pd

Record = tuple[Any, str, str]
"""A raw record, where it is (``file line 3``, ``file item [0]``) and the sample id it gets when it has none."""

EXPORTS = (*FORMATS, "csv", "parquet", "hf")
"""What ``write_samples`` (and ``ragkit export --to``) writes."""


def parse_records(records: Iterable[Record], fmt: str | None = None) -> list[EvalSample]:
    """Read each record (``parse_record``); a sample id used twice is an error naming both places."""
    if fmt is not None and fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    samples: list[EvalSample] = []
    seen: dict[str, str] = {}
    for record, where, default_id in records:
        for sample in parse_record(record, where, default_id, fmt):
            if sample.id in seen:
                raise DataError(where, f"sample id '{sample.id}' is used twice (first at {seen[sample.id]})")
            seen[sample.id] = where
            samples.append(sample)
    return samples


def load_samples(source: Any, *, format: str | None = None) -> list[EvalSample]:
    """Read evaluation samples from any source this module knows (see the module's docstring)."""
    if isinstance(source, str | Path):
        path = Path(source)
        if path.is_dir() and (path / "spec.json").is_file():
            return _run_samples(path)
        return parse_records(read_records(source), format)
    if hasattr(source, "column_names") and hasattr(source, "to_list"):  # a datasets.Dataset
        return parse_records(_numbered(source.to_list(), "Dataset row {n}", first=0), format)
    if hasattr(source, "to_dict"):
        return parse_records(_numbered(source.to_dict(orient="records"), "DataFrame row {n}", first=0), format)
    return parse_records(_numbered(list(source), "record {n}", first=0), format)


def read_testset(source: Any, *, format: str | None = None) -> list[TestSample]:
    """The test samples of any source ``load_samples`` reads (answers, if the source has them, are ignored)."""
    return [s.test for s in load_samples(source, format=format)]


def _run_samples(path: Path) -> list[EvalSample]:
    """A run directory's samples, each with its latest answer (or none, when the target has not run)."""
    from ragkit.runs._rundir import iter_jsonl

    answered = {s.id: s for s in iter_jsonl(path / "responses.jsonl", EvalSample)}
    tests = list(iter_jsonl(path / "samples.jsonl", TestSample))
    if not tests and not answered:
        raise DataError(str(path), "the run directory has no samples")
    out = [answered.get(t.id) or EvalSample(test=t) for t in tests]
    return out + [s for s in answered.values() if s.id not in {t.id for t in tests}]


def _numbered(records: Iterable[Any], label: str, *, first: int = 1) -> list[Record]:
    """Records with their place: ``label`` names one, with ``{n}`` for its position."""
    return [(record, label.format(n=n), f"row-{n}") for n, record in enumerate(records, first)]


def read_records(source: str | Path) -> list[Record]:
    """The raw records of a file, a ``save_to_disk`` folder or ``hf:owner/name``, each with its place; an
    unreadable file or line is an error naming it."""
    if isinstance(source, str) and source.startswith("hf:"):
        return _hub_records(source)
    path = Path(source)
    if path.is_dir():
        return _dataset_records(path)
    if not path.is_file():
        raise DataError(str(path), "no such file")
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return _parquet_records(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(str(path), f"not UTF-8 text (byte {exc.start}): test sets and answers are UTF-8 "
                                   "JSONL, JSON, CSV or parquet") from None
    except OSError as exc:
        raise DataError(str(path), f"cannot read: {exc.strerror or exc}") from None
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
    if isinstance(data, dict) and isinstance(data.get("goldens"), list):  # DeepEval's dataset object
        return _numbered(data["goldens"], f"{path} goldens[{{n}}]", first=0)
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


def _parquet_records(path: Path) -> list[Record]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("reading parquet needs pyarrow: pip install 'ragkit[datasets]'") from None
    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises its own error classes for every kind of bad file
        raise DataError(str(path), f"not a readable parquet file: {exc}") from None
    if not rows:
        raise DataError(str(path), "no samples")
    return _numbered(rows, f"{path} row {{n}}", first=0)


def _datasets() -> Any:
    try:
        import datasets
    except ImportError:
        raise ConfigError("Hugging Face datasets need the datasets package: pip install 'ragkit[datasets]'") from None
    return datasets


def _one_split(data: Any, where: str, split: str | None = None) -> Any:
    """A Dataset from a DatasetDict: the split asked for, else ``test``, else the only one."""
    if not hasattr(data, "keys"):
        return data
    names = list(data.keys())
    chosen = split or ("test" if "test" in names else names[0] if len(names) == 1 else None)
    if chosen not in names:
        raise DataError(where, f"choose a split ({', '.join(names)}): hf:owner/name:SPLIT")
    return data[chosen]


def _dataset_records(path: Path) -> list[Record]:
    if not any((path / name).exists() for name in ("dataset_info.json", "state.json", "dataset_dict.json")):
        raise DataError(str(path), "a folder must be a run directory or a Hugging Face save_to_disk folder")
    try:
        data = _one_split(_datasets().load_from_disk(str(path)), str(path))
    except (OSError, ValueError) as exc:
        raise DataError(str(path), f"cannot load the dataset: {exc}") from None
    return _numbered(data.to_list(), f"{path} row {{n}}", first=0)


def _hub_records(source: str) -> list[Record]:
    name, _, split = source[3:].partition(":")
    try:
        data = _one_split(_datasets().load_dataset(name, split=split or None), source, split or None)
    except (OSError, ValueError, ConnectionError) as exc:
        raise DataError(source, f"cannot load from the Hugging Face hub: {str(exc).splitlines()[0]}") from None
    return _numbered(data.to_list(), f"{source} row {{n}}", first=0)


# -- writers --------------------------------------------------------------------------------------


def records_as(samples: Iterable[EvalSample], fmt: str) -> list[dict[str, Any]]:
    """The samples as records of one format (``_records.FORMATS``). In ragas and DeepEval a conversation is one
    record (``_conversations``); elsewhere each turn is."""
    samples = list(samples)
    if fmt == "ragkit" and not any(s.response.answer or s.response.retrieved_contexts for s in samples):
        return [s.test.model_dump(mode="json") for s in samples]  # a test set: TestSample lines
    joined = {"ragas": to_ragas_conversation, "deepeval": to_deepeval_conversation}.get(fmt)
    if joined is None:
        return [WRITERS[fmt](s) for s in samples]
    return [joined(g) if g[0].test.conversation else WRITERS[fmt](g[0]) for g in group_turns(samples, lambda s: s.test)]


def to_dataframe(samples: Iterable[EvalSample]) -> pd.DataFrame:
    """A pandas DataFrame with ragas's column names."""
    import pandas as pd

    return pd.DataFrame([to_ragas(s) for s in samples])


def to_hf_dataset(samples: Iterable[EvalSample]) -> Any:
    """A ``datasets.Dataset`` with ragas's column names."""
    return _datasets().Dataset.from_list([to_ragas(s) for s in samples])


def write_samples(samples: Iterable[EvalSample], path: str | Path, fmt: str = "ragkit") -> Path:
    """Write the samples in ``fmt`` (``EXPORTS``); returns the path written. JSONL for ragkit, ragas and Giskard
    (ragas: CSV or parquet when ``path`` ends so), a JSON list for DeepEval, ``{"results": [...]}`` for
    RAGChecker; ``csv``, ``parquet`` and ``hf`` (a ``save_to_disk`` folder) hold ragas's columns."""
    if fmt not in EXPORTS:
        raise ConfigError(f"unknown export format {fmt!r}: choose one of {', '.join(EXPORTS)}")
    path = Path(path)
    suffix = path.suffix.lower()
    if fmt == "hf":
        to_hf_dataset(samples).save_to_disk(str(path))
        return path
    if fmt == "parquet" or (fmt == "ragas" and suffix == ".parquet"):
        _write_parquet(records_as(samples, "ragas"), path)
    elif fmt == "csv" or (fmt == "ragas" and suffix == ".csv"):
        _write_csv(records_as(samples, "ragas"), path)
    elif fmt == "ragchecker":
        _write_json({"results": records_as(samples, fmt)}, path)
    elif fmt == "deepeval":
        _write_json(_deepeval_records(list(samples), path), path)
    else:
        with open_atomic(path) as fh:
            for record in records_as(samples, fmt):
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def _deepeval_records(samples: list[EvalSample], path: Path) -> list[dict[str, Any]]:
    """DeepEval's records; it keeps single questions and conversations in separate datasets, so a mix is refused
    with what to do instead."""
    turns = sum(s.test.conversation is not None for s in samples)
    if 0 < turns < len(samples):
        raise ConfigError(f"{path}: DeepEval keeps single questions and conversations in separate datasets, and "
                          f"this test set has {len(samples) - turns} single question(s) and {turns} conversation "
                          "turn(s): write each part to its own file")
    return records_as(samples, "deepeval")


def save_jsonl(samples: Iterable[EvalSample], path: str | Path) -> None:
    """Write EvalSample lines (ragkit JSONL, answers included)."""
    with open_atomic(path) as fh:
        for sample in samples:
            fh.write(sample.model_dump_json() + "\n")


def _write_json(data: Any, path: Path) -> None:
    with open_atomic(path) as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)


def _write_csv(records: list[dict[str, Any]], path: Path) -> None:
    """Lists and objects as JSON in their cells (read back by ``load_samples``)."""
    with open_atomic(path, newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(records[0]) if records else ["id", "user_input"])
        writer.writeheader()
        for r in records:
            writer.writerow({k: json.dumps(v, ensure_ascii=False) if isinstance(v, list | dict) else v
                             for k, v in r.items()})


def _write_parquet(records: list[dict[str, Any]], path: Path) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("writing parquet needs pyarrow: pip install 'ragkit[datasets]'") from None
    tmp = path.with_name(path.name + ".partial")
    pq.write_table(pa.Table.from_pylist(records), tmp)
    tmp.replace(path)
