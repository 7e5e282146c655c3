"""`ragkit benchmark corpora/acme --target baseline -n 4` on the embedded defaults, end to end, and its report
in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.runs._rundir import RunDir

pytestmark = pytest.mark.live

CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "acme"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_benchmark_acme_baseline_end_to_end(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    started = time.monotonic()
    res = CliRunner().invoke(cli, ["benchmark", str(CORPUS), "--target", "baseline", "-n", "4", "--extractor", "fast",
                                   "-o", str(run_dir), "--json", "--no-progress"])
    wall = time.monotonic() - started
    assert res.exit_code == 0, res.output[-3000:]
    summary = json.loads(res.stdout)
    stages = {k: (round(v["seconds"], 1), v["usage"]["calls"]) for k, v in summary["stages"].items()}
    print(f"\nbenchmark wall {wall:.0f}s; stages (seconds, LLM calls): {stages}; "
          f"{summary['llm_calls_per_sample']} LLM calls per sample")

    c = summary["counts"]
    assert c["requested"] == 4 and 1 <= c["samples"] <= 4
    assert c["responses"] == c["samples"] and c["target_errors"] == 0
    assert c["scored"] == c["samples"]
    run = RunDir.open(run_dir)
    for sample in run.samples():  # every reference context points at a chunk of the run's graph
        assert sample.reference_contexts and all(ctx.chunk_id for ctx in sample.reference_contexts)
    for r in run.responses().values():  # the baseline answered from retrieved, identified chunks
        assert r.response.answer.strip() and len(r.response.retrieved_contexts) == 4
        assert all(ctx.chunk_id and ctx.source for ctx in r.response.retrieved_contexts)
    m = summary["metrics"]
    assert {"faithfulness", "context_recall", "hit_rate"} <= set(m)
    assert m["faithfulness"]["scored"] >= 1 and m["hit_rate"]["scored"] == c["samples"]
    assert 0.0 <= m["faithfulness"]["mean"] <= 1.0
    assert set(summary["stages"]) == {"kg", "generate", "target", "evaluate", "report"}
    assert summary["stages"]["target"]["usage"]["calls"] + summary["stages"]["target"]["usage"]["cache_hits"] \
        == c["samples"]
    html = run.report_path.read_text(encoding="utf-8")
    assert html.count('<tr data-drill="s-') == c["samples"]

    if CHROMIUM is None:
        pytest.skip("headless Chromium is not installed: the report was not opened in a browser")
    shot = tmp_path / "report.png"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0"]
    url = run.report_path.as_uri() + "#s-0"
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", url], capture_output=True, text=True, timeout=90)
    assert not [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    assert re.findall(r'<section class="drill open" id="(s-\d+)"', dom.stdout) == ["s-0"]
    subprocess.run([CHROMIUM, *flags, f"--screenshot={shot}", "--window-size=1400,1300", url],
                   capture_output=True, timeout=90)
    assert shot.read_bytes()[:4] == b"\x89PNG"
