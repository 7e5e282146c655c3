"""Test-set quality: generated samples read by hand, against the automatic checks (issue 20, item 7).

Two steps:

    # 1. generate a test set from a corpus (fast graph, fresh cache; times the run and a raw llama.cpp call)
    PYTHONPATH=. .venv/bin/python bench/testset_quality.py generate corpora/ko -n 8 -o bench/testsets/ko.jsonl

    # 2. score the stored test sets: automatic checks per sample, and agreement with the hand labels
    PYTHONPATH=. .venv/bin/python bench/testset_quality.py score bench/testsets/*.jsonl \\
        --labels bench/testset_labels.jsonl

The automatic checks of a kept sample, none of which is the critic that kept it:
- ``points_at_source``: the question points at its source or at something it never names (the critic's patterns);
- ``multi_hop_one_chunk``: a multi-hop sample whose reference contexts are one chunk;
- ``written``: the critic's checks of the text as written (a loop, a script the language does not use, an answer
  in its source's first person), or None;
- ``faithfulness``: ragkit's faithfulness of the reference answer against the sample's own reference contexts
  (claims split and checked by the claim engine, contexts as stored, no titles), for answerable samples.
A sample passes when it does not point at its source, is not a one-chunk multi-hop, fails no ``written`` check,
and (answerable) has a faithfulness of at least 0.5; a sample whose claim calls failed has no verdict, is left
out of the agreement and counted under ``errors``. The hand labels (``bench/testset_labels.jsonl``, one line per
sample: ``testset``, ``id``, ``correct``, ``self_contained``, ``answerable``, ``note``) say whether the reference
answer is right by the documents, the question can be understood without them, and the question can be answered
from the reference contexts (for an unanswerable sample: that it cannot). A sample is good when all three hold.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any


def generate(args: argparse.Namespace) -> None:
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as cache:
        ragkit = str(Path(sys.executable).with_name("ragkit"))
        command = [ragkit, "generate", args.corpus, "-n", str(args.n), "-o", str(out), "--extractor", "fast",
                   "--seed", str(args.seed), "--cache-dir", cache, "--no-progress", "--overwrite", "--json"]
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"generate failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    summary = json.loads(done.stdout)
    print(json.dumps({"corpus": args.corpus, "n": args.n, "seconds": round(seconds, 1),
                      "raw_llama_call_s": raw_call(), "summary": summary}, indent=2, ensure_ascii=False))


def raw_call() -> float:
    """One raw llama.cpp call on the embedded judge, timed after the run (the machine's speed)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from validity import raw_call_seconds

    from ragkit.llm import Judge

    return round(raw_call_seconds(Judge(cache=False)) or 0.0, 2)


# -- scoring ---------------------------------------------------------------------------------------------------


def read_samples(paths: list[str]) -> list[tuple[str, Any]]:
    from ragkit.types import TestSample

    out = []
    for path in paths:
        name = Path(path).stem
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append((name, TestSample.model_validate_json(line)))
    return out


async def faithfulness(samples: list[tuple[str, Any]]) -> tuple[dict[str, float | None], dict[str, str]]:
    """Faithfulness of each answerable sample's reference answer against its own reference contexts, and the
    error of each sample whose calls failed (a timeout on a busy machine): one failed call loses that sample's
    figure, not the run."""
    from ragkit.errors import JudgeError
    from ragkit.evaluation import ClaimStore
    from ragkit.llm import Judge

    store = ClaimStore(Judge())
    out: dict[str, float | None] = {}
    errors: dict[str, str] = {}
    for _, s in samples:
        out[s.id] = None
        if s.metadata.get("answerable", True) is False:
            continue
        contexts = [r.text for r in s.reference_contexts if not r.distractor]
        try:
            claims = await store.split(s.reference_answer or "", s.question)
            found = await store.attribute(contexts, claims)
        except JudgeError as exc:
            errors[s.id] = str(exc)
            print(f"{s.id}: {exc}", file=sys.stderr)
            continue
        out[s.id] = round(sum(a.support for a in found) / len(found), 3) if found else 0.0
    return out, errors


def automatic(sample: Any, faith: float | None) -> dict[str, Any]:
    from ragkit.synthesis._checks import points_without_naming
    from ragkit.synthesis._pointers import mentions_context
    from ragkit.synthesis._written import written_checks, written_forms

    generator = sample.generator.name if sample.generator else ""
    chunks = {r.chunk_id for r in sample.reference_contexts if not r.distractor}
    checks = {
        "points_at_source": any(mentions_context(q) or points_without_naming(q, []) for q in written_forms(sample)),
        "multi_hop_one_chunk": generator == "multi_hop" and len(chunks) < 2,
        "written": written_checks(sample).reason,  # a loop, a stray script, a copied first person
        "faithfulness": faith,
    }
    checks["passes"] = (not checks["points_at_source"] and not checks["multi_hop_one_chunk"]
                        and checks["written"] is None and (faith is None or faith >= 0.5))
    return checks


def good_labels(path: str | None) -> dict[tuple[str, str], bool]:
    """Each hand-labelled sample, by (testset, id): good when correct, self-contained and answerable."""
    out = {}
    if path and Path(path).exists():
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out[(row["testset"], row["id"])] = bool(row["correct"] and row["self_contained"]
                                                        and row["answerable"])
    return out


def score(args: argparse.Namespace) -> None:
    samples = read_samples(args.testsets)
    labels = good_labels(args.labels)
    faith, errors = asyncio.run(faithfulness(samples))
    rows, styles = [], Counter()
    for testset, s in samples:
        auto = automatic(s, faith[s.id])
        if s.id in errors:  # no figure is no pass: the sample is left out of the agreement, and counted
            auto["passes"], auto["error"] = None, errors[s.id]
        good = labels.get((testset, s.id))
        styles[(testset, s.style)] += 1
        rows.append({"testset": testset, "id": s.id, "generator": s.generator.name if s.generator else None,
                     "style": s.style, "question": s.question, **auto, "labelled_good": good})
    labelled = [r for r in rows if r["labelled_good"] is not None and r["passes"] is not None]
    faiths = [r["faithfulness"] for r in rows if r["faithfulness"] is not None]
    figures = {
        "samples": len(rows), "labelled": len(labelled),
        "labelled_good": sum(r["labelled_good"] for r in labelled),
        "auto_passes": sum(bool(r["passes"]) for r in rows),
        "errors": len(errors),
        "agreement": round(sum(r["passes"] == r["labelled_good"] for r in labelled) / len(labelled), 3)
        if labelled else None,
        "faithfulness_mean": round(sum(faiths) / len(faiths), 3) if faiths else None,
        "faithfulness_below_0.5": sum(f < 0.5 for f in faiths),
        "points_at_source": sum(r["points_at_source"] for r in rows),
        "multi_hop_one_chunk": sum(r["multi_hop_one_chunk"] for r in rows),
        "most_samples_on_one_style": max(styles.values()) if styles else 0,
        "by_testset": dict(sorted(Counter(r["testset"] for r in rows).items())),
    }
    print(json.dumps({"figures": figures, "samples": rows}, indent=2, ensure_ascii=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="generate a test set from a corpus")
    gen.add_argument("corpus")
    gen.add_argument("-n", type=int, default=8)
    gen.add_argument("-o", "--output", required=True)
    gen.add_argument("--seed", type=int, default=0)
    sc = sub.add_parser("score", help="automatic checks and hand labels of stored test sets")
    sc.add_argument("testsets", nargs="+")
    sc.add_argument("--labels", default=str(Path(__file__).with_name("testset_labels.jsonl")))
    args = parser.parse_args()
    generate(args) if args.command == "generate" else score(args)


if __name__ == "__main__":
    main()
