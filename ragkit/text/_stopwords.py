"""Words that say little on their own: one list of function words for every check that sets them aside, and
spaCy's stop-word list of a language for the extractors that need a fuller one."""

from __future__ import annotations

import importlib
from functools import cache

FUNCTION_WORDS = frozenset(
    # English: articles, pronouns, prepositions, auxiliaries, question words and the verbs a request opens with
    "a an the and or but as it its this that these those he she they we you i his her their our my your yes no "
    "there in on at by for from with of to after before about is are was were be do does did can could should "
    "would will has have had what which who whom whose when where how why please tell explain describe list give "
    "name s "  # "s": what is left of "'s"
    # Chinese and Japanese particles, one character each (``units`` splits Han and kana text character by character)
    "的 了 吗 呢 么 是 在 和 与 の は が を に で と も".split()
)
"""Function words, lower-cased; every ragkit check that sets words aside uses this one list (search terms, names
told from capitalised words, what a follow-up leaves out)."""


@cache
def stop_words(language: str) -> frozenset[str]:
    """spaCy's stop words for ``language`` (an ISO 639-1 code), lower-cased; empty when spaCy has no list. Only
    the list's module is imported, not the language's tokenizer."""
    try:
        module = importlib.import_module(f"spacy.lang.{language}.stop_words")
    except ImportError:
        return frozenset()
    return frozenset(w.lower() for w in getattr(module, "STOP_WORDS", ()))
