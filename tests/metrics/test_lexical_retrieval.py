"""Lexical and id-based retrieval metrics: hand-computed values, CJK tokenisation."""

from __future__ import annotations

import math

import pytest
from claimworld import context, make_sample

from ragkit.evaluation import build_metric
from ragkit.registry import info_of
from ragkit.testing import ScriptedJudge
from ragkit.text import _lexical as lexical
from ragkit.types import ContextRef


def test_tokens_by_script() -> None:
    assert lexical.tokens("The Cat, sat!  on 2 mats.") == ["the", "cat", "sat", "on", "2", "mats"]
    zh = lexical.tokens("龙坞茶园建于2010年，面积约320亩。")
    assert "龙坞" in "".join(zh) and len(zh) > 4 and "，" not in zh  # words, not one giant token
    assert all(len(t) <= 4 for t in zh)
    # kana → Japanese: MeCab words; Korean: MeCab-ko morphemes, particles off their nouns
    assert lexical.tokens("東京タワーは高い") == ["東京", "タワー", "は", "高い"]
    assert lexical.tokens("서울에 갔다") == ["서울", "에", "갔", "다"]
    assert set(lexical.tokens("서울은 크다")) & set(lexical.tokens("서울에 갔다")) == {"서울"}
    assert lexical.tokens("ＡＢＣ１２３") == ["abc123"]  # NFKC folds full-width forms


def test_bleu_rouge_chrf_hand_values() -> None:
    hyp, ref = "the cat sat on the mat", "the cat sat on a mat"
    assert lexical.bleu(hyp, ref) == pytest.approx((5 / 6 * 3 / 5 * 1 / 2 * 1 / 3) ** 0.25)
    assert lexical.rouge_l(hyp, ref) == pytest.approx(5 / 6)
    # chrF (sacrebleu): P and R averaged over the orders, then F2: P = 1, R = (2/3 + 1/2) / 2 = 7/12 → 7/11
    assert lexical.chrf("ab", "abc") == pytest.approx(7 / 11)
    for fn in (lexical.bleu, lexical.rouge_l, lexical.chrf):
        assert fn(ref, ref) == pytest.approx(1.0)
        assert fn("xyz xy", ref) == 0.0
        assert fn("", ref) == 0.0


def test_bleu_brevity_penalty_and_smoothing() -> None:
    # hypothesis of 3 tokens against 6: all n-grams match, BP = e^(1 - 6/3)
    assert lexical.bleu("the cat sat", "the cat sat on a mat") == pytest.approx(math.exp(1 - 2))
    # no 2-gram match: smoothed precision 1/(2·total) instead of 0
    value = lexical.bleu("cat the", "the cat")
    assert value == pytest.approx(math.sqrt(1.0 * (1 / (2 * 1))))


def test_cjk_overlap_is_graded() -> None:
    ref = "岚山冷泡茶于2022年6月18日在上海发布。"
    close = "岚山冷泡茶2022年6月18日在上海发布。"
    far = "龙坞茶园建于2010年。"
    assert 0.3 < lexical.rouge_l(close, ref) < 1.0
    assert lexical.rouge_l(far, ref) < lexical.rouge_l(close, ref)
    assert lexical.bleu(far, ref) < lexical.bleu(close, ref) < 1.0
    assert lexical.chrf(far, ref) < lexical.chrf(close, ref) < 1.0


CASES = [
    ("exact_match", "Paris", "paris ", 1.0),
    ("exact_match[normalize=false]", "Paris", "paris", 0.0),
    ("exact_match", "Paris, France", "Paris", 0.0),
    ("string_presence", "It is Paris, France.", "paris", 1.0),
    ("string_presence", "It is Lyon.", "Paris", 0.0),
    ("string_presence", "答案是上海。", "上海", 1.0),
    ("rouge_l", "the cat sat on the mat", "the cat sat on a mat", 5 / 6),
    ("bleu", "the cat sat on a mat", "the cat sat on a mat", 1.0),
    ("chrf", "ab", "abc", 7 / 11),
]


@pytest.mark.parametrize(("key", "answer", "reference", "expected"), CASES)
async def test_lexical_metrics(key: str, answer: str, reference: str, expected: float) -> None:
    score = await build_metric(key)(make_sample(answer=answer, reference=reference), None)  # type: ignore[arg-type]
    assert score.value == pytest.approx(expected)


RANKED = ["x", "a", "y", "b"]
RELEVANT = ["a", "b", "c"]
IDCG3 = 1 + 1 / math.log2(3) + 1 / math.log2(4)
RETRIEVAL = [
    ("hit_rate", 1.0), ("hit_rate[k=1]", 0.0), ("hit_rate[k=2]", 1.0),
    ("recall_at_k", 2 / 3), ("recall_at_k[k=2]", 1 / 3), ("recall_at_k[k=1]", 0.0),
    ("mrr", 0.5),
    ("ndcg_at_k", (1 / math.log2(3) + 1 / math.log2(5)) / IDCG3),
    ("ndcg_at_k[k=2]", (1 / math.log2(3)) / (1 + 1 / math.log2(3))),
    ("context_precision[reference=ids]", (1 / 2 + 2 / 4) / 2),
    ("context_recall[reference=ids]", 2 / 3),
]


@pytest.mark.parametrize(("key", "expected"), RETRIEVAL)
async def test_retrieval_metrics(key: str, expected: float) -> None:
    sample = make_sample(answer="a", reference="a", contexts=[f"text {i}" for i in RANKED], ids=RANKED,
                         reference_ids=RELEVANT)
    score = await build_metric(key)(sample, context(ScriptedJudge([])))  # no LLM call
    assert score.value == pytest.approx(expected)


async def test_retrieval_with_nothing_relevant_retrieved() -> None:
    sample = make_sample(contexts=["t"], ids=["zzz"], reference_ids=["a"])
    for key in ("hit_rate", "recall_at_k", "mrr", "ndcg_at_k", "context_precision[reference=ids]"):
        assert (await build_metric(key)(sample, context(ScriptedJudge([])))).value == 0.0


async def test_string_similarity_variants() -> None:
    sample = make_sample(answer="a", reference="a",
                         contexts=["The Porto plant opened in 2021.", "Completely different text here."])
    sample.test.reference_contexts = [type(sample.response.retrieved_contexts[0])(text="The Porto plant opened 2021.")]
    precision = await build_metric("context_precision[reference=contexts]")(sample, None)  # type: ignore[arg-type]
    recall = await build_metric("context_recall[reference=contexts]")(sample, None)  # type: ignore[arg-type]
    assert precision.value == pytest.approx(1.0) and precision.details["relevance"] == [1.0, 0.0]
    assert recall.value == 1.0


def test_no_llm_metrics_declare_it() -> None:
    for key in ("bleu", "rouge_l", "chrf", "exact_match", "string_presence", "hit_rate", "mrr", "ndcg_at_k",
                "recall_at_k", "semantic_similarity"):
        assert info_of(build_metric(key)).needs_llm is False
    ScriptedJudge([])  # constructing the fake costs nothing


ID_METRICS = ("hit_rate", "recall_at_k", "mrr", "ndcg_at_k", "context_precision[reference=ids]",
              "context_recall[reference=ids]")
GOLD = "The Porto plant opened on 4 October 2021 and builds the Wren W300 arm for European customers."


def id_sample(retrieved: list[tuple[str | None, str]]):
    sample = make_sample(question="When did the Porto plant open?", answer="a", reference="a")
    sample.test.reference_contexts = [ContextRef(chunk_id="acme:porto#0", text=GOLD)]
    sample.response.retrieved_contexts = [ContextRef(chunk_id=cid, text=text) for cid, text in retrieved]
    return sample


@pytest.mark.parametrize("key", ID_METRICS)
async def test_a_target_with_ids_of_its_own_is_matched_by_text(key: str) -> None:
    # the same passage, chunked with a heading in front, under the retriever's own id, ranked first
    sample = id_sample([("doc-17#3", "Porto plant. " + GOLD), ("doc-2#0", "The weather in Porto is mild.")])
    score = await build_metric(key)(sample, context(ScriptedJudge([]), reference_ids=frozenset({"acme:porto#0"})))
    assert score.value == 1.0 and score.details["matched_by_text"] == 1, score


@pytest.mark.parametrize("key", ID_METRICS)
async def test_foreign_ids_without_text_are_unscorable_never_zero(key: str) -> None:
    sample = id_sample([("doc-17#3", ""), ("doc-2#0", "")])
    score = await build_metric(key)(sample, context(ScriptedJudge([])))
    assert score.value is None and "'doc-17#3' that the test set does not use" in (score.explanation or "")


async def test_text_matching_needs_most_of_the_reference_chunk() -> None:
    from ragkit.metrics._ids import same_text

    assert same_text("Intro. " + GOLD + " More text after it.", GOLD)  # a larger chunk holding it
    assert same_text(GOLD[:60], GOLD)  # most of it
    assert not same_text("The Porto plant", GOLD)  # a snippet that occurs in it
    assert not same_text("The Lyon plant opened in 2019 and builds the Finch gripper for customers.", GOLD)


async def test_a_known_id_of_another_chunk_is_a_miss_not_a_text_match() -> None:
    # an id the test set uses elsewhere speaks the test set's ids: it is compared as an id, and misses
    sample = id_sample([("acme:kestrel#1", GOLD)])
    known = frozenset({"acme:porto#0", "acme:kestrel#1"})
    assert (await build_metric("hit_rate")(sample, context(ScriptedJudge([]), reference_ids=known))).value == 0.0


@pytest.mark.parametrize(("hyp", "ref", "tokenize"), [
    ("The plant opened in 2021, in Porto.", "The Porto plant opened in 2021.", "13a"),  # punctuation is a token
    ("岚山冷泡茶2022年6月18日在上海发布。", "岚山冷泡茶于2022年6月18日在上海发布。", "zh"),
    ("本と雑誌、それにDVDとCDが借りられます。", "本、雑誌、DVD、CDを借りることができる。", "ja-mecab"),
    ("박서준이라는 건축가가 한빛교를 설계했습니다.", "한빛교는 건축가 박서준이 설계했다.", "ko-mecab"),
])
def test_bleu_and_chrf_equal_sacrebleus_own_numbers(hyp: str, ref: str, tokenize: str) -> None:
    import sacrebleu

    expected = sacrebleu.sentence_bleu(hyp, [ref], tokenize=tokenize, use_effective_order=True).score / 100
    assert lexical.bleu(hyp, ref) == pytest.approx(expected, abs=1e-12)
    assert lexical.chrf(hyp, ref) == pytest.approx(sacrebleu.sentence_chrf(hyp, [ref]).score / 100, abs=1e-12)


async def test_reference_resolution_scores_follow_up_turns_only() -> None:
    from ragkit.types import Conversation, Turn

    metric = build_metric("reference_resolution")
    sample = make_sample(contexts=[f"text {i}" for i in RANKED], ids=RANKED, reference_ids=RELEVANT)
    alone = await metric(sample, context(ScriptedJudge([])))
    assert alone.value is None and "not a follow-up turn" in (alone.explanation or "")
    sample.test.conversation = Conversation(id="c", turn=2)
    sample.test.history = [Turn(question="Which plant builds the Wren W300?")]
    assert (await metric(sample, context(ScriptedJudge([])))).value == pytest.approx(2 / 3)
