"""The HTML report in headless Chromium: table and drill-down render, no console errors, no script injection."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from run_fixtures import PAYLOAD, make_run

from ragkit.report._comparison import compare_runs, render_comparison
from ragkit.report._html import render_report
from ragkit.report._summary import summarize

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                                "(Debian: apt-get install -y chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]


def chromium(tmp_path: Path, url: str, *extra: str) -> tuple[str, list[str]]:
    """Run Chromium on ``url``; returns (stdout, console messages)."""
    profile = tmp_path / "profile"
    proc = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, url],  # type: ignore[list-item]
                          capture_output=True, text=True, timeout=90)
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
    return proc.stdout, console


@pytest.fixture
def report(tmp_path: Path) -> Path:
    run = make_run(tmp_path / "run", n=12)
    path = run.report_path
    path.write_text(render_report(run, summarize(run)), encoding="utf-8")
    return path


def test_console_detector_and_payload_are_live(tmp_path: Path) -> None:
    """Controls: the payload does run in a plain page, and console errors are seen (so the tests below can fail)."""
    page = tmp_path / "control.html"
    page.write_text(f"<!DOCTYPE html><html><head><title>clean</title></head><body>{PAYLOAD}"
                    "<script>undefinedFunction()</script></body></html>")
    dom, console = chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert "<title>pwned" in dom
    assert any("undefinedFunction" in line for line in console)


def test_table_and_drill_down_render_without_errors(tmp_path: Path, report: Path) -> None:
    dom, console = chromium(tmp_path, report.as_uri() + "#s-4", "--dump-dom")
    assert not console, console
    assert "<title>ragkit report: run</title>" in dom  # the injected script did not set the title
    assert "pwned" not in dom.split("</title>")[0]
    assert len(re.findall(r'<tr data-drill="s-\d+"', dom)) == 12
    assert '12 of 12 samples' in dom  # the page's own script ran (filter counter)
    open_drills = re.findall(r'<section class="drill open" id="(s-\d+)"', dom)
    assert open_drills == ["s-4"]
    drill = dom.split('id="s-4"')[1].split('<section class="drill"')[0]
    assert "Question 4 about the Porto plant?" in drill and "Retrieved contexts (2)" in drill
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in drill  # shown as text
    assert "<img" not in dom


def test_screenshot(tmp_path: Path, report: Path) -> None:
    shot = tmp_path / "report.png"
    _, console = chromium(tmp_path, report.as_uri() + "#s-1", f"--screenshot={shot}", "--window-size=1400,1300")
    assert not console, console
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000  # a real, non-blank page


def test_comparison_page_renders(tmp_path: Path) -> None:
    a = make_run(tmp_path / "a", n=10, seed=1)
    b = make_run(tmp_path / "b", n=10, seed=1, shift=0.2)
    page = tmp_path / "compare.html"
    page.write_text(render_comparison(compare_runs(a, b)), encoding="utf-8")
    dom, console = chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert not console, console
    assert "faithfulness" in dom and "better" in dom
