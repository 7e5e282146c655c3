"""Metrics with their own prompts (answer relevancy, context relevance, aspect critique, rubric score) and the
embedding metrics, with scripted judge replies and the real embedded embedding model."""

from __future__ import annotations

import numpy as np
import pytest
from claimworld import CONTEXTS, QUESTION, REFERENCE, RESPONSE, canonical_world, context, make_sample

from ragkit.errors import ConfigError
from ragkit.evaluation import MetricContext, build_metric, evaluate
from ragkit.llm._embeddings import Embeddings
from ragkit.registry import info_of
from ragkit.testing import CallInfo, ScriptedJudge


@pytest.fixture(scope="module")
def embeddings() -> Embeddings:
    return Embeddings(cache=False)


def cos(emb: Embeddings, a: str, b: str) -> float:
    m = emb.embed([a, b])
    return max(0.0, float(np.dot(m[0], m[1])))


async def test_answer_relevancy_reverse_is_mean_cosine_of_reverse_questions(embeddings: Embeddings) -> None:
    questions = ["Where was the Kestrel launched?", "What is made in Sheffield?"]
    judge = ScriptedJudge([{"questions": questions, "noncommittal": False}])
    sample = make_sample(question=QUESTION, answer=RESPONSE)
    reverse = build_metric("answer_relevancy[method=reverse]")
    assert info_of(reverse).uses == {"llm", "embeddings"}
    score = await reverse(sample, MetricContext(judge=judge, embeddings=embeddings))
    expected = (cos(embeddings, QUESTION, questions[0]) + cos(embeddings, QUESTION, questions[1])) / 2
    assert score.value == pytest.approx(expected, abs=1e-5)
    assert score.details["questions"] == questions
    assert "write 3 different questions" in judge.calls[0].messages[0]["content"]
    assert "3" not in judge.calls[0].messages[1]["content"]  # the count is not shown as part of the answer
    assert cos(embeddings, QUESTION, questions[0]) > cos(embeddings, QUESTION, questions[1])  # sanity of the model


@pytest.mark.parametrize(("reply", "answer", "expected"), [
    ({"questions": ["Where?"], "noncommittal": True}, "I am not sure.", 0.0),
    ({"questions": [], "noncommittal": False}, "Blue.", 0.0),
    (None, "   ", None),
])
async def test_answer_relevancy_reverse_edge_cases(reply: dict | None, answer: str, expected: float | None,
                                                   embeddings: Embeddings) -> None:
    judge = ScriptedJudge([reply] if reply else [])
    score = await build_metric("answer_relevancy[method=reverse]")(make_sample(answer=answer),
                                                                    MetricContext(judge, embeddings))
    assert score.value == expected and (expected is not None or score.explanation)


@pytest.mark.parametrize("label", ["yes", "no"])
async def test_answer_relevancy_asks_whether_the_answer_gives_what_is_asked(label: str) -> None:
    judge = ScriptedJudge([{"gives_what_is_asked": label}])
    metric = build_metric("answer_relevancy")
    assert info_of(metric).uses == {"llm"}  # no embedding model: CJK text is read by the judge
    score = await metric(make_sample(question=QUESTION, answer=RESPONSE), MetricContext(judge=judge))
    assert score.value == (1.0 if label == "yes" else 0.0) and score.details["label"] == label
    (call,) = judge.calls_for("answer_relevancy.direct")
    assert call.data.question == QUESTION and call.data.answer == RESPONSE


@pytest.mark.parametrize(("label", "expected"), [("yes", 1.0), ("no", 1.0), ("not said", 0.0)])
async def test_answer_relevancy_of_a_yes_or_no_question_asks_what_the_answer_says(label: str, expected: float) -> None:
    # "No, …" gives what "Can …?" asks, as much as "Yes, …" does; another fact of the subject says neither
    judge = ScriptedJudge([{"answer_says": label}])
    question, answer = "Does the library lend e-readers?", "E-readers are for use inside the library only."
    score = await build_metric("answer_relevancy")(make_sample(question=question, answer=answer),
                                                   MetricContext(judge=judge))
    assert score.value == expected and score.details["label"] == label
    (call,) = judge.calls_for("answer_relevancy.whether")
    assert call.data.question == question and not judge.calls_for("answer_relevancy.direct")


@pytest.mark.parametrize("question", ["Is the plant in Leeds or in York?", "What does the library lend?",
                                      "这家店周末营业还是只在工作日营业？"])
async def test_answer_relevancy_of_other_questions_asks_whether_it_gives_what_is_asked(question: str) -> None:
    judge = ScriptedJudge([{"gives_what_is_asked": "yes"}])
    score = await build_metric("answer_relevancy")(make_sample(question=question, answer="York."),
                                                   MetricContext(judge=judge))
    assert score.value == 1.0 and judge.calls_for("answer_relevancy.direct")


async def test_answer_relevancy_is_unscorable_for_an_empty_answer() -> None:
    judge = ScriptedJudge([])
    score = await build_metric("answer_relevancy")(make_sample(answer="  "), MetricContext(judge=judge))
    assert score.value is None and score.explanation == "the answer is empty" and not judge.calls


def test_answer_relevancy_rejects_an_unknown_method() -> None:
    with pytest.raises(ConfigError, match="method"):
        build_metric("answer_relevancy[method=cosine]")


async def test_semantic_similarity_and_answer_correctness(embeddings: Embeddings) -> None:
    sample = make_sample(question=QUESTION, answer=RESPONSE, reference=REFERENCE, contexts=CONTEXTS)
    sim = cos(embeddings, REFERENCE, RESPONSE)
    ctx = context(canonical_world().judge(), embeddings=embeddings)
    assert (await build_metric("semantic_similarity")(sample, ctx)).value == pytest.approx(sim, abs=1e-5)
    binary = await build_metric("semantic_similarity[threshold=0.99]")(sample, ctx)
    assert binary.value == 0.0 and binary.details["cosine"] == pytest.approx(sim, abs=1e-5)
    score = await build_metric("answer_correctness")(sample, ctx)
    assert score.value == pytest.approx(0.75 * 0.4 + 0.25 * sim, abs=1e-5)  # factual F1 = 0.4 (see claim tables)
    same = make_sample(answer=REFERENCE, reference=REFERENCE)
    assert (await build_metric("semantic_similarity")(same, ctx)).value == pytest.approx(1.0, abs=1e-5)


async def test_embeddings_are_loaded_only_when_a_metric_needs_them(embeddings: Embeddings) -> None:
    sample = make_sample(question=QUESTION, answer=RESPONSE, reference=REFERENCE, contexts=CONTEXTS)
    result = await evaluate([sample], ["semantic_similarity"], judge=ScriptedJudge([]), progress=False)
    assert result.samples[0].scores["semantic_similarity"].value == pytest.approx(cos(embeddings, REFERENCE, RESPONSE),
                                                                                abs=1e-5)


async def test_context_relevance_asks_of_each_context_whether_it_helps_answer() -> None:
    def reply(call: CallInfo) -> object:
        return {"helps_answer": "yes" if "Porto" in call.data.passage else "no"}  # type: ignore[union-attr]

    judge = ScriptedJudge(reply)
    contexts = ["The Kestrel was launched in Porto.", "Sheffield has a plant.", "Porto is on the Douro."]
    score = await build_metric("context_relevance")(make_sample(question=QUESTION, contexts=contexts),
                                                   MetricContext(judge))
    assert score.value == pytest.approx(2 / 3) and score.details["labels"] == ["yes", "no", "yes"]
    assert sorted(c.data.passage for c in judge.calls) == sorted(contexts)  # type: ignore[union-attr]
    assert all(c.data.question == QUESTION for c in judge.calls)  # type: ignore[union-attr]
    none = await build_metric("context_relevance")(make_sample(question=QUESTION), MetricContext(judge))
    assert none.value is None and none.explanation == "no retrieved contexts"


async def test_aspect_critique_majority_vote() -> None:
    votes = [{"reason": "r1", "answer_to_criterion": "yes"}, {"reason": "r2", "answer_to_criterion": "no"},
             {"reason": "r3", "answer_to_criterion": "yes"}]
    judge = ScriptedJudge(votes)
    score = await build_metric("aspect_critique[aspect=coherence,n=3]")(make_sample(answer=RESPONSE),
                                                                          MetricContext(judge))
    assert score.value == 1.0 and score.details["votes"] == [True, False, True]
    assert [c.data.vote for c in judge.calls] == [1, 2, 3]  # type: ignore[union-attr]  (distinct prompts per vote)
    assert "logically organised" in judge.calls[0].data.criterion  # type: ignore[union-attr]


async def test_aspect_direction_and_custom_definitions() -> None:
    judge = ScriptedJudge([{"reason": "fine", "answer_to_criterion": "no"},
                          {"reason": "polite", "answer_to_criterion": "yes"}])
    samples = [make_sample(answer=RESPONSE)]
    result = await evaluate(samples, ["aspect_critique"], judge=judge, progress=False)
    agg = result.aggregates["aspect_critique"]
    assert agg.mean == 0.0 and agg.higher_is_better is False  # harmfulness: lower is better
    custom = build_metric("aspect_critique", {"aspect": "politeness", "definition": "Is the answer polite?"})
    score = await custom(samples[0], MetricContext(judge))
    assert score.value == 1.0 and info_of(custom).higher_is_better is True
    with pytest.raises(ConfigError, match="unknown aspect"):
        build_metric("aspect_critique[aspect=politeness]")
    with pytest.raises(ConfigError, match="odd"):
        build_metric("aspect_critique[n=2]")


async def test_rubric_score_picks_the_sample_rubric_then_the_dataset_rubric_then_the_default() -> None:
    own = {"1": "bad", "2": "meh", "3": "ok", "4": "good", "5": "SAMPLE-RUBRIC-TOP"}
    judge = ScriptedJudge([{"feedback": "f", "score": 4}] * 4)
    with_own = make_sample(answer=RESPONSE, reference=REFERENCE, metadata={"rubric": own})
    plain = make_sample(answer=RESPONSE, reference=REFERENCE)
    no_ref = make_sample(answer=RESPONSE)
    ctx = MetricContext(judge)
    assert (await build_metric("rubric_score")(with_own, ctx)).value == 4.0
    assert "SAMPLE-RUBRIC-TOP" in judge.calls[-1].data.rubric  # type: ignore[union-attr]
    dataset = build_metric("rubric_score", {"rubric": {i: f"DATASET-{i}" for i in range(1, 6)}})
    await dataset(plain, ctx)
    assert "DATASET-5" in judge.calls[-1].data.rubric  # type: ignore[union-attr]
    await build_metric("rubric_score")(plain, ctx)
    assert "reference answer" in judge.calls[-1].data.rubric  # type: ignore[union-attr]
    await build_metric("rubric_score")(no_ref, ctx)
    assert "reference" not in judge.calls[-1].data.rubric  # type: ignore[union-attr]
    assert build_metric("rubric_score").info.range == (1.0, 5.0)  # type: ignore[attr-defined]


async def test_bad_sample_rubric_is_a_recorded_failure() -> None:
    bad = make_sample(answer=RESPONSE, metadata={"rubric": {"1": "only one"}})
    result = await evaluate([bad], ["rubric_score"], judge=ScriptedJudge([]), progress=False)
    score = result.samples[0].scores["rubric_score"]
    assert score.value is None and "metadata.rubric" in (score.explanation or "")
    assert result.aggregates["rubric_score"].failed == 1
