"""Prompt-state reuse for the embedded llama.cpp model: saved model states, found again by common token prefix.

llama.cpp evaluates only the part of a prompt that differs from the tokens already in its KV cache, and that
cache holds one sequence: the previous call's. Calls of different kinds take turns (a claim split, then a check,
then an attribution over the same contexts), so most of a prompt that was evaluated two calls ago is evaluated
again. ``PromptStates`` keeps the states of recent calls (an LRU bounded in bytes) and, before each call, hands
llama-cpp-python the one sharing the longest prefix with the new prompt.

llama-cpp-python's own ``save_state`` copies its logits buffer too: with ``logits_all=False`` that is up to
``n_batch × n_vocab`` floats (311 MB for Qwen2.5's vocabulary) that nothing fills or reads. ``lean_llama`` gives a
``Llama`` whose states hold the KV cache and the token ids only.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ragkit.llm._sampling import grammar_last


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class _PromptStates:
    """Saved states keyed by their token sequence; a lookup answers with the longest common prefix. The methods of
    ``PromptStates``, which ``states_class`` puts before llama-cpp-python's cache base.

    ``reused`` is the number of prompt tokens the last looked-up call did not evaluate: the longer of the prefix it
    shares with the live KV cache and with the state handed back.
    """

    def __init__(self, llama: Any, capacity_bytes: int) -> None:
        self.capacity_bytes = capacity_bytes  # what the cache base's own __init__ sets
        self.llama = llama
        self.states: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self.reused = 0

    @property
    def cache_size(self) -> int:
        return sum(s.llama_state_size for s in self.states.values())

    def _best(self, tokens: Sequence[int]) -> tuple[tuple[int, ...] | None, int]:
        best, length = None, 0
        for key in self.states:
            n = common_prefix(key, tokens)
            if n > length:
                best, length = key, n
        return best, length

    def __getitem__(self, key: Sequence[int]) -> Any:
        live = common_prefix(self.llama.input_ids[: self.llama.n_tokens].tolist(), key)
        best, length = self._best(key)
        # llama.cpp evaluates at least the prompt's last token again, to get the logits to sample from
        self.reused = min(max(live, length), max(0, len(key) - 1))
        if best is None or length <= live:
            raise KeyError("no saved state shares more of this prompt than the live one")
        self.states.move_to_end(best)
        return self.states[best]

    def __contains__(self, key: Sequence[int]) -> bool:
        return self._best(key)[0] is not None

    def __setitem__(self, key: Sequence[int], value: Any) -> None:
        if self.capacity_bytes <= 0 or value.llama_state_size > self.capacity_bytes:
            return
        key = tuple(key)
        self.states.pop(key, None)
        # a state whose tokens are a prefix of the new one's is covered by it
        for old in [k for k in self.states if len(k) <= len(key) and key[: len(k)] == k]:
            del self.states[old]
        self.states[key] = value
        while self.cache_size > self.capacity_bytes:
            self.states.popitem(last=False)


def states_class() -> type:
    """``PromptStates``: ``_PromptStates`` as a subclass of llama-cpp-python's cache base, which llama-cpp-python
    requires of a cache (imported only when the model loads)."""
    from llama_cpp.llama_cache import BaseLlamaCache

    return type("PromptStates", (_PromptStates, BaseLlamaCache), {"__module__": __name__})


def lean_llama() -> type:
    """A ``llama_cpp.Llama`` whose saved states leave out the (unused) logits buffer, and whose greedy decoding
    under a grammar asks the grammar last (``_sampling``)."""
    import llama_cpp
    import numpy as np
    from llama_cpp import Llama
    from llama_cpp.llama import LlamaState

    class LeanLlama(Llama):
        ask_grammar_last = True
        """False: llama-cpp-python's own sampler chain (the benches' raw-call yardstick, the tests' reference)."""

        def _init_sampler(self, **options: Any) -> Any:  # type: ignore[override]  # always called by keyword
            if not self.ask_grammar_last:
                return super()._init_sampler(**options)
            return grammar_last(self, super()._init_sampler, options)

        def save_state(self) -> LlamaState:
            size = llama_cpp.llama_state_get_size(self._ctx.ctx)
            buffer = (ctypes.c_uint8 * int(size))()
            written = int(llama_cpp.llama_state_get_data(self._ctx.ctx, buffer, size))
            if written > int(size):
                raise RuntimeError("llama.cpp wrote more state than it announced")
            return LlamaState(input_ids=self.input_ids.copy(), scores=np.zeros((1, 1), dtype=np.single),
                              n_tokens=self.n_tokens, llama_state=ctypes.string_at(buffer, written),
                              llama_state_size=written, seed=self._seed)

        def load_state(self, state: LlamaState) -> None:
            self.input_ids = state.input_ids.copy()
            self.n_tokens = state.n_tokens
            self._requires_eval = True
            self._seed = state.seed
            buffer = (ctypes.c_uint8 * state.llama_state_size).from_buffer_copy(state.llama_state)
            if llama_cpp.llama_state_set_data(self._ctx.ctx, buffer, state.llama_state_size) != \
                    state.llama_state_size:
                raise RuntimeError("llama.cpp did not take the saved state")

    return LeanLlama
