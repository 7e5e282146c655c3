"""Golden test: RAGChecker's own example output, reproduced through ragkit's claim engine and metrics.

The scripted judge replays RAGChecker's extracted claims (split calls) and its entailment labels (check calls, and
attribution calls that name the chunks RAGChecker found entailing), and abstains on the cloze of a claim's numbers
(RAGChecker has no such check); everything else (memo, joint context checks,
attributions, metric formulas, aggregation) is ragkit's.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from ragkit.evaluation import ClaimStore, evaluate
from ragkit.llm import CallInfo
from ragkit.metrics import _ragchecker_math as rc
from ragkit.metrics.ragchecker import REGISTRY_NAME, ragchecker_summary
from ragkit.runs._datasets import load_samples
from ragkit.testing import ScriptedJudge, claim_reply
from ragkit.text import as_written_in

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "ragchecker"
LABEL = {"Entailment": "supported", "Contradiction": "contradicted", "Neutral": "not_mentioned"}
METRICS = ["precision", "recall", "f1", "claim_recall", "context_precision", "context_utilization",
           "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant", "hallucination", "self_knowledge",
           "faithfulness"]


def claim_text(triplet: list[str]) -> str:
    return " ".join(triplet)


@pytest.fixture(scope="module")
def outputs() -> dict:
    return json.loads((FIXTURES / "checking_outputs.json").read_text())


def replay(outputs: dict) -> ScriptedJudge:
    """A judge that answers exactly as RAGChecker's extractor and checker did."""
    splits: dict[str, list[str]] = {}
    labels: dict[tuple[str, str], str] = {}
    for r in outputs["results"]:
        resp = [claim_text(t) for t in r["response_claims"]]
        ref = [claim_text(t) for t in r["gt_answer_claims"]]
        splits[r["response"]] = resp
        splits[r["gt_answer"]] = ref
        # the claim engine writes a claim's numbers and measures as the passage does ("6,650 kilometers" against
        # "6,650 km") before it asks: RAGChecker's label stands for every form the claim may reach the judge in
        texts = [r["gt_answer"], r["response"], *(c["text"] for c in r["retrieved_context"])]
        texts.append("\n\n".join(c["text"] for c in r["retrieved_context"]))

        def forms(claim: str, texts: list[str] = texts) -> set[str]:
            return {claim} | {as_written_in(t, claim) for t in texts}

        for claim, label in zip(resp, r["answer2response"], strict=True):
            labels.update(dict.fromkeys(((r["gt_answer"], f) for f in forms(claim)), label))
        for claim, label in zip(ref, r["response2answer"], strict=True):
            labels.update(dict.fromkeys(((r["response"], f) for f in forms(claim)), label))
        for k, ctx in enumerate(r["retrieved_context"]):
            for claim, row in zip(resp, r["retrieved2response"], strict=True):
                labels.update(dict.fromkeys(((ctx["text"], f) for f in forms(claim)), row[k]))
            for claim, row in zip(ref, r["retrieved2answer"], strict=True):
                labels.update(dict.fromkeys(((ctx["text"], f) for f in forms(claim)), row[k]))

    def label(passage: str, claim: str) -> str:
        if (passage, claim) in labels:
            return LABEL[labels[(passage, claim)]]
        # the retrieved contexts joined into one text: entailed when RAGChecker found any chunk entailing it
        found = [LABEL[labels[(part, claim)]] for part in passage.split("\n\n")]
        return next((v for v in ("supported", "contradicted") if v in found), "not_mentioned")

    def respond(call: CallInfo) -> dict:
        if call.prompt_name == "claims.values":  # RAGChecker's checker gave no second opinion on numbers: abstain
            return dict.fromkeys(re.findall(r"\[(\d+)\]", call.data.statements), "none")  # type: ignore[union-attr]
        reply = claim_reply(call, claims=lambda text: splits[text], label=label)
        assert reply is not None, call.prompt_name
        return reply

    return ScriptedJudge(respond)


@pytest.mark.parametrize("joint", [False, True], ids=["separate", "joint"])
async def test_ragchecker_family_reproduces_every_value(outputs: dict, joint: bool) -> None:
    samples = load_samples(FIXTURES / "checking_inputs.json")
    judge = replay(outputs)
    names = [REGISTRY_NAME.get(m, m) for m in METRICS]
    # the judge names every chunk (RAGChecker's labels), not the claims' words
    store = ClaimStore(judge, joint_contexts=joint, name_by_words=False)
    result = await evaluate(samples, names, judge=judge, progress=False, claims=store)

    for sample_result, expected in zip(result.samples, outputs["results"], strict=True):
        assert sample_result.sample_id == expected["query_id"]
        for metric_name, value in expected["metrics"].items():
            got = sample_result.scores[REGISTRY_NAME.get(metric_name, metric_name)].value
            assert got is not None and math.isclose(got, value, abs_tol=1e-12), (metric_name, got, value)

    summary = ragchecker_summary({k: a.mean for k, a in result.aggregates.items()})
    assert summary == outputs["metrics"]


async def test_golden_run_checks_each_claim_group_once_with_every_context_in_view(outputs: dict) -> None:
    samples = load_samples(FIXTURES / "checking_inputs.json")
    judge = replay(outputs)
    result = await evaluate(samples, [REGISTRY_NAME.get(m, m) for m in METRICS], judge=judge, progress=False,
                            claims=ClaimStore(judge, name_by_words=False))
    checks = [(c.data.passage, tuple(c.data.claims)) for c in judge.calls_for("claims.check")]
    attributions = [(tuple(c.data.passages), tuple(c.data.claims)) for c in judge.calls_for("claims.attribute")]
    assert len(checks) == len(set(checks)) and len(attributions) == len(set(attributions))
    assert len(judge.calls_for("claims.split")) == 4  # response + reference of 2 samples
    # Nile: 11 response claims (2 groups of ≤ 8) + 22 reference claims (3 groups); flag: 5 + 8 claims (1 + 1
    # group). Each group is checked once against its sample's contexts joined (4 and 3 of them) and once against
    # the other answer. The claims the joined contexts support or contradict (Nile: 4 of the response's, 6 of the
    # reference's; flag: all) are named against the numbered contexts (context precision and noise sensitivity
    # ask which chunk), one group per list. RAGChecker itself asks once per claim and context.
    groups = (2 + 3) + (1 + 1)
    named = [(4, 4), (4, 6), (3, 5), (3, 8)]  # (contexts, claims) per naming call
    assert len(checks) == 2 * groups and result.claim_stats["check_calls"] == 2 * groups
    assert sorted((len(p), len(c)) for p, c in attributions) == sorted(named)
    assert result.claim_stats["attribute_calls"] == len(named)


def test_pure_formulas_on_the_file_matrices(outputs: dict) -> None:
    def b(label: str) -> float:
        return 1.0 if label == "Entailment" else 0.0

    for r in outputs["results"]:
        s = rc.Supports(
            resp_vs_ref=[b(x) for x in r["answer2response"]],
            ref_vs_resp=[b(x) for x in r["response2answer"]],
            resp_vs_ctx=[[b(x) for x in row] for row in r["retrieved2response"]],
            ref_vs_ctx=[[b(x) for x in row] for row in r["retrieved2answer"]],
        )
        got = {m: getattr(rc, m)(s) for m in METRICS if not m.startswith("noise")}
        got["noise_sensitivity_in_relevant"] = rc.noise_sensitivity(s, relevant=True)
        got["noise_sensitivity_in_irrelevant"] = rc.noise_sensitivity(s, relevant=False)
        assert got == pytest.approx(r["metrics"], abs=1e-12)
        # RAGChecker's identity: faithfulness + hallucination + self_knowledge = 1
        assert got["faithfulness"] + got["hallucination"] + got["self_knowledge"] == pytest.approx(1.0)


async def test_by_default_the_words_name_what_they_can_and_set_level_values_are_unchanged(outputs: dict) -> None:
    samples = load_samples(FIXTURES / "checking_inputs.json")
    judge = replay(outputs)
    result = await evaluate(samples, [REGISTRY_NAME.get(m, m) for m in METRICS], judge=judge, progress=False)
    asked = sum(len(c.data.claims) for c in judge.calls_for("claims.attribute"))  # type: ignore[union-attr]
    assert asked < 4 + 6 + 5 + 8  # the claims the chunks state (see above), less those their words place
    set_level = ("precision", "recall", "f1", "claim_recall", "faithfulness")  # no metric here asks which chunk
    for sample_result, expected in zip(result.samples, outputs["results"], strict=True):
        for metric_name in set_level:
            got = sample_result.scores[REGISTRY_NAME.get(metric_name, metric_name)].value
            assert got is not None and math.isclose(got, expected["metrics"][metric_name], abs_tol=1e-12)
