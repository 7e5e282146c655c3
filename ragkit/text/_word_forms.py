"""English word forms, as the claim rules compare words: "supports" is "support", "led" is "lead"."""

from __future__ import annotations

from collections.abc import Collection


def _same_word(a: str, b: str) -> bool:
    """One word: equal, or in English one the other's stem ("support", "supports"; "ship", "shipped"), or both of
    one stem ("chairs", "chaired")."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if not (short.isascii() and short.isalpha() and len(short) >= 3):
        return False
    return long.startswith(short) and len(long) - len(short) <= 3 or _stem(a) == _stem(b)


_IRREGULAR = dict(pair.split(":") for pair in (
    "led:lead made:make took:take taken:take ran:run held:hold built:build sold:sell bought:buy went:go gone:go "
    "came:come began:begin begun:begin became:become wrote:write written:write gave:give given:give found:find "
    "left:leave kept:keep met:meet paid:pay sent:send spent:spend brought:bring told:tell grew:grow grown:grow "
    "won:win chose:choose chosen:choose drove:drive driven:drive rose:rise fell:fall fallen:fall knew:know "
    "known:know saw:see seen:see taught:teach caught:catch flew:fly flown:fly ").split())
"""English past forms that no ending gives: "led" is "lead"."""


def _stem(word: str) -> str:
    """An English word without its ending: "chairs", "chaired", "chairing" → "chair"; "shipped" → "ship"; "led" →
    "lead"; "upholstery" → "upholster"."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ry") and len(word) >= 6:  # a noun of the doing: "upholstery", "delivery" → "upholster"
        return word[:-1]
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            return stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] and ending in ("ing", "ed") else stem
    return word


def has_word(words: Collection[str], word: str) -> bool:
    """Whether ``word`` is one of ``words`` (``_same_word``)."""
    return any(_same_word(word, w) for w in words)
