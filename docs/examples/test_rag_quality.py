"""RAG quality as pytest tests, with ragkit's pytest plugin (installed with ragkit: nothing to configure).

    pytest docs/examples/test_rag_quality.py                      # the embedded judge
    pytest docs/examples/test_rag_quality.py --ragkit-model openai/gpt-4o-mini
"""

import os
from pathlib import Path

import pytest

# Your RAG system's answers, in any format ragkit reads (here: ragas's columns, with context ids).
ANSWERS = os.environ.get("RAG_ANSWERS", Path(__file__).with_name("answers.jsonl"))


def test_retrieval_finds_the_reference_passages(ragkit_eval):
    scores = ragkit_eval(ANSWERS, metrics=["hit_rate", "mrr"])
    scores.check(hit_rate=0.9, mrr=0.75)


def test_answers_say_what_the_references_say(ragkit_eval):
    ragkit_eval(ANSWERS, metrics=["rouge_l"]).check(rouge_l=0.6)


@pytest.mark.skipif(not os.environ.get("RAGKIT_LIVE_TESTS"), reason="runs the judge LLM (set RAGKIT_LIVE_TESTS=1)")
def test_answers_are_grounded_in_what_was_retrieved(ragkit_eval):
    ragkit_eval(ANSWERS, metrics=["faithfulness"]).check(faithfulness=0.8)
