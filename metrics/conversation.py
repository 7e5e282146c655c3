"""Conversation metrics: a follow-up's answer keeps what the conversation established (knowledge retention), and
the conversation gives the user what each of their messages asked for (conversation completeness).

Every turn of a conversation is a sample with the turns before it in ``test.history``, the target's own earlier
replies included; the per-turn metrics (faithfulness, answer correctness, …) score a turn with its own
references. These two read the conversation itself, with one judge call each.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, create_model

from ragkit.evaluation import MetricContext
from ragkit.llm import Prompt
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score, Turn

from ._shared import mean, unscorable

# -- knowledge retention ----------------------------------------------------------------------------------------


class RetentionInput(BaseModel):
    earlier_turns: list[str]
    latest_message: str
    answer: str


class RetentionOutput(BaseModel):
    question: Annotated[str, StringConstraints(max_length=200)]
    verdict: Literal["keeps", "asks_again", "other_thing", "against_user"]


RETENTION = Prompt(
    name="conversation.retention",
    instruction="""\
A user and an assistant are talking. Read the earlier turns, then the user's latest message and the answer to it.
- question: the latest message as a complete question that someone who did not see the earlier turns would \
understand (write out what "it", "there" or "that one" stands for).
- verdict: "keeps" if the answer goes on from the earlier turns: it answers about the thing the complete \
question asks about, even when what it says is wrong or incomplete. Otherwise it has lost the thread: \
"asks_again" if it asks the user again what or which thing they mean, "other_thing" if it talks about another \
thing, "against_user" if it takes for granted something other than what the user said before.""",
    input=RetentionInput,
    output=RetentionOutput,
    max_tokens=120,
)


_SAID = {"keeps": "keeps the thread", "asks_again": "asks again what is meant", "other_thing": "talks of another thing",
         "against_user": "goes against what the user said"}


@metric(requires=("test.question", "response.answer"), uses=("llm",), calls=1)
def knowledge_retention() -> MetricFn:
    """For a follow-up turn (turn 2 on): how likely the judge finds that the answer keeps the thread of the
    conversation, P(keeps) from its label's token probabilities (0/1 when the model gives none). It keeps it when
    it answers about what the message refers to, right or wrong; it loses it when it asks the user again what
    they mean, talks about another thing, or takes for granted something other than what the user said (the
    judge names which: on the embedded judge, P(keeps) among four labels ranks better than among two). The mean
    over a run's follow-up turns estimates the share with no attrition (DeepEval's knowledge retention). The
    judge reads the earlier turns as the target was sent them, its own replies included. Unscorable for single
    questions and first turns. On the embedded judge it separates answers that ask again or change the subject,
    not those that contradict what the user said (bench/README.md, "Conversations")."""

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        test = sample.test
        if test.conversation is None or not test.history:
            return unscorable("not a follow-up turn of a conversation")
        if not sample.response.answer.strip():
            return unscorable("the answer is empty")
        scored = await ctx.judge.structured_scored(RETENTION, RetentionInput(
            earlier_turns=[t.exchange() for t in test.history], latest_message=test.question,
            answer=sample.response.answer))
        keeps = scored.expected("verdict", {"keeps": 1.0})
        note = f"{_SAID[scored.output.verdict]} (P(keeps) = {keeps:.2f}): {scored.output.question}"
        return Score(value=keeps, explanation=note,
                     details={**scored.output.model_dump(), "turn": test.conversation.turn})

    return score


# -- conversation completeness ----------------------------------------------------------------------------------


class CompletenessInput(BaseModel):
    goal: str | None
    turns: list[str]


Fulfilment = Literal["met", "partly", "not_met"]
_CREDIT: dict[str, float] = {"met": 1.0, "partly": 0.5, "not_met": 0.0}


@lru_cache(maxsize=16)
def completeness_prompt(n: int) -> Prompt[CompletenessInput, Any]:
    """The completeness prompt for a conversation of ``n`` turns: one verdict per turn, then the goal's."""
    output = create_model(
        f"Completeness{n}",
        turns=(list[Fulfilment], Field(min_length=n, max_length=n)),
        goal=(Fulfilment | None, None),
    )
    return Prompt(name="conversation.completeness", instruction=_COMPLETENESS_INSTRUCTION, input=CompletenessInput,
                  output=output, max_tokens=24 + 6 * n)


_COMPLETENESS_INSTRUCTION = """\
A user and an assistant talked in the numbered turns. Judge whether the user got what they came for.
- turns: one verdict per turn, in order: does the assistant's reply in that turn, or a later one, give what the \
user's message asked for? "met": all of it; "partly": some of it; "not_met": none, a refusal, or a reply about \
something else.
- goal: when a goal is given, whether the conversation as a whole reached it ("met", "partly", "not_met"); \
leave it out when there is no goal.
Judge only whether the requests were answered, not whether the answers are true."""


@metric(requires=("test.question", "response.answer"), uses=("llm",), calls=1)
def conversation_completeness() -> MetricFn:
    """On a conversation's last turn: the share of the user's requests the conversation met (1 met, 0.5 partly,
    0 not), each turn's message one request and the conversation's goal one more when it has one (DeepEval's
    conversation completeness). Unscorable for single questions and for turns before the last (a test set
    records how many turns each conversation has)."""

    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        conversation = sample.test.conversation
        if conversation is None:
            return unscorable("not a turn of a conversation")
        if not conversation.is_last:
            return unscorable("scored on the conversation's last turn"
                              if conversation.turns else "the test set does not say how many turns it has")
        last = Turn(question=sample.test.question, answer=sample.response.answer)
        turns = [t.exchange() for t in [*sample.test.history, last]]
        out = await ctx.judge.structured(completeness_prompt(len(turns)),
                                         CompletenessInput(goal=conversation.goal, turns=turns))
        verdicts: list[str] = list(out.turns)
        if conversation.goal and out.goal is not None:
            verdicts.append(out.goal)
        met = sum(1 for v in verdicts if v == "met")
        return Score(value=mean([_CREDIT[v] for v in verdicts]),
                     explanation=f"{met} of {len(verdicts)} requests met",
                     details={"turns": list(out.turns), "goal": out.goal if conversation.goal else None})

    return score
