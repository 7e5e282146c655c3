"""Lexical overlap of the answer with the reference answer: BLEU, ROUGE-L, chrF, exact match, presence.

No LLM. BLEU and chrF are sacrebleu's own sentence scores (÷ 100). ROUGE-L runs on ``ragkit.text.tokens``: jieba
words for Chinese, MeCab words for Japanese, MeCab-ko morphemes for Korean, words elsewhere, so that CJK answers
are not scored as one giant token.
"""

from __future__ import annotations

from collections.abc import Callable

from ragkit import text as lexical
from ragkit.evaluation import MetricContext
from ragkit.registry import MetricFn, metric
from ragkit.types import EvalSample, Score

REQUIRES = ("response.answer", "test.reference_answer")


def _pairwise(compute: Callable[[str, str], float]) -> MetricFn:
    async def score(sample: EvalSample, ctx: MetricContext) -> Score:
        return Score(value=compute(sample.response.answer, sample.test.reference_answer or ""))

    return score


@metric(requires=REQUIRES)
def bleu() -> MetricFn:
    """Sentence BLEU-4 of the answer against the reference, in [0, 1] (1.0 = identical wording).

    sacrebleu's ``sentence_bleu`` ÷ 100: clipped n-gram precisions p_n (n ≤ 4, exp smoothing, effective order),
    brevity penalty BP = min(1, e^(1 − |ref| / |hyp|)), BLEU = BP · exp(mean_n log p_n), with sacrebleu's tokenizer
    for the reference's language (``zh``, ``ja-mecab``, ``ko-mecab``, else ``13a``). ragas runs sacrebleu's corpus
    BLEU on ". "-split sentences; this is the per-sample sentence score.
    """
    return _pairwise(lexical.bleu)


@metric(requires=REQUIRES)
def rouge_l() -> MetricFn:
    """ROUGE-L F1 of the answer against the reference (1.0 = same token sequence).

    LCS = longest common token subsequence; P = LCS / |hyp|, R = LCS / |ref|, F = 2PR / (P + R). No stemming.
    """
    return _pairwise(lexical.rouge_l)


@metric(requires=REQUIRES)
def chrf() -> MetricFn:
    """chrF of the answer against the reference, in [0, 1]: sacrebleu's ``sentence_chrf`` ÷ 100 (character
    n-grams n ≤ 6, precision and recall averaged over the orders, then F-beta with β = 2)."""
    return _pairwise(lexical.chrf)


@metric(requires=REQUIRES)
def exact_match(*, normalize: bool = True) -> MetricFn:
    """1.0 when the answer equals the reference (after NFKC, casefolding and whitespace collapsing by default)."""
    prep = lexical.normalise if normalize else (lambda s: s)
    return _pairwise(lambda a, r: 1.0 if prep(a) == prep(r) else 0.0)


@metric(requires=REQUIRES)
def string_presence(*, normalize: bool = True) -> MetricFn:
    """1.0 when the reference occurs inside the answer (normalised as in ``exact_match`` by default)."""
    prep = lexical.normalise if normalize else (lambda s: s)
    return _pairwise(lambda a, r: 1.0 if prep(r) in prep(a) else 0.0)
