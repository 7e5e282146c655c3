"""Scale-out on Ray (issue 15): scaling efficiency, driver overhead per sample, driver memory.

    # scaling: a scripted judge that takes LATENCY seconds per call (any number in parallel), 1/2/4/8 actors,
    # PER_ACTOR samples per actor (weak scaling); efficiency = throughput(N) / (N * throughput(1))
    PYTHONPATH=.:tests .venv/bin/python bench/ray_scaling.py latency --actors 1 2 4 8 --per-actor 24

    # the driver alone: N samples through the Ray executor with a metric that makes no LLM call (hit_rate):
    # per-sample driver time and the driver's peak RSS
    PYTHONPATH=.:tests .venv/bin/python bench/ray_scaling.py driver -n 100000 --actors 8

    # the embedded local model in every actor, on this machine's cores
    PYTHONPATH=.:tests .venv/bin/python bench/ray_scaling.py local --actors 1 2 4 8 -n 8

    # the graph build: a corpus with the fast extractor, and with the llm one against a judge that takes LATENCY
    # seconds per reading; wall time, the stages' summed worker seconds, and the relation step on the driver
    PYTHONPATH=.:tests .venv/bin/python bench/ray_scaling.py build corpora/acme --actors 1 2 4 8

Ray runs on this machine (``ray.init(num_cpus=...)``: one logical CPU per actor, whatever the cores). The
scripted judge is ragkit's test seam: the real Judge with litellm's mock response, so each call costs the Judge's
and litellm's own CPU time plus the sleep. Samples are the six facts of tests/run_fixtures.py, each sentence made
unique per copy so that the claim engine's memo does not share work between copies; the answer is the whole
passage, the reference its first fact.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests"
TEST_PATHS = [str(TESTS / "ray"), str(TESTS), str(TESTS / "generators")]
sys.path[:0] = TEST_PATHS

METRICS = ["faithfulness", "context_recall", "factual_correctness"]


def samples(n: int) -> list[Any]:
    from run_fixtures import DOCS, FACTS

    from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

    out = []
    for k in range(n):
        q, a, key = FACTS[k % len(FACTS)]
        tag = f"In copy {k}, "
        text = " ".join(tag + s for s in DOCS[key].split(". ") if s)
        ref = ContextRef(chunk_id=f"{key}-{k}", text=text, source=f"{key}.md")
        out.append(EvalSample(test=TestSample(id=f"s{k}", question=q, reference_answer=tag + a,
                                              reference_contexts=[ref]),
                              response=RagResponse(answer=text, retrieved_contexts=[ref])))
    return out


def slow_judge(latency: float) -> Any:
    from ragkit.settings import Settings
    from ragkit.testing import ScriptedJudge

    settings = Settings(model="openai/scripted-judge", concurrency=4, max_retries=0, cache=False)
    from ray_script import make_slow_reply

    return ScriptedJudge(make_slow_reply(latency), settings=settings)


def timed(executor: Any, data: list[Any], judge: Any, metrics: list[str], concurrency: int) -> dict[str, Any]:
    from ragkit.evaluation import evaluate

    stamps: list[float] = []
    started = time.monotonic()
    result = asyncio.run(evaluate(data, metrics, judge=judge, progress=False, executor=executor,
                                  concurrency=concurrency, on_result=lambda r: stamps.append(time.monotonic())))
    wall = time.monotonic() - started
    failed = sum(a.failed for a in result.aggregates.values())
    errors = sorted({str(sc.explanation)[:300] for r in result.samples for sc in r.scores.values() if sc.value is None})
    steady = (stamps[-1] - stamps[0]) / max(1, len(stamps) - 1) if len(stamps) > 1 else None
    return {"samples": len(data), "wall_s": round(wall, 2), "first_result_s": round(stamps[0] - started, 2),
            "samples_per_s": round(len(data) / wall, 3),
            "steady_s_per_sample": round(steady, 4) if steady else None, "failed_scores": failed,
            "calls": result.usage.stages["evaluate"].calls, "errors": errors[:3]}


def ray_up(cpus: int) -> None:
    import ray

    # the workers import the scripted judge's rule from tests/: the Ray started here inherits this path
    os.environ["PYTHONPATH"] = os.pathsep.join([*TEST_PATHS, os.getcwd(), os.environ.get("PYTHONPATH", "")])
    ray.init(num_cpus=cpus, include_dashboard=False, logging_level="WARNING", log_to_driver=False)


def latency(args: argparse.Namespace) -> None:
    from ragkit.executors import LocalExecutor, RayExecutor

    ray_up(max(args.actors))
    rows = []
    local = timed(LocalExecutor(), samples(args.per_actor), slow_judge(args.latency), METRICS, args.concurrency)
    rows.append({"executor": "local", "actors": 1, **local})
    for n in args.actors:
        row = timed(RayExecutor(actors=n), samples(args.per_actor * n), slow_judge(args.latency), METRICS,
                    args.concurrency)
        rows.append({"executor": "ray", "actors": n, **row})
    one = next(r for r in rows if r["executor"] == "ray" and r["actors"] == 1)
    for r in rows:
        if r["executor"] == "ray":  # end to end (actor start-up included), and between first and last result
            r["efficiency"] = round(r["samples_per_s"] / (r["actors"] * one["samples_per_s"]), 3)
            r["steady_efficiency"] = round(one["steady_s_per_sample"] / (r["actors"] * r["steady_s_per_sample"]), 3)
    print(json.dumps({"latency_s": args.latency, "concurrency_per_actor": args.concurrency,
                      "load": os.getloadavg(), "rows": rows}, indent=1))


def driver(args: argparse.Namespace) -> None:
    from ragkit.executors import RayExecutor
    from ragkit.llm import Judge
    from ragkit.settings import Settings

    ray_up(args.actors)
    data = samples(args.n)
    judge = Judge(settings=Settings(model="openai/none", cache=False))  # hit_rate makes no call
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    row = timed(RayExecutor(actors=args.actors), data, judge, ["hit_rate"], args.concurrency)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"actors": args.actors, **row, "driver_ms_per_sample": round(1000 / row["samples_per_s"], 3),
                      "driver_peak_rss_mb": round(peak / 1024), "rss_before_run_mb": round(before / 1024),
                      "load": os.getloadavg()}, indent=1))


def least_free_memory(run: Any) -> tuple[Any, int]:
    """``run()``, and the least memory the machine had available while it ran, in MB."""
    import threading

    import psutil

    least, done = [psutil.virtual_memory().available], threading.Event()

    def watch() -> None:
        while not done.wait(0.5):
            least[0] = min(least[0], psutil.virtual_memory().available)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return run(), least[0] // 2**20
    finally:
        done.set()
        watcher.join()


def local(args: argparse.Namespace) -> None:
    from validity import raw_call_seconds

    from ragkit.executors import LocalExecutor, RayExecutor
    from ragkit.llm import Judge
    from ragkit.settings import Settings

    ray_up(max(args.actors))
    settings = Settings(cache=False, concurrency=args.concurrency)
    rows = [{"executor": "local", "actors": 1,
             **timed(LocalExecutor(), samples(args.n), Judge(settings=settings), METRICS, args.concurrency)}]
    for n in args.actors:
        row, free_mb = least_free_memory(lambda n=n: timed(RayExecutor(actors=n), samples(args.n),
                                                           Judge(settings=settings), METRICS, args.concurrency))
        rows.append({"executor": "ray", "actors": n, **row, "least_available_memory_mb": free_mb})
    print(json.dumps({"raw_llama_call_s": raw_call_seconds(Judge(settings=settings)), "load": os.getloadavg(),
                      "rows": rows}, indent=1))


def build(args: argparse.Namespace) -> None:
    from ray_script import make_slow_corpus_reply

    from ragkit.executors import LocalExecutor, RayExecutor
    from ragkit.kg import BuildOptions, build_graph
    from ragkit.llm import Embeddings
    from ragkit.settings import Settings
    from ragkit.testing import ScriptedJudge

    ray_up(max(args.actors))
    settings = Settings(model="openai/scripted-judge", concurrency=args.concurrency, max_retries=0, cache=False)
    rows = []
    for extractor in ("fast", "llm"):
        for name, executor in [("local", LocalExecutor()), *[(f"ray x{n}", RayExecutor(actors=n))
                                                               for n in args.actors]]:
            judge = ScriptedJudge(make_slow_corpus_reply(args.latency), settings=settings)
            started = time.monotonic()
            result = asyncio.run(build_graph(Path(args.corpus), BuildOptions(extractor=extractor, progress=False),
                                             judge=judge, executor=executor,
                                             embeddings=Embeddings(settings=settings, cache=False)))
            s = result.summary
            rows.append({"extractor": extractor, "executor": name, "wall_s": round(time.monotonic() - started, 2),
                         "documents": len(result.kg.documents()), "chunks": len(result.kg.chunks()),
                         "llm_calls": s.llm_calls, "stage_seconds": s.seconds})
    print(json.dumps({"latency_s": args.latency, "concurrency_per_actor": args.concurrency,
                      "load": os.getloadavg(), "rows": rows}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    lat = sub.add_parser("latency")
    lat.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4, 8])
    lat.add_argument("--per-actor", type=int, default=24)
    lat.add_argument("--latency", type=float, default=0.5)
    lat.add_argument("--concurrency", type=int, default=4)
    drv = sub.add_parser("driver")
    drv.add_argument("-n", type=int, default=100_000)
    drv.add_argument("--actors", type=int, default=8)
    drv.add_argument("--concurrency", type=int, default=16)
    loc = sub.add_parser("local")
    loc.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4, 8])
    loc.add_argument("-n", type=int, default=8)
    loc.add_argument("--concurrency", type=int, default=1)
    bld = sub.add_parser("build")
    bld.add_argument("corpus")
    bld.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4, 8])
    bld.add_argument("--latency", type=float, default=0.5)
    bld.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    {"latency": latency, "driver": driver, "local": local, "build": build}[args.command](args)


if __name__ == "__main__":
    main()
