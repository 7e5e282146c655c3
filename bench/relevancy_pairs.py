"""Answer and context relevancy on generated test sets: each hand-labelled good sample's reference answer (or its
reference contexts) scored against its own question (on) and against the question of the next good sample of the
same test set (off: same corpus, same language, often the same company or product). Nothing here was used to
write the metrics' prompts.

Usage (from the repo root):

    PYTHONPATH=. .venv/bin/python bench/relevancy_pairs.py                      # answer_relevancy
    PYTHONPATH=. .venv/bin/python bench/relevancy_pairs.py "answer_relevancy[method=reverse]"
    PYTHONPATH=. .venv/bin/python bench/relevancy_pairs.py context_relevance    # each reference context
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from ragkit.calibration import roc_auc
from ragkit.evaluation import evaluate
from ragkit.llm import Judge
from ragkit.types import EvalSample, RagResponse, TestSample

HERE = Path(__file__).parent


def good_samples() -> dict[str, list[TestSample]]:
    """The samples labelled correct and self-contained, by test set."""
    labels = {(x["testset"], x["id"]): x for x in map(json.loads, (HERE / "testset_labels.jsonl").open())}
    good: dict[str, list[TestSample]] = {}
    for path in sorted((HERE / "testsets").glob("*.jsonl")):
        for line in path.open():
            t = TestSample.model_validate_json(line)
            lab = labels.get((path.stem, t.id))
            if lab and lab["correct"] and lab["self_contained"] and t.reference_answer:
                good.setdefault(path.stem, []).append(t)
    return good


def pairs(good: dict[str, list[TestSample]], contexts: bool = False) -> list[EvalSample]:
    out = []
    for name, items in good.items():
        for i, t in enumerate(items if len(items) > 1 else []):
            other = items[(i + 1) % len(items)]
            if contexts and {r.chunk_id for r in t.reference_contexts} & {r.chunk_id for r in other.reference_contexts}:
                continue  # the other question's own chunk: relevant to it, not an "off" pair
            for kind, question in (("on", t.question), ("off", other.question)):
                supporting = [r for r in t.reference_contexts if not r.distractor]  # noisy_context adds distractors
                response = RagResponse(answer=t.reference_answer or "",
                                       retrieved_contexts=supporting if contexts else [])
                out.append(EvalSample(test=TestSample(id=f"{name}/{t.id}/{kind}", question=question),
                                      response=response))
    return out


def main() -> None:
    metric = sys.argv[1] if len(sys.argv) > 1 else "answer_relevancy"
    good = good_samples()
    samples = pairs(good, contexts=metric.startswith("context_"))
    result = asyncio.run(evaluate(samples, [metric], judge=Judge(), progress=False))
    rows = [(s.sample_id, s.sample_id.endswith("/on"), next(iter(s.scores.values())).value or 0.0)
            for s in result.samples]

    def line(sel: list[tuple[str, bool, float]]) -> str:
        on = [v for _, good_, v in sel if good_]
        off = [v for _, good_, v in sel if not good_]
        auc = roc_auc([v for *_, v in sel], [g for _, g, _ in sel])
        return (f"n {len(sel)}, AUC {auc:.3f}, mean on {sum(on) / len(on):.2f}, off {sum(off) / len(off):.2f}"
                if auc is not None else f"n {len(sel)}")

    print(f"{metric}: {line(rows)}")
    for name in good:
        sel = [r for r in rows if r[0].startswith(name + "/")]
        if sel:
            print(f"  {name}: {line(sel)}")


if __name__ == "__main__":
    main()
