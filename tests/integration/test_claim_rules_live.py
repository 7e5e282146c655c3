"""Claim-engine rules on the embedded judge: answers it scores by their topic, read right by the passage's words."""

from __future__ import annotations

import asyncio

import pytest

from ragkit import Judge, Settings
from ragkit.evaluation import ClaimStore, EvalResult, evaluate
from ragkit.types import ContextRef, EvalSample, RagResponse, TestSample

pytestmark = pytest.mark.live

TITLE_HOLDERS = [  # a list of titles and their holders, another passage, a question, its right and wrong answer
    ("经营团队\n\n星河家居的董事长是马振东，总经理是黎晓雯，设计总监是钟浩然。", "星河家居在全国有86家门店。",
     "星河家居的总经理是谁？", "黎晓雯担任星河家居的总经理。", "钟浩然担任星河家居的总经理。"),
    ("役員一覧\n\nあさひ製菓の代表取締役社長は松井康弘、製造部長は川口千尋、営業部長は早川亮である。",
     "あさひ製菓の主力商品は米菓である。", "あさひ製菓の製造部長は誰ですか？",
     "川口千尋があさひ製菓の製造部長を務めている。", "早川亮があさひ製菓の製造部長を務めている。"),
    ("경영진\n\n한결전자의 대표는 문성호이고, 기술이사는 백지현이며, 품질팀장은 류건우이다.",
     "한결전자는 2008년에 설립되었다.", "한결전자의 기술이사는 누구인가요?",
     "백지현이 한결전자의 기술이사입니다.", "류건우가 한결전자의 기술이사입니다."),
]


def _sample(sid: str, question: str, answer: str, passages: list[str]) -> EvalSample:
    refs = [ContextRef(chunk_id=f"{sid}:{k}", text=p) for k, p in enumerate(passages)]
    return EvalSample(test=TestSample(id=sid, question=question, reference_contexts=refs[:1]),
                      response=RagResponse(answer=answer, retrieved_contexts=refs))


def _value(result: EvalResult, sid: str) -> float:
    score = next(s for s in result.samples if s.sample_id == sid).scores["faithfulness"]
    assert score.value is not None, (sid, score.explanation)
    return score.value


def test_a_title_and_its_holder_are_read_from_a_list(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [titles, other])
               for i, (titles, other, question, right, wrong) in enumerate(TITLE_HOLDERS)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(TITLE_HOLDERS)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # the judge alone scored most such right answers below 0.5, and one wrong one 0.92 (bench/README.md, session 51)
        assert right >= 0.7 and wrong <= 0.3, (i, right, wrong)


HOLDERS_FIRST = [  # titles given holder first ("…が製造部長を務め", "…이 기술이사를 맡고"), another passage,
    # a question, its right and wrong answer
    ("役員一覧\n\nあさひ製菓では松井康弘が社長を務め、川口千尋が製造部長を務め、早川亮が営業部長を務めている。",
     "あさひ製菓の主力商品は米菓である。", "あさひ製菓の製造部長は誰ですか？",
     "川口千尋があさひ製菓の製造部長です。", "早川亮があさひ製菓の製造部長です。"),
    ("임원 안내\n\n한결전자에서는 문성호가 대표를 맡고 있고, 백지현이 기술이사를 맡고 있으며, "
     "류건우가 품질팀장을 맡고 있다.",
     "한결전자는 2008년에 설립되었다.", "한결전자의 기술이사는 누구인가요?",
     "백지현이 한결전자의 기술이사입니다.", "류건우가 한결전자의 기술이사입니다."),
]


def test_a_title_given_holder_first_is_read_too(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [titles, other])
               for i, (titles, other, question, right, wrong) in enumerate(HOLDERS_FIRST)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(HOLDERS_FIRST)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # the title rules read only "title は holder" until session 64; validity's ja-swap right answer, whose passage
        # gives its titles holder first, scored 0.59 with the judge
        assert right >= 0.7 and wrong <= 0.3, (i, right, wrong)


ASIDES = [  # a passage, another, a question, and a right answer with an aside about what the documents do not give
    ("工場\n\n項目 | 富山工場 | 新潟工場\n所在地 | 富山県射水市 | 新潟県長岡市\n"
     "主な製品 | かまぼこ、ちくわ | 冷凍えびフライ",
     "かもめ食品の本社は富山市にあり、創業は1962年です。", "かもめ食品の富山工場では何を生産していますか？",
     "富山工場の主な製品はかまぼことちくわです。費用については資料に記載がありません。"),
    ("이 앱은 한국어, 영어, 일본어, 중국어를 지원한다. 다른 언어는 내년에 추가될 예정이다.",
     "이 앱의 월 구독료는 9,900원이다.", "이 앱은 어떤 언어를 지원하나요?",
     "이 앱에서는 한국어와 영어, 일본어, 중국어를 쓸 수 있습니다. 비용 정보는 자료에 없습니다."),
]


def test_an_aside_about_the_documents_is_no_claim(live_settings: Settings) -> None:
    samples = [_sample(f"aside-{i}", question, answer, [passage, other])
               for i, (passage, other, question, answer) in enumerate(ASIDES)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(ASIDES)):
        # the split kept these asides as claims, and the check called them unsupported: 0.51 and 0.61
        # (bench/README.md, session 52)
        assert _value(result, f"aside-{i}") >= 0.8, (i, _value(result, f"aside-{i}"))


WRITTEN_OTHERWISE = [  # a passage, a question, its right answer, and one that writes its code name or value otherwise
    ("jaconv.hira2kata('ともえまみ') は 'トモエマミ' を返します。", "jaconv.hira2kata('ともえまみ') は何を返しますか？",
     "jaconv.hira2kata('ともえまみ') は 'トモエマミ' になります。",
     "jaconv.hira2kata('ともえまみ') は 'トモエマメ' になります。"),
    ("설정 파일에서 log_level 값을 DEBUG로 바꾸면 자세한 로그가 남습니다.", "자세한 로그를 남기려면 어떻게 하나요?",
     "설정 파일의 log_level 값을 DEBUG로 바꾸면 됩니다.", "설정 파일의 log_levels 값을 DEBUG로 바꾸면 됩니다."),
    ("使用 jieba.lcut() 可以直接得到词语列表，jieba.cut() 返回的是生成器。", "怎样直接得到词语列表？",
     "调用 jieba.lcut() 就能直接得到词语列表。", "调用 jieba.lcat() 就能直接得到词语列表。"),
]


def test_a_code_name_or_value_written_otherwise_is_unfaithful(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, right, wrong) in enumerate(WRITTEN_OTHERWISE)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(WRITTEN_OTHERWISE)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # checked alone, the judge called 6 of 9 such wrong claims entailed (bench/literal_probe.py, session 57)
        assert right >= 0.5 and wrong < 0.5, (i, right, wrong)


PRAISE = [  # a passage, a question, its right answer, and one that praises with words the passage never uses
    ("Typer builds command-line interfaces from Python type hints. It is easy to use and popular with FastAPI users.",
     "What is Typer?", "Typer builds command-line interfaces from type hints and is popular with FastAPI users.",
     "Typer offers an intuitive and user-friendly syntax."),
    ("青禾OCR是一个中文文字识别工具，支持横排和竖排文字。", "青禾OCR是什么？",
     "青禾OCR是中文文字识别工具，支持竖排文字。", "青禾OCR是一款功能强大、广泛使用的识别工具。"),
]


def test_praise_the_passage_never_gives_is_unfaithful(live_settings: Settings) -> None:
    samples = [_sample(f"praise-{i}-{kind}", question, answer, [passage])
               for i, (passage, question, right, wrong) in enumerate(PRAISE)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(PRAISE)):
        right, wrong = _value(result, f"praise-{i}-right"), _value(result, f"praise-{i}-wrong")
        # the judge alone called such praise entailed at 0.55-0.87 (bench/praise_probe.py, session 57)
        assert right >= 0.5 and wrong < 0.5, (i, right, wrong)


DATES_AND_VERSIONS = [  # a passage, a question, an answer in another form, and one with another thing's value
    ("한빛 분석기 2.0은 2024.03.18에 출시되었고, 2.1은 2024.09.02에 출시되었다.",
     "한빛 분석기 2.0은 언제 출시되었나요?",
     "한빛 분석기 2.0은 2024년 3월 18일에 출시되었다.", "한빛 분석기 2.0은 2024년 9월 2일에 출시되었다."),
    ("The warehouse opened on 2019.04.01. Its second hall followed on 2022.10.15.", "When did the warehouse open?",
     "The warehouse opened on April 1, 2019.", "The warehouse opened on October 15, 2022."),
    ("The API was frozen in release 2.0. Patch 2.0.3 fixed the memory leak reported on 2024.03.18.",
     "Which patch fixed the memory leak?", "Patch 2.0.3 fixed the memory leak.", "Patch 2.0.4 fixed the memory leak."),
]


def test_a_date_or_version_is_read_whatever_its_form(live_settings: Settings) -> None:
    samples = [_sample(f"dv-{i}-{kind}", question, answer, [passage])
               for i, (passage, question, right, wrong) in enumerate(DATES_AND_VERSIONS)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(DATES_AND_VERSIONS)):
        right, wrong = _value(result, f"dv-{i}-right"), _value(result, f"dv-{i}-wrong")
        # before session 59, the dotted date was one number the cloze offered for the year's and the day's blanks,
        # and "Patch [0]" was filled with the date (bench/dotted_date_probe.py, bench/unwritten_version_probe.py)
        assert right >= 0.5 and wrong < 0.5, (i, right, wrong)


def test_the_kind_two_siblings_share_is_no_fact_of_one(live_settings: Settings) -> None:
    passages = ["Release history: the Kestrel K1 scanner shipped on 2021-06-14. The Kestrel K2 followed on 2023-02-09 "
                "with a faster sensor.", "Kestrel scanners are assembled in Tallinn and tested in Riga."]
    question = "When was the Kestrel K2 scanner released?"
    samples = [_sample("kind-right", question, "The Kestrel K2 was released on 2023-02-09.", passages),
               _sample("kind-wrong", question, "The Kestrel K2 was released on 2021-06-14.", passages)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    right, wrong = _value(result, "kind-right"), _value(result, "kind-wrong")
    # the split writes the question's "scanner" into the claim; before session 60 the sibling rule read it as said
    # of the K1 and every answer scored 0.00 (bench/README.md, "Dates and versions in another form")
    assert right >= 0.5 and wrong < 0.5, (right, wrong)


VALUES_OF_ANOTHER_FACT = [  # two facts of one passage, each with a version; a question, its right and wrong answer
    ("ltp 4.0 版本引入了多任务模型，4.2 版本增加了语义依存分析。", "ltp 哪个版本引入了多任务模型？",
     "ltp 的多任务模型是在 4.0 版本引入的。", "ltp 4.2 版本引入了多任务模型。"),
    ("v2.0에서 GPU 추론이 추가되었고, v2.3부터 양자화 모델이 지원됩니다.", "GPU 추론은 어느 버전에서 추가되었나요?",
     "GPU 추론은 v2.0에서 추가되었습니다.", "GPU 추론은 v2.3에서 추가되었습니다."),
]


def test_a_value_the_passage_gives_another_fact_is_unfaithful(live_settings: Settings) -> None:
    samples = [_sample(f"vf-{i}-{kind}", question, answer, [passage, "이 문서는 릴리스 노트입니다. 本文是发布说明。"])
               for i, (passage, question, right, wrong) in enumerate(VALUES_OF_ANOTHER_FACT)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(VALUES_OF_ANOTHER_FACT)):
        right, wrong = _value(result, f"vf-{i}-right"), _value(result, f"vf-{i}-wrong")
        # faithfulness reads the retrieved contexts by no question; before session 61 the cloze was shown one
        # written "(none)" and answered "none", so the check's topic-level 0.8-0.99 stood for the wrong version
        # (bench/bound_value_probe.py --no-question)
        assert right >= 0.5 and wrong < 0.5, (i, right, wrong)


def test_a_version_the_question_names_is_read_in_the_answer(live_settings: Settings) -> None:
    passage = "tidyjson 4.2.0 needs Node 18 or newer. Releases up to 3.9.1 still run on Node 14."
    question = "Which Node version does tidyjson 4.2.0 need?"
    reference = "tidyjson 4.2.0 needs Node 18 or newer."
    answers = {"right": "It needs Node 18 or later.", "wrong": "tidyjson 4.2.0 runs on Node 14."}
    context = ContextRef(chunk_id="vq:0", text=passage)
    samples = [EvalSample(test=TestSample(id=f"vq-{kind}", question=question, reference_answer=reference,
                                          reference_contexts=[context]),
                          response=RagResponse(answer=answer, retrieved_contexts=[context]))
               for kind, answer in answers.items()]
    result = asyncio.run(evaluate(samples, ["factual_correctness"], judge=Judge(settings=live_settings),
                                  progress=False))
    right, wrong = (next(s for s in result.samples if s.sample_id == f"vq-{k}").scores["factual_correctness"].value
                    for k in ("right", "wrong"))
    # before session 61 the reference's "tidyjson 4.2.0 …" was neutral against the right answer, which names no
    # version, though its question does, and the right answer's recall was 0 (bench/README.md, "The value cloze")
    assert right is not None and wrong is not None and right >= 0.5 and wrong < right, (right, wrong)


YEARS_AND_AMOUNTS = [  # a passage of a year and an amount beside another year, its question, a right and a wrong answer
    ("青山茶业于2011年在杭州成立。2022年，公司营业收入约2.4亿元，较2021年的1.9亿元增长约26%，员工约260人。",
     "青山茶业的营业收入是多少？", "2022年青山茶业的营业收入约2.4亿元。", "2011年青山茶业的营业收入约2.4亿元。"),
    ("2020년에 문을 연 이 도서관은 2023년 방문객이 약 12만 명이었다.", "도서관 방문객은 몇 명인가요?",
     "2023년 도서관 방문객은 약 12만 명이었다.", "2020년 도서관 방문객은 약 12만 명이었다."),
]


def test_an_amount_put_in_another_year_of_the_passage_is_unfaithful(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, *answers) in enumerate(YEARS_AND_AMOUNTS)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(YEARS_AND_AMOUNTS)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # on the native llama.cpp build the value cloze filled the year's blank with the founding (opening) year,
        # and the check, which reads the claim's topic, said supported (bench/year_amount_probe.py)
        assert right >= 0.5 and wrong < 0.5, (i, right, wrong)


RESTATED = [  # a passage, its question, a right answer and the passage's clause with one value changed
    ("fastparse v2.1.0 では Python 3.9 以上が必要です。v1.8.3 までは Python 3.7 でも動作します。",
     "Python 3.7 で動作するのはどのバージョンまでですか？",
     "v1.8.3 までは Python 3.7 でも動作します。", "v2.1.0 までは Python 3.7 でも動作します。"),
    ("从 v3.2.0 开始，默认模型改为 base-v2；v3.0.5 及更早版本使用 base-v1。", "默认模型从哪个版本开始是 base-v2？",
     "从 v3.2.0 开始，默认模型改为 base-v2。", "从 v3.0.5 开始，默认模型改为 base-v2。"),
    ("한결베이커리는 2018년에 2호 매장을 열었다. 2020년에는 직원이 45명이 되었다.",
     "한결베이커리는 2018년에 몇 호 매장을 열었나요?",
     "한결베이커리는 2018년에 2호 매장을 열었다.", "한결베이커리는 2018년에 4호 매장을 열었다."),
]


def test_a_clause_said_again_with_another_value_is_unfaithful(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, *answers) in enumerate(RESTATED)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(RESTATED)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # the check reads such a claim by the clause's topic, and the value cloze does not always pick the clause's
        # value: on cfbdc3e the Chinese wrong answer scored 0.61 (bench/version_probe.py). The Japanese right
        # answer's claim, split as "Python 3.7 で動作するのは v1.8.3 まではです", is the judge's (0.53)
        assert wrong < 0.5 and right > wrong, (i, right, wrong)


EXCEPTIONS = [  # a passage of an exception, its question, the excepted thing denied (right) and asserted (wrong)
    ("Leave\n\nEvery employee except drivers gets 25 days of paid leave a year.", "Do drivers get 25 days of leave?",
     "Drivers do not get 25 days of paid leave a year.", "Drivers get 25 days of paid leave a year."),
    # (a Korean leave rule failed here: the split wrote the answer without 유급, and a denial that drops a word of
    # the fact is the judge's, 0.08)
    ("주차 안내\n\n협력업체 직원을 제외한 모든 방문객은 북쪽 주차장을 이용할 수 있다.",
     "협력업체 직원도 북쪽 주차장을 이용할 수 있나요?",
     "협력업체 직원은 북쪽 주차장을 이용할 수 없다.", "협력업체 직원은 북쪽 주차장을 이용할 수 있다."),
]


def test_the_thing_an_exception_names_denied_is_faithful(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, *answers) in enumerate(EXCEPTIONS)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(EXCEPTIONS)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # until session 63 the exception rule contradicted the right answer without a call (0.00, as the wrong
        # one); the judge alone read it as not mentioned or barely entailed (0.39, 0.10: bench/exception_probe.py)
        assert right >= 0.5 and wrong < 0.5, (i, right, wrong)


TABLE_ROWS = [  # a table under a heading that names no company, its question (which does), a right and wrong answer
    ("가격표\n\n메뉴 | 종류 | 가격\n바게트 | 식사빵 | 4,500원\n마들렌 | 구움과자 | 2,200원\n"
     "치아바타 | 식사빵 | 3,900원",
     "오븐집 베이커리의 마들렌은 얼마인가요?", "오븐집 베이커리의 마들렌은 2,200원이에요.",
     "오븐집 베이커리의 마들렌은 3,900원이에요."),
    ("门店一览\n\n门店 | 城市 | 开业年份 | 员工\n滨江店 | 杭州 | 2014 | 21人\n望京店 | 北京 | 2018 | 16人\n"
     "天河店 | 广州 | 2020 | 11人", "拾光书店的望京店是哪一年开业的？", "拾光书店的望京店于2018年开业。",
     "拾光书店的望京店于2014年开业。"),
    ("工場の比較\n\n項目 | 静岡工場 | 長野工場\n所在地 | 静岡県富士市 | 長野県松本市\n工場長 | 石田直樹 | 森本彩\n"
     "従業員数 | 120名 | 85名", "みなと食品の長野工場の工場長は誰ですか？",
     "森本彩がみなと食品の長野工場の工場長です。",
     "石田直樹がみなと食品の長野工場の工場長です。"),  # a table whose columns are its subjects
]


def test_a_value_in_the_row_the_answer_names_is_faithful(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, *answers) in enumerate(TABLE_ROWS)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(TABLE_ROWS)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # the judge reads a row's value, with the question's company that the table never names, as only
        # likely (validity's ko-menu: 0.67, bench/README.md, session 64)
        assert right >= 0.95 and wrong < 0.5, (i, right, wrong)


FORMER_TITLES = [  # a Chinese title held before, written before its holder's name; a question; right and wrong answers
    ("前董事长陈国平出席了新总部的开业仪式，并为新总部剪彩。", "谁出席了新总部的开业仪式？",
     "前董事长陈国平出席了开业仪式。", "陈国平是董事长。"),
]


def test_a_title_held_before_is_not_held_now(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, *answers) in enumerate(FORMER_TITLES)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(FORMER_TITLES)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # the judge alone entailed "陈国平是董事长" at 0.909 (bench/title_probe.py, session 66)
        assert right >= 0.7 and wrong < 0.5, (i, right, wrong)


RELEASES = [  # (passage, question, right answer, wrong answer): one release a line, its date first
    ("What's New:\n\n- April 27, 2024 Released Kss 6.0 Python.\n- March 31, 2024 Released Kss 5.0 Python.\n"
     "- December 19, 2022 Released Kss 4.0 Python.\n- August 18, 2021 Released Kss 3.0 Python.",
     "What's new in Kss?",
     "Kss 4.0 Python was released in December 2022.", "Kss 4.0 Python was released in March 2024."),
]


def test_a_release_and_its_date_on_one_line_of_a_list(live_settings: Settings) -> None:
    samples = [_sample(f"{i}-{kind}", question, answer, [passage])
               for i, (passage, question, *answers) in enumerate(RELEASES)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(RELEASES)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        # the cloze put the list's first date in the right claim's blank: 0.44 without the rule (0.02 in a test set)
        assert right >= 0.7 and wrong < 0.5, (i, right, wrong)



OPENCC = ("Introduction 簡介\n\nopencc-python 是用純 Python 所寫，使用由 BYVoid(byvoid.kcp@gmail.com) 所開發的 "
          "OpenCC 中的字典檔案。\n\nopencc-python 可以支援 Python2.7 及 Python3.x。\n\nopencc-python is made by pure "
          "Python with the dictionary files of OpenCC which is developed by BYVoid(byvoid.kcp@gmail.com).")
KEYWORD_QUESTIONS = [  # a keyword query, and a right and a wrong short answer that write all its terms
    ("BYVoid email address", "BYVoid's email address is byvoid.kcp@gmail.com.",
     "BYVoid's email address is opencc.dev@outlook.com."),
    ("BYVoid 邮箱", "BYVoid 的邮箱是 byvoid.kcp@gmail.com。", "BYVoid 的邮箱是 opencc.dev@outlook.com。"),
]


def test_a_short_answer_to_a_keyword_query_is_read_as_it_is_written(live_settings: Settings) -> None:
    judge = Judge(settings=live_settings)
    for question, right, _ in KEYWORD_QUESTIONS:
        claims = asyncio.run(ClaimStore(judge).split(right, question))
        # restated, the claim read "BYVoid email address BYVoid's email address is …" (0.44 in a test set)
        assert claims and not any(c.startswith(question) for c in claims), claims
    samples = [_sample(f"{i}-{kind}", question, answer, [OPENCC])
               for i, (question, *answers) in enumerate(KEYWORD_QUESTIONS)
               for kind, answer in zip(("right", "wrong"), answers, strict=True)]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=judge, progress=False))
    for i in range(len(KEYWORD_QUESTIONS)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        assert right - wrong >= 0.3 and wrong < 0.3, (i, right, wrong)  # 0.66 / 0.05 and 0.62 / 0.03 (session 68)


LANGUAGES = ("Arabic, Basque, Bengali, Brazilian Portuguese, Catalan, Danish, Dutch, Esperanto, European Portuguese, "
             "Finnish, French, German, Greek, Hebrew, Indonesian, Italian, Japanese, Klingon, Korean, Latvian, "
             "Norwegian, Persian, Polish, Russian, Simplified Chinese, Sinhala, Slovak, Slovenian, Spanish, Swedish, "
             "Turkish, Ukrainian, Uzbek, Vietnamese")
HUMANIZE = ("humanize\n\nThis modest package contains various common humanization utilities, like turning a number "
            "into a fuzzy human-readable duration (\"3 minutes ago\") or into a human-readable size or throughput. "
            "It is localized to:\n\n" + "\n".join(f"- {n}" for n in LANGUAGES.split(", ")) +
            "\n\nInstallation\n\nFrom PyPI\n\npython3 -m pip install --upgrade humanize")


def test_an_answer_longer_than_a_claim_may_be_is_one_claim(live_settings: Settings) -> None:
    question = "What is the list of languages that humanize supports?"
    answer = f"The list of languages that humanize supports includes {LANGUAGES}."  # a writer's, session 70
    judge = Judge(settings=live_settings)
    claims = asyncio.run(ClaimStore(judge).split(answer, question))
    # the reply schema cut the sentence at 300 characters ("… Russian, Simplized"), and its rest ("Chinese, Sinhala,
    # … Vietnamese.") came back as a claim with no subject, which the check found neutral: 0.41 without the repair
    assert all(c.startswith("The list of languages") for c in claims), claims
    result = asyncio.run(evaluate([_sample("langs", question, answer, [HUMANIZE])], ["faithfulness"], judge=judge,
                                  progress=False))
    assert _value(result, "langs") >= 0.8  # 0.95


COUNTRIES = ("Austria", "Belgium", "Brazil", "Canada", "Chile", "Croatia", "Czechia", "Denmark", "Estonia", "Finland",
             "France", "Germany", "Greece", "Hungary", "Iceland", "India", "Ireland", "Italy", "Japan", "Latvia",
             "Lithuania", "Mexico", "Netherlands", "Norway", "Poland", "Portugal", "Romania", "Singapore",
             "Slovakia", "Slovenia", "Spain", "Sweden", "Switzerland", "Turkey", "Uruguay")


def test_a_wrong_item_after_the_most_claims_still_costs(live_settings: Settings) -> None:
    """The embedded split writes one claim per country and stops at the schema's 32: an answer wrong about the
    35th scored what the right one did (0.84 both, bench/README.md, session 72) until the rest was checked. The judge
    found 3 of the right answer's 32 countries unsupported, until a claim that is the sentence's start with items
    of its list was entailed by its words."""
    passage = ("Shipping\n\nKellan Audio ships its K7 headphones to 35 countries: " + ", ".join(COUNTRIES[:-1])
               + f" and {COUNTRIES[-1]}. Orders leave the Leeds warehouse within two working days.")
    question = "Which countries does Kellan Audio ship the K7 to?"
    head = "Kellan Audio ships its K7 headphones to " + ", ".join(COUNTRIES[:-1])
    samples = [_sample("right", question, f"{head} and {COUNTRIES[-1]}.", [passage]),
               _sample("wrong", question, f"{head} and Peru.", [passage])]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    right, wrong = _value(result, "right"), _value(result, "wrong")
    assert right >= 0.95 and wrong < right, (right, wrong)


CHANGELOGS = [  # a changelog of two releases, a question on the later one, its right answer, and the earlier one's
    # changes given as the later one's
    ("Changelog\n\n2.4.1 (2025-03-02)\n\n- Fixed a crash when a config file has no [server] section.\n- The --quiet "
     "flag now also hides download progress.\n\n2.4.0 (2025-02-10)\n\n- Dropped support for Python 3.8.\n- Added a "
     "plugin system for custom storage backends.",
     "What changed in Tidewater 2.4.1?",
     "Tidewater 2.4.1 fixed a crash when a config file has no [server] section, and its --quiet flag now also hides "
     "download progress.",
     "Tidewater 2.4.1 dropped support for Python 3.8 and added a plugin system for custom storage backends."),
    ("更新日志\n\n3.2.1 (2024-08-15)\n\n- 修复了竖排文字识别时标点错位的问题。\n- 提高了表格识别的速度。\n\n"
     "3.2.0 (2024-07-01)\n\n- 不再支持Python 3.7。\n- 新增了手写体识别模型。",
     "青禾OCR 3.2.1版本有哪些更新？",
     "青禾OCR 3.2.1修复了竖排文字识别时标点错位的问题，并提高了表格识别的速度。",
     "青禾OCR 3.2.1新增了手写体识别模型，并且不再支持Python 3.7。"),
]


def test_another_releases_changes_are_not_this_releases(live_settings: Settings) -> None:
    """The judge alone scored the earlier release's changes, given as the later one's, 0.85 and 0.75
    (bench/README.md, session 72)."""
    samples = [_sample(f"{i}-{kind}", question, answer, [log])
               for i, (log, question, right, wrong) in enumerate(CHANGELOGS)
               for kind, answer in (("right", right), ("wrong", wrong))]
    result = asyncio.run(evaluate(samples, ["faithfulness"], judge=Judge(settings=live_settings), progress=False))
    for i in range(len(CHANGELOGS)):
        right, wrong = _value(result, f"{i}-right"), _value(result, f"{i}-wrong")
        assert right >= 0.7 and wrong <= 0.3, (i, right, wrong)
