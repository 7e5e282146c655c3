"""Language-aware tokenisation and lexical overlap scores (BLEU, ROUGE-L, chrF), own implementations.

Tokenisation (``tokens``), chosen so that overlap scores mean the same thing across languages:

- Latin, Cyrillic and other space-separated scripts: words and numbers (``\\w+`` runs), casefolded.
- Chinese: runs of Han characters are segmented into words with jieba.
- Japanese: a text containing kana is treated as Japanese, and its Han and kana are split into single
  characters (no Japanese segmenter is shipped; character overlap is the usual fallback).
- Korean: Hangul is split into syllables. Eojeol (space-separated) tokens would count "서울에" and "서울은" as
  different words because particles attach to the noun; syllables give partial credit without a morphological
  analyser.

Punctuation and symbols are dropped; NFKC normalisation folds full-width forms.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from ragkit.text._scripts import HAN, HANGUL, KANA

_HAN, _KANA, _HANGUL = HAN, KANA, HANGUL
_RUNS = re.compile(rf"([{_HAN}]+)|([{_KANA}]+)|([{_HANGUL}]+)|([^\W{_HAN}{_KANA}{_HANGUL}]+)")
_HAS_KANA = re.compile(rf"[{_KANA}]")


def normalise(text: str) -> str:
    """NFKC, casefolded, whitespace collapsed: the form exact-match and presence checks compare."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _jieba_cut(text: str) -> list[str]:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return [w for w in jieba.lcut(text) if w.strip()]


def tokens(text: str) -> list[str]:
    """Word-level tokens of ``text`` for any script (see the module docstring)."""
    text = normalise(text)
    japanese = bool(_HAS_KANA.search(text))
    out: list[str] = []
    for han, kana, hangul, word in _RUNS.findall(text):
        if han:
            out.extend(han if japanese else _jieba_cut(han))
        elif kana or hangul:
            out.extend(kana or hangul)
        elif word.strip("_"):
            out.append(word)
    return out


def _ngrams(seq: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(seq[i : i + n]) for i in range(len(seq) - n + 1))


def bleu(hypothesis: str, reference: str, *, max_order: int = 4) -> float:
    """Sentence BLEU in [0, 1]: clipped n-gram precisions (n ≤ 4), geometric mean, brevity penalty.

    Smoothing: an order with no match gets precision 1 / (2^k · total) for the k-th such order ("exp"
    smoothing), and orders longer than the hypothesis are left out (effective order), as in sacrebleu's
    sentence BLEU.
    """
    hyp, ref = tokens(hypothesis), tokens(reference)
    if not hyp or not ref:
        return 0.0
    logs: list[float] = []
    smooth = 1.0
    any_match = False
    for n in range(1, max_order + 1):
        h, r = _ngrams(hyp, n), _ngrams(ref, n)
        total = sum(h.values())
        if total == 0:
            break
        correct = sum(min(c, r[g]) for g, c in h.items())
        any_match = any_match or correct > 0
        if correct == 0:
            smooth *= 2
            logs.append(math.log(1.0 / (smooth * total)))
        else:
            logs.append(math.log(correct / total))
    if not any_match:
        return 0.0
    bp = 1.0 if len(hyp) >= len(ref) else math.exp(1 - len(ref) / len(hyp))
    return bp * math.exp(sum(logs) / len(logs))


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


def chrf(hypothesis: str, reference: str, *, order: int = 6, beta: float = 2.0) -> float:
    """chrF in [0, 1]: character n-gram (n ≤ 6) F-beta (β = 2), averaged over orders, whitespace removed.

    Per order n: P_n = matches / hypothesis n-grams, R_n = matches / reference n-grams,
    F_n = (1+β²)P_nR_n / (β²P_n + R_n); chrF = mean of F_n over the orders both texts are long enough for.
    Works on any script, so it is the safest lexical score for CJK text.
    """
    hyp = "".join(unicodedata.normalize("NFKC", hypothesis).split())
    ref = "".join(unicodedata.normalize("NFKC", reference).split())
    b2, total, used = beta * beta, 0.0, 0
    for n in range(1, order + 1):
        h, r = _ngrams(list(hyp), n), _ngrams(list(ref), n)
        nh, nr = sum(h.values()), sum(r.values())
        if nh == 0 or nr == 0:
            continue
        match = sum(min(c, r[g]) for g, c in h.items())
        p, rc = match / nh, match / nr
        total += (1 + b2) * p * rc / (b2 * p + rc) if p + rc > 0 else 0.0
        used += 1
    return total / used if used else 0.0
