#!/usr/bin/env python3
"""Real pairs for a change to how dates are read (session 60): the faithfulness of every stored sample's reference
answer whose reference contexts write a whole date (``ragkit.text.date_forms``), against those contexts, as
``testset_quality.py score`` computes it. ``--rule-off`` offers a date's parts as cloze options again
(``date_parts_probe.py``), so the two runs differ only where a passage writes a date.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/dated_references.py [--rule-off]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from date_parts_probe import _turn_off
from testset_quality import faithfulness, read_samples

from ragkit.text import date_forms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule-off", action="store_true", help="offer a date's parts as options again")
    if parser.parse_args().rule_off:
        _turn_off()
    paths = sorted(str(p) for p in Path(__file__).with_name("testsets").glob("*.jsonl"))
    samples = [(name, s) for name, s in read_samples(paths)
               if any(date_forms(r.text) for r in s.reference_contexts if not r.distractor)]
    faith, errors = asyncio.run(faithfulness(samples))
    scored = {k: v for k, v in faith.items() if v is not None}
    for name, s in samples:
        print(f"{name}\t{s.id}\t{faith[s.id]}")
    print(json.dumps({"samples": len(samples), "scored": len(scored), "errors": len(errors),
                      "mean": round(sum(scored.values()) / len(scored), 3) if scored else None,
                      "below_0.5": sum(v < 0.5 for v in scored.values())}))


if __name__ == "__main__":
    main()
