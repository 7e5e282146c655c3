"""Fixtures: hand-built knowledge graphs (see kg_builder.py) with the real embedding model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from kg_builder import BAKERY, TEA_ZH, Spec, build_graph

from ragkit.kg._graph import KnowledgeGraph
from ragkit.llm._embeddings import Embeddings


@pytest.fixture(scope="session")
def embeddings() -> Embeddings:
    """The real embedded model, without a disk cache."""
    return Embeddings(cache=False)


@pytest.fixture
def bakery(embeddings: Embeddings) -> KnowledgeGraph:
    return build_graph(BAKERY, embeddings)


@pytest.fixture
def tea(embeddings: Embeddings) -> KnowledgeGraph:
    return build_graph(TEA_ZH, embeddings, language="zh")


@pytest.fixture
def graph_builder(embeddings: Embeddings) -> Callable[..., KnowledgeGraph]:
    def make(spec: Spec, **kwargs: Any) -> KnowledgeGraph:
        kwargs.setdefault("embeddings", embeddings)
        return build_graph(spec, **kwargs)

    return make
