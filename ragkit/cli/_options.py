"""The CLI's one vocabulary: options shared by several verbs, defined once, each meaning the same everywhere.

Every shared option has an environment twin (shown in ``--help``): ``--model`` / ``RAGKIT_MODEL``,
``--embeddings`` / ``RAGKIT_EMBEDDINGS``, ``--concurrency`` / ``RAGKIT_CONCURRENCY``, ``--cache-dir`` /
``RAGKIT_CACHE_DIR``, ``--executor`` / ``RAGKIT_EXECUTOR`` (and ``--ray-*``), ``--json`` / ``RAGKIT_JSON``,
``--quiet`` / ``RAGKIT_QUIET``, ``--no-progress`` /
``RAGKIT_NO_PROGRESS``. ``--output`` has none: it names a different kind of thing per verb (a graph file, a test
set, a run directory), and one variable for all of them would overwrite one with another. ``-A NAME.ARG=VALUE``
is an argument of the plugin NAME (a metric or a generator the verb uses) in every verb.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ragkit.errors import ConfigError
from ragkit.targets import TargetOptions

F = Callable[..., Any]

TARGET_HELP = ("The RAG system under test: module:function, http(s)://host/path (JSON in/out), a .jsonl of "
               "precomputed answers, or 'baseline' (built-in BM25 / embedding RAG over DOCS).")


def _stacked(fn: F, options: list[Any]) -> F:
    """``fn`` decorated with ``options``, which then appear in ``--help`` in the order given."""
    for option in reversed(options):
        fn = option(fn)
    return fn


def target_options(fn: F) -> F:
    """Add the target flags to a command."""
    options = [
        click.option("--target", "-t", "target", metavar="TARGET", help=TARGET_HELP),
        click.option("--question-field", default="question", show_default=True,
                     help="HTTP target: request field carrying the question."),
        click.option("--history-field", default="history", show_default=True,
                     help="HTTP target: request field carrying a conversation's earlier messages."),
        click.option("--answer-field", default="answer", show_default=True,
                     help="HTTP target: response field (dotted path) holding the answer."),
        click.option("--contexts-field", default="contexts", show_default=True,
                     help="HTTP target: response field (dotted path) holding the retrieved contexts."),
        click.option("--header-env", multiple=True, metavar="NAME=ENVVAR",
                     help="HTTP target: send header NAME with the value of ENVVAR (repeatable). Variables "
                          "RAGKIT_TARGET_HEADER_<NAME> are sent too."),
        click.option("--target-timeout", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
                     help="HTTP target: seconds per request."),
        click.option("--target-retries", type=click.IntRange(min=0), default=2, show_default=True,
                     help="HTTP target: retries on timeouts, connection errors, 429 and 5xx."),
        click.option("--top-k", type=click.IntRange(min=1), default=4, show_default=True,
                     help="baseline: chunks retrieved."),
        click.option("--retrieval", type=click.Choice(["bm25", "embedding"]), default="bm25", show_default=True,
                     help="baseline: retrieval method."),
    ]
    return _stacked(fn, options)


def build_target_options(kw: dict[str, Any]) -> TargetOptions:
    """TargetOptions from the parsed flags (pops them from ``kw``)."""
    header_env = {}
    for item in kw.pop("header_env", ()) or ():
        name, sep, var = item.partition("=")
        if not sep or not name.strip() or not var.strip():
            raise ConfigError(f"--header-env {item!r}: expected NAME=ENVVAR, for example Authorization=MY_TOKEN")
        header_env[name.strip()] = var.strip()
    return TargetOptions(
        question_field=kw.pop("question_field"), history_field=kw.pop("history_field"),
        answer_field=kw.pop("answer_field"),
        contexts_field=kw.pop("contexts_field"), header_env=header_env, timeout=kw.pop("target_timeout"),
        retries=kw.pop("target_retries"), top_k=kw.pop("top_k"), retrieval=kw.pop("retrieval"),
    )


def parse_weights(items: tuple[str, ...]) -> dict[str, float] | None:
    """``-g name=weight`` options (``-g name`` means weight 1); None when none are given."""
    if not items:
        return None
    out: dict[str, float] = {}
    for item in items:
        name, _, weight = item.rpartition("=") if "=" in item else (item, "", "1")
        if not name.strip():
            raise click.BadParameter(f"'{item}': give a generator name, as in single_hop=0.4", param_hint="-g")
        try:
            out[name.strip()] = float(weight)
        except ValueError:
            raise click.BadParameter(f"'{item}': the weight must be a number, as in single_hop=0.4",
                                     param_hint="-g") from None
    return out


def parse_plugin_args(items: tuple[str, ...], *,
                      usage: str = "expected NAME.ARG=VALUE, for example -A factual_correctness.mode=f1"
                      ) -> dict[str, dict[str, Any]]:
    """``-A name.key=value`` → ``{"name": {"key": value}}``, the value read as in ``metric[key=value]`` keys
    (JSON, true/false/none, comma lists, else the string); a malformed item is a ConfigError that names it."""
    from ragkit.evaluation import parse_value

    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        plugin, dot, arg = key.partition(".")
        if not sep or not dot or not plugin or not arg:
            raise click.BadParameter(f"{item!r}: {usage}", param_hint="-A")
        out.setdefault(plugin.strip(), {})[arg.strip()] = parse_value(raw)
    return out


json_option = click.option("--json", "as_json", is_flag=True, envvar="RAGKIT_JSON", show_envvar=True,
                           help="Print JSON on stdout (progress and messages go to stderr).")
quiet_option = click.option("--quiet", "-q", is_flag=True, envvar="RAGKIT_QUIET", show_envvar=True,
                            help="No progress and no tables on stderr: only errors (and --json output).")
progress_option = click.option("--no-progress", is_flag=True, envvar="RAGKIT_NO_PROGRESS", show_envvar=True,
                               help="No progress bars (on a terminal) or progress lines (elsewhere).")
plugin_args_option = click.option("-A", "--arg", "plugin_args", multiple=True, metavar="NAME.ARG=VALUE",
                                  help="Argument ARG of the metric or generator NAME (repeatable); VALUE is JSON, "
                                       "true/false, a comma list or a string.")


format_option = click.option(
    "--format", "data_format", type=click.Choice(["ragkit", "ragas", "ragchecker", "deepeval", "giskard"]),
    help="The records' format [default: told by their fields]. Files may be .jsonl, .json, .csv or .parquet, "
         "a Hugging Face save_to_disk folder, a run directory, or hf:owner/name[:split].")


max_failed_option = click.option(
    "--max-failed", type=click.FloatRange(0, 1), default=0.2, show_default=True, envvar="RAGKIT_MAX_FAILED",
    show_envvar=True, help="Exit 4 when a larger share of the scores failed (judge or metric errors).")


def output_option(help: str, **path: Any) -> Callable[[F], F]:  # noqa: A002  (click's name)
    """``-o/--output``: where this verb writes (a file or a folder, per verb)."""
    return click.option("-o", "--output", type=click.Path(**path), help=help)


cache_dir_option = click.option(
    "--cache-dir", type=click.Path(file_okay=False), envvar="RAGKIT_CACHE_DIR", show_envvar=True,
    help="Where LLM replies, embeddings and built graphs are cached.")


def model_options(fn: F) -> F:
    """``--model``, ``--embeddings``, ``--concurrency`` and ``--cache-dir``: the models and how they are run."""
    options = [
        click.option("--model", envvar="RAGKIT_MODEL", show_envvar=True,
                     help="The judge LLM: any litellm model string [default: the embedded local model]."),
        click.option("--embeddings", envvar="RAGKIT_EMBEDDINGS", show_envvar=True,
                     help="The embedding model [default: the embedded all-MiniLM-L6-v2]."),
        click.option("--concurrency", type=click.IntRange(1), envvar="RAGKIT_CONCURRENCY", show_envvar=True,
                     help="LLM (and target) calls in flight [default: 4]."),
        cache_dir_option,
    ]
    return _stacked(fn, options)


def executor_options(fn: F) -> F:
    """``--executor``, ``--ray-address`` and ``--ray-actors``: where the graph is built, samples generated and
    scored."""
    options = [
        click.option("--executor", type=click.Choice(["local", "ray"]), envvar="RAGKIT_EXECUTOR", show_envvar=True,
                     help="Where files are read, samples generated and scored: this process, or Ray actors "
                          "(pip install 'ragkit[ray]') [default: local]."),
        click.option("--ray-address", envvar="RAGKIT_RAY_ADDRESS", show_envvar=True,
                     help="The Ray cluster to join (auto, HOST:6379, ray://HOST:10001) [default: RAY_ADDRESS, "
                          "else a Ray started for the run]."),
        click.option("--ray-actors", type=click.IntRange(1), envvar="RAGKIT_RAY_ACTORS", show_envvar=True,
                     help="Ray actors, each with one judge [default: 2]."),
    ]
    return _stacked(fn, options)


def settings_from(kw: dict[str, Any]) -> Any:
    """Settings from the model options (pops them from ``kw``); unset options fall back to RAGKIT_* and defaults."""
    from ragkit.settings import Settings

    given = {k: kw.pop(k, None) for k in ("model", "embeddings", "concurrency", "cache_dir", "executor",
                                          "ray_address", "ray_actors")}
    return Settings.load(**{k: v for k, v in given.items() if v is not None})


def progress_enabled(kw: dict[str, Any]) -> bool:
    """Whether to show progress (pops ``no_progress`` and reads ``quiet``)."""
    return not kw.pop("no_progress", False) and not kw.get("quiet", False)
