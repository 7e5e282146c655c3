"""Synthetic run directories for report, summary, comparison and browser tests (no LLM involved).

The scores are data written to disk the way a run writes them; nothing here stands in for ragkit code.
"""

from __future__ import annotations

import random
from pathlib import Path

from ragkit.runs._rundir import MetricMeta, RunDir, RunSpec, ScoreRecord, StageRecord
from ragkit.targets._target import TargetSpec
from ragkit.testing import claim_reply
from ragkit.types import ContextRef, EvalSample, PluginSpec, RagResponse, Score, StageUsage, TestSample

PAYLOAD = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned2'\">"
METRICS = {"faithfulness": MetricMeta(), "context_recall": MetricMeta(),
           "hallucination": MetricMeta(higher_is_better=False)}
GENERATORS = ("single_hop", "multi_hop", "unanswerable")


def _claims_payload(source: str, claims: list[str], n_ctx: int, rng: random.Random, cross: bool) -> dict:
    """A ``Score.details["claims"]`` payload in the ClaimDetails shape (ragkit.evaluation): passages, claim rows."""
    passages = [{"kind": "context", "index": k, "chunk_id": f"c{k}"} for k in range(n_ctx)]
    if cross:
        passages.append({"kind": "reference" if source == "response" else "response"})
    rows = []
    for text in claims:
        labels = [rng.choice(["entailed", "neutral", "neutral", "contradicted"]) for _ in passages]
        rows.append({"text": text, "source": source, "verdicts": [{"label": lab} for lab in labels],
                     "supported_by": [j for j, lab in enumerate(labels) if lab == "entailed"]})
    return {"passages": passages, "claims": rows}


def make_run(path: Path, *, n: int = 12, seed: int = 0, shift: float = 0.0, target: str = "m:f",
             payload: bool = True) -> RunDir:
    """A finished run of ``n`` samples. ``shift`` is added to every faithfulness score (clipped to [0, 1])."""
    rng = random.Random(seed)
    spec = RunSpec(ragkit_version="0.1.0", model="openai/scripted-judge", n=n, seed=seed, corpus_hash="abc123",
                   target=TargetSpec(kind="callable", name=target),
                   metrics=[PluginSpec(name=m) for m in METRICS], metric_meta=METRICS)
    run = RunDir.create(path, spec)
    for i in range(n):
        gen = GENERATORS[i % 3]
        text = f"Chunk {i}: the Porto plant builds the Wren W300."
        if payload and i == 1:
            text += " " + PAYLOAD
        if i == 2:
            text = "龙井茶产自杭州西湖，春季采摘。"
        sample = TestSample(
            id=f"q-{i:03d}", question=f"Question {i} about the Porto plant?" + (f" {PAYLOAD}" if payload and i == 4
                                                                                 else ""),
            reference_answer=f"Reference answer {i}.",
            reference_contexts=[ContextRef(chunk_id=f"c{i}", text=text, source="plant-porto.html")],
            generator=PluginSpec(name=gen), persona=["engineer", "buyer"][i % 2], style=["formal", "casual"][i % 2],
            language="zh" if i == 2 else "en",
        )
        run.add_sample(sample)
        contexts = [ContextRef(chunk_id=f"c{i}", text=text, source="plant-porto.html"),
                    ContextRef(chunk_id=f"c{i + 100}", text=f"Unrelated chunk {i} about travel policy.",
                               source="travel-and-expenses-policy.txt")]
        error = "HTTP 503: busy (after 3 attempts)" if i == 5 else None
        answer = "" if error else f"Answer {i}: the plant builds the Wren W300." + (f" {PAYLOAD}" if payload and i == 3
                                                                                  else "")
        run.add_response(EvalSample(test=sample, response=RagResponse(
            answer=answer, retrieved_contexts=[] if error else contexts, latency_s=0.5 + i * 0.1, error=error)))
        if error:
            run.add_scores(ScoreRecord(sample_id=sample.id, error=f"not scored: the target failed ({error})"))
            continue
        faith = min(1.0, max(0.0, rng.uniform(0.3, 0.9) + shift))
        scores = {
            "faithfulness": Score(value=faith, details={"claims": _claims_payload(
                "response", [f"The plant builds the Wren W300 ({i}).",
                             f"Unsupported claim {i} {PAYLOAD if payload else ''}".strip()], 2, rng, False)}),
            "context_recall": Score(value=rng.uniform(0.2, 0.8), details={"claims": _claims_payload(
                "reference", [f"Reference claim {i}."], 2, rng, True)}) if i != 7 else
            Score(value=None, explanation="no reference claims"),
            "hallucination": Score(value=rng.uniform(0.0, 0.5)),
        }
        run.add_scores(ScoreRecord(sample_id=sample.id, scores=scores))
    for stage, secs, calls in (("kg", 12.0, 0), ("generate", 30.5, 3 * n), ("target", 8.2, n),
                               ("evaluate", 40.0, 6 * n), ("report", 0.3, 0)):
        run.add_stage(StageRecord(stage=stage, seconds=secs, items=n, usage=StageUsage(calls=calls,
                                                                                        prompt_tokens=calls * 500)))
    return run


# -- a rule-following judge and a small test set for pipeline tests ----------------------------------

FACTS = [
    ("What does the Porto plant build?", "The Porto plant builds the Wren W300.", "porto"),
    ("When did the Kestrel K10 launch?", "The Kestrel K10 launched in 2019.", "kestrel"),
    ("Where is Acme Robotics based?", "Acme Robotics is based in Manchester.", "acme"),
    ("Who is the CTO of Acme?", "Priya Raman is the CTO of Acme.", "cto"),
    ("How many staff does Acme have?", "Acme has about 640 staff.", "staff"),
    ("What does the Finch product do?", "The Finch is a gripper.", "finch"),
]
DOCS = {
    "porto": "The Porto plant builds the Wren W300. It opened in 2021.",
    "kestrel": "The Kestrel K10 launched in 2019. The launch was in Chicago.",
    "acme": "Acme Robotics is based in Manchester. It was founded in 2011.",
    "cto": "Priya Raman is the CTO of Acme. She joined in 2015.",
    "staff": "Acme has about 640 staff. Most work in Sheffield.",
    "finch": "The Finch is a gripper. It fits both arms.",
}


def sentences(text: str) -> list[str]:
    import re

    return [s.strip() for s in re.split(r"(?<=[.!?。])\s*|\n+", text) if s.strip()]


def rule_reply(call) -> object:
    """Replies that follow simple rules (claims are sentences; a passage supports a claim it contains)."""
    reply = claim_reply(call, claims=sentences)
    if reply is not None:
        return reply
    if call.prompt_name == "answer_relevancy.direct":
        return {"gives_what_is_asked": "yes"}
    if call.prompt_name == "baseline_answer":
        user = call.messages[-1]["content"]
        first = user.split("\n", 3)[3] if user.count("\n") >= 3 else user  # the first context's text
        found = [s for s in sentences(first) if s.endswith(".")]
        return found[0] if found else "The documents do not say."
    raise AssertionError(f"unexpected prompt {call.prompt_name}")


def write_testset(path: Path) -> list[TestSample]:
    samples = [TestSample(id=f"t-{i}", question=q, reference_answer=a,
                          reference_contexts=[ContextRef(chunk_id=key, text=DOCS[key], source=f"{key}.md")],
                          generator=PluginSpec(name="single_hop" if i % 2 else "multi_hop"))
               for i, (q, a, key) in enumerate(FACTS)]
    path.write_text("".join(s.model_dump_json() + "\n" for s in samples))
    return samples


TARGET_MODULE = '''
ANSWERS = {ANSWERS!r}
DOCS = {DOCS!r}

def answer(question):
    key, text = ANSWERS[question]
    if key == "boom":
        raise RuntimeError("index offline")
    return {{"answer": text, "contexts": [{{"id": key, "text": DOCS[key], "source": key + ".md"}},
                                       {{"id": "finch", "text": DOCS["finch"], "source": "finch.md"}}]}}
'''


def write_target(path: Path, *, wrong: int | None = None, broken: int | None = None) -> str:
    """A user RAG module (``file.py:answer``): right answers, except sample ``wrong`` (hallucinated) and
    ``broken`` (raises)."""
    answers = {}
    for i, (q, a, key) in enumerate(FACTS):
        if i == wrong:
            a = "The Porto plant builds spaceships."
        answers[q] = ("boom", "") if i == broken else (key, a)
    path.write_text(TARGET_MODULE.format(ANSWERS=answers, DOCS=DOCS))
    return f"{path}:answer"
