"""One CLI vocabulary: a shared option means the same in every verb, has its environment twin, and
``ragkit --help`` lists the verbs by workflow."""

from __future__ import annotations

import click
from click.testing import CliRunner

from ragkit.cli import COMMANDS, cli

SHARED = {
    "model": "RAGKIT_MODEL", "embeddings": "RAGKIT_EMBEDDINGS", "concurrency": "RAGKIT_CONCURRENCY",
    "cache_dir": "RAGKIT_CACHE_DIR", "as_json": "RAGKIT_JSON", "quiet": "RAGKIT_QUIET",
    "no_progress": "RAGKIT_NO_PROGRESS",
}


def _commands() -> dict[str, click.Command]:
    ctx = click.Context(cli)
    out: dict[str, click.Command] = {}
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            out.update({f"{name} {sub}": c for sub, c in command.commands.items()})
        else:
            out[name] = command
    return out


def test_shared_options_have_one_meaning_and_an_environment_twin() -> None:
    seen: dict[str, tuple[str | None, tuple[str, ...]]] = {}
    for verb, command in _commands().items():
        for param in command.params:
            if param.name in SHARED:
                assert param.envvar == SHARED[param.name], (verb, param.name)
                assert getattr(param, "show_envvar", False), (verb, param.name)
                key = (getattr(param, "help", None), tuple(param.opts))
                assert seen.setdefault(param.name, key) == key, f"{verb}: --{param.name} differs from another verb"
            if param.name == "plugin_args":
                assert param.opts == ["-A", "--arg"] and param.metavar == "NAME.ARG=VALUE", verb


def test_the_verbs_that_call_models_take_the_model_options() -> None:
    commands = _commands()
    for verb in ("benchmark", "evaluate", "generate", "run", "kg build", "doctor"):
        names = {p.name for p in commands[verb].params}
        assert {"model", "embeddings", "concurrency", "cache_dir"} <= names, verb


def test_help_lists_the_verbs_by_workflow() -> None:
    out = CliRunner().invoke(cli, ["--help"]).output
    assert out.index("The whole job:") < out.index("benchmark") < out.index("Step by step:")
    step = out[out.index("Step by step:"):out.index("Compare and inspect:")]
    assert [line.split()[0] for line in step.splitlines()[1:] if line.strip()] == \
        ["kg", "generate", "run", "evaluate", "report"]


def test_environment_twins_are_read(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("RAGKIT_CONCURRENCY", "0")
    data = tmp_path / "d.jsonl"
    data.write_text('{"user_input": "Q?", "response": "A.", "reference": "A."}\n')
    result = CliRunner().invoke(cli, ["evaluate", str(data), "-m", "exact_match"])
    assert result.exit_code == 2
    assert "Invalid value for '--concurrency' (env var: 'RAGKIT_CONCURRENCY')" in result.output
    monkeypatch.setenv("RAGKIT_CONCURRENCY", "2")
    monkeypatch.setenv("RAGKIT_JSON", "1")
    result = CliRunner().invoke(cli, ["evaluate", str(data), "-m", "exact_match"])
    assert result.exit_code == 0 and '"exact_match"' in result.stdout, result.output
