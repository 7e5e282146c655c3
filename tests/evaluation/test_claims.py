"""The claim engine: one call per text and per claim group, memoised, bounded, padded, graded; exact matches and
short answers; attribution to the retrieved set."""

from __future__ import annotations

import asyncio

import pytest

from ragkit.errors import JudgeError
from ragkit.evaluation import Attribution, ClaimDetails, ClaimStore, MetricContext, Verdict, claim_details
from ragkit.evaluation._claim_prompts import attribute_prompt, check_prompt
from ragkit.evaluation._claim_text import holding, keep_numbers, term_sets
from ragkit.llm import CallInfo
from ragkit.settings import Settings
from ragkit.testing import Delayed, ScriptedJudge, WithLogprobs
from ragkit.text import as_written_in
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample


def labels_for(call: CallInfo, label: str = "supported") -> dict[str, str]:
    return {str(i): label for i in range(len(call.data.claims))}  # type: ignore[union-attr]


def responder(call: CallInfo) -> object:
    if call.prompt_name == "claims.split":
        text = call.data.text  # type: ignore[union-attr]
        return {"claims": [s.strip() + "." for s in text.split(".") if s.strip()], "entities": []}
    if call.prompt_name == "claims.attribute":
        return {str(i): {"passages": [0], "verdict": "supported"} for i in range(len(call.data.claims))}  # type: ignore[union-attr]
    return labels_for(call)


async def test_split_is_one_call_per_text_and_memoised() -> None:
    judge = ScriptedJudge(responder)
    store = ClaimStore(judge)
    first = await store.split("A is B. C is D.")
    again = await store.split("A is B. C is D.")
    assert first == again == ["A is B.", "C is D."]
    assert len(judge.calls) == 1 and store.stats.split_calls == 1 and store.stats.memo_hits == 1


async def test_the_split_drops_asides_about_the_sources() -> None:
    # the 1.5B split kept these as claims, and the check called them unsupported (bench/README.md, session 52)
    fact, aside = "富山工場の主な製品はかまぼこです。", "費用については資料に記載がありません。"
    courtesy = "お役に立てれば幸いです。"
    judge = ScriptedJudge([{"claims": [fact, aside, courtesy], "entities": []}])
    assert await ClaimStore(judge).split(fact + aside + courtesy, "富山工場では何を作っていますか？") == [fact]


async def test_concurrent_requests_for_one_key_await_one_call() -> None:
    judge = ScriptedJudge(lambda call: Delayed(responder(call), 0.05))  # type: ignore[arg-type]
    store = ClaimStore(judge)
    results = await asyncio.gather(*(store.split("X is Y.") for _ in range(5)),
                                   *(store.check("passage", ["X is Y."]) for _ in range(5)))
    assert all(r == ["X is Y."] for r in results[:5])
    assert len(judge.calls_for("claims.split")) == 1 and len(judge.calls_for("claims.check")) == 1


async def test_empty_texts_and_passages_cost_nothing() -> None:
    judge = ScriptedJudge([])
    store = ClaimStore(judge)
    assert await store.split("   ") == []
    assert await store.check("passage", []) == []
    assert [v.label for v in await store.check("  ", ["a", "b"])] == ["neutral", "neutral"]
    assert judge.calls == []


async def test_long_claim_lists_are_checked_in_groups_of_eight() -> None:
    judge = ScriptedJudge(lambda call: labels_for(call, "not_mentioned" if "odd" in call.data.claims[0]  # type: ignore[union-attr]
                                                  else "supported"))
    store = ClaimStore(judge)
    claims = [f"claim {c}" for c in "abcdefgh"] + [f"odd {c}" for c in "abc"]  # no number: no cloze call
    verdicts = await store.check("passage", claims)
    assert [len(c.data.claims) for c in judge.calls] == [8, 3]  # type: ignore[union-attr]
    assert [v.label for v in verdicts] == ["entailed"] * 8 + ["neutral"] * 3
    # the output schema of a group has exactly one required label per claim
    schema = check_prompt(3).schema()
    assert schema["required"] == ["0", "1", "2"] and set(schema["properties"]) == {"0", "1", "2"}


async def test_missing_verdicts_are_padded_as_neutral_and_counted() -> None:
    judge = ScriptedJudge([{"0": "supported", "2": "contradicted"}])
    store = ClaimStore(judge)
    verdicts = await store.check("passage", ["a", "b", "c"])
    assert [(v.label, v.padded) for v in verdicts] == [("entailed", False), ("neutral", True),
                                                        ("contradicted", False)]
    assert store.stats.padded_verdicts == 1


async def test_invalid_labels_are_reasked() -> None:
    judge = ScriptedJudge([{"0": "maybe"}, {"0": "contradicted"}])
    verdicts = await ClaimStore(judge).check("passage", ["a"])
    assert verdicts[0].label == "contradicted" and len(judge.calls) == 2


async def test_failures_are_not_memoised() -> None:
    settings = Settings(model="openai/scripted-judge", max_retries=0, max_reasks=0)
    judge = ScriptedJudge([{"0": "nonsense"}, {"0": "supported"}], settings=settings)
    store = ClaimStore(judge)
    with pytest.raises(JudgeError):
        await store.check("passage", ["a"])
    assert (await store.check("passage", ["a"]))[0].label == "entailed"


async def test_verdicts_are_graded_by_label_probabilities() -> None:
    text = '{"0": "supported", "1": "not_mentioned"}'
    tokens = [('{"0": "', 0.0), ("supported", -0.2, [("not", -1.9), ("contr", -3.0)]), ('", "1": "', 0.0),
              ("not", -0.1, [("supported", -2.5)]), ("_mentioned", 0.0), ('"}', 0.0)]
    judge = ScriptedJudge([WithLogprobs(text, tokens)])
    first, second = await ClaimStore(judge).check("passage", ["a", "b"])
    import math

    p1 = math.exp(-0.2) / (math.exp(-0.2) + math.exp(-1.9) + math.exp(-3.0))
    p2 = math.exp(-2.5) / (math.exp(-0.1) + math.exp(-2.5))
    assert first.label == "entailed" and first.support == pytest.approx(p1)
    assert second.label == "neutral" and second.support == pytest.approx(p2)
    assert 0 < second.support < 0.5 < first.support < 1


def test_binary_support_without_probabilities() -> None:
    assert Verdict(label="entailed").support == 1.0
    assert Verdict(label="contradicted").support == 0.0
    assert Verdict(label="neutral", padded=True).support == 0.0


def sample(answer: str = "A is B. C is D.", reference: str = "A is B. E is F.") -> EvalSample:
    # (the question is empty: these claims are not short answers to restate with it)
    return EvalSample(test=TestSample(id="s", question="", reference_answer=reference),
                      response=RagResponse(answer=answer, retrieved_contexts=[
                          ContextRef(text="ctx one", chunk_id="c1"), ContextRef(text="ctx two", chunk_id="c2")]))


async def test_joint_context_checks_when_asked_for_and_both_context_matrices_are_needed() -> None:
    judge = ScriptedJudge(responder)
    ctx = MetricContext(judge=judge, claims=ClaimStore(judge, joint_contexts=True),
                        needs=frozenset({"response_vs_contexts", "reference_vs_contexts"}))
    view = ctx.sample_claims(sample())
    resp = await view.response_vs_contexts(name_contexts=True)
    ref = await view.reference_vs_contexts(name_contexts=True)
    assert len(resp) == 2 and len(ref) == 2 and all(a.by == [0] for a in resp + ref)
    checks, calls = judge.calls_for("claims.check"), judge.calls_for("claims.attribute")
    assert len(checks) == 1 and len(calls) == 1  # response and reference claims together, every context in view
    assert calls[0].data.claims == ["A is B.", "C is D.", "A is B.", "E is F."]  # type: ignore[union-attr]
    assert calls[0].data.passages == ["ctx one", "ctx two"]  # type: ignore[union-attr]
    assert checks[0].data.passage == "ctx one\n\nctx two"  # type: ignore[union-attr]


async def test_separate_context_checks_by_default_so_reference_verdicts_ignore_the_answer() -> None:
    judge = ScriptedJudge(responder)
    needs = frozenset({"response_vs_contexts", "reference_vs_contexts"})
    ctx = MetricContext(judge=judge, needs=needs)
    await ctx.sample_claims(sample()).response_vs_contexts()
    await ctx.sample_claims(sample()).reference_vs_contexts()
    lists = [c.data.claims for c in judge.calls_for("claims.check")]  # type: ignore[union-attr]
    assert lists == [["A is B.", "C is D."], ["A is B.", "E is F."]]
    # another answer to the same question with the same contexts reuses the reference-side check
    await ctx.sample_claims(sample(answer="X is Y.")).reference_vs_contexts()
    assert len(judge.calls_for("claims.check")) == 2 and judge.calls_for("claims.attribute") == []


def test_claim_details_shape() -> None:
    s = sample()
    yes, no = Verdict(label="entailed"), Verdict(label="neutral")
    raw = claim_details(s, response_claims=["r1"], reference_claims=["g1"],
                        response_vs_contexts=[Attribution(verdict=yes, by=[1])],
                        response_vs_reference=[yes], reference_vs_response=[no])
    details = ClaimDetails.model_validate(raw)
    assert [(p.kind, p.chunk_id) for p in details.passages] == [("context", "c1"), ("context", "c2"),
                                                                 ("reference", None), ("response", None)]
    r1, g1 = details.claims
    assert r1.source == "response" and r1.supported_by == [1, 2] and r1.together == yes
    assert r1.verdicts[0] == no
    assert r1.verdicts[3] is None  # a response claim is never checked against the response
    assert g1.source == "reference" and g1.verdicts[:3] == [None, None, None] and g1.supported_by == []
    assert ClaimDetails.from_score({"claims": raw}) == details and ClaimDetails.from_score({}) is None


async def test_a_claim_equal_to_a_sentence_or_claim_of_the_passage_is_entailed_without_a_call() -> None:
    judge = ScriptedJudge(lambda call: labels_for(call, "not_mentioned"))
    store = ClaimStore(judge)
    verdicts = await store.check("Oslo is cold. The fjord is deep.", ["the fjord is  deep.", "Oslo is old."],
                                 known=["Oslo is a city."])
    assert [v.label for v in verdicts] == ["entailed", "neutral"]
    assert [c.data.claims for c in judge.calls] == [["Oslo is old."]]  # type: ignore[union-attr]
    assert [v.label for v in await store.check("Anything.", ["Oslo is a city."], known=["Oslo is a city."])] == [
        "entailed"]
    assert len(judge.calls) == 1


async def test_cross_checks_show_the_question_the_passage_answers() -> None:
    judge = ScriptedJudge(lambda call: labels_for(call))
    await ClaimStore(judge).check("Oslo.", ["The treaty was signed in Oslo."], question="Where was it signed?")
    assert judge.calls[0].data.question == "Where was it signed?"  # type: ignore[union-attr]
    assert "## question\nWhere was it signed?" in judge.calls[0].messages[-1]["content"]


async def test_a_short_answer_becomes_one_claim_that_restates_the_question() -> None:
    judge = ScriptedJudge(lambda call: {"claims": ["Continental Army."], "entities": []})
    store = ClaimStore(judge)
    question = "Which army did the ship's namesake fight in?"
    assert await store.split("Continental Army.", question) == [f"{question} Continental Army."]
    assert await store.split("南岭大学。", "他毕业于哪所大学？") == ["他毕业于哪所大学？ 南岭大学。"]
    long = "The namesake, John Hart, fought in the Continental Army."
    # a full sentence keeps its own claims, and its apposition, which this split left out, becomes one (_appositions)
    assert await store.split(long, question) == ["Continental Army.", "John Hart is the namesake."]
    # a number the split dropped, written in words, keeps its sentence (keep_numbers)
    assert "for six years" in " ".join(await store.split(long[:-1] + " for six years.", question))
    refusal = ScriptedJudge(lambda call: {"claims": [], "entities": []})
    assert await ClaimStore(refusal).split("I don't know.", question) == []  # no claim to restate


async def test_a_short_answer_that_writes_all_its_questions_terms_keeps_its_own_claim() -> None:
    said = "BYVoid's email address is byvoid.kcp@gmail.com."
    judge = ScriptedJudge(lambda call: {"claims": [said], "entities": []})
    store = ClaimStore(judge)
    # glued to a keyword question, the claim read "BYVoid email address BYVoid's email address is …" (0.45)
    assert await store.split(said, "BYVoid email address") == [said]
    assert await store.split(said, "Whose email address is it?") == [said]  # "whose", "is", "it": function words
    asked = "What is the OpenCC author's email address?"  # "OpenCC" and "author" are the question's alone
    assert await store.split(said, asked) == [f"{asked} {said}"]
    # a question of function words alone names nothing the answer could write: restated still
    assert await store.split(said, "What is it?") == [f"What is it? {said}"]


async def test_a_runaway_split_is_reasked() -> None:
    runaway = "Exo is formed by a South Korean boy group " * 4
    judge = ScriptedJudge([{"claims": [runaway], "entities": []}, {"claims": ["Exo is a boy group."]}])
    assert await ClaimStore(judge).split("Exo is a South Korean boy group.", "Who is Exo?") == ["Exo is a boy group."]
    assert len(judge.calls) == 2 and "repeats itself" in judge.calls[1].messages[-1]["content"]


async def test_attribution_checks_the_joined_contexts_and_names_the_ones_a_fact_needs() -> None:
    judge = ScriptedJudge([{"0": "supported", "1": "not_mentioned"},
                           {"0": {"passages": [1, 0, 1], "verdict": "supported"},
                            "1": {"passages": [2], "verdict": "not_mentioned"}}])
    store = ClaimStore(judge)
    passages = ["Aldermoor is named after Edwin Hart.", "Edwin Hart served in the Rifles.", "Kestrel has marshes."]
    found = await store.attribute(passages, ["Aldermoor's namesake served in the Rifles.", "X."],
                                  name_contexts=True)
    assert judge.calls[0].data.passage == "\n\n".join(passages)  # type: ignore[union-attr]
    assert [(a.verdict.label, a.by) for a in found] == [("entailed", [0, 1]), ("neutral", [])]
    assert [v.label for v in found[0].row(3)] == ["entailed", "entailed", "neutral"]
    schema = attribute_prompt(2, 3).schema()
    item = schema["$defs"]["Attributed"]["properties"]["passages"]
    assert item["items"]["enum"] == [0, 1, 2] and item["maxItems"] == 3


async def test_a_claim_equal_to_a_context_sentence_is_attributed_without_a_call() -> None:
    judge = ScriptedJudge([])
    found = await ClaimStore(judge).attribute(["Intro.", "Oslo is cold. It snows."], ["oslo is cold."])
    assert (found[0].verdict.label, found[0].by) == ("entailed", [1]) and judge.calls == []


async def test_contexts_over_the_prompt_budget_are_attributed_in_windows() -> None:
    def reply(call: CallInfo) -> object:
        if call.prompt_name == "claims.check":
            return {"0": "supported" if "gold" in call.data.passage else "not_mentioned"}  # type: ignore[union-attr]
        where = [i for i, p in enumerate(call.data.passages) if "gold" in p]  # type: ignore[union-attr]
        return {"0": {"passages": where, "verdict": "supported" if where else "not_mentioned"}}

    judge = ScriptedJudge(reply)
    passages = ["one " + "filler " * 40, "two " + "filler " * 40, "gold fact " + "filler " * 30]
    claim = "the fact, one of two"  # its words spread over the passages: the judge names them
    found = await ClaimStore(judge, window_tokens=60).attribute(passages, [claim], name_contexts=True)
    assert len(judge.calls_for("claims.check")) == 3  # one window per passage
    assert [len(c.data.passages) for c in judge.calls_for("claims.attribute")] == [1, 1, 1]  # type: ignore[union-attr]
    assert (found[0].verdict.label, found[0].by) == ("entailed", [2])


@pytest.mark.parametrize(("claim", "passages", "named"), [
    # one passage holds every word of the claim found anywhere: it is named
    ("Mara Quill designed the Harlow Footbridge.", ["Harlow's market hall burned in 1887.",
     "The Harlow Footbridge was designed by the engineer Mara Quill."], [1]),
    # two passages hold them all: both
    ("Oslo is cold.", ["Oslo is cold in winter.", "In Oslo it is cold."], [0, 1]),
    # a fact that needs two passages: its words are spread over them, and they speak of one man
    ("Aldermoor's namesake served in the Rifles.", ["Aldermoor is named after Edwin Hart.",
     "Edwin Hart served in the Rifles.", "The Rifles honoured Edwin Hart."], [0, 1]),
    # ... but two passages that share nothing are not one fact
    ("Aldermoor's namesake served in the Rifles.", ["Edwin Hart served in the Rifles.", "Aldermoor has a harbour."],
     None),
    # ... and when two pairs hold the words, the judge decides
    ("Aldermoor's namesake served in the Rifles.", ["Aldermoor is named after Edwin Hart.",
     "Edwin Hart served in the Rifles.", "Aldermoor sailors served in the navy."], None),
    # a paraphrase whose words are mostly in no passage
    ("The crossing was drawn up by a woman engineer.", ["The Harlow Footbridge was designed by Mara Quill."], None),
    # Chinese: the bigrams of the claim are in the second passage
    ("青岚茶业成立于2012年。", ["龙井茶产自杭州。", "青岚茶业于2012年在杭州成立。"], [1]),
    # an answer in English about Chinese passages
    ("Qinglan Tea was founded in 2012.", ["青岚茶业于2012年在杭州成立。"], None),
])
def test_the_passages_a_claim_stands_on_by_its_words(claim: str, passages: list[str],
                                                      named: list[int] | None) -> None:
    assert holding(claim, term_sets(passages)) == named


async def test_only_claims_a_context_states_and_the_words_cannot_place_go_to_the_judge() -> None:
    def reply(call: CallInfo) -> object:
        if call.prompt_name == "claims.check":
            return {"0": "supported", "1": "not_mentioned", "2": "supported"}
        assert call.data.claims == ["Aldermoor's namesake served in the Rifles."]  # type: ignore[union-attr]
        return {"0": {"passages": [0, 1], "verdict": "supported"}}

    judge = ScriptedJudge(reply)
    passages = ["Aldermoor is named after Edwin Hart.", "Edwin Hart served in the Rifles.",
                "Kestrel has marshes, and Aldermoor sailors served there."]
    claims = ["Aldermoor's namesake served in the Rifles.", "Kestrel is dry.", "Aldermoor is named after Hart."]
    found = await ClaimStore(judge).attribute(passages, claims, name_contexts=True)
    # the first claim's words are spread over two passages in two ways: the judge names them; the third's are all
    # in one
    assert [(a.verdict.label, a.by) for a in found] == [("entailed", [0, 1]), ("neutral", []), ("entailed", [0])]
    assert len(judge.calls_for("claims.attribute")) == 1
    unstated = ScriptedJudge([{"0": "not_mentioned"}])
    nothing = await ClaimStore(unstated).attribute(passages, ["Kestrel is dry."], name_contexts=True)
    assert nothing[0].by == [] and unstated.calls_for("claims.attribute") == []  # no naming call at all


@pytest.mark.parametrize(("claims", "text", "question", "repaired"), [
    # a syllable mis-copied in Hangul, in a claim that also adds the question's subject
    (["리프레시 휴가는 균속 5년이 되는 해에 줍니다."], "근속 5년이 되는 해에 유급 휴가 5일을 줍니다.",
     "리프레시 휴가는 어떻게 계산됩니까?", ["리프레시 휴가는 근속 5년이 되는 해에 줍니다."]),
    # a digit mis-copied: the claim states what the text states
    (["The plant opened in 2022."], "The plant opened in 2021.", None, ["The plant opened in 2021."]),
    # a Chinese sentence (one word between spaces) with one character changed
    (["诺德面粉公司成立于一九九八年。"], "诺德面粉公司成立于一九九七年。", None, ["诺德面粉公司成立于一九九七年。"]),
])
def test_the_split_s_copy_errors_are_put_back_as_written(claims: list[str], text: str, question: str | None,
                                                         repaired: list[str]) -> None:
    from ragkit.evaluation._claim_text import repair_copies

    assert repair_copies(claims, text, question) == repaired


@pytest.mark.parametrize(("claim", "text"), [
    ("Priya Raman joined Acme in 2015.", "She joined Acme in 2015. Priya Raman is the CTO."),  # a pronoun resolved
    ("It opened in 2021.", "The plant opened in 2021."),
    ("The mill uses rye.", "The mill uses oats and rye."),  # short words are never touched
    ("The plant opened in 2021 and closed in 2023.", "The plant opened in 2021 and closed in 2024, not 2023."),
])
def test_reworded_claims_and_words_of_the_text_are_left_alone(claim: str, text: str) -> None:
    from ragkit.evaluation._claim_text import repair_copies

    assert repair_copies([claim], text) == [claim]


async def test_split_claims_are_repaired_against_their_text() -> None:
    def miscopy(call: CallInfo) -> object:
        claims = ["리프레시 휴가는 균속 5년이 되는 해에 줍니다.", "유급 휴가는 5일, 여행 지원금은 100만 원입니다."]
        return {"claims": claims, "entities": []}

    store = ClaimStore(ScriptedJudge(miscopy))
    claims = await store.split("근속 5년이 되는 해에 유급 휴가 5일과 여행 지원금 100만 원을 줍니다.",
                               question="리프레시 휴가는 어떻게 계산됩니까?")
    assert claims == ["리프레시 휴가는 근속 5년이 되는 해에 줍니다.", "유급 휴가는 5일, 여행 지원금은 100만 원입니다."]


async def test_a_claim_cut_at_a_quote_of_its_text_is_put_back_whole() -> None:
    text = ('龙井茶的品种包括龙井43、群体种。'
            '安吉白茶严格来说属于绿茶，但所用的"白叶一号"品种在春季新叶呈玉白色，因此得名。')

    def closes_at_the_quote(call: CallInfo) -> object:
        return {"claims": ["龙井茶的品种包括龙井43、群体种。", "安吉白茶严格来说属于绿茶，但所用的"], "entities": []}

    claims = await ClaimStore(ScriptedJudge(closes_at_the_quote)).split(text)
    assert claims == ["龙井茶的品种包括龙井43、群体种。",
                      '安吉白茶严格来说属于绿茶，但所用的"白叶一号"品种在春季新叶呈玉白色，因此得名。']


def test_a_claim_that_quotes_or_only_begins_like_its_text_is_left_alone() -> None:
    from ragkit.evaluation._claim_text import whole_at_quotes

    text = 'The report called the lidar "blind" to film. The plant opened in 2021.'
    assert whole_at_quotes(['The report called the lidar "blind" to film.'], text) == \
        ['The report called the lidar "blind" to film.']  # whole already
    assert whole_at_quotes(["The plant opened"], text) == ["The plant opened"]  # no quote after it
    assert whole_at_quotes(["The report called the lidar"], text) == \
        ['The report called the lidar "blind" to film.']


def test_a_word_that_differs_only_in_case_is_not_a_copy_error() -> None:
    from ragkit.evaluation._claim_text import repair_copies

    assert repair_copies(["Their mill opened in 2021."], "The town praised their mill opened in 2021.") == \
        ["Their mill opened in 2021."]
    assert repair_copies(["Tromsø mill opened in 2O21."], "The Tromsø mill opened in 2021.") == \
        ["Tromsø mill opened in 2021."]


def test_korean_particles_are_grammar_not_copy_errors() -> None:
    """The split writes "이 앱은 한국어를 지원한다" from "한국어, 영어, … 를 지원한다": "한국어를" is one syllable
    from "중국어를" in the text, but it is "한국어" with a particle; "스페인어를" differs from "스페인어와" in its
    particle."""
    from ragkit.evaluation._claim_text import repair_copies

    claims = ["이 앱은 한국어를 지원한다.", "이 앱은 스페인어를 지원한다."]
    assert repair_copies(claims[:1], "한국어, 영어, 일본어, 중국어를 지원한다.") == claims[:1]
    assert repair_copies(claims[1:], "이 앱은 스페인어와 독일어를 지원한다.") == claims[1:]



@pytest.mark.parametrize(("passage", "claim", "expected"), [
    ("It cost 1,200,000 euros.", "It cost 1.2 million euros.", "It cost 1,200,000 euros."),
    ("年销量约30万盒。", "年销量约300,000盒。", "年销量约30万盒。"),
    ("매출은 약 146억 원이다.", "매출은 약 14,600,000,000원이다.", "매출은 약 146억원이다."),
    ("It cost 1,200,000 euros.", "It cost 1.3 million euros.", "It cost 1.3 million euros."),  # another value
    ("It cost 1.2 million or 1,200,000 euros.", "It cost 1,200,000 euros.", "It cost 1,200,000 euros."),
])
def test_a_claims_numbers_are_written_as_the_passage_writes_the_same_value(passage: str, claim: str,
                                                                           expected: str) -> None:
    assert as_written_in(passage, claim) == expected


@pytest.mark.parametrize(("claims", "text", "expected"), [
    # a year dropped
    (["禾丰食品的销售额约3.6亿元。"], "2005年禾丰食品的销售额约3.6亿元。", ["2005年禾丰食品的销售额约3.6亿元。"]),
    (["B opens at 9."], "A closes at 5. B opens at 9.", ["B opens at 9.", "A closes at 5."]),  # a sentence dropped
    (["A is 5.", "B is 6."], "A is 5. B is 6.", ["A is 5.", "B is 6."]),  # nothing lost
    (["The HS-5 came out in 1996."], "1. The HS-5 came out in 1996.", ["The HS-5 came out in 1996."]),  # a list mark
])
def test_a_number_the_split_dropped_brings_its_sentence_back(claims: list[str], text: str,
                                                             expected: list[str]) -> None:
    assert keep_numbers(claims, text) == expected


async def test_a_claim_in_another_number_form_is_named_by_its_words_as_the_passages_write_them() -> None:
    # unwritten, "million" would be the second passage's word, and the claim named to both
    passages = ["It cost 1,200,000 euros to build the Halsford depot.", "The Halsford depot serves 1.5 million riders."]
    def reply(call: CallInfo) -> object:
        if call.prompt_name == "claims.check":
            return {str(i): "supported" for i in range(len(call.data.claims))}  # type: ignore[union-attr]
        return {}

    judge = ScriptedJudge(reply)
    (attribution,) = await ClaimStore(judge, name_by_words=True).attribute(
        passages, ["The Halsford depot cost 1.2 million euros to build."], name_contexts=True)
    assert attribution.by == [0]
    assert "claims.attribute" not in [c.prompt_name for c in judge.calls]
