#!/usr/bin/env python3
"""Every claim probe that lists labelled cases (``CASES``), in one run: the two counts per probe, and each claim's
verdict and support in ``--out``. With ``--no-question`` each claim is checked as faithfulness checks it, with no
question to read the passage by (``claim_probe.probe(with_question=False)``).

    RAGKIT_CACHE_DIR=cache PYTHONPATH=.. ../.venv/bin/python probe_all.py [--no-question] [--out verdicts.tsv]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import io
import json
import re
from pathlib import Path

from claim_probe import probe

PROBES = sorted(p.stem for p in Path(__file__).resolve().parent.glob("*_probe.py")
                if re.search(r"^CASES\b", p.read_text(encoding="utf-8"), re.MULTILINE))
"""The probes that list labelled cases, found by their files: a new one is run without being named here."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-question", action="store_true", help="check each claim with no question")
    parser.add_argument("--out", type=Path, help="write each claim's verdict here, a probe name before each line")
    args = parser.parse_args()
    counts, lines = {}, []
    for name in PROBES:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            counts[name] = asyncio.run(probe(importlib.import_module(name).CASES,
                                             with_question=not args.no_question))
        lines += [f"{name}\t{line}" for line in printed.getvalue().splitlines() if "\t" in line]
        print(name, counts[name], flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
