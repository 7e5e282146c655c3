"""Table-driven tests of the claim-based metrics on hand-computed values (scripted judge, see conftest).

Canonical sample: reference claims G = [Chicago, 2019]; response claims A = [Chicago, 2020, Sheffield];
contexts ranked [PLANT, PRESS, BLOG]. PLANT entails "made in Sheffield"; PRESS entails Chicago, 2019 and 2020;
BLOG entails nothing. The reference entails only A's Chicago claim; the response entails only G's Chicago claim.
Relevant chunks (entail a reference claim): PRESS only.
"""

from __future__ import annotations

import math

import pytest
from claimworld import CONTEXTS, QUESTION, REFERENCE, RESPONSE, canonical_world, context, make_sample

from ragkit.evaluation import ClaimDetails, build_metric

CANONICAL = dict(question=QUESTION, answer=RESPONSE, reference=REFERENCE, contexts=CONTEXTS)

CASES = [
    # metric key, expected value (hand-computed)
    ("faithfulness", 1.0),                                   # 3/3 answer claims supported by some chunk
    ("context_recall", 1.0),                                 # both reference claims in PRESS
    ("context_precision", 0.5),                              # relevance [0,1,0]: (1/2)/1
    ("context_precision[reference=response]", 1.0),          # relevance [1,1,0]: (1/1 + 2/2)/2
    ("factual_correctness", 0.4),                            # P = 1/3, R = 1/2, F1 = 0.4
    ("factual_correctness[mode=precision]", 1 / 3),
    ("factual_correctness[mode=recall]", 0.5),
    ("factual_correctness[beta=2.0]", 5 / 11),               # 5PR/(4P+R) = (5/6)/(11/6)
    ("noise_sensitivity", 1 / 3),                            # the 2020 claim: wrong, backed by relevant PRESS
    ("noise_sensitivity[mode=irrelevant]", 1 / 3),           # the Sheffield claim: wrong, backed by PLANT only
    ("answer_correctness[weights=[1.0,0.0]]", 0.4),          # factual F1 only
    ("context_entity_recall", 1.0),                          # Kestrel, Chicago, 2019 all in the contexts
    ("ragchecker_precision", 1 / 3),
    ("ragchecker_recall", 0.5),
    ("ragchecker_f1", 0.4),
    ("claim_recall", 1.0),
    ("ragchecker_context_precision", 1 / 3),                 # 1 of 3 chunks holds a reference claim
    ("context_utilization", 0.5),                            # recalled [1,1], used by the response [1,0]
    ("noise_sensitivity_in_relevant", 1 / 3),
    ("noise_sensitivity_in_irrelevant", 1 / 3),
    ("hallucination", 0.0),                                  # every claim is backed by a chunk
    ("self_knowledge", 0.0),
    ("ragchecker_faithfulness", 1.0),
]


@pytest.mark.parametrize(("key", "expected"), CASES, ids=[c[0] for c in CASES])
async def test_canonical_values(key: str, expected: float) -> None:
    judge = canonical_world().judge()
    fn = build_metric(key)
    score = await fn(make_sample(**CANONICAL), context(judge, getattr(fn, "needs", frozenset())))
    assert score.value is not None, score.explanation
    assert math.isclose(score.value, expected, abs_tol=1e-9), (key, score.value, expected)


EDGE_CASES = [
    # (case, sample changes, metric key, expected value or None)
    ("no answer claims", {"answer": "I don't know."}, "faithfulness", None),
    ("no answer claims", {"answer": "I don't know."}, "factual_correctness", 0.0),
    ("no answer claims", {"answer": "I don't know."}, "factual_correctness[mode=precision]", None),
    ("no answer claims", {"answer": "I don't know."}, "ragchecker_precision", None),
    ("no answer claims", {"answer": "I don't know."}, "hallucination", None),
    ("no answer claims", {"answer": "I don't know."}, "context_recall", 1.0),
    ("no contexts", {"contexts": []}, "faithfulness", 0.0),
    ("no contexts", {"contexts": []}, "context_recall", 0.0),
    ("no contexts", {"contexts": []}, "context_precision", None),
    ("no contexts", {"contexts": []}, "ragchecker_context_precision", None),
    ("no contexts", {"contexts": []}, "claim_recall", 0.0),
    ("no contexts", {"contexts": []}, "context_utilization", None),
    ("no contexts", {"contexts": []}, "hallucination", 2 / 3),   # 2020 and Sheffield: unsupported and wrong
    ("no contexts", {"contexts": []}, "self_knowledge", 1 / 3),  # Chicago: unsupported but right
    ("no contexts", {"contexts": []}, "noise_sensitivity", 0.0),
    ("no contexts", {"contexts": []}, "context_entity_recall", 0.0),
    ("reference without claims", {"reference": "See the manual."}, "context_recall", None),
    ("reference without claims", {"reference": "See the manual."}, "factual_correctness", None),
    ("reference without claims", {"reference": "See the manual."}, "factual_correctness[mode=precision]", 0.0),
    ("reference without claims", {"reference": "See the manual."}, "context_precision", None),
    ("reference without claims", {"reference": "See the manual."}, "context_entity_recall", None),
    ("reference without claims", {"reference": "See the manual."}, "ragchecker_recall", None),
    ("all-irrelevant contexts", {"contexts": ["Nothing here.", "Or here."]}, "faithfulness", 0.0),
    ("all-irrelevant contexts", {"contexts": ["Nothing here.", "Or here."]}, "context_recall", 0.0),
    ("all-irrelevant contexts", {"contexts": ["Nothing here.", "Or here."]}, "context_precision", 0.0),
    ("all-irrelevant contexts", {"contexts": ["Nothing here.", "Or here."]}, "ragchecker_context_precision", 0.0),
    ("all-irrelevant contexts", {"contexts": ["Nothing here.", "Or here."]}, "noise_sensitivity", 0.0),
    ("all-irrelevant contexts", {"contexts": ["Nothing here.", "Or here."]}, "hallucination", 2 / 3),
    ("relevant first", {"contexts": [CONTEXTS[1], CONTEXTS[0], CONTEXTS[2]]}, "context_precision", 1.0),
    ("relevant last", {"contexts": [CONTEXTS[0], CONTEXTS[2], CONTEXTS[1]]}, "context_precision", 1 / 3),
]


@pytest.mark.parametrize(("case", "changes", "key", "expected"), EDGE_CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in EDGE_CASES])
async def test_edge_cases(case: str, changes: dict, key: str, expected: float | None) -> None:
    judge = canonical_world().judge()
    fn = build_metric(key)
    score = await fn(make_sample(**{**CANONICAL, **changes}), context(judge, getattr(fn, "needs", frozenset())))
    if expected is None:
        assert score.value is None and score.explanation, (key, score)
    else:
        assert score.value is not None and math.isclose(score.value, expected, abs_tol=1e-9), (key, score)


async def test_contradicted_claims_count_as_unsupported() -> None:
    world = canonical_world(contradicts={(CONTEXTS[0], "Kestrel is made in Sheffield.")})
    score = await build_metric("faithfulness")(make_sample(**CANONICAL), context(world.judge()))
    assert score.value == pytest.approx(2 / 3)
    details = ClaimDetails.from_score(score.details)
    assert details is not None
    sheffield = next(c for c in details.claims if "Sheffield" in c.text)
    assert sheffield.together is not None and sheffield.together.label == "contradicted"
    assert sheffield.supported_by == []


async def test_per_chunk_metrics_say_which_chunk_supports_which_claim() -> None:
    judge = canonical_world().judge()
    sample = make_sample(**CANONICAL, ids=["p", "q", "b"])
    score = await build_metric("context_precision[reference=response]")(sample, context(judge))
    details = ClaimDetails.from_score(score.details)
    assert details is not None
    assert [(p.kind, p.index, p.chunk_id) for p in details.passages] == [
        ("context", 0, "p"), ("context", 1, "q"), ("context", 2, "b")]
    support = {c.text: c.supported_by for c in details.claims}
    assert support == {"Kestrel launched in Chicago.": [1], "Kestrel launched in 2020.": [1],
                       "Kestrel is made in Sheffield.": [0]}
    assert all(c.source == "response" for c in details.claims)
    # faithfulness needs only the verdict on the set: the same checks, no call to name the chunks
    named = len(judge.calls_for("claims.attribute"))
    faith = await build_metric("faithfulness")(sample, context(judge))
    faith_details = ClaimDetails.from_score(faith.details)
    assert faith_details is not None and all(c.together is not None for c in faith_details.claims)
    assert len(judge.calls_for("claims.attribute")) == named


async def test_factual_correctness_details_hold_both_directions() -> None:
    score = await build_metric("factual_correctness")(make_sample(**CANONICAL), context(canonical_world().judge()))
    details = ClaimDetails.from_score(score.details)
    assert details is not None
    assert [p.kind for p in details.passages][-2:] == ["reference", "response"]
    by_source = {(c.source, c.text): c.supported_by for c in details.claims}
    n = len(CONTEXTS)
    assert by_source[("response", "Kestrel launched in Chicago.")] == [n]       # the reference supports it
    assert by_source[("reference", "Kestrel launched in Chicago.")] == [n + 1]  # the response supports it
    assert by_source[("reference", "Kestrel launched in 2019.")] == []


@pytest.mark.parametrize("bad", ["context_precision[reference=foo]", "context_recall[reference=response]",
                                 "noise_sensitivity[mode=x]", "factual_correctness[mode=f2]",
                                 "factual_correctness[beta=0]", "answer_correctness[weights=[0,0]]"])
def test_bad_arguments_are_config_errors(bad: str) -> None:
    from ragkit.errors import ConfigError

    with pytest.raises(ConfigError):
        build_metric(bad)


# -- like with like: an answer identical to the reference, whatever the judge says ---------------------------------


def doubting_world():
    """A judge that finds nothing supported: only what needs no call can score."""
    from claimworld import World

    world = World(claims={REFERENCE: ["Kestrel launched in Chicago.", "Kestrel launched in 2019."],
                          "Chicago.": ["Chicago."]})
    world.label = lambda passage, claim: "neutral"  # type: ignore[method-assign]
    return world


@pytest.mark.parametrize("key", ["factual_correctness", "answer_correctness[weights=[1,0]]", "ragchecker_f1",
                                 "factual_correctness[mode=precision]", "factual_correctness[mode=recall]"])
@pytest.mark.parametrize("answer", [REFERENCE, "Chicago."], ids=["long", "short"])
async def test_an_answer_identical_to_the_reference_scores_one(key: str, answer: str) -> None:
    judge = doubting_world().judge()
    sample = make_sample(question=QUESTION, answer=answer, reference=answer, contexts=CONTEXTS)
    score = await build_metric(key)(sample, context(judge))
    assert score.value == 1.0, (key, score)
    assert judge.calls_for("claims.check") == []  # settled by equal claims, not by the judge


# -- set-level attribution: a fact that needs two passages -----------------------------------------------------------

SHIP_Q = "In which regiment did the man the Aldermoor was named after serve?"
SHIP_REF = "The Aldermoor's namesake served in the Northern Rifles."
NAMED = "The cargo ship Aldermoor was launched in 1930 and named after Colonel Edwin Hart."
SERVED = "Colonel Edwin Hart served in the Northern Rifles during the border war."
NOISE = "Kestrel Province is known for its salt marshes."


def ship_world():
    from claimworld import World

    return World(claims={SHIP_REF: [SHIP_REF]}, together={SHIP_REF: (NAMED, SERVED)})


@pytest.mark.parametrize(("contexts", "expected"), [
    ([NAMED, NOISE, SERVED], 1.0),   # both gold passages retrieved: the fact is found in them together
    ([SERVED, NOISE], 0.0),          # one of the two: the namesake link is missing
    ([NOISE], 0.0),                  # neither
], ids=["both", "one", "neither"])
@pytest.mark.parametrize("key", ["context_recall", "claim_recall"])
async def test_a_two_passage_fact_is_recalled_only_with_both_passages(contexts: list[str], expected: float,
                                                                      key: str) -> None:
    sample = make_sample(question=SHIP_Q, answer=SHIP_REF, reference=SHIP_REF, contexts=contexts)
    score = await build_metric(key)(sample, context(ship_world().judge()))
    assert score.value == expected, score
    details = ClaimDetails.from_score(score.details)
    assert details is not None and details.claims[0].together is not None
    assert details.claims[0].together.label == ("entailed" if expected else "neutral")


async def test_faithfulness_credits_an_answer_grounded_in_two_passages_together() -> None:
    sample = make_sample(question=SHIP_Q, answer=SHIP_REF, reference=SHIP_REF, contexts=[NAMED, SERVED])
    judge = ship_world().judge()
    assert (await build_metric("faithfulness")(sample, context(judge))).value == 1.0
    checks = judge.calls_for("claims.check")
    assert len(checks) == 1 and checks[0].data.passage == f"{NAMED}\n\n{SERVED}"  # type: ignore[union-attr]
