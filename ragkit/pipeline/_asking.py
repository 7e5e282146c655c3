"""Asking the target: every question, several in flight, and each conversation's turns in order.

A turn of a conversation is asked after the turns before it, with their exchanges in ``sample.history``: the
user's words, and the target's own replies from this run (or from the run being resumed). Where an earlier turn
has no reply (it failed, or it is not in this run), its reference answer stands in, as in the test set.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping

from ragkit._progress import Progress
from ragkit.runs import group_turns
from ragkit.targets import Target
from ragkit.types import EvalSample, TestSample

Replies = dict[tuple[str, int], str]
"""The target's answer to turn k of conversation c, by ``(c, k)``."""


def earlier_replies(answered: Iterable[EvalSample]) -> Replies:
    """The replies already on record (a resumed run's), by conversation and turn; failed answers left out."""
    return {(s.test.conversation.id, s.test.conversation.turn): s.response.answer
            for s in answered if s.test.conversation and not s.response.error}


def with_replies(sample: TestSample, replies: Mapping[tuple[str, int], str]) -> TestSample:
    """``sample`` with the target's earlier replies in its history, where there are any."""
    if sample.conversation is None or not sample.history:
        return sample
    cid = sample.conversation.id
    history = [turn.model_copy(update={"answer": replies.get((cid, k), turn.answer)})
               for k, turn in enumerate(sample.history, 1)]
    return sample.model_copy(update={"history": history})


async def run_target(
    samples: list[TestSample],
    target: Target,
    on_response: Callable[[EvalSample], None],
    *,
    concurrency: int = 4,
    progress: bool = True,
    answered: Iterable[EvalSample] = (),
) -> int:
    """Ask the target every question (``concurrency`` in flight; a conversation's turns one after another) and
    hand each answer to ``on_response`` as it arrives. ``answered`` holds earlier answers whose replies later
    turns take into their history. Returns the number of failed answers; never raises for one sample."""
    sem = asyncio.Semaphore(max(1, concurrency))
    replies = earlier_replies(answered)
    failed = 0

    with Progress(progress and bool(samples)) as bar:
        advance = bar.task("target", len(samples))

        async def ask(group: list[TestSample]) -> None:
            nonlocal failed
            for sample in group:
                sent = with_replies(sample, replies)
                async with sem:
                    result = EvalSample(test=sent, response=await target.answer(sent))
                if sample.conversation and not result.response.error:
                    replies[(sample.conversation.id, sample.conversation.turn)] = result.response.answer
                failed += bool(result.response.error)
                on_response(result)
                advance()

        await asyncio.gather(*(ask(group) for group in group_turns(samples, lambda s: s)))
    return failed
