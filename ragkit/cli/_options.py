"""Options shared by ``ragkit benchmark`` and ``ragkit run`` (the target and its adapter settings), and the ``-A``
plugin-argument parser they share with ``ragkit evaluate``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ragkit.errors import ConfigError
from ragkit.targets import TargetOptions

F = Callable[..., Any]

TARGET_HELP = ("The RAG system under test: module:function, http(s)://host/path (JSON in/out), a .jsonl of "
               "precomputed answers, or 'baseline' (built-in BM25 / embedding RAG over DOCS).")


def target_options(fn: F) -> F:
    """Add the target flags to a command."""
    options = [
        click.option("--target", "-t", "target", metavar="TARGET", help=TARGET_HELP),
        click.option("--question-field", default="question", show_default=True,
                     help="HTTP target: request field carrying the question."),
        click.option("--answer-field", default="answer", show_default=True,
                     help="HTTP target: response field (dotted path) holding the answer."),
        click.option("--contexts-field", default="contexts", show_default=True,
                     help="HTTP target: response field (dotted path) holding the retrieved contexts."),
        click.option("--header-env", multiple=True, metavar="NAME=ENVVAR",
                     help="HTTP target: send header NAME with the value of ENVVAR (repeatable). Variables "
                          "RAGKIT_TARGET_HEADER_<NAME> are sent too."),
        click.option("--target-timeout", type=float, default=60.0, show_default=True,
                     help="HTTP target: seconds per request."),
        click.option("--target-retries", type=int, default=2, show_default=True,
                     help="HTTP target: retries on timeouts, connection errors, 429 and 5xx."),
        click.option("--top-k", type=int, default=4, show_default=True, help="baseline: chunks retrieved."),
        click.option("--retrieval", type=click.Choice(["bm25", "embedding"]), default="bm25", show_default=True,
                     help="baseline: retrieval method."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def build_target_options(kw: dict[str, Any]) -> TargetOptions:
    """TargetOptions from the parsed flags (pops them from ``kw``)."""
    header_env = {}
    for item in kw.pop("header_env", ()) or ():
        name, sep, var = item.partition("=")
        if not sep or not name.strip() or not var.strip():
            raise ConfigError(f"--header-env {item!r}: expected NAME=ENVVAR, for example Authorization=MY_TOKEN")
        header_env[name.strip()] = var.strip()
    return TargetOptions(
        question_field=kw.pop("question_field"), answer_field=kw.pop("answer_field"),
        contexts_field=kw.pop("contexts_field"), header_env=header_env, timeout=kw.pop("target_timeout"),
        retries=kw.pop("target_retries"), top_k=kw.pop("top_k"), retrieval=kw.pop("retrieval"),
    )


def yaml_scalar(text: str) -> Any:
    """A ``-A`` value read as a YAML scalar (numbers, true/false, strings); unparsable text stays a string."""
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def parse_plugin_args(items: tuple[str, ...], *,
                      usage: str = "expected NAME.ARG=VALUE, for example -A factual_correctness.mode=f1",
                      value: Callable[[str], Any] = yaml_scalar) -> dict[str, dict[str, Any]]:
    """``-A metric.key=value`` → ``{"metric": {"key": value(...)}}``; a malformed item is a ConfigError that
    names it, followed by ``usage``."""
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        plugin, dot, arg = key.partition(".")
        if not sep or not dot or not plugin or not arg:
            raise ConfigError(f"-A {item!r}: {usage}")
        out.setdefault(plugin.strip(), {})[arg.strip()] = value(raw)
    return out


json_option = click.option("--json", "as_json", is_flag=True, envvar="RAGKIT_JSON", show_envvar=True,
                           help="Print JSON on stdout (progress and messages go to stderr).")
