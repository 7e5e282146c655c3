"""ragkit's built-in metrics. Import as ``ragkit.metrics``; each module registers its metric."""

if __name__ != "ragkit.metrics":
    raise ImportError(f"this package must be imported as ragkit.metrics (pip install -e .), not as {__name__!r}")

from . import (  # noqa: E402,F401  (each import registers its metrics)
    answer_correctness,
    answer_relevancy,
    aspect_critique,
    context_entity_recall,
    context_precision,
    context_recall,
    context_relevance,
    conversation,
    factual_correctness,
    faithfulness,
    lexical,
    noise_sensitivity,
    ragchecker,
    retrieval,
    rubric_score,
    semantic_similarity,
)
