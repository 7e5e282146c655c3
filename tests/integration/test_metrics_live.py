"""The whole metric suite on 3 small samples with the embedded default model and embeddings (CI, ≤ 6 min).

Two English answers to one question over the same contexts, one faithful and one fabricated, and one Chinese
answer. The fabricated answer must score lower on the grounding and correctness metrics.
"""

from __future__ import annotations

import re

import pytest

from ragkit import Judge, Settings
from ragkit.evaluation import ClaimDetails, EvalResult, evaluate
from ragkit.registry import available
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

pytestmark = pytest.mark.live

PORTO = ("The Porto plant is Acme Robotics' second manufacturing site. It opened on 4 October 2021 and builds the "
         "Wren W300 autonomous mobile robot. Ana Costa has managed the plant since it opened; she reports to "
         "Marcus Lindqvist, Chief Operating Officer.")
SHEFFIELD = ("The Sheffield plant opened in 2016 and builds the Kestrel K10 and Heron H6 robot arms. It is managed by "
             "Gareth Mills and has about 210 staff.")
LONGWU = "龙坞茶园位于杭州市西湖区，建于2010年，面积约320亩。龙坞茶园由茶园主管何春生负责日常管理。"
ANJI = "安吉白茶基地位于湖州市安吉县，建于2016年，面积约180亩，由吴建国负责管理。"

QUESTION = "When did Acme's Porto plant open, and who manages it?"
REFERENCE = "The Porto plant opened on 4 October 2021 and is managed by Ana Costa."


def sample(sid: str, question: str, answer: str, reference: str, contexts: list[tuple[str, str]]) -> EvalSample:
    refs = [ContextRef(chunk_id=cid, text=text) for cid, text in contexts]
    return EvalSample(test=TestSample(id=sid, question=question, reference_answer=reference,
                                      reference_contexts=refs[:1]),
                      response=RagResponse(answer=answer, retrieved_contexts=refs))


SAMPLES = [
    sample("faithful", QUESTION, "The Porto plant opened on 4 October 2021, and Ana Costa has managed it since then.",
           REFERENCE, [("porto", PORTO), ("sheffield", SHEFFIELD)]),
    sample("fabricated", QUESTION, "The Porto plant opened in March 2015 and is managed by Pedro Alves.",
           REFERENCE, [("porto", PORTO), ("sheffield", SHEFFIELD)]),
    sample("zh", "龙坞茶园是哪一年建立的？由谁负责管理？", "龙坞茶园建于2010年，由茶园主管何春生负责日常管理。",
           "龙坞茶园建于2010年，由何春生负责日常管理。", [("longwu", LONGWU), ("anji", ANJI)]),
]


_RESULT: list[EvalResult] = []


@pytest.fixture
def result(live_settings: Settings) -> EvalResult:
    """One run for the module, made inside a test so that it uses the shared live-test cache."""
    import asyncio

    if not _RESULT:
        judge = Judge(settings=live_settings)
        metrics = list(available("metric", plugins=False))
        _RESULT.append(asyncio.run(evaluate(SAMPLES, metrics, judge=judge, progress=False)))
    return _RESULT[0]


def value(result: EvalResult, sid: str, key: str) -> float:
    score = next(s for s in result.samples if s.sample_id == sid).scores[key]
    assert score.value is not None, (sid, key, score.explanation)
    return score.value


CONVERSATION_METRICS = ("conversation_completeness", "knowledge_retention", "reference_resolution")
"""They read a conversation: a single question is unscorable for them (scored in the test below)."""


def test_every_metric_scores_without_failures(result: EvalResult) -> None:
    failed = {k: a.failed for k, a in result.aggregates.items() if a.failed}
    assert not failed, failed
    single = {k: a for k, a in result.aggregates.items() if k not in CONVERSATION_METRICS}
    assert all(a.count >= 1 for a in single.values()), {k: a for k, a in single.items() if a.count == 0}
    assert all(result.aggregates[k].count == 0 for k in CONVERSATION_METRICS)
    # the two English samples share their question and reference: 5 texts, each split once
    assert result.claim_stats["split_calls"] == 5


def test_faithful_answer_beats_fabricated_answer(result: EvalResult) -> None:
    for key in ("faithfulness", "factual_correctness", "ragchecker_precision"):
        assert value(result, "faithful", key) > value(result, "fabricated", key), key
    assert value(result, "faithful", "faithfulness") >= 0.5
    assert value(result, "fabricated", "hallucination") > value(result, "faithful", "hallucination")


def test_chinese_sample_is_scored_in_chinese(result: EvalResult) -> None:
    score = next(s for s in result.samples if s.sample_id == "zh").scores["faithfulness"]
    details = ClaimDetails.from_score(score.details)
    assert details is not None and details.claims
    assert all(re.search(r"[\u4e00-\u9fff]", c.text) for c in details.claims), [c.text for c in details.claims]
    assert value(result, "zh", "faithfulness") >= 0.5
    assert value(result, "zh", "context_recall") >= 0.5


RELEVANCY = [  # a question, an answer that gives what it asks, and answers that do not
    (QUESTION, "The Porto plant opened on 4 October 2021, and Ana Costa has managed it since then.",
     ["Sorry, I could not find that in the documents.", "The Sheffield plant builds the Kestrel K10 robot arm."]),
    ("龙坞茶园是哪一年建立的？由谁负责管理？", "龙坞茶园建于2010年，由何春生负责日常管理。",
     ["资料中没有相关信息。", "安吉白茶基地位于湖州市安吉县。"]),
]


def test_answer_relevancy_tells_an_answer_from_a_dodge_and_another_subject(live_settings: Settings) -> None:
    import asyncio

    samples = [EvalSample(test=TestSample(id=f"{i}-{j}", question=q), response=RagResponse(answer=a))
               for i, (q, on, offs) in enumerate(RELEVANCY) for j, a in enumerate([on, *offs])]
    result = asyncio.run(evaluate(samples, ["answer_relevancy"], judge=Judge(settings=live_settings),
                                  progress=False))
    scores = {s.sample_id: s.scores["answer_relevancy"].value for s in result.samples}
    for i, (_, _, offs) in enumerate(RELEVANCY):
        assert (scores[f"{i}-0"] or 0) >= 0.5, scores
        assert all((scores[f"{i}-0"] or 0) > (scores[f"{i}-{j}"] or 0) for j in range(1, len(offs) + 1)), scores


WHETHER = [  # a question whether something is so, an answer that says it is not (without a bare "no"), a dodge
    ("Does the Corbel app work offline?", "The Corbel app needs an internet connection for every feature.",
     "I couldn't find anything about Corbel in the documents."),
    ("图书馆允许带食物进入吗？", "图书馆内禁止饮食，只能带瓶装水。", "资料中没有相关信息。"),
    ("이 수업은 온라인으로 들을 수 있나요?", "이 수업은 강의실에서만 진행됩니다.", "관련 정보를 찾을 수 없습니다."),
    ("この駐車場は24時間使えますか？", "駐車場の利用は午前7時から午後10時までです。", "資料には記載がありません。"),
]


def test_answer_relevancy_counts_an_answer_that_says_no(live_settings: Settings) -> None:
    import asyncio

    # asked whether such answers "give what is asked", the judge scored them 0.26 on average, as low as another
    # fact of the same subject (bench/README.md, session 52)
    samples = [EvalSample(test=TestSample(id=f"{i}-{kind}", question=q), response=RagResponse(answer=a))
               for i, (q, no, dodge) in enumerate(WHETHER) for kind, a in (("no", no), ("dodge", dodge))]
    result = asyncio.run(evaluate(samples, ["answer_relevancy"], judge=Judge(settings=live_settings),
                                  progress=False))
    scores = {s.sample_id: s.scores["answer_relevancy"].value or 0.0 for s in result.samples}
    for i in range(len(WHETHER)):
        assert scores[f"{i}-no"] >= 0.5 and scores[f"{i}-dodge"] < 0.5, scores


def test_context_relevance_ranks_the_passage_that_answers_first(live_settings: Settings) -> None:
    import asyncio

    samples = [sample("en", QUESTION, "-", REFERENCE, [("porto", PORTO), ("sheffield", SHEFFIELD)]),
               sample("zh", "龙坞茶园是哪一年建立的？由谁负责管理？", "-", "-", [("longwu", LONGWU), ("anji", ANJI)])]
    result = asyncio.run(evaluate(samples, ["context_relevance"], judge=Judge(settings=live_settings),
                                  progress=False))
    for scored in result.samples:
        gold, other = scored.scores["context_relevance"].details["relevance"]
        assert gold > other and gold >= 0.5, (scored.sample_id, gold, other)


ENUMERATIONS = [  # the answer lists five formats, four of them right: item-level precision = recall = F1 = 0.8
    ("en", "Which formats are supported?", "Supported formats are PDF, DOCX, HTML, EPUB and RTF.",
     "Supported formats are PDF, DOCX, HTML, EPUB and ODT."),
    ("zh", "系统支持哪些格式？", "支持的格式有PDF、DOCX、HTML、EPUB和RTF。",
     "支持的格式有PDF、DOCX、HTML、EPUB和ODT。"),
    ("ko", "어떤 형식을 지원하나요?", "지원 형식은 PDF, DOCX, HTML, EPUB 및 RTF이다.",
     "지원 형식은 PDF, DOCX, HTML, EPUB 및 ODT이다."),
]


def test_lists_are_scored_item_by_item(live_settings: Settings) -> None:
    import asyncio

    samples = [EvalSample(test=TestSample(id=lang, question=q, reference_answer=ref), response=RagResponse(answer=a))
               for lang, q, a, ref in ENUMERATIONS]
    result = asyncio.run(evaluate(samples, ["factual_correctness"], judge=Judge(settings=live_settings),
                                  progress=False))
    for lang, *_ in ENUMERATIONS:
        assert 0.7 <= value(result, lang, "factual_correctness") <= 0.9, lang


SITES_TABLE = ("Where we work\n\nSite | City | Opened | Staff\nHeadquarters | Manchester | 2011 | 180\n"
               "Sheffield plant | Sheffield | 2016 | 210\nPorto plant | Maia | 2021 | 140")
SITES_ZH = "项目 | 龙坞茶园 | 安吉白茶基地\n所在地 | 杭州市西湖区 | 湖州市安吉县\n面积 | 约320亩 | 约180亩"
TABLE_ANSWERS = [  # a question over a table, the right answer, and a neighbouring cell's value
    ("en", "How many staff does the Porto plant have?", SITES_TABLE, "The Porto plant has 140 staff.",
     "The Porto plant has 210 staff."),
    ("zh", "安吉白茶基地的面积是多少？", SITES_ZH, "安吉白茶基地面积约180亩。", "安吉白茶基地面积约320亩。"),
]


def test_a_value_read_from_the_neighbouring_row_of_a_table_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, table)])
               for lang, q, table, right, wrong in TABLE_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in TABLE_ANSWERS:
        assert value(result, f"{lang}-wrong", "faithfulness") == 0.0, lang
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang


BRANCHES = ("Our branches\n\nThe Leeds branch is run by Ana Ribeiro and sells farm machinery. "
            "The York branch is run by Tom Hale and sells garden tools.")
BRANCHES_JA = ("札幌支店は山本大輔が支店長を務め、農業機械を扱っている。"
               "福岡支店は中村恵が支店長を務め、建設機械を扱っている。")
SIBLING_ANSWERS = [  # a question about one of two things of a kind, the right answer, and its sibling's fact
    ("en", "What does the Leeds branch sell?", BRANCHES, "The Leeds branch sells farm machinery.",
     "The Leeds branch sells garden tools."),
    ("ja", "札幌支店の支店長は誰ですか？", BRANCHES_JA, "札幌支店の支店長は山本大輔です。",
     "札幌支店の支店長は中村恵です。"),
]


def test_a_fact_of_the_sibling_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in SIBLING_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in SIBLING_ANSWERS:
        assert value(result, f"{lang}-wrong", "faithfulness") == 0.0, lang
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang


TRAIL = "The coastal trail is 3,000 metres long. The crossing to Kelby takes 2 hours."
TRAIL_ZH = "环湖步道全长4公里，渡轮航程约1.5小时。"
UNIT_ANSWERS = [  # a question, the right answer in another unit, and a wrong value in that unit
    ("en", "How long is the coastal trail?", TRAIL, "The coastal trail is 3 km long.",
     "The coastal trail is 5 km long."),
    ("zh", "渡轮航程多久？", TRAIL_ZH, "渡轮航程约90分钟。", "渡轮航程约45分钟。"),
]


def test_a_value_in_another_unit_is_read_as_the_same_quantity(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in UNIT_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in UNIT_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.9, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


PLANTS = "The Leeds plant opened in 2012 and has 140 staff. The York plant opened in 2018 and has 320 staff."
PLANTS_KO = ("대전 공장은 2012년에 가동을 시작했고 직원은 140명이다. "
             "광주 공장은 2018년에 가동을 시작했고 직원은 320명이다.")
COMPARED_ANSWERS = [  # a question comparing two things of a kind, the right comparison and its reverse
    ("en", "Which plant has more staff?", PLANTS, "The York plant has more staff than the Leeds plant.",
     "The Leeds plant has more staff than the York plant."),
    ("ko", "어느 공장이 먼저 가동했나요?", PLANTS_KO, "대전 공장이 광주 공장보다 먼저 가동을 시작했다.",
     "광주 공장이 대전 공장보다 먼저 가동을 시작했다."),
]


def test_a_comparison_is_read_by_the_numbers_of_each_side(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in COMPARED_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness", "factual_correctness"], judge=Judge(settings=live_settings),
                                  progress=False))
    for lang, *_ in COMPARED_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.9, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang
        assert value(result, f"{lang}-wrong", "factual_correctness") <= 0.5, lang


LIMITS = "Each passenger may take no more than 25 kg of luggage. Tickets bought online are 10% cheaper."
LIMITS_ZH = "会员积分累计达到2000分以上即可升级为金卡。"
BOUND_ANSWERS = [  # a question about a limit, the right answer, and the same value bounded the other way round
    ("en", "How much luggage may a passenger take?", LIMITS, "A passenger may take up to 25 kg of luggage.",
     "A passenger must take at least 25 kg of luggage."),
    ("zh", "多少积分可以升级金卡？", LIMITS_ZH, "积分至少2000分可以升级金卡。", "积分不到2000分可以升级金卡。"),
]


def test_a_bound_turned_round_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in BOUND_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in BOUND_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


DENIED_ANSWERS = [  # a question, its passage, the right answer, and one that drops the passage's negation or "most"
    ("en", "How fast are orders shipped?", "Most orders ship within 48 hours. Returns are free for 30 days.",
     "Most orders are shipped within 48 hours.", "All orders are shipped within 48 hours."),
    ("ko", "K10 로봇은 어떤 통신 방식을 지원하나요?", "K10 로봇은 PROFINET을 지원하지 않고 Modbus TCP를 지원한다.",
     "K10 로봇은 Modbus TCP를 지원합니다.", "K10 로봇은 PROFINET을 지원합니다."),
    ("ja", "K10ロボットはどの通信方式に対応していますか？",
     "K10ロボットはPROFINETに対応しておらず、Modbus TCPに対応しています。",
     "K10ロボットはModbus TCPに対応しています。", "K10ロボットはPROFINETに対応しています。"),
]


def test_a_claim_the_passage_denies_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in DENIED_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in DENIED_ANSWERS:
        # the right answer is the judge's to score, and the rule must leave it so: the 1.5B judge gives the Korean one
        # 0.39 beside the passage's negation (bench/README.md, session 46)
        assert value(result, f"{lang}-right", "faithfulness") > 0.2, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


SAID_AGAIN = [  # a question, a passage that denies something, and an answer that denies it again in its own words
    ("en", "Does the Osprey ferry carry cars?",
     "The Osprey ferry sails from Kirkwall every morning. It does not carry cars, but it takes bicycles free of "
     "charge.",
     "The Osprey ferry cannot carry cars."),
    ("zh", "云杉酒店的泳池冬天开放吗？", "云杉酒店不允许携带宠物入住。泳池在冬季不对外开放，健身房全年开放。",
     "云杉酒店的泳池在冬季不对外开放。"),
    ("ja", "みなと食品の冷凍品は代引きで買えますか？",
     "みなと食品は離島への配送を行っていません。冷凍品は代金引換で購入できません。",
     "みなと食品の冷凍品は代金引換で購入することができません。"),
]


def test_a_denial_said_again_is_faithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(lang, q, a, a, [(lang, text)]) for lang, q, text, a in SAID_AGAIN]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in SAID_AGAIN:
        # the judge alone gave these 0.30, 0.27 and 0.37 as single claims (bench/README.md, session 54)
        assert value(result, lang, "faithfulness") >= 0.9, lang


LIMIT_DROPPED = [  # a question, a passage that denies something only at a time, and an answer without the time
    ("en", "Are refunds issued?", "Refunds are issued by the booking office. Refunds are never issued after 30 days.",
     "Refunds are not issued."),
    ("zh", "本诊所什么时候不接诊？", "门诊须知\n\n本诊所周日不接诊。晚上八点以后不接受电话预约。", "本诊所不接诊。"),
    ("ko", "초록 마트는 배달을 하나요?", "초록 마트는 매주 화요일에 배달을 하지 않는다.",
     "초록 마트는 배달을 하지 않습니다."),
]


def test_a_denial_without_its_time_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(lang, q, a, a, [(lang, text)]) for lang, q, text, a in LIMIT_DROPPED]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in LIMIT_DROPPED:
        # the judge alone gave such answers 0.76-0.93 as single claims (bench/README.md, session 54)
        assert value(result, lang, "faithfulness") <= 0.1, lang


HEDGED = [  # a question, a passage that denies only under a condition or denies a need, and an answer it does not deny
    ("en", "Does Ledger Sync upload files?",
     "Ledger Sync does not upload files when the laptop runs on battery. It never deletes local copies.",
     "Ledger Sync uploads files."),
    ("zh", "星河游泳馆开放吗？", "游泳馆须知\n\n如果下雨，星河游泳馆不开放。游泳馆周日不开放。", "星河游泳馆开放。"),
    ("ko", "푸른 수영장은 문을 여나요?",
     "비가 오면 푸른 수영장은 문을 열지 않는다. 수영장은 일요일에 문을 열지 않는다.", "푸른 수영장은 문을 연다."),
]


def test_a_denial_under_a_condition_contradicts_no_plain_claim(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(lang, q, a, a, [(lang, text)]) for lang, q, text, a in HEDGED]
    samples.append(sample("same-condition", "Does Ledger Sync upload files on battery?", "Ledger Sync uploads files "
                          "when the laptop runs on battery.", "No.", [("en", HEDGED[0][2])]))
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for sid in [lang for lang, *_ in HEDGED] + ["same-condition"]:
        score = next(s for s in result.samples if s.sample_id == sid).scores["faithfulness"]
        details = ClaimDetails.from_score(score.details)
        assert details is not None and details.claims, sid
        labels = [c.together.label for c in details.claims if c.together is not None]
        # before session 55 the polarity rule called each plain claim contradicted, with no call
        assert ("contradicted" in labels) is (sid == "same-condition"), (sid, labels)


PLANT = ("Acme Robotics designs industrial arms. Acme Robotics's main plant is located in Sheffield, England. "
         "Its software team works in Porto.")


def test_a_place_named_by_its_country_is_the_same_fact(live_settings: Settings) -> None:
    import asyncio

    question, reference = "Where is Acme Robotics's main plant located?", PLANT.split(". ")[1] + "."
    samples = [sample(sid, question, answer, reference, [("plant", PLANT)]) for sid, answer in (
        ("right", "Acme Robotics's main plant is located in Sheffield, UK."),
        ("wrong", "Acme Robotics's main plant is located in Leeds, UK."))]
    result = asyncio.run(evaluate(samples, ["factual_correctness"], judge=Judge(settings=live_settings),
                                  progress=False))
    # the README's main job gave the right answer 0.11: the judge called "UK" for "England" another place
    assert value(result, "right", "factual_correctness") >= 0.9
    assert value(result, "wrong", "factual_correctness") <= 0.2


SHIFTS = ("제4장 근무 시간\n\n- 기장 로스팅 공장은 2교대로 운영합니다. "
          "1조는 오전 6시부터 오후 3시까지, 2조는 오후 2시부터 오후 11시까지 근무합니다.\n\n"
          "사업장\n\n사업장 | 위치 | 문을 연 해 | 인원\n본사 | 부산 해운대구 | 2013 | 22명\n"
          "기장 로스팅 공장 | 부산 기장군 | 2017 | 31명\n성수점 | 서울 성동구 | 2023 | 11명")
SHIFTS_ANSWER = ("기장 로스팅 공장의 근무 시간은 1조는 오전 6시부터 오후 3시까지, "
                 "2조는 오후 2시부터 오후 11시까지 근무합니다.")


def test_an_hour_is_not_read_as_a_tables_count_of_people(live_settings: Settings) -> None:
    import asyncio

    question = "기장 로스팅 공장의 근무 시간은 어떻게 정해져 있나요?"
    samples = [sample("shifts", question, SHIFTS_ANSWER, SHIFTS_ANSWER, [("ko", SHIFTS)])]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    # the README's Korean job scored this answer 0.00: "오후 11시" was read as the 성수점 row's "11명"
    assert value(result, "shifts", "faithfulness") >= 0.5


HOURS = ("就業規則\n\n標準の勤務時間は午前8時30分から午後5時30分まで、休憩は正午から1時間です。"
         "浜松工場と熊本工場の製造部門は二交替制で、早番は午前6時から午後2時30分まで、遅番は午後2時から午後10時30分までです。")


def test_amounts_of_other_hours_are_not_contradicted(live_settings: Settings) -> None:
    import asyncio

    question = "熊本工場の製造部門の勤務時間はどのようになりますか？"
    answer = "熊本工場の製造部門の勤務時間は午前6時から午後2時30分まで、遅番は午後2時から午後10時30分までです。"
    reference = HOURS.split("\n\n")[1]
    samples = [sample("hours", question, answer, reference, [("ja", HOURS)])]
    result = asyncio.run(evaluate(samples, ["factual_correctness"], judge=Judge(settings=live_settings),
                                  progress=False))
    details = ClaimDetails.from_score(result.samples[0].scores["factual_correctness"].details)
    assert details is not None
    standard = [c for c in details.claims if c.source == "reference" and "標準" in c.text]
    assert standard, [c.text for c in details.claims]
    # the answer speaks of the plant's shifts, not the standard hours: the amounts rule had contradicted this claim
    assert all(v is None or v.label != "contradicted" for c in standard for v in c.verdicts), standard


DRYER_REFERENCE = ("岚山冷泡茶因2号烘干机温度传感器故障导致水分超标，公司主动召回。"
                   "此后工厂采取了以下措施：更换2号烘干机全部温度传感器，并每季度校准一次；"
                   "每批成品出厂前进行三次水分抽检；新建3号烘干线，减轻旺季时原有设备的负荷。")


def test_a_temperature_the_reference_never_gives_is_not_contradicted(live_settings: Settings) -> None:
    import asyncio

    question = "岚山冷泡茶为何会出现水分超标的情况？"
    answer = ("岚山冷泡茶水分超标的原因是2号烘干机的一个温度传感器出现漂移，"
              "显示温度比实际温度高约8℃，导致茶叶烘干不足。")
    samples = [sample("dryer", question, answer, DRYER_REFERENCE, [("zh", DRYER_REFERENCE)])]
    result = asyncio.run(evaluate(samples, ["factual_correctness"], judge=Judge(settings=live_settings),
                                  progress=False))
    details = ClaimDetails.from_score(result.samples[0].scores["factual_correctness"].details)
    assert details is not None
    said = [c for c in details.claims if c.source == "response" and "8℃" in c.text]
    assert said, [c.text for c in details.claims]
    # the reference gives no temperature: the cloze had filled "高约[1]℃" with its "3" (三次) or "2" (2号)
    assert all(v is None or v.label != "contradicted" for c in said for v in c.verdicts), said


def test_a_year_is_no_value_for_a_numbered_plant(live_settings: Settings) -> None:
    import asyncio

    passage = "2015年に第2工場を開設した。2022年の従業員は約300人である。"
    question = "会社の工場と従業員について教えてください。"
    samples = [sample("plant", question, "第2工場を開設した。", "第2工場を開設した。", [("ja", passage)])]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    # the cloze filled "第[0]工場" with the year 2015 and contradicted the claim (0.13)
    assert value(result, "plant", "faithfulness") >= 0.5


TOUR = ("자주 묻는 질문\n\nQ. 로스팅 공장을 견학할 수 있나요?\nA. 기장 로스팅 공장은 매월 첫째 토요일 오전 10시에 견학 "
        "프로그램을 운영합니다. 한 번에 12명까지 참여할 수 있고, 참가비는 1인 15,000원입니다.")
BEANS = ("원두 카탈로그\n\n제품 | 산지 | 로스팅 | 가격(200g)\n구지 함벨라 | 에티오피아 | 라이트 | 18,000원\n"
         "우일라 수프리모 | 콜롬비아 | 미디엄 | 15,000원")


def test_a_word_of_a_name_that_heads_a_column_of_words_misplaces_no_price(live_settings: Settings) -> None:
    import asyncio

    question = "기장 로스팅 공장 견학은 얼마인가요?"
    answer = "기장 로스팅 공장 견학은 참가비가 1인 15,000원입니다."
    samples = [sample("tour", question, answer, answer, [("ko", TOUR), ("ko", BEANS)])]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    # "로스팅" of the plant's name named the catalog's roast column, and the fee was read as a bean's misplaced price
    assert value(result, "tour", "faithfulness") >= 0.5


TURNED_ANSWERS = [  # a question, its passage, the right answer, and one with two names swapped or a duty for a choice
    ("en", "Who does Nadia Haddad report to?", "Nadia Haddad reports to Omar Kline, the head of engineering.",
     "Nadia Haddad reports to Omar Kline.", "Omar Kline reports to Nadia Haddad."),
    ("ja", "ひかり物流はどの会社を買収しましたか？", "2018年、ひかり物流はあおば運輸を買収した。",
     "ひかり物流は2018年にあおば運輸を買収しました。", "あおば運輸はひかり物流を買収した。"),
    ("zh", "员工可以在家办公吗？", "员工每周五可以在家办公。其余工作日须到公司打卡。",
     "员工每周五可以在家办公。", "员工每周五必须在家办公。"),
]


def test_names_turned_round_or_a_duty_for_a_choice_are_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in TURNED_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in TURNED_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


ANOTHERS_ANSWERS = [  # a question, its passage, the right answer, and one that gives the fact to another person
    ("zh", "禾丰食品的财务总监是谁？", "禾丰食品的总经理是周海涛，财务总监是林晓燕，研发总监是郑凯。",
     "禾丰食品的财务总监是林晓燕。", "周海涛担任禾丰食品的财务总监。"),
    ("ko", "누리소프트의 개발팀장은 누구인가요?", "누리소프트의 개발팀장은 송민호이고, 디자인팀장은 임수진이다.",
     "누리소프트의 개발팀장은 송민호입니다.", "누리소프트의 개발팀장은 임수진이다."),
]


def test_a_fact_of_another_person_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in ANOTHERS_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in ANOTHERS_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


ENDED_ANSWERS = [  # a question, its passage, the right answer, and one that says in the present what moved or ended
    ("zh", "青禾农机现在的总经理是谁？", "陈立新曾任青禾农机总经理至2021年，此后由许静担任总经理。",
     "许静担任青禾农机总经理。", "陈立新是青禾农机的总经理。"),
    ("ko", "해든 베이커리의 빵은 어디에서 굽나요?", "2022년에 빵 굽는 작업은 연남점 주방에서 파주 공장으로 이전되었다.",
     "해든 베이커리의 빵은 파주 공장에서 굽습니다.", "빵은 연남점 주방에서 굽는다."),
    # what moved is named by its noun ("delivery"), the wrong answer by its verb ("delivers")
    ("en", "Who delivers Marlow's parcels?", "In 2020 delivery moved from Fenwick Couriers to Dale Post.",
     "Dale Post delivers Marlow's parcels.", "Fenwick Couriers delivers Marlow's parcels."),
    # a short wrong answer, to which the split may add the question's subject (the hall)
    ("ja", "ひかり市民ホールの館長は誰ですか？", "西村明子は2021年まで館長を務め、その後は大野修が館長に就任した。",
     "ひかり市民ホールの館長は大野修です。", "西村明子が館長です。"),
]
OTHER_FACTS = {  # a second passage on the question's subject, which says nothing of what moved or who came after
    "zh": "青禾农机的主要产品是小麦播种机。", "ko": "해든 베이커리는 2016년에 문을 열었다.",
    "en": "Marlow sells its teas online.", "ja": "ひかり市民ホールは1995年に開館した。",
}


def test_what_moved_away_or_ended_is_unfaithful_in_the_present(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(f"{lang}-moved", text), (f"{lang}-other", OTHER_FACTS[lang])])
               for lang, q, text, right, wrong in ENDED_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in ENDED_ANSWERS:
        # where it moved to and who came after, said in the present, are the passage's: the 1.5B judge alone gave
        # such answers 0.4-0.6 (bench/README.md, sessions 46 and 48)
        assert value(result, f"{lang}-right", "faithfulness") >= 0.9, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


FORMER_ANSWERS = [  # a question, its passage, the right answer, and one that says in the present what was so
    ("en", "Who is the headteacher of Ashby School?",
     "Helen Ward was the headteacher of Ashby School. Today the school is led by Raj Patel.",
     "Raj Patel leads Ashby School.", "Helen Ward is the headteacher of Ashby School."),
    ("zh", "图书馆现在是什么？", "图书馆原为一座仓库，2010年改建后对外开放。", "图书馆原来是一座仓库。",
     "图书馆是一座仓库。"),
    ("ko", "마을 이장은 누구인가요?", "박성호는 마을 이장이었으며, 지금 이장은 윤재석이다.",
     "지금 마을 이장은 윤재석입니다.", "박성호가 마을 이장이다."),
    ("ja", "駅前の広場は何ですか？", "駅前の広場は市場だった。現在は公園として使われている。",
     "駅前の広場は現在、公園として使われています。", "駅前の広場は市場である。"),
]


def test_a_state_told_in_the_past_is_unfaithful_in_the_present(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in FORMER_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in FORMER_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        # the 1.5B judge alone gave such claims 0.89-0.99 (bench/README.md, session 48)
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


QUALIFIED_ANSWERS = [  # a question, its passage, the right answer, and one that drops the qualifier of a title
    ("en", "What is Priya Shah's role?", "Priya Shah, the associate dean, leads the admissions team.",
     "Priya Shah is the associate dean and leads the admissions team.", "Priya Shah is the dean."),
    ("ko", "배지은은 어떤 직책을 맡고 있나요?", "한결제약의 부사장은 배지은이다.", "배지은은 한결제약의 부사장입니다.",
     "배지은은 한결제약의 사장이다."),
    ("ja", "鈴木誠の役職は何ですか？", "社長代理として鈴木誠が会議に出席した。", "鈴木誠は社長代理です。",
     "鈴木誠は社長である。"),
]


def test_a_title_without_its_qualifier_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)]) for lang, q, text, right, wrong in
               QUALIFIED_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in QUALIFIED_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        # the 1.5B judge alone gave such claims 0.51-0.99 (bench/README.md, session 48)
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


PLACED_ANSWERS = [  # a question, a passage that lists two things each with its place, the right answer, and the
    # answer that puts the thing in the other's place
    ("en", "Where is the Kettering warehouse?",
     "The company runs two warehouses: the Kettering warehouse in Northamptonshire and the Ashby warehouse in "
     "Leicestershire. Both ship six days a week.",
     "The Kettering warehouse is in Northamptonshire.", "The Kettering warehouse is in Leicestershire."),
    ("ja", "三宮店はどこにありますか？", "関西には大阪市の梅田店と神戸市の三宮店がある。三宮店は2019年に開店した。",
     "三宮店は神戸市にある。", "三宮店は大阪市にある。"),
    ("ko", "광안리점은 어디에 있나요?",
     "한빛커피는 매장 두 곳을 운영합니다. 해운대구의 해운대점과 수영구의 광안리점입니다.",
     "광안리점은 수영구에 있습니다.", "광안리점은 해운대구에 있습니다."),
]


def test_a_thing_put_in_the_place_its_list_gives_another_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)]) for lang, q, text, right, wrong in
               PLACED_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in PLACED_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        # the 1.5B judge alone gave the wrong answers 0.68-0.74 and 0.46, the Korean right one 0.31 (bench/README.md,
        # session 49)
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


TOTAL_ANSWERS = [  # a question, a passage that gives two things' amount together, the right answer, and the answer
    # that says it of one of them
    ("en", "How much floor space do the company's warehouses have?",
     "The company runs two warehouses, the Kettering warehouse and the Ashby warehouse, with about 300,000 square "
     "feet of floor space together. The Ashby warehouse opened in 2012.",
     "The two warehouses have about 300,000 square feet of floor space together.",
     "The Ashby warehouse has about 300,000 square feet of floor space."),
    ("zh", "公司的茶园面积有多大？", "公司拥有两处自有茶园：西湖区的龙坞茶园和安吉县的安吉白茶基地，合计约500亩。",
     "两处茶园合计约500亩。", "安吉白茶基地面积约500亩。"),
    ("ja", "工場の従業員は何名ですか？",
     "本社工場と熊本工場の従業員は合わせて約320名である。熊本工場は2008年に稼働した。",
     "本社工場と熊本工場の従業員は合わせて約320名である。", "熊本工場の従業員は約320名である。"),
]


def test_an_amount_of_two_things_together_said_of_one_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)]) for lang, q, text, right, wrong in
               TOTAL_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in TOTAL_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        # the 1.5B judge alone gave the wrong answers 0.87-1.00 (bench/README.md, session 50)
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


APPOSITION_ANSWERS = [  # a question, its passage, the right answer, and one whose apposition gives the wrong title
    ("Who does Nadia Haddad report to?",
     "Nadia Haddad reports to Omar Kline, who heads engineering. Sara Lind heads sales.",
     "Nadia Haddad reports to Omar Kline, the head of engineering.",
     "Nadia Haddad reports to Omar Kline, the head of sales."),
    ("Who founded Brightwell Bakery?",
     "Brightwell Bakery was founded in 2009 by Tom Ashe, a former chef. It has four shops in Leeds.",
     "Tom Ashe, a former chef, founded Brightwell Bakery in 2009.",
     "Tom Ashe, a former banker, founded Brightwell Bakery in 2009."),
]


TITLE_ANSWERS = [  # the same, with the title written before the name
    ("毎月の品質会議を主宰しているのは誰ですか？",
     "みなと製菓の工場長は井上浩二、品質保証部長は森田由美である。森田由美は毎月の品質会議を主宰している。",
     "品質保証部長の森田由美が毎月の品質会議を主宰している。", "工場長の森田由美が毎月の品質会議を主宰している。"),
    ("송민호는 언제 입사했나요?",
     "누리소프트의 개발팀장은 송민호이고, 디자인팀장은 임수진이다. 송민호는 2015년에 입사했다.",
     "개발팀장 송민호는 2015년에 입사했습니다.", "디자인팀장 송민호는 2015년에 입사했습니다."),
]


def test_a_wrong_apposition_is_checked(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{i}-{kind}", q, a, right, [("cjk" if ord(text[0]) > 0x2e80 else "en", text)])
               for i, (q, text, right, wrong) in enumerate(APPOSITION_ANSWERS + TITLE_ANSWERS)
               for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(APPOSITION_ANSWERS + TITLE_ANSWERS)):
        right, wrong = value(result, f"{i}-right", "faithfulness"), value(result, f"{i}-wrong", "faithfulness")
        # the split drops the apposition or the title, and without it both answers of a pair scored 0.95-1.00
        # (bench/README.md, session 50)
        assert right >= 0.7 and wrong <= 0.6 and right - wrong >= 0.2, (i, right, wrong)


PERIOD_ANSWERS = [  # a question, its passage, the right answer, and the same value counted over another period
    ("ko", "소담 도서관은 책을 얼마나 대출하나요?", "소담 도서관은 한 달에 약 3000권의 책을 대출한다.",
     "소담 도서관은 한 달에 약 3000권을 대출합니다.", "소담 도서관은 하루에 약 3000권의 책을 대출한다."),
    ("ja", "あおば食堂の利用料はいくらですか？", "あおば食堂の会員は月額3000円で昼食を利用できる。",
     "会員の利用料は月額3000円です。", "あおば食堂の会員は年額3000円で昼食を利用できる。"),
]


def test_a_value_counted_over_another_period_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in PERIOD_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in PERIOD_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.1, lang


NUMERAL_ANSWERS = [  # a question, its passage, the right answer, and a wrong one; the amounts in numerals or words
    ("en", "How does the beginners' course at Larkfield Pottery run?",
     "The beginners' course at Larkfield Pottery runs for eight weeks, with two classes a week of three hours each.",
     "It lasts 8 weeks, with 2 classes a week of 3 hours each.", "It lasts six weeks, with three classes a week."),
    ("ko", "성인은 이 약을 어떻게 복용하나요?", "성인은 이 약을 하루 세 번, 두 알씩 식후에 복용한다.",
     "성인은 하루 세 번, 두 알씩 식후에 복용합니다.", "성인은 하루 두 번, 세 알씩 복용합니다."),
    ("zh", "成人应如何服用这种药？", "成人每次服用两片，每日三次，饭后服用。", "成人每次两片，每日三次，饭后服用。",
     "成人每次一片，每日一次。"),
    # the judge alone scores this one's wrong answer low; here it guards the reading of 五冊, 二週間, 一か月
    ("ja", "みどり図書館では本を何冊まで借りられますか？", "みどり図書館の会員は本を五冊まで、二週間借りられる。",
     "会員は本を五冊まで二週間借りられます。", "会員は本を十冊まで一か月借りられます。"),
]


def test_amounts_in_numerals_are_checked_as_numbers(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in NUMERAL_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in NUMERAL_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.3, lang


AMOUNTS_ANSWERS = [  # a question, its passage, the right answer, and one of three amounts, all other than the passage's
    ("ko", "솔빛 요가원의 초급반은 어떻게 운영되나요?",
     "솔빛 요가원의 초급반은 일주일에 세 번 열리며, 정원은 열두 명이다. 수업은 한 번에 두 시간씩 진행된다.",
     "초급반은 일주일에 세 번, 두 시간씩 열리고 정원은 열두 명입니다.",
     "초급반은 일주일에 두 번 열리고, 정원은 스무 명이며, 수업은 세 시간씩 진행됩니다."),
]


def test_a_claim_of_several_amounts_one_of_them_wrong_is_unfaithful(live_settings: Settings) -> None:
    import asyncio

    samples = [sample(f"{lang}-{kind}", q, a, right, [(lang, text)])
               for lang, q, text, right, wrong in AMOUNTS_ANSWERS for kind, a in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for lang, *_ in AMOUNTS_ANSWERS:
        assert value(result, f"{lang}-right", "faithfulness") >= 0.5, lang
        # one claim of three amounts, contradicted without a call (the judge alone gave it 0.24)
        assert value(result, f"{lang}-wrong", "faithfulness") <= 0.05, lang


def test_the_conversation_metrics_score_a_follow_up(live_settings: Settings) -> None:
    """A two-turn conversation's last turn: the follow-up answered on the thread, its reference chunk retrieved."""
    import asyncio

    from ragkit.types import Conversation, Turn

    first = Turn(question="Which plant builds the Wren W300?", answer="The Porto plant builds the Wren W300.")
    test = TestSample(id="chat-t2", question="And who manages it?", reference_answer="Ana Costa manages it.",
                      reference_contexts=[ContextRef(chunk_id="porto", text=PORTO)], history=[first],
                      conversation=Conversation(id="chat", turn=2, turns=2, goal="Learn about the Porto plant"))
    follow_up = EvalSample(test=test, response=RagResponse(
        answer="Ana Costa has managed the Porto plant since it opened.",
        retrieved_contexts=[ContextRef(chunk_id="porto", text=PORTO), ContextRef(chunk_id="sheffield",
                                                                                    text=SHEFFIELD)]))
    result = asyncio.run(evaluate([follow_up], list(CONVERSATION_METRICS), judge=Judge(settings=live_settings),
                                  progress=False))
    scores = result.samples[0].scores
    assert all(scores[k].value is not None for k in CONVERSATION_METRICS), scores
    assert scores["reference_resolution"].value == 1.0
    assert 0.0 <= scores["knowledge_retention"].value <= 1.0 and scores["knowledge_retention"].explanation
    assert scores["conversation_completeness"].details["turns"]  # a verdict per turn
