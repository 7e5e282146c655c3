"""End-to-end benchmark cost: wall time by stage and LLM calls per sample of `ragkit benchmark`.

    .venv/bin/python bench/benchmark_run.py                      # corpora/acme, baseline, -n 4, fast extractor
    .venv/bin/python bench/benchmark_run.py -n 10 --extractor llm --fresh-cache

Runs the real command (embedded defaults unless RAGKIT_MODEL is set) into a temporary run directory, then a
second time with --resume to show that a finished run costs nothing, and prints a Markdown table for
bench/README.md. ``--fresh-cache`` uses an empty LLM cache (otherwise earlier runs' cached calls are reused, which
is what a user sees on a rerun, and the table says how many calls were cache hits).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def ragkit(args: list[str], env: dict[str, str]) -> tuple[float, dict]:
    started = time.monotonic()
    proc = subprocess.run([str(Path(sys.executable).parent / "ragkit"), *args, "--json", "--no-progress"],
                          capture_output=True, text=True, env=env)
    wall = time.monotonic() - started
    if proc.returncode != 0:
        sys.exit(f"ragkit {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return wall, json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", default=str(REPO / "corpora" / "acme"))
    ap.add_argument("-n", type=int, default=4)
    ap.add_argument("--extractor", default="fast", choices=["fast", "llm"])
    ap.add_argument("--target", default="baseline")
    ap.add_argument("--fresh-cache", action="store_true")
    a = ap.parse_args()
    env = dict(os.environ)
    tmp = Path(tempfile.mkdtemp(prefix="ragkit-bench-"))
    if a.fresh_cache:
        env["RAGKIT_CACHE_DIR"] = str(tmp / "cache")
    run = tmp / "run"
    wall, s = ragkit(["benchmark", a.docs, "--target", a.target, "-n", str(a.n), "--extractor", a.extractor,
                      "-o", str(run)], env)
    rewall, _ = ragkit(["benchmark", "--resume", str(run)], env)
    samples = s["counts"]["samples"]
    print(f"\n`ragkit benchmark {Path(a.docs).name} --target {a.target} -n {a.n} --extractor {a.extractor}`: "
          f"{samples} samples, process wall {wall:.0f} s (model loads included); resume of the finished run "
          f"{rewall:.0f} s\n")
    print("| stage | seconds | LLM calls | cache hits | prompt / completion tokens | calls per sample |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, st in s["stages"].items():
        u = st["usage"]
        per = f"{u['calls'] / samples:.1f}" if samples else "-"
        print(f"| {name} | {st['seconds']:.1f} | {u['calls']} | {u['cache_hits']} | "
              f"{u['prompt_tokens']} / {u['completion_tokens']} | {per} |")
    print(f"| **total** | {s['wall_seconds']:.1f} | {s['llm_calls']} | | | "
          f"{s['llm_calls_per_sample']:.1f} (generation + target + evaluation) |")
    print("\nmetrics:", ", ".join(f"{k} {v['mean']:.2f}" for k, v in s["metrics"].items() if v["mean"] is not None))
    print(f"run directory: {run}")


if __name__ == "__main__":
    main()
