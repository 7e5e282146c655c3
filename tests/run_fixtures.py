"""Synthetic run directories for report, summary, comparison and browser tests (no LLM involved).

The scores are data written to disk the way a run writes them; nothing here stands in for ragkit code.
"""

from __future__ import annotations

import random
from pathlib import Path

from ragkit.results import MetricMeta, RunDir, RunSpec, ScoreRecord, StageRecord
from ragkit.target import TargetSpec
from ragkit.types import ContextRef, EvalSample, PluginSpec, RagResponse, Score, StageUsage, TestSample

PAYLOAD = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned2'\">"
METRICS = {"faithfulness": MetricMeta(), "context_recall": MetricMeta(),
           "hallucination": MetricMeta(higher_is_better=False)}
GENERATORS = ("single_hop", "multi_hop", "unanswerable")


def _claims_payload(source: str, claims: list[str], n_ctx: int, rng: random.Random, cross: bool) -> dict:
    """A ``Score.details["claims"]`` payload in the ClaimDetails shape (ragkit.claims): passages, claim rows."""
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
