"""The run directory: what a benchmark run writes, as it goes, so that it can be resumed and reported.

    runs/NAME/
      spec.json        RunSpec: format_version first, ragkit version, models, plugin specs, corpus hash, seed
      kg.json          the knowledge graph the test set was generated from (baseline retrieves from it)
      samples.jsonl    one TestSample per line
      responses.jsonl  one EvalSample (test + target response) per line: readable by `ragkit evaluate`
      scores.jsonl     one ScoreRecord (sample id, scores by metric, error) per line
      log.jsonl        one StageRecord per finished stage session (seconds, LLM usage)
      summary.json     Summary (rewritten at the end of each session)
      report.html      the HTML report

JSONL files are append-only, one fsync per record. After a crash (kill -9, power loss) the last line may be cut
short: readers skip it with a warning, and the next append first cuts the file back to its last complete line.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragkit._atomic import open_atomic, write_atomic
from ragkit.errors import ConfigError, DataError, RunError, redact, validation_message
from ragkit.targets import TargetSpec
from ragkit.types import EvalSample, PluginSpec, Score, StageUsage, TestSample

log = logging.getLogger("ragkit")

FORMAT_VERSION = 1
"""Version of the run-directory format written by this ragkit."""
OLDEST_READABLE = 1
"""Oldest format this ragkit can read (older ones are refused with a message saying what to do)."""

M = TypeVar("M", bound=BaseModel)


class MetricMeta(BaseModel):
    """What a report needs to know about a metric without importing it."""

    higher_is_better: bool = True
    range: tuple[float, float] = (0.0, 1.0)


class RunSpec(BaseModel):
    """Everything needed to understand and rerun a run. ``format_version`` is the first field."""

    model_config = ConfigDict(extra="allow")

    format_version: int = FORMAT_VERSION
    ragkit_version: str
    created: str = Field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    command: list[str] = Field(default_factory=list)
    docs: str | None = None
    """The document folder (absent when the run started from a test set)."""
    testset: str | None = None
    """The test-set file the run started from (instead of generating one)."""
    corpus_hash: str | None = None
    n: int = 0
    seed: int = 0
    model: str
    """The Judge's litellm model string."""
    temperature: float = 0.0
    embeddings: str | None = None
    extractor: Literal["llm", "fast"] | None = None
    generators: dict[str, float] | None = None
    """Requested generator mix (None = the default distribution)."""
    generator_args: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Generator name → the arguments it was built with (absent in runs of ragkit 0.1.0 before this field)."""
    metrics: list[PluginSpec] = Field(default_factory=list)
    metric_meta: dict[str, MetricMeta] = Field(default_factory=dict)
    target: TargetSpec


def metric_keys(spec: RunSpec) -> list[str]:
    """The run's metric result keys in order (name plus non-default arguments, as evaluation keys them)."""
    return list(spec.metric_meta) or [m.name for m in spec.metrics]


class ScoreRecord(BaseModel):
    """One sample's scores: a line of scores.jsonl."""

    sample_id: str
    scores: dict[str, Score] = Field(default_factory=dict)
    error: str | None = None


class StageRecord(BaseModel):
    """One finished stage of one session: a line of log.jsonl."""

    stage: Literal["kg", "generate", "target", "evaluate", "report"]
    seconds: float
    items: int = 0
    """Samples (or documents for kg) handled in this session."""
    usage: StageUsage = Field(default_factory=StageUsage)
    dropped: dict[str, int] = Field(default_factory=dict)
    """generate: candidates the critic or the cheap checks dropped, by reason."""
    note: str | None = None
    at: str = Field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))


# -- crash-tolerant JSONL ----------------------------------------------------------------------------


def repair_tail(path: Path) -> bool:
    """Cut a JSONL file back to its last complete line (after a crash mid-write). True when it changed."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    with path.open("rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return False
        fh.seek(0)
        data = fh.read()
        cut = data.rfind(b"\n") + 1
        tail = data[cut:]
        try:
            json.loads(tail)
        except ValueError:
            fh.truncate(cut)
            log.warning("%s: dropped an incomplete last record (%d bytes) left by an interrupted run", path,
                        len(tail))
            return True
        fh.seek(0, os.SEEK_END)
        fh.write(b"\n")  # the record was whole, only its newline was lost
        return True


def iter_jsonl(path: Path, model: type[M]) -> Iterator[M]:
    """Records of a JSONL file. An unreadable *last* line without a newline (a crash) is skipped with a warning;
    any other bad line raises RunError naming the file and line."""
    if not path.exists():
        return
    with path.open("rb") as fh:
        lines = fh.read().split(b"\n")
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield model.model_validate_json(line)
        except ValidationError as exc:
            if lineno == len(lines):  # no newline after it: cut short by a crash
                log.warning("%s:%d: skipped an incomplete last record (interrupted run)", path, lineno)
                return
            raise RunError(f"{path}:{lineno}: invalid {model.__name__} record: "
                           f"{validation_message(exc, root='(line)')}") from None


class JsonlAppender:
    """Append-only JSONL writer: one record per line, flushed and fsynced before ``append`` returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        repair_tail(path)
        self._fh: IO[bytes] | None = None

    def append(self, record: BaseModel) -> None:
        if self._fh is None:
            self._fh = self.path.open("ab")
        self._fh.write(redact(record.model_dump_json()).encode("utf-8") + b"\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def write_json_atomic(path: Path, data: BaseModel | dict[str, Any]) -> None:
    """Write JSON through a temporary file and an atomic rename (never a half-written file)."""
    text = data.model_dump_json(indent=2) if isinstance(data, BaseModel) else json.dumps(data, indent=2,
                                                                                        ensure_ascii=False)
    write_atomic(path, text)


def rewrite_jsonl(path: Path, records: list[Any]) -> None:
    """Replace a JSONL file with ``records`` atomically (a temporary file, fsync, rename)."""
    with open_atomic(path, "wb") as fh:
        for r in records:
            fh.write(r.model_dump_json().encode("utf-8") + b"\n")


# -- the run directory -------------------------------------------------------------------------------


def check_format(raw: Any, where: str) -> int:
    """The format version of a spec.json payload, or RunError when this ragkit cannot read it."""
    if not isinstance(raw, dict) or "format_version" not in raw:
        raise RunError(f"{where}: not a ragkit run (spec.json has no format_version)")
    version = raw["format_version"]
    written_by = raw.get("ragkit_version", "an unknown version")
    if not isinstance(version, int):
        raise RunError(f"{where}: format_version {version!r} is not an integer")
    if version > FORMAT_VERSION:
        raise RunError(f"{where}: written by ragkit {written_by} in run format {version}; this ragkit reads formats "
                       f"{OLDEST_READABLE}-{FORMAT_VERSION}. Upgrade ragkit to read it.")
    if version < OLDEST_READABLE:
        raise RunError(f"{where}: written by ragkit {written_by} in run format {version}, which this ragkit no "
                       f"longer reads (oldest readable: {OLDEST_READABLE}). Rerun the benchmark, or read it with "
                       f"ragkit {written_by}.")
    return version


class RunDir:
    """A run directory on disk (see the module docstring). Open with ``create`` or ``open``."""

    FILES = ("spec.json", "samples.jsonl", "responses.jsonl", "scores.jsonl", "log.jsonl", "summary.json")

    def __init__(self, path: Path, spec: RunSpec) -> None:
        self.path = path
        self.spec = spec
        self._writers: dict[str, JsonlAppender] = {}

    # paths
    @property
    def kg_path(self) -> Path:
        return self.path / "kg.json"

    @property
    def report_path(self) -> Path:
        return self.path / "report.html"

    def file(self, name: str) -> Path:
        return self.path / name

    @classmethod
    def create(cls, path: str | Path, spec: RunSpec) -> RunDir:
        """Start a new run; refuses a directory that already holds a run (resume it instead)."""
        path = Path(path)
        if (path / "spec.json").exists():
            raise ConfigError(f"{path} already holds a run; resume it with --resume {path} or choose another -o")
        if path.is_dir() and any(path.iterdir()):
            raise ConfigError(f"-o {path} is a folder that holds no run but other files: choose a new or empty one")
        try:
            path.mkdir(parents=True, exist_ok=True)
            write_json_atomic(path / "spec.json", spec)
        except OSError as exc:
            raise RunError(f"{path}: cannot create the run directory ({exc.strerror or exc})") from None
        return cls(path, spec)

    @classmethod
    def open(cls, path: str | Path, spec_model: type[RunSpec] = RunSpec) -> RunDir:
        """Open an existing run (for resuming or reporting); checks its format version.

        ``spec_model`` is the RunSpec subclass to read spec.json as (extra fields are kept either way).
        """
        path = Path(path)
        spec_path = path / "spec.json"
        if not spec_path.is_file():
            raise DataError(str(path), "not a ragkit run directory (no spec.json)")
        try:
            raw = json.loads(spec_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RunError(f"{spec_path}: unreadable ({exc})") from None
        check_format(raw, str(spec_path))
        try:
            spec = spec_model.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise RunError(f"{spec_path}: invalid spec: {'.'.join(map(str, err['loc']))}: {err['msg']}") from None
        return cls(path, spec)

    # reading
    def samples(self) -> list[TestSample]:
        """The test set, in order (a sample written twice keeps its first position and last content)."""
        out: dict[str, TestSample] = {}
        for s in iter_jsonl(self.file("samples.jsonl"), TestSample):
            out[s.id] = s
        return list(out.values())

    def responses(self) -> dict[str, EvalSample]:
        return {r.test.id: r for r in iter_jsonl(self.file("responses.jsonl"), EvalSample)}

    def scores(self) -> dict[str, ScoreRecord]:
        return {r.sample_id: r for r in iter_jsonl(self.file("scores.jsonl"), ScoreRecord)}

    def stages(self) -> list[StageRecord]:
        return list(iter_jsonl(self.file("log.jsonl"), StageRecord))

    def finished(self, stage: str) -> bool:
        return any(r.stage == stage and r.note not in ("interrupted", "failed") for r in self.stages())

    def summary(self) -> dict[str, Any] | None:
        path = self.file("summary.json")
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise RunError(f"{path}: unreadable ({exc})") from None
        return data if isinstance(data, dict) else None

    # notebooks
    def to_pandas(self) -> Any:
        """One row per sample: its question and labels, the answer, and one column per metric score."""
        import pandas as pd

        responses, scores = self.responses(), self.scores()
        rows = []
        for s in self.samples():
            resp = responses.get(s.id)
            rec = scores.get(s.id)
            rows.append({
                "sample_id": s.id, "question": s.question, "generator": s.generator.name if s.generator else None,
                "persona": s.persona, "style": s.style, "language": s.language, "reference": s.reference_answer,
                "answer": resp.response.answer if resp else None, "error": resp.response.error if resp else None,
                "latency_s": resp.response.latency_s if resp else None,
                **({k: v.value for k, v in rec.scores.items()} if rec else {}),
            })
        return pd.DataFrame(rows)

    def _repr_html_(self) -> str:
        """The metric table of summary.json (notebooks)."""
        from ragkit._tables import html_table

        summary = self.summary() or {}
        metrics = summary.get("metrics") or {}
        rows = [(k, m.get("mean"), m.get("low"), m.get("high"), m.get("scored")) for k, m in metrics.items()]
        return html_table(("metric", "mean", "95% low", "95% high", "scored"), rows,
                          caption=f"{self.path} · {len(self.samples())} samples"
                                  + ("" if summary else " · not summarised yet"))

    # writing
    def _writer(self, name: str) -> JsonlAppender:
        if name not in self._writers:
            self._writers[name] = JsonlAppender(self.file(name))
        return self._writers[name]

    def replace_samples(self, samples: list[TestSample]) -> None:
        """Rewrite samples.jsonl with exactly ``samples`` (atomically)."""
        self._close_writer("samples.jsonl")
        rewrite_jsonl(self.file("samples.jsonl"), samples)

    def compact_responses(self) -> None:
        """One line per sample (the latest answer), in test-set order: what `ragkit evaluate` expects."""
        self._close_writer("responses.jsonl")
        latest = self.responses()
        order = [s.id for s in self.samples() if s.id in latest]
        rewrite_jsonl(self.file("responses.jsonl"), [latest[i] for i in order])

    def _close_writer(self, name: str) -> None:
        writer = self._writers.pop(name, None)
        if writer is not None:
            writer.close()

    def add_sample(self, sample: TestSample) -> None:
        self._writer("samples.jsonl").append(sample)

    def add_response(self, sample: EvalSample) -> None:
        self._writer("responses.jsonl").append(sample)

    def add_scores(self, record: ScoreRecord) -> None:
        self._writer("scores.jsonl").append(record)

    def add_stage(self, record: StageRecord) -> None:
        self._writer("log.jsonl").append(record)

    def write_summary(self, summary: BaseModel) -> None:
        write_json_atomic(self.file("summary.json"), summary)

    def close(self) -> None:
        for w in self._writers.values():
            w.close()
        self._writers.clear()
