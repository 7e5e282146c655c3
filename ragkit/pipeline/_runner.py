"""The benchmark pipeline: graph → test set → target → evaluate → report, written to a run directory as it goes.

Resuming (``ragkit benchmark --resume RUN_DIR``) reads what is on disk and does only what is missing:
- kg: the run's saved ``kg.json`` is reused as is (the test set was generated from it);
- generate: a finished test set is reused; an interrupted generation is rerun with the same seed, and the Judge's
  SQLite cache answers every call it had already made, so nothing is paid twice;
- target: samples with a response are skipped (failed responses are retried);
- evaluate: samples with a score record are skipped.
Every stage session appends its wall time and LLM usage to log.jsonl.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ragkit._atomic import write_atomic
from ragkit.errors import RagkitError, RunError
from ragkit.llm import Embeddings
from ragkit.pipeline._asking import run_target
from ragkit.pipeline._runs import BenchmarkSpec, resolve_metrics
from ragkit.report import NOT_SCORED
from ragkit.runs import RunDir, ScoreRecord, StageRecord, read_testset, rewrite_jsonl, write_json_atomic
from ragkit.settings import Settings
from ragkit.targets import Target, close_target, make_target
from ragkit.types import EvalSample, StageUsage, TestSample

log = logging.getLogger("ragkit")

def failed_score(score: Any) -> bool:
    """A score the judge (or the metric) failed to compute: worth retrying on resume."""
    return score.value is None and "error" in (score.details or {}) and score.details["error"] != "target"


# -- helpers -----------------------------------------------------------------------------------------


def corpus_hash(kg: Any) -> str:
    """A hash of the documents in a graph (path and content hash of each)."""
    parts = sorted(f"{d.path}\x00{d.content_hash}" for d in kg.documents())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


@contextlib.contextmanager
def _stage(run: RunDir, name: str, judge: Any, counter: list[int],
           dropped: dict[str, int] | None = None) -> Iterator[None]:
    """Time a stage and record it in log.jsonl (also when interrupted, marked as such); ``dropped`` is filled by
    the stage (generation's dropped candidates by reason)."""
    started = time.monotonic()
    before = judge.usage.total.model_copy() if judge is not None else StageUsage()
    note = None
    try:
        yield
    except RagkitError as exc:
        note = "failed"
        exc.stage = exc.stage or name  # the one line the user sees names the stage
        raise
    except BaseException:
        note = "interrupted"
        raise
    finally:
        usage = judge.usage.total.since(before) if judge is not None else StageUsage()
        run.add_stage(StageRecord(stage=name, seconds=round(time.monotonic() - started, 3),  # type: ignore[arg-type]
                                  items=counter[0], usage=usage, dropped=dict(dropped or {}), note=note))


# -- the pipeline ------------------------------------------------------------------------------------


class Pipeline:
    """One session of a benchmark run (a fresh start or a resume)."""

    def __init__(self, run: RunDir, *, judge: Any, embeddings: Any = None, settings: Settings | None = None,
                 progress: bool = True, say: Callable[[str], None] | None = None) -> None:
        self.run, self.judge = run, judge
        self.settings = settings or Settings.load()
        # generation's critic needs one (near-duplicate questions); the graph build and the metrics made their own
        self.embeddings = embeddings if embeddings is not None else Embeddings(settings=self.settings)
        self.progress = progress
        self.say = say or (lambda msg: None)
        self.spec: BenchmarkSpec = run.spec  # type: ignore[assignment]
        self.kg: Any = None

    async def execute(self) -> Any:
        """Run every unfinished stage; returns the Summary."""
        await self.answer()
        return await self.score()

    async def answer(self) -> list[TestSample]:
        """The stages up to the target's answers (``ragkit run -o DIR``): graph, test set, target."""
        if self.needs_graph():
            await self.stage_kg()
        samples = await self.stage_generate()
        await self.stage_target(samples)
        return samples

    async def score(self) -> Any:
        """Evaluate what is answered and not yet scored, then report (``ragkit evaluate RUN``); the Summary."""
        await self.stage_evaluate(self.run.samples())
        return self.stage_report()

    def needs_graph(self) -> bool:
        """A graph is built (or loaded) to generate from, or for the baseline to retrieve from; a given test set
        with any other target needs none."""
        if not (self.spec.docs or self.spec.kg_file):
            return False
        return not self.spec.testset or self.spec.target_ref == "baseline"

    def _graph_cache(self) -> Path:
        assert self.spec.docs
        key = hashlib.sha256(f"{Path(self.spec.docs).resolve()}|{self.spec.extractor}|{self.spec.model}|"
                             f"{self.spec.embeddings}".encode()).hexdigest()[:16]
        return self.settings.cache_dir / "graphs" / f"{key}.json"

    async def stage_kg(self) -> None:
        from ragkit.kg import KnowledgeGraph

        if self.run.kg_path.exists() and self.run.finished("kg"):
            self.kg = KnowledgeGraph.load(self.run.kg_path)
            return
        if self.spec.kg_file:
            with _stage(self.run, "kg", None, [1]):
                self.kg = KnowledgeGraph.load(self.spec.kg_file)
                self.kg.save(self.run.kg_path)
            return
        docs, extractor = self.spec.docs, self.spec.extractor
        assert docs and extractor, "the kg stage runs only when documents were given"
        from ragkit.executors import make_executor
        from ragkit.kg import BuildOptions, build_graph

        cache = self._graph_cache()
        previous = None
        if cache.exists():
            try:
                previous = KnowledgeGraph.load(cache)
            except RagkitError as exc:
                log.warning("ignoring the cached graph %s: %s", cache, exc)
        counter = [0]
        with _stage(self.run, "kg", self.judge, counter):
            options = BuildOptions(extractor=extractor, progress=self.progress)
            result = await build_graph(Path(docs), options, previous=previous, judge=self.judge,
                                       embeddings=self.embeddings, executor=make_executor(self.settings))
            self.kg = result.kg
            counter[0] = len(self.kg.documents())
            for skipped in getattr(result.summary, "skipped", []) or []:
                self.say(f"skipped {skipped.path}: {skipped.reason}")
            if not self.kg.chunks():
                raise RunError(f"{self.spec.docs}: no usable documents (nothing to generate questions from)")
            self.kg.save(self.run.kg_path)
            cache.parent.mkdir(parents=True, exist_ok=True)
            self.kg.save(cache)
        self.spec.corpus_hash = corpus_hash(self.kg)
        write_json_atomic(self.run.file("spec.json"), self.spec)
        self.say(f"graph: {counter[0]} documents, {len(self.kg.chunks())} chunks")

    async def stage_generate(self) -> list[TestSample]:
        if self.run.finished("generate"):
            return self.run.samples()
        counter, dropped = [0], dict[str, int]()
        with _stage(self.run, "generate", self.judge, counter, dropped):
            if self.spec.testset:
                samples = read_testset(self.spec.testset, format=self.spec.testset_format)
                self.spec.n = len(samples)  # -n does not apply to a given test set
                write_json_atomic(self.run.file("spec.json"), self.spec)
            else:
                samples = await self._generate(dropped)
            # The finished test set replaces what on_sample wrote so far: after an interrupted generation the
            # rerun (answered from the Judge cache) is the canonical list. No later stage has started yet.
            self.run.replace_samples(samples)
            counter[0] = len(samples)
            if not samples:
                raise RunError(self._why_empty())
        return self.run.samples()

    def _why_empty(self) -> str:
        """Why generation gave no sample: the judge's failures when there were any, else the notes."""
        stages = self.judge.usage.stages.items() if self.judge is not None else []
        failed = sum(u.failures for name, u in stages if name.split("/")[0] == "generate")
        last = getattr(self.judge, "last_failure", None)
        if failed and last:
            return f"no sample was generated: {failed} judge call(s) failed, the last with: {last}"
        return "the test set is empty: nothing to run (see the generation notes above)"

    async def _generate(self, dropped: dict[str, int]) -> list[TestSample]:
        from ragkit.executors import make_executor
        from ragkit.synthesis import GenerateOptions, generate

        written = {s.id for s in self.run.samples()}

        def on_sample(sample: TestSample) -> None:
            if sample.id not in written:
                written.add(sample.id)
                self.run.add_sample(sample)

        options = GenerateOptions(distribution=self.spec.generators, generator_args=self.spec.generator_args,
                                  seed=self.spec.seed, progress=self.progress)
        result = await generate(self.kg, self.spec.n, options, judge=self.judge, embeddings=self.embeddings,
                                on_sample=on_sample, executor=make_executor(self.settings))
        for note in getattr(result, "notes", []) or []:
            self.say(f"generate: {note}")
        dropped.update(result.dropped)
        if result.dropped_samples:  # the dropped candidates whole, with why: for the user to read
            rewrite_jsonl(self.run.file("dropped.jsonl"), result.dropped_samples)
        if len(result.samples) < self.spec.n:
            self.say(f"generate: {len(result.samples)} of {self.spec.n} samples")
        return result.written()

    async def stage_target(self, samples: list[TestSample]) -> None:
        done = self.run.responses()
        todo = [s for s in samples if s.id not in done or done[s.id].response.error]
        if not todo:
            return
        if self.run.finished("target") and done:
            self.say(f"target: retrying {len(todo)} failed answer(s)")
        target = make_target(self.spec.target_ref, options=self.spec.target_options, kg=self.kg,
                             judge=self.judge, embeddings=self.embeddings)
        counter = [0]

        def on_response(sample: EvalSample) -> None:
            counter[0] += 1
            self.run.add_response(sample)

        try:
            with _stage(self.run, "target", self.judge, counter):
                failed = await run_target(todo, target, on_response, concurrency=self._target_concurrency(target),
                                          progress=self.progress, answered=done.values())
        finally:
            await close_target(target)
        if len(done) + counter[0] > len(samples):  # retried answers: keep only the latest line per sample
            self.run.compact_responses()
        if failed:
            self.say(f"target: {failed} of {len(todo)} question(s) failed (recorded per sample)")

    def _target_concurrency(self, target: Target) -> int:
        """One question at a time for the baseline on an embedded model: the model runs one call at a time
        anyway, and queued questions would count their wait as answer latency."""
        if target.spec.kind == "baseline" and getattr(self.judge, "is_local", False):
            return 1
        return self.settings.concurrency

    async def stage_evaluate(self, samples: list[TestSample]) -> None:
        """Score every answered sample that lacks a score of the run's metrics (or whose score failed); a metric
        added to a scored run (``ragkit evaluate RUN -m NAME``) is computed and merged into each record."""
        from ragkit.evaluation import key_of

        metrics, _ = resolve_metrics(self.spec.metrics)
        wanted = {key_of(fn) for fn in metrics}
        responses, scored = self.run.responses(), self.run.scores()
        todo: list[EvalSample] = []
        for s in samples:
            resp, rec = responses.get(s.id), scored.get(s.id)
            if resp is None:
                continue
            if resp.response.error:  # nothing to score; recorded once, rescored if a resume fixes the answer
                if rec is None or not (rec.error or "").startswith(NOT_SCORED):
                    self.run.add_scores(ScoreRecord(sample_id=s.id,
                                                    error=f"{NOT_SCORED}: the target failed ({resp.response.error})"))
                continue
            if rec is None or rec.error or any(failed_score(sc) for sc in rec.scores.values()) \
                    or not wanted <= set(rec.scores):
                todo.append(resp)
        if not todo:
            if not self.run.finished("evaluate"):
                self.run.add_stage(StageRecord(stage="evaluate", seconds=0.0, items=0))
            return
        await self._score(todo, metrics, scored)

    async def _score(self, todo: list[EvalSample], metrics: list[Any], scored: dict[str, ScoreRecord]) -> None:
        from ragkit.evaluation import evaluate
        from ragkit.executors import make_executor

        counter = [0]
        written: set[str] = set()

        def on_result(result: Any) -> None:
            counter[0] += 1
            written.add(result.sample_id)
            before = scored.get(result.sample_id)
            kept = {k: v for k, v in before.scores.items() if not failed_score(v)} if before else {}
            self.run.add_scores(ScoreRecord(sample_id=result.sample_id, scores={**kept, **result.scores},
                                            error=result.error))

        with _stage(self.run, "evaluate", self.judge, counter):
            result = await evaluate(todo, metrics, judge=self.judge, embeddings=self.embeddings,
                                    progress=self.progress, on_result=on_result,
                                    executor=make_executor(self.settings))
            for r in result.samples:
                if r.sample_id not in written:
                    on_result(r)

    def stage_report(self) -> Any:
        from ragkit.report import render_report, summarize

        counter = [1]
        with _stage(self.run, "report", None, counter):
            summary = summarize(self.run)
            self.run.write_summary(summary)
            write_atomic(self.run.report_path, render_report(self.run, summary))
        summary = summarize(self.run)  # include the report stage's own time
        self.run.write_summary(summary)
        return summary

