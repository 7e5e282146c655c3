#!/usr/bin/env python3
"""What the persona step names its personas (issue 20): a job role, or a placeholder person ("Jane Smith", 张三)?

For each knowledge-graph file, clusters the documents as ``ragkit generate`` does (``k`` groups) and asks the
judge to name one persona per group: the raw names the model wrote, before ragkit replaces a name the CJK tagger
calls a person. Prints one line per persona; the reading (person or role) is left to the reader, with the taggers'
view beside each name (the CJK tagger's "person", spaCy's PERSON in "<name> asked a question.").

    PYTHONPATH=. .venv/bin/python bench/persona_names.py acme=acme.kg.json zh=zh.kg.json [-k 3] [--out rows.jsonl]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from ragkit.kg import KnowledgeGraph, named_entities
from ragkit.llm import Judge
from ragkit.synthesis._personas import (
    PersonaInput,
    _describe_group,
    document_groups,
    persona_prompt,
)
from ragkit.synthesis._scenarios import scenario_language


def tagged(name: str, language: str) -> list[str]:
    """What the taggers call the name: the corpus language's tagger, and English spaCy in a sentence frame."""
    views = [f"{language}:{m.type}" for m in named_entities(name, language) if m.name.strip() == name.strip()]
    if language != "en":
        return views
    return views + [f"frame:{m.type}" for m in named_entities(f"{name} asked a question.", "en")
                    if m.name.strip() == name.strip()]


async def names(corpus: str, kg: KnowledgeGraph, k: int, judge: Judge) -> list[dict[str, Any]]:
    groups = document_groups(kg, k)
    language = scenario_language(kg, [c.id for c in kg.chunks()])
    data = PersonaInput(document_groups=[_describe_group(kg, g) for g in groups], personas_needed=len(groups))
    out = await judge.structured(persona_prompt(len(groups)), data)
    return [{"corpus": corpus, "language": language, "group": data.document_groups[i][:120],
             "name": p.name, "tagged": tagged(p.name, language)} for i, p in enumerate(out.personas)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("graphs", nargs="+", help="name=kg.json")
    parser.add_argument("-k", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    judge = Judge(None)
    rows: list[dict[str, Any]] = []
    for spec in args.graphs:
        corpus, path = spec.split("=", 1)
        rows += asyncio.run(names(corpus, KnowledgeGraph.load(path), args.k, judge))
    for row in rows:
        print(f"{row['corpus']:8} {row['language']:3} {row['name']!r:40} {','.join(row['tagged'])}")
    usage = judge.usage.total
    print(f"\n{len(rows)} personas, {usage.calls} calls ({usage.cache_hits} from the cache)")
    if args.out:
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


if __name__ == "__main__":
    main()
