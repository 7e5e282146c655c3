"""The LLM layer: the Judge (every LLM call), the embedded local model, prompts as typed values, the cache
and the embedding model."""

from __future__ import annotations

from ragkit.llm._cache import Cache, content_key
from ragkit.llm._calls import CallInfo, litellm_module
from ragkit.llm._embeddings import Embeddings, load_embedding_model, load_sentence_transformer
from ragkit.llm._judge import Judge
from ragkit.llm._local import INSTALL_HINT, MODELS, LocalModel, model_path
from ragkit.llm._prompts import Prompt, numbered_labels, render_fields

__all__ = [
    "Cache",
    "CallInfo",
    "Embeddings",
    "INSTALL_HINT",
    "Judge",
    "LocalModel",
    "MODELS",
    "Prompt",
    "content_key",
    "litellm_module",
    "load_embedding_model",
    "load_sentence_transformer",
    "model_path",
    "numbered_labels",
    "render_fields",
]
