"""What a run directory is asked to do: the options, the spec they become, and the ways a run is started.

A run directory is the one result format of every path: ``ragkit benchmark`` creates one; ``ragkit run -o DIR``
creates one from a test set and fills its answers; ``ragkit evaluate DATA -o DIR`` imports answers made
elsewhere (``import_answers``) and scores them; ``report``, ``compare`` and ``gate`` read any of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ragkit._version import __version__
from ragkit.errors import ConfigError, RunError
from ragkit.registry import info_of, spec_of
from ragkit.runs import MetricMeta, RunDir, RunSpec, StageRecord, read_testset
from ragkit.settings import Settings
from ragkit.targets import TargetKind, TargetOptions, TargetSpec, target_kind
from ragkit.types import EvalSample, PluginSpec, TestSample

DEFAULT_METRICS = (
    "faithfulness", "answer_relevancy", "context_precision", "context_recall", "factual_correctness",
    "noise_sensitivity", "claim_recall", "context_utilization", "hallucination", "self_knowledge",
    "hit_rate", "mrr",
)
"""The default suite, in report order; names the installed ragkit does not have are left out."""

CONVERSATION_METRICS = ("reference_resolution", "knowledge_retention", "conversation_completeness")
"""Added to the default suite when the test set has conversations: they read a follow-up turn's history, and on a
single question they have nothing to score."""


class BenchmarkOptions(BaseModel):
    """What ``ragkit benchmark`` was asked to do (stored in spec.json, reused by --resume)."""

    docs: str | None = None
    testset: str | None = None
    n: int = 20
    seed: int = 0
    target: str = "baseline"
    target_options: TargetOptions = Field(default_factory=TargetOptions)
    metrics: list[PluginSpec] | None = None
    """None = the default suite."""
    extractor: Literal["llm", "fast"] = "llm"
    kg: str | None = None
    """A graph file (from `ragkit kg build`) to use instead of building one from ``docs``."""
    testset_format: str | None = None
    """The test set's record format (None = told by its fields)."""
    generators: dict[str, float] | None = None
    generator_args: dict[str, dict[str, Any]] = Field(default_factory=dict)


class BenchmarkSpec(RunSpec):
    """spec.json of a benchmark run: the general RunSpec plus what resuming needs."""

    target_ref: str
    target_options: TargetOptions = Field(default_factory=TargetOptions)
    kg_file: str | None = None
    """The graph file given instead of building one from ``docs``."""
    testset_format: str | None = None


# -- metrics -----------------------------------------------------------------------------------------


def resolve_metrics(specs: list[PluginSpec] | None, *, conversations: bool = False
                    ) -> tuple[list[Any], dict[str, MetricMeta]]:
    """Build metric functions (the default suite when None, with ``CONVERSATION_METRICS`` when the test set has
    ``conversations``) and, by result key, the meta a report needs.

    The result key is the metric's name plus its non-default arguments (``context_precision[reference=ids]``).
    """
    from ragkit.evaluation import build_metric, check_unique, key_of
    from ragkit.registry import available

    if specs is None:
        have = available("metric")
        names = DEFAULT_METRICS + (CONVERSATION_METRICS if conversations else ())
        specs = [PluginSpec(name=n) for n in names if n in have]
        if not specs:
            raise ConfigError("no metrics are installed; pass -m NAME (see `ragkit list metrics`)")
    fns = [build_metric(spec.name, spec.args) for spec in specs]
    check_unique(fns)
    meta = {key_of(fn): MetricMeta(higher_is_better=info_of(fn).higher_is_better, range=info_of(fn).range)
            for fn in fns}
    return fns, meta


def has_conversations(options: BenchmarkOptions, testset: list[TestSample] | None = None) -> bool:
    """Whether the run's test set has conversations: ``testset`` (read from ``options.testset`` when not given)
    has a conversation turn, or, with no test set, the run generates with the ``conversational`` generator."""
    if testset is None and options.testset:
        testset = read_testset(options.testset, format=options.testset_format)
    if testset is not None:
        return any(s.conversation is not None for s in testset)
    return bool((options.generators or {}).get("conversational"))


def new_run(path: str | Path, options: BenchmarkOptions, settings: Settings, *, command: list[str],
            check_testset: bool = True, kind: TargetKind | None = None, conversations: bool | None = None) -> RunDir:
    """Create a run directory for ``options`` (the target is described, not built, here; ``kind`` overrides
    what its reference looks like; ``conversations`` says whether the test set has any, else it is read)."""
    if not options.docs and not options.testset and not options.kg:
        raise ConfigError("give a document folder (DOCS) or --testset")
    if options.target == "baseline" and not options.docs and not options.kg:
        raise ConfigError("the baseline target retrieves from the documents: give the DOCS folder (or --kg)")
    testset = None  # a bad test set is refused before the run directory exists (after bad metric names)
    if conversations is None and options.metrics is None:
        if options.testset and check_testset:
            testset = read_testset(options.testset, format=options.testset_format)
        conversations = has_conversations(options, testset)
    fns, meta = resolve_metrics(options.metrics, conversations=bool(conversations))
    if options.testset and check_testset and testset is None:
        read_testset(options.testset, format=options.testset_format)
    metrics = options.metrics or [spec_of(fn) for fn in fns]
    kind = kind or target_kind(options.target)
    spec = BenchmarkSpec(
        ragkit_version=__version__, command=command, docs=options.docs, testset=options.testset, n=options.n,
        seed=options.seed, model=settings.model, temperature=settings.temperature, embeddings=settings.embeddings,
        extractor=options.extractor if options.docs else None, generators=options.generators,
        generator_args=options.generator_args, metrics=metrics,
        metric_meta=meta, target=TargetSpec(kind=kind, name=options.target), target_ref=options.target,
        target_options=options.target_options, kg_file=options.kg, testset_format=options.testset_format,
    )
    return RunDir.create(path, spec)


def open_run(path: str | Path) -> RunDir:
    """Open a benchmark run for resuming."""
    try:
        return RunDir.open(path, BenchmarkSpec)
    except RunError as exc:
        if "invalid spec" in str(exc) and "target_ref" in str(exc):
            raise RunError(f"{path}: spec.json does not describe a benchmark run; it cannot be resumed") from None
        raise


def import_answers(path: str | Path, samples: list[EvalSample], source: str, settings: Settings, *,
                   metrics: list[PluginSpec] | None, command: list[str]) -> RunDir:
    """A new run directory holding answers made elsewhere (a file ``ragkit evaluate`` reads): its test set and
    answers are written, and its graph, generate and target stages are recorded as done, so that the pipeline
    goes straight to evaluation."""
    options = BenchmarkOptions(testset=source, target=source, n=len(samples), metrics=metrics)
    run = new_run(path, options, settings, command=command, check_testset=False, kind="jsonl",
                  conversations=any(s.test.conversation is not None for s in samples))
    run.replace_samples([s.test for s in samples])
    for sample in samples:
        run.add_response(sample)
    for stage in ("generate", "target"):
        run.add_stage(StageRecord(stage=stage, seconds=0.0, items=len(samples), note="imported"))
    return run


def set_metrics(run: RunDir, metrics: list[PluginSpec] | None) -> None:
    """Make the run's metrics the ones it has scores of, plus ``metrics``, and record them in spec.json; the
    next evaluation computes what is missing (``ragkit evaluate RUN -m NAME``)."""
    from ragkit.evaluation import key_of
    from ragkit.runs import write_json_atomic

    if metrics is None:
        return
    scored = {key for rec in run.scores().values() for key in rec.scores}
    fns, _ = resolve_metrics(run.spec.metrics or None)
    current = [spec for spec, fn in zip(run.spec.metrics, fns, strict=False) if key_of(fn) in scored]
    current += [m for m in metrics if m not in current]
    _, meta = resolve_metrics(current)
    run.spec.metrics, run.spec.metric_meta = current, meta
    write_json_atomic(run.file("spec.json"), run.spec)
