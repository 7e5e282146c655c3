#!/usr/bin/env python3
"""How fast this machine's llama.cpp build evaluates a prompt and decodes, with the embedded judge's weights.

A 980-token prompt (corpora/acme/company-overview.md, whole) is evaluated from an empty KV cache, then 48 tokens are
decoded greedily; twice. Compare builds by running it under each (one model process at a time):

    .venv/bin/python bench/llama_speed.py [--flash-attn]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from ragkit import Settings
from ragkit.llm import model_path

TEXT = Path(__file__).resolve().parent.parent / "corpora" / "acme" / "company-overview.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flash-attn", action="store_true", help="llama.cpp's flash attention on")
    args = parser.parse_args()
    import llama_cpp

    path = model_path("qwen2.5-coder-1.5b", Settings().model_dir)
    llm = llama_cpp.Llama(model_path=str(path), n_ctx=4096, n_threads=2, n_batch=512, verbose=False,
                          flash_attn=args.flash_attn)
    tokens = llm.tokenize(TEXT.read_text(encoding="utf-8").encode())
    runs = []
    for _ in range(2):
        llm.reset()
        started = time.monotonic()
        llm.eval(tokens)
        prompt_s = time.monotonic() - started
        started = time.monotonic()
        for _ in range(48):
            llm.eval([llm.sample(temp=0.0)])
        runs.append({"prompt_tok_s": round(len(tokens) / prompt_s, 1),
                     "generated_tok_s": round(48 / (time.monotonic() - started), 1)})
    print(json.dumps({"system": llama_cpp.llama_print_system_info().decode().strip(), "prompt_tokens": len(tokens),
                      "runs": runs, "load": os.getloadavg()}, indent=2))


if __name__ == "__main__":
    main()
