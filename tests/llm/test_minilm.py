"""The embedded MiniLM in NumPy gives sentence-transformers' vectors: against vectors sentence-transformers 6.2
wrote (tests/fixtures/minilm_reference.json), and against sentence-transformers itself when it is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ragkit.llm import Embeddings
from ragkit.llm._minilm import embedded_model_folder, load_minilm

REFERENCE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "minilm_reference.json").read_text())


def test_vectors_match_sentence_transformers_reference() -> None:
    ours = load_minilm(embedded_model_folder()).encode(REFERENCE["texts"], batch_size=3)
    theirs = np.asarray(REFERENCE["vectors"], dtype=np.float32)
    assert ours.shape == theirs.shape == (7, 384)
    assert np.abs(ours - theirs).max() < 1e-5  # Chinese, Korean, Japanese, empty and truncated texts included
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_batching_and_order_do_not_change_a_vector() -> None:
    model = load_minilm(embedded_model_folder())
    texts = REFERENCE["texts"]
    alone = np.stack([model.encode([t])[0] for t in texts])
    assert np.abs(model.encode(texts[::-1], batch_size=2)[::-1] - alone).max() < 1e-5


def test_embeddings_use_it_without_torch() -> None:
    import subprocess
    import sys

    code = ("import sys; from ragkit.llm import Embeddings; m = Embeddings(cache=False).embed(['a cat', 'a dog']); "
            "print(m.shape, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(2,", "384)", "False", "False"]
    e = Embeddings(cache=False)
    assert e.similarity("The cat sits on the mat.", "A cat is sitting on a mat.") > \
        e.similarity("The cat sits on the mat.", "Quarterly revenue rose by 4 percent.")


def test_same_as_sentence_transformers_when_installed() -> None:
    st = pytest.importorskip("sentence_transformers")
    model = st.SentenceTransformer(str(embedded_model_folder()), device="cpu")
    texts = ["Refunds take five days.", "退款需要五天。", "환불은 5일 걸립니다."]
    theirs = model.encode(texts, convert_to_numpy=True, normalize_embeddings=True)
    assert np.abs(load_minilm(embedded_model_folder()).encode(texts) - theirs).max() < 1e-5
