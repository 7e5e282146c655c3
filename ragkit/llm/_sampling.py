"""Greedy decoding under a JSON grammar, with the grammar asked last.

llama-cpp-python samples through one llama.cpp chain: the logits processors, the repetition penalties, the grammar,
then the choice. The grammar step tests every token of the vocabulary against the grammar's state before the
choice, on every generated token: for Qwen2.5's 151,936 tokens that is a large share of the time of a token on a
CPU (issue 16's profile: ~8 generated tokens/s under the grammar against ~11.5 without it on a slow machine).

Greedy decoding needs less. It takes the token with the highest score among those the grammar allows; when the
highest of all is allowed, that is the one. So the chain without the grammar chooses first, the grammar tests only
that token, and only a token it rejects sends the step through the full grammar step. The reply is the same token
for token (llama.cpp's own ``common_sampler`` does the same for any sampler).
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

__all__ = ["GrammarLast", "grammar_last"]


class GrammarLast:
    """``free`` (the chain without the grammar, greedy) proposes; ``constrained`` (grammar, then greedy) tests the
    proposal and chooses again only when it rejects it. The grammar accepts the token chosen, so that it follows
    the reply. ``free`` accepts its own proposal, even a rejected one, which is harmless: it is built only when the
    penalties are neutral, so the past tokens it keeps change no score. llama-cpp-python asks a sampler only for
    ``sample``, and builds a new one for each reply."""

    def __init__(self, free: Any, constrained: Any) -> None:
        self.free, self.constrained = free, constrained
        self.proposals = 0
        self.rejected = 0

    def sample(self, ctx: Any, idx: int = -1) -> int:
        token = int(self.free.sample(ctx, idx))
        self.proposals += 1
        if self._allows(token):
            self.constrained.accept(token)
            return token
        self.rejected += 1
        return int(self.constrained.sample(ctx, idx))

    def _allows(self, token: int) -> bool:
        """Whether the grammar, in its present state, allows ``token`` next (it masks a rejected one to -inf)."""
        import llama_cpp

        one = llama_cpp.llama_token_data(id=token, logit=0.0, p=0.0)
        array = llama_cpp.llama_token_data_array(data=ctypes.pointer(one), size=1, selected=-1, sorted=False)
        llama_cpp.llama_sampler_apply(self.constrained.sampler, ctypes.byref(array))
        return not math.isinf(one.logit)


def grammar_last(llama: Any, init_sampler: Any, options: dict[str, Any]) -> Any:
    """The sampler llama-cpp-python's ``Llama._init_sampler(**options)`` would build, as a ``GrammarLast`` when it
    is greedy under a grammar with neutral penalties (the choice is then the same); as built otherwise.
    ``init_sampler`` is the base class's method, bound to ``llama``."""
    grammar = options.get("grammar")
    neutral = (options.get("repeat_penalty", 1.0) == 1.0 and not options.get("frequency_penalty")
               and not options.get("presence_penalty"))
    if grammar is None or options.get("temp") != 0.0 or not neutral:
        return init_sampler(**options)
    from llama_cpp import _internals

    free = init_sampler(**{**options, "grammar": None})
    sampler_class: Any = _internals.LlamaSampler  # untyped in llama-cpp-python
    constrained = sampler_class()
    constrained.add_grammar(llama._model, grammar)
    constrained.add_greedy()
    return GrammarLast(free, constrained)
