"""What the three rule probes share (``literal_probe``, ``praise_probe``, ``version_probe``): labelled claims,
each checked alone against its passage, and the two counts a rule must move.

Each case is a passage, its question, and claims labelled right (True) or wrong (False). A claim is checked alone,
as the claim engine checks it: the judge's verdict on one claim moves with its batch.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ragkit.evaluation import ClaimStore
from ragkit.llm import Judge

Case = tuple[str, str, list[tuple[str, bool]]]


def rule_off(description: str, help_text: str, turn_off: Callable[[], None]) -> None:
    """Parse the probe's command line; with ``--rule-off``, call ``turn_off`` before any claim is checked."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rule-off", action="store_true", help=help_text)
    if parser.parse_args().rule_off:
        turn_off()


async def probe(cases: list[Case], *, with_question: bool = True) -> dict[str, int]:
    """Print each claim's verdict; return how many right claims were not entailed and wrong ones were. Without
    ``with_question``, a claim is checked as faithfulness checks an answer's claims against the retrieved contexts:
    with no question to read the passage by, the question's numbers only kept out of the cloze."""
    store = ClaimStore(Judge())
    counts = {"right not entailed": 0, "wrong entailed": 0}
    for passage, question, labelled in cases:
        for claim, right in labelled:
            verdict = (await (store.check(passage, [claim], question=question) if with_question
                              else store.check(passage, [claim], asked=question)))[0]
            print(f"{'right' if right else 'wrong'}\t{verdict.label}\t{verdict.support:.3f}\t{claim}")
            counts["right not entailed"] += right and verdict.label != "entailed"
            counts["wrong entailed"] += not right and verdict.label == "entailed"
    print(counts)
    return counts
