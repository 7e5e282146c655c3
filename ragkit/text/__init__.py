"""Language detection and tokenisation, for every stage and every language."""

from __future__ import annotations

from ragkit.text._language import (
    CJK,
    UNDETERMINED,
    cjk_language,
    detect_language,
    language_matches,
    language_name,
    normalise_language,
)
from ragkit.text._lexical import bleu, chrf, normalise, rouge_l, tokens
from ragkit.text._morph import (
    KOREAN_NOUNS,
    Morpheme,
    chinese_keywords,
    chinese_spans,
    chinese_tagged,
    leading_particles,
    morphemes,
    trailing_particle,
    word_bounds,
)
from ragkit.text._numbers import (
    NumberForm,
    as_written_in,
    in_digits,
    number_forms,
    number_spans,
    number_value,
    numbers,
)
from ragkit.text._printable import counts_text, printable, size_text
from ragkit.text._scripts import CJK_CHAR, HAN, HANGUL, HIRAGANA, IDEOGRAPHIC, KANA, KATAKANA
from ragkit.text._stopwords import FUNCTION_WORDS, stop_words
from ragkit.text._tables import Table, tables
from ragkit.text._tokens import (
    QUESTION_MARKS,
    SENTENCE_END,
    count_tokens,
    is_yes_or_no,
    opens_with_yes_or_no,
    search_terms,
    split_sentences,
    units,
    whole_sentences,
)

__all__ = [
    "CJK",
    "CJK_CHAR",
    "FUNCTION_WORDS",
    "HAN",
    "HANGUL",
    "HIRAGANA",
    "IDEOGRAPHIC",
    "KANA",
    "KATAKANA",
    "KOREAN_NOUNS",
    "Morpheme",
    "NumberForm",
    "QUESTION_MARKS",
    "SENTENCE_END",
    "Table",
    "UNDETERMINED",
    "as_written_in",
    "bleu",
    "chinese_keywords",
    "chinese_spans",
    "chinese_tagged",
    "chrf",
    "cjk_language",
    "count_tokens",
    "counts_text",
    "detect_language",
    "in_digits",
    "is_yes_or_no",
    "language_matches",
    "language_name",
    "leading_particles",
    "morphemes",
    "normalise",
    "normalise_language",
    "number_forms",
    "number_spans",
    "number_value",
    "numbers",
    "opens_with_yes_or_no",
    "printable",
    "rouge_l",
    "search_terms",
    "size_text",
    "split_sentences",
    "stop_words",
    "tables",
    "tokens",
    "trailing_particle",
    "units",
    "whole_sentences",
    "word_bounds",
]
