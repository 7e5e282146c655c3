"""The embedded MiniLM in NumPy against sentence-transformers + torch: start-up, memory and throughput.

    python bench/embedding_speed.py short numpy   # a fresh process: import ragkit, embed 200 short sentences
    python bench/embedding_speed.py short st      #   ... through sentence-transformers (torch)
    python bench/embedding_speed.py chunks        # 103 graph chunks (up to 256 tokens), both, models loaded
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def short(backend: str) -> None:
    started = time.perf_counter()
    from ragkit.llm import Embeddings
    from ragkit.llm._minilm import embedded_model_folder

    name = None if backend == "numpy" else str(embedded_model_folder())  # a path: the sentence-transformers route
    texts = [f"Sentence number {i} about the Kestrel K10 launch in Chicago and the Wren W300 arm." for i in range(200)]
    Embeddings(name, cache=False).embed(texts)
    print(f"{backend}: {time.perf_counter() - started:.1f} s, "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB peak RSS, torch imported: "
          f"{'torch' in sys.modules}")


def chunks() -> None:
    import numpy as np
    from embedding_retrieval import chunks_of
    from sentence_transformers import SentenceTransformer

    from ragkit.llm._minilm import embedded_model_folder, load_minilm

    texts = [t for _, t in chunks_of("acme")] + [t for _, t in chunks_of("zh")]
    ours = load_minilm(embedded_model_folder())
    ours.encode(texts[:2])
    started = time.perf_counter()
    a = ours.encode(texts)
    numpy_s = time.perf_counter() - started
    theirs = SentenceTransformer(str(embedded_model_folder()), device="cpu")
    theirs.encode(texts[:2])
    started = time.perf_counter()
    b = theirs.encode(texts, batch_size=32, normalize_embeddings=True)
    print(f"{len(texts)} chunks: numpy {numpy_s:.1f} s, torch {time.perf_counter() - started:.1f} s, "
          f"largest difference {np.abs(a - b).max():.1e}")


if __name__ == "__main__":
    short(sys.argv[2]) if sys.argv[1] == "short" else chunks()
