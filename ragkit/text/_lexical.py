"""Language-aware tokenisation and lexical overlap scores: BLEU and chrF by sacrebleu, ROUGE-L on ``tokens``.

Tokenisation (``tokens``), chosen so that overlap scores mean the same thing across languages:

- Latin, Cyrillic and other space-separated scripts: words and numbers (``\\w+`` runs), casefolded.
- Chinese: runs of Han characters are segmented into words with jieba.
- Japanese: a text containing kana is segmented with MeCab (IPA dictionary).
- Korean: Hangul runs are split into morphemes with MeCab-ko, so that particles come off their nouns.

Punctuation and symbols are dropped; NFKC normalisation folds full-width forms.

BLEU and chrF are computed by sacrebleu itself (sentence scores, ÷ 100), so that they equal the numbers every
paper reports: BLEU with effective order and sacrebleu's tokenizer for the reference's language (``zh``,
``ja-mecab``, ``ko-mecab``, else its default ``13a``), chrF with its defaults (character 6-grams, β = 2).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from ragkit.text._language import cjk_language
from ragkit.text._morph import chinese_words, japanese_words, korean_morphemes
from ragkit.text._scripts import HAN, HANGUL, KANA

_RUNS = re.compile(rf"([{HAN}]+)|([{HANGUL}]+)|([^\W{HAN}{KANA}{HANGUL}]+)")
_HAS_KANA = re.compile(rf"[{KANA}]")
_WORDLIKE = re.compile(r"[^\W_]")
_BLEU_TOKENIZER = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def unspaced(text: str) -> str:
    """``text`` without white space: a Chinese, Japanese or Korean compound is written with and without a space
    (기술 이사, 기술이사), and a line break may fall inside a word."""
    return re.sub(r"\s+", "", text)


def normalise(text: str) -> str:
    """NFKC, casefolded, whitespace collapsed: the form exact-match and presence checks compare."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def tokens(text: str) -> list[str]:
    """Word-level tokens of ``text`` for any script (see the module docstring)."""
    text = normalise(text)
    if _HAS_KANA.search(text):  # Japanese: MeCab segments the whole text, Han, kana and Latin alike
        return [t for t in japanese_words(text) if _WORDLIKE.search(t)]
    out: list[str] = []
    for han, hangul, word in _RUNS.findall(text):
        if han:
            out.extend(chinese_words(han))
        elif hangul:
            out.extend(korean_morphemes(hangul))
        elif word.strip("_"):
            out.append(word)
    return out


@functools.cache
def _sacrebleu(kind: str, tokenizer: str = "") -> Any:
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.metrics.chrf import CHRF

    return BLEU(tokenize=tokenizer, effective_order=True) if kind == "bleu" else CHRF()


def bleu(hypothesis: str, reference: str) -> float:
    """Sentence BLEU in [0, 1] by sacrebleu (effective order, exp smoothing, its tokenizer for the language)."""
    if not hypothesis.strip() or not reference.strip():
        return 0.0
    tokenizer = _BLEU_TOKENIZER.get(cjk_language(reference) or "", "13a")
    return float(_sacrebleu("bleu", tokenizer).sentence_score(hypothesis, [reference]).score) / 100


def chrf(hypothesis: str, reference: str) -> float:
    """chrF in [0, 1] by sacrebleu (character n-grams n ≤ 6, β = 2): works on any script."""
    if not hypothesis.strip() or not reference.strip():
        return 0.0
    return float(_sacrebleu("chrf").sentence_score(hypothesis, [reference]).score) / 100


def _lcs(a: Sequence[str], b: Sequence[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b, 1):
            cur.append(prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def rouge_l(hypothesis: str, reference: str, *, beta: float = 1.0) -> float:
    """ROUGE-L F-measure: longest common token subsequence, F = (1+β²)PR / (R + β²P). No stemming."""
    hyp, ref = tokens(hypothesis), tokens(reference)
    if not hyp or not ref:
        return 0.0
    lcs = _lcs(hyp, ref)
    if lcs == 0:
        return 0.0
    p, r = lcs / len(hyp), lcs / len(ref)
    return (1 + beta**2) * p * r / (r + beta**2 * p)
