"""Knowledge retention and conversation completeness, with scripted judge replies: which turns they score, what
the judge is shown (the target's own earlier replies), and how its verdicts become a score."""

from __future__ import annotations

import math

import pytest
from claimworld import context

from ragkit.evaluation import build_metric
from ragkit.testing import ScriptedJudge, WithLogprobs
from ragkit.types import Conversation, EvalSample, RagResponse, TestSample, Turn

EARLIER = [Turn(question="Where is the Wren W300 built?", answer="In Sheffield.", reference_answer="Sheffield.")]


def turn(question: str, answer: str, *, k: int = 2, turns: int | None = 2, goal: str | None = None,
         history: list[Turn] | None = None) -> EvalSample:
    history = EARLIER[: k - 1] if history is None else history
    test = TestSample(id=f"c-t{k}", question=question, history=history,
                      conversation=Conversation(id="c", turn=k, turns=turns, goal=goal))
    return EvalSample(test=test, response=RagResponse(answer=answer))


def single(answer: str = "In Sheffield.") -> EvalSample:
    return EvalSample(test=TestSample(id="q", question="Where is the Wren W300 built?"),
                      response=RagResponse(answer=answer))


@pytest.mark.parametrize(("verdict", "expected", "said"), [
    ("keeps", 1.0, "keeps the thread"), ("asks_again", 0.0, "asks again what is meant"),
    ("other_thing", 0.0, "talks of another thing"), ("against_user", 0.0, "goes against what the user said")])
async def test_knowledge_retention_scores_the_verdict_on_a_follow_up(verdict: str, expected: float, said: str) -> None:
    judge = ScriptedJudge([{"question": "How much does the Wren W300 weigh?", "verdict": verdict}])
    score = await build_metric("knowledge_retention")(turn("How much does it weigh?", "It weighs 48 kg."),
                                                       context(judge))
    # the scripted judge gives no token probabilities: the label itself is the score
    assert score.value == expected and score.details["verdict"] == verdict and score.details["turn"] == 2
    assert score.explanation == f"{said} (P(keeps) = {expected:.2f}): How much does the Wren W300 weigh?"
    shown = judge.calls[0].data
    # the earlier turn as the target was sent it: its own reply, not the reference
    assert shown.earlier_turns == ["User: Where is the Wren W300 built?\nAssistant: In Sheffield."]  # type: ignore[union-attr]
    assert shown.latest_message == "How much does it weigh?" and shown.answer == "It weighs 48 kg."  # type: ignore[union-attr]


async def test_knowledge_retention_reads_the_probability_of_keeps() -> None:
    text = '{"question": "q", "verdict": "other_thing"}'
    tokens = [('{"question": "q", "verdict": "', -0.01), ("other", -0.7, [("keeps", -1.2), ("asks", -2.0)]),
              ("_thing", -0.01), ('"}', -0.01)]
    judge = ScriptedJudge([WithLogprobs(text, tokens)])
    score = await build_metric("knowledge_retention")(turn("How much does it weigh?", "It weighs 48 kg."),
                                                      context(judge))
    # the written label says another thing; the score is the probability the judge gave "keeps"
    mass = {"other_thing": math.exp(-0.7), "keeps": math.exp(-1.2), "asks_again": math.exp(-2.0)}
    assert score.value == pytest.approx(mass["keeps"] / sum(mass.values()))


async def test_knowledge_retention_leaves_single_questions_first_turns_and_empty_answers_unscored() -> None:
    judge = ScriptedJudge([])
    metric = build_metric("knowledge_retention")
    for sample in (single(), turn("Where is the Wren W300 built?", "In Sheffield.", k=1),
                   turn("How much does it weigh?", "   ")):
        score = await metric(sample, context(judge))
        assert score.value is None and score.explanation
    assert judge.calls == []


async def test_conversation_completeness_on_the_last_turn_counts_each_request_and_the_goal() -> None:
    judge = ScriptedJudge([{"turns": ["met", "partly"], "goal": "not_met"}])
    sample = turn("How much does it weigh?", "It is light.", goal="Choose a robot for a small warehouse")
    score = await build_metric("conversation_completeness")(sample, context(judge))
    assert score.value == pytest.approx((1.0 + 0.5 + 0.0) / 3)
    assert score.details == {"turns": ["met", "partly"], "goal": "not_met"}
    assert score.explanation == "1 of 3 requests met"
    shown = judge.calls[0].data
    assert shown.goal == "Choose a robot for a small warehouse"  # type: ignore[union-attr]
    assert shown.turns == ["User: Where is the Wren W300 built?\nAssistant: In Sheffield.",  # type: ignore[union-attr]
                           "User: How much does it weigh?\nAssistant: It is light."]


async def test_conversation_completeness_without_a_goal_counts_the_turns_only() -> None:
    judge = ScriptedJudge([{"turns": ["met", "met"], "goal": "not_met"}])  # a goal verdict with no goal: ignored
    score = await build_metric("conversation_completeness")(turn("How much does it weigh?", "48 kg."),
                                                            context(judge))
    assert score.value == 1.0 and score.details["goal"] is None


async def test_conversation_completeness_scores_only_a_known_last_turn() -> None:
    judge = ScriptedJudge([])
    metric = build_metric("conversation_completeness")
    reasons = []
    for sample in (single(), turn("Where is the Wren W300 built?", "In Sheffield.", k=1, turns=2),
                   turn("How much does it weigh?", "48 kg.", turns=None)):
        score = await metric(sample, context(judge))
        assert score.value is None
        reasons.append(score.explanation)
    assert reasons == ["not a turn of a conversation", "scored on the conversation's last turn",
                       "the test set does not say how many turns it has"]
    assert judge.calls == []


def test_a_conversation_knows_its_last_turn() -> None:
    assert Conversation(id="c", turn=3, turns=3).is_last and not Conversation(id="c", turn=2, turns=3).is_last
    assert not Conversation(id="c", turn=3).is_last
    with pytest.raises(ValueError, match="turn 4 of a conversation of 3"):
        Conversation(id="c", turn=4, turns=3)
