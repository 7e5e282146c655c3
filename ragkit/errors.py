"""The one exception tree of ragkit.

    RagkitError                      anything ragkit raises on purpose; the CLI prints its message in one line
    ├── ConfigError                  a bad setting, option or argument value                     (bad input: exit 2)
    ├── PluginError                  a plugin is badly shaped or registered twice                 (bad input: exit 2)
    │   └── UnknownPluginError       no metric / generator of that name (with did-you-mean)
    ├── CorpusError                  a document folder or file cannot be used (carries ``path``)  (bad input: exit 2)
    ├── GraphError                   a knowledge-graph file is corrupt or from a newer ragkit     (bad input: exit 2)
    ├── DataError                    a test set / answers / results file is malformed (``where``) (bad input: exit 2)
    │   └── MissingFieldError        samples lack fields that chosen metrics need
    ├── JudgeError                   the LLM behind the Judge failed
    │   ├── JudgeOutputError         invalid output after every re-ask (carries the raw output)
    │   ├── JudgeTimeoutError        a call went past its timeout on every attempt
    │   └── JudgeUnavailableError    the model cannot be reached or loaded (auth, network, missing package)
    ├── TargetError                  the RAG system under test failed
    └── RunError                     a run directory cannot be created, read or resumed

``BadInput`` is the common base of the five "bad input" classes; ``exit_code`` says how the CLI ends for each.

Secrets never travel in a message: ``redact`` masks the values of secret-looking environment variables (names
with KEY, TOKEN, SECRET, PASSWORD, AUTH or CREDENTIAL), values registered with ``register_secret`` (API keys given
as arguments, target headers), bearer tokens and the well-known key shapes (``sk-…``, ``AKIA…``, ``ghp_…``).
Proxies and gateways often echo a key back, so a ``RagkitError`` is redacted when it is turned into text, and
every writer redacts what it writes: the atomic writer (every output file), the run directory's JSONL appender,
the reply cache, the log handler and the terminal views.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL", re.I)
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}")
_KEY_SHAPES = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}"  # OpenAI, Anthropic (sk-ant-...), DeepSeek and most OpenAI-compatible gateways
    r"|AKIA[0-9A-Z]{16}"  # AWS access key id
    r"|AIza[0-9A-Za-z_-]{35}"  # Google API key
    r"|gh[pousr]_[A-Za-z0-9]{30,}"  # GitHub tokens
    r"|hf_[A-Za-z0-9]{30,}"  # Hugging Face
    r"|xox[abposr]-[A-Za-z0-9-]{10,})")  # Slack
_REGISTERED: set[str] = set()
MASK = "[redacted]"


def register_secret(value: str | None) -> None:
    """Mask ``value`` in every message from now on (values under 8 characters are too common to mask)."""
    if value and len(value) >= 8:
        _REGISTERED.add(value)


def _secrets() -> list[str]:
    found = {v for k, v in os.environ.items() if _SECRET_NAME.search(k) and len(v) >= 8} | _REGISTERED
    return sorted(found, key=len, reverse=True)


def shown_path(path: str) -> str:
    """A path safe to print and to write as JSON: bytes of a name that are not UTF-8 (kept by Python as lone
    surrogates) are shown escaped, ``caf\\xe9.txt``; the file itself is still opened through its real name."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def redact(text: str) -> str:
    """``text`` with every known secret, bearer token and well-known key shape masked."""
    for secret in _secrets():
        if secret in text:
            text = text.replace(secret, MASK)
    text = _KEY_SHAPES.sub(MASK, text)
    return _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)


class RagkitError(Exception):
    """Base of every error that ragkit raises on purpose."""

    exit_code = 1
    """The CLI's exit code for it: 1 a run error, 2 bad input (the user's files, options or names)."""
    stage: str | None = None
    """The pipeline stage that raised it (``kg``, ``generate``, ``target``, ``evaluate``, ``report``), if any."""

    def __str__(self) -> str:
        text = super().__str__()
        return redact(f"{self.stage} stage failed: {text}" if self.stage else text)


class BadInput(RagkitError):
    """Base of the errors that blame the input, not the run (exit code 2)."""

    exit_code = 2


class ConfigError(BadInput):
    """A setting, option or argument has a bad value."""


class PluginError(BadInput):
    """A plugin is badly shaped or registered twice under one name."""


class UnknownPluginError(PluginError):
    """No plugin of that kind has that name."""

    def __init__(self, kind: str, name: str, available: list[str]) -> None:
        import difflib

        self.kind, self.name, self.available = kind, name, available
        close = difflib.get_close_matches(name, available, n=3, cutoff=0.6)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        listing = ", ".join(available) if available else "(none)"
        super().__init__(f"Unknown {kind} '{name}'.{hint} Available: {listing}")


class CorpusError(BadInput):
    """A document folder or file cannot be used."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path, self.reason = shown_path(str(path)), reason
        super().__init__(f"{self.path}: {reason}")


class GraphError(BadInput):
    """A knowledge-graph file is corrupt, or was written by a newer ragkit."""


class DataError(BadInput):
    """An input data file or object is malformed."""

    def __init__(self, where: str, reason: str) -> None:
        self.where, self.reason = where, reason
        super().__init__(f"{where}: {reason}")


class MissingFieldError(DataError):
    """Samples lack fields that the chosen metrics need."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        RagkitError.__init__(self, "; ".join(problems))
        self.where, self.reason = "dataset", "; ".join(problems)


class JudgeError(RagkitError):
    """The LLM behind the Judge failed.

    ``fatal`` marks a failure that every other call would repeat (the model cannot be reached, it rejects the
    credentials, it does not exist or cannot be loaded): runners stop the run with it instead of recording one
    failed score per sample.
    """

    def __init__(self, message: str, *, model: str = "", prompt_name: str = "", attempts: int = 0,
                 fatal: bool = False) -> None:
        self.model, self.prompt_name, self.attempts, self.fatal = model, prompt_name, attempts, fatal
        super().__init__(message)


class JudgeOutputError(JudgeError):
    """The model gave invalid output on every attempt."""

    def __init__(
        self, *, model: str, prompt_name: str, attempts: int, raw_output: str, errors: list[str]
    ) -> None:
        self.raw_output, self.errors = raw_output, errors
        last = errors[-1] if errors else "invalid output"
        snippet = raw_output[:200].replace("\n", " ")
        super().__init__(
            f"{model} gave invalid output for prompt '{prompt_name}' after {attempts} attempts: "
            f"{last} (raw output starts: {snippet!r})",
            model=model,
            prompt_name=prompt_name,
            attempts=attempts,
        )


class JudgeTimeoutError(JudgeError):
    """A call timed out on every attempt."""


class JudgeUnavailableError(JudgeError):
    """The model cannot be reached, authenticated or loaded."""


class TargetError(RagkitError):
    """The RAG system under test failed."""


class RunError(RagkitError):
    """A run directory cannot be created, read or resumed."""


def validation_error(exc: Exception, root: str = "(record)") -> tuple[str, str] | None:
    """The first error of a pydantic ValidationError as (field path, what is wrong), ``root`` naming the whole
    record; None for any other exception."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        first = errors()[0]
    except Exception:  # not a pydantic error after all
        return None
    return ".".join(str(p) for p in first.get("loc", ())) or root, str(first.get("msg", "invalid"))


def validation_message(exc: Exception, root: str = "(record)") -> str:
    """A pydantic ValidationError (or a JSON error) in one line: ``field.path: what is wrong``, without the
    documentation URL pydantic appends."""
    found = validation_error(exc, root)
    return f"{found[0]}: {found[1]}" if found else " ".join(str(exc).split())[:300]
