#!/usr/bin/env python3
"""Can the judge tell a garbled question from a clear one, with no document? (session 67; issue 20; not adopted)

The largest kind of bad sample in the labelled sets is a question whose words do not fit together, mostly in
Korean ("서울에서 가장 많은 카페는 어디에 있는지?", asked in every Korean run of sessions 29-65). No pattern finds
them. This asks the judge, shown only the question, whether it reads as one sensible question, and reads the
probability it gives "clear". The ROC-AUC of that probability is reported, per language, for the good samples
against the bad ones whose label note calls them garbled (garbled, a statement, nonsense, asks nothing), and
against the labels' ``self_contained``. Keyword-search questions (style ``web_search``) are left out: they are
meant to be fragments. The prompt lives here, not in ragkit: a critic check would need it to separate well.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/question_clarity.py [--out rows.jsonl]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from ragkit.calibration import roc_auc
from ragkit.llm import Judge, Prompt

BENCH = Path(__file__).resolve().parent
GARBLED = re.compile(r"garbled|asks nothing|not a question|nonsense|a statement", re.IGNORECASE)


class Question(BaseModel):
    question: str


class Reading(BaseModel):
    reading: Literal["clear", "garbled"]


CLARITY = Prompt(
    name="probe.clarity",
    instruction=(
        "A user typed this question to an assistant. You see no document and need none: judge only how the "
        "question reads, in its own language.\n"
        "reading: 'clear' if a fluent speaker would take it as one sensible question (a short keyword search "
        "counts) and could say what kind of answer it wants. 'garbled' if its words do not fit together: broken "
        "grammar that changes the meaning, parts that contradict or do not belong together, or a question that "
        "asks for nothing a person could answer."
    ),
    input=Question,
    output=Reading,
    examples=(
        (Question(question="In which year did Harbor Books open its Leeds shop?"), Reading(reading="clear")),
        (Question(question="Harbor Books Leeds shop opening year"), Reading(reading="clear")),
        (Question(question="What does the Leeds shop open the year of books in?"), Reading(reading="garbled")),
        (Question(question="宁波港是哪一年开始经营集装箱业务的？"), Reading(reading="clear")),
    ),
    max_tokens=20,
)


def language(text: str) -> str:
    if re.search(r"[\uac00-\ud7a3]", text):
        return "ko"
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    return "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"


def labelled() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(sample, label) for every labelled sample of bench/testsets."""
    labels = {(r["testset"], r["id"]): r for r in map(json.loads, open(BENCH / "testset_labels.jsonl"))}
    out = []
    for path in sorted((BENCH / "testsets").glob("*.jsonl")):
        for sample in map(json.loads, open(path)):
            if (label := labels.get((path.stem, sample["id"]))) is not None:
                out.append((sample, label))
    return out


async def read_all() -> list[dict[str, Any]]:
    judge, rows = Judge(), []
    for sample, label in labelled():
        scored = await judge.structured_scored(CLARITY, Question(question=sample["question"]))
        clear = next((p.distribution.get("clear") for p in scored.labels), None)
        rows.append({"question": sample["question"], "style": (sample.get("scenario") or {}).get("style"),
                     "language": language(sample["question"]), "reading": scored.output.reading, "p_clear": clear,
                     "good": label["correct"] and label["self_contained"] and label["answerable"],
                     "self_contained": label["self_contained"], "garbled": bool(GARBLED.search(label["note"]))})
    return rows


def _shown(auc: float | None) -> str:
    return "-" if auc is None else f"{auc:.2f}"


def report(rows: list[dict[str, Any]]) -> None:
    print("language\tquestions\tgarbled\tAUC good vs garbled\tAUC self-contained\tcalled garbled (good)")
    for lang in ("all", "en", "zh", "ja", "ko"):
        rs = [r for r in rows if r["p_clear"] is not None and r["style"] != "web_search"
              and lang in ("all", r["language"])]
        pair = [(r["p_clear"], r["good"]) for r in rs if r["good"] or r["garbled"]]
        sc = [(r["p_clear"], r["self_contained"]) for r in rs]
        auc = roc_auc([s for s, _ in pair], [y for _, y in pair])
        auc_sc = roc_auc([s for s, _ in sc], [y for _, y in sc])
        flagged = [r for r in rs if r["reading"] == "garbled"]
        print(f"{lang}\t{len(rs)}\t{sum(r['garbled'] and not r['good'] for r in rs)}\t{_shown(auc)}\t{_shown(auc_sc)}\t"
              f"{len(flagged)} ({sum(r['good'] for r in flagged)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write one row per question here (JSONL)")
    args = parser.parse_args()
    rows = asyncio.run(read_all())
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    report(rows)


if __name__ == "__main__":
    main()
