#!/usr/bin/env python3
"""One large plain-text file through ``ragkit kg build --extractor fast`` (issue 13): wall time per stage and
peak RSS of the build process, beside a raw llama.cpp call timed in the same run (the machine's speed).

The file is made of sentences from ``corpora/_source`` recombined at random, every number redrawn, so that no
two chunks are equal (equal chunks would be embedded once). A fresh cache directory makes every step real.

    .venv/bin/python bench/large_text.py --mb 50
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def write_text(path: Path, mb: float, seed: int = 1) -> int:
    sentences = []
    for source in sorted((REPO / "corpora" / "_source").glob("*.txt")):
        sentences += [s.strip() for s in re.split(r"(?<=[.!?])\s+", source.read_text()) if len(s.split()) > 3]
    rng = random.Random(seed)
    target, size, paragraph = int(mb * 1024 * 1024), 0, 0
    with path.open("w", encoding="utf-8") as out:
        while size < target:
            if paragraph % 40 == 0:
                size += out.write(f"Section {paragraph // 40 + 1}\n\n")
            text = " ".join(re.sub(r"\d+", lambda m: str(rng.randint(1, 9999)), rng.choice(sentences))
                            for _ in range(rng.randint(3, 8)))
            size += out.write(text + "\n\n")
            paragraph += 1
    return path.stat().st_size


def raw_call() -> float:
    """A raw llama.cpp call, in its own process (so that no model stays loaded beside the build)."""
    code = ("import sys; sys.path.insert(0, 'bench'); from validity import raw_call_seconds; "
            "from ragkit.llm import Judge; print(raw_call_seconds(Judge(cache=False)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--log", type=Path, help="Write the build's progress lines here (one every 30 s).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        size = write_text(folder / "large.txt", args.mb)
        load = open("/proc/loadavg").read().split()[:3]
        started = time.monotonic()
        build = subprocess.run(
            [str(Path(sys.executable).parent / "ragkit"), "kg", "build", str(folder), "-o", f"{tmp}/kg.json",
             "--extractor", "fast", "--json", "--cache-dir", f"{tmp}/cache", "--max-file-mb", str(args.mb + 1)],
            stdout=subprocess.PIPE, stderr=args.log.open("w") if args.log else subprocess.PIPE, text=True)
        wall = time.monotonic() - started
        if build.returncode != 0:
            sys.exit(f"build failed ({build.returncode}): {(build.stderr or '').strip()[-500:]}")
        summary = json.loads(build.stdout)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # before the llama.cpp process
        llama = raw_call()
    print(json.dumps({
        "file_mb": round(size / 1024 / 1024, 1), "chunks": summary["chunks"]["added"], "wall_s": round(wall, 1),
        "stage_s": summary["seconds"], "peak_rss_mb": round(peak), "raw_llama_call_s": round(llama, 2),
        "load_before": load,
    }, indent=2))


if __name__ == "__main__":
    main()
