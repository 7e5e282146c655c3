"""The critic's checks of the text as written: a loop, a stray script, a copied first person, a statement, an
ambiguous document."""

from __future__ import annotations

import pytest
from kg_builder import BAKERY, build_graph

from ragkit.synthesis._checks import addresses, ambiguous_document, first_person, loops, stray_script
from ragkit.synthesis._critic import Critic
from ragkit.synthesis._written import names_its_asker, states
from ragkit.testing import ScriptedJudge
from ragkit.types import ContextRef, TestSample

LOOP = ("The Wren uses two safety lidar scanners and a 3D camera. They also have a 3D camera. They also have a 3D "
        "camera. They also have a 3D camera. They also")


@pytest.mark.parametrize(("text", "looping"), [
    (LOOP, True),
    ("Press Stop, then Stop again, then Stop once more.", False),
    ("16 digital inputs and 16 digital outputs, 2 analogue inputs and 2 analogue outputs.", False),
    ("The plant opened in 2016. The plant builds arms. The plant employs 210 people.", False),
    ("龙坞茶园位于西湖区。" * 4, True),
    ("龙坞茶园位于西湖区，安吉白茶基地位于安吉县，两处茶园都在浙江省。", False),
    ("근속 5년이 되는 해에 유급 휴가 5일과 여행 지원금 100만 원을 줍니다.", False),
])
def test_loops(text, looping):
    assert loops(text) is looping


@pytest.mark.parametrize(("text", "language", "contexts", "stray"), [
    ("Daniel remains a director of the公司.", "en", ["Daniel remains a director of the company."], "公司"),
    ("The tea is called 龙井 locally.", "en", ["Its local name is 龙井."], ""),
    ("龙坞茶园建于2005年。", "zh", ["龙坞茶园建于2005年。"], ""),
    ("龙坞茶园は2005年に建てられた。", "zh", ["龙坞茶园建于2005年。"], "はにてられた"),
    ("근속 5년이 되면 휴가 5일을 줍니다.", "ko", ["근속 5년이 되면 휴가 5일을 줍니다."], ""),
    ("근속 5년이 되면 休假 5일을 줍니다.", "ko", ["근속 5년이 되면 휴가 5일을 줍니다."], "休假"),
    ("本社は東京にある。", "ja", ["本社は東京にある。"], ""),
    ("Any text at all 公司.", "und", [], ""),
])
def test_stray_script(text, language, contexts, stray):
    assert stray_script(text, language, contexts) == stray


@pytest.mark.parametrize(("answer", "question", "expected"), [
    ("Daniel Reyes, who co-founded Acme with me in 2011, becomes Chief Scientist.", "What is Daniel Reyes's role?",
     True),
    ("My team moved to Eindhoven in 2018.", "Where is the vision team?", True),
    ("Daniel Reyes becomes Chief Scientist on 1 January.", "What is Daniel Reyes's role?", False),
    ('The CEO wrote: "Daniel co-founded Acme with me".', "What did the CEO write about Daniel?", False),
    ("Hold the button and enter my badge number.", "How do I reset my badge?", False),
    ("Type I faults stop the arm; ME is a state code.", "Which faults stop the arm?", False),
    ("Run pyenv virtualenv-delete my-virtual-env, or `rm -rf my env`.", "How is a virtualenv deleted?", False),
])
def test_first_person(answer, question, expected):
    assert first_person(answer, question) is expected


@pytest.mark.parametrize(("question", "persona", "expected"), [
    ("李四，你平时的午休时间是怎样的？", "李四", True),
    ("Anna, what is the warranty on the K10?", "Anna", True),
    ("What is the warranty on the K10 for you, Anna?", "Anna", True),
    ("김민수 씨, 휴가는 며칠입니까?", "김민수 씨", True),
    ("李四的工号是多少？", "李四", False),  # about a person of that name, not spoken to them
    ("What did Anna Berg write about the K10?", "Anna", False),
    ("What is the warranty on the K10?", None, False),
])
def test_a_question_that_speaks_to_its_persona(question, persona, expected):
    assert addresses(question, persona) is expected


@pytest.mark.parametrize(("question", "persona", "kept"), [
    # the asker's name spoken to, then a question of the asker's own (the live zh conversation runs of session 32)
    ("青岚茶业公司经理，您能告诉我白茶的加工流程吗？", "青岚茶业公司经理", "您能告诉我白茶的加工流程吗？"),
    ("青岚茶业公司经理，你知道青岚明前龙井的零售价是多少吗？", "青岚茶业公司经理",
     "你知道青岚明前龙井的零售价是多少吗？"),
    ("Anna, what is the warranty on the K10?", "Anna", "What is the warranty on the K10?"),
    ("Anna, could you tell me the K10's payload?", "Anna", "Could you tell me the K10's payload?"),
    ("김민수 씨, 휴가는 며칠입니까?", "김민수 씨", "휴가는 며칠입니까?"),
    # a question about the one spoken to: left for addresses_persona
    ("青岚茶业公司经理，你对密封有什么看法？", "青岚茶业公司经理", None),
    ("李四，你平时的午休时间是怎样的？", "李四", None),
    ("What is the warranty on the K10 for you, Anna?", "Anna", None),
    ("Anna, what is your team's budget?", "Anna", None),
    ("李四的工号是多少？", "李四", None),  # not spoken to
])
def test_the_asker_spoken_to_is_left_out(question, persona, kept):
    from ragkit.synthesis._checks import without_address

    assert without_address(question, persona) == (kept or question)


def _sample(kg, answer, lang="en"):
    chunk = next(c for c in kg.chunks() if "Kirkstall" in c.text)
    return TestSample(id="s1", question="When did the Leeds bakery open?", reference_answer=answer, language=lang,
                      reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])


@pytest.mark.parametrize(("answer", "reason"), [
    ("The Leeds bakery opened in 2010. " + "It has ovens. " * 4, "repeated_text"),
    ("The Leeds bakery opened in 2010 on Kirkstall Road, the新店.", "wrong_language"),
    ("I opened my Leeds bakery in 2010 on Kirkstall Road.", "first_person_answer"),
    ("The Leeds bakery opened in 2010 (on Kirkstall Road", "cut_short"),
])
async def test_the_critic_drops_them_before_any_llm_call(bakery, embeddings, answer, reason):
    judge = ScriptedJudge([])  # any call would fail the test
    verdict = await Critic(bakery, judge, embeddings).review(_sample(bakery, answer))
    assert not verdict.ok and verdict.reason == reason
    assert judge.calls == []


@pytest.mark.parametrize(("text", "mark"), [
    ("What is the name of the dictionary used by the `dict=", "`"),  # a JSON string ended at the writer's quote
    ("Call `Dictionary(dict=", "`"),
    ("The CB-3 supports PROFINET (and Modbus TCP", "("),
    ("「HS-5」は1996年に発売された「外装変速機", "「"),
    ("青岚茶业的《员工手册", "《"),
    ("Call `Dictionary(dict=\"full\")` to load sudachidict_full.", None),
    ("Steps: 1) install, 2) run.", None),  # closing marks alone cut nothing
    ("「HS-5」は1996年に発売された。", None),
])
def test_a_text_left_open(text, mark):
    from ragkit.synthesis._written import left_open

    assert left_open(text) == mark


README = ("安装\n\npip install pypinyin\n\nThe package can also be installed from PyPI by issuing:\n\n"
          "python setup.py install\n\ncd to/dir\n\n使用 `pypinyin.lazy_pinyin` 转换。")


@pytest.mark.parametrize(("answer", "copied"), [
    ("pip install pypinyin", True),
    ("`python setup.py install`", True),
    ("pip install pypinyin\n\npython setup.py install", True),  # blank lines between them
    ("The package can also be installed from PyPI by issuing:", False),  # English prose: a function word
    ("cd to/dir", True),  # "to" is part of a path, not English grammar
    ("pip install pypinyin-dict", False),  # not a line of the contexts
    ("pip install", False),  # part of a line only
    ("使用 pip install pypinyin 安装。", False),  # Chinese already; not this rule's to pass
])
def test_a_command_copied_from_its_contexts(answer, copied):
    from ragkit.synthesis._written import copied_command

    assert copied_command(answer, [README]) is copied


def test_a_chinese_samples_reference_may_be_a_command_alone() -> None:
    from ragkit.synthesis._written import written_checks

    def sample(answer: str) -> TestSample:
        return TestSample(id="s", question="如何安装 pypinyin？", reference_answer=answer, language="zh",
                          reference_contexts=[ContextRef(chunk_id="c", text=README, source="r.md")])

    assert written_checks(sample("pip install pypinyin")).ok
    dropped = written_checks(sample("The package can also be installed from PyPI by issuing: pip install pypinyin"))
    assert dropped.reason == "wrong_language"


TITLES = ["Incident Report INC-2023-014 incident-report-INC-2023-014", "ACME ROBOTICS - INCIDENT REPORT "
          "incident-report-INC-2023-031", "travel-and-expenses-policy travel-and-expenses-policy",
          "Acme Robotics enters mobile robotics press-release-wren-w300-2022",
          "Acme Robotics launches the Kestrel K10 press-release-kestrel-k10-2019"]


@pytest.mark.parametrize(("question", "phrase"), [
    ("Who is the Plant Manager mentioned in the incident report?", "incident report"),
    ("Who wrote the press release?", "press release"),
    ("Who wrote the press release about the Wren W300?", None),
    ("What does the travel policy say about taxis?", None),
    ("What does Incident Report INC-2023-014 say about the brake?", None),
    ("Which incident reports name Gareth Mills?", None),
    ("事故报告是谁写的？", None),
])
def test_ambiguous_document(question, phrase):
    assert ambiguous_document(question, TITLES) == phrase


async def test_the_critic_drops_a_question_about_one_of_several_documents_of_a_kind(embeddings):
    spec = {**BAKERY, "safety-notice-2023.md": [
        ("In May 2023 a flour silo sensor failed in the Leeds bakery. Priya Nand had it replaced the same week.",
         [("Leeds", "place"), ("Priya Nand", "person")])]}
    kg = build_graph(spec, embeddings)
    judge = ScriptedJudge([])  # any call would fail the test
    chunk = next(c for c in kg.chunks() if "conveyor guard" in c.text)
    sample = TestSample(id="s1", question="Who ordered new guards, according to the safety notice?",
                        reference_answer="Owen Hale ordered them from Marlow Engineering.", language="en",
                        reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])
    verdict = await Critic(kg, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "unnamed_reference" and "safety notice" in verdict.detail
    assert judge.calls == []


@pytest.mark.parametrize(("question", "language", "statement"), [
    ("이수민과 최윤아는 품질 관리와 마케팅을 담당하는 직책을 수행하고 있습니다.", "ko", True),
    ("정다은과 박성호는 각각의 직책을 담당하고 있습니다", "ko", True),
    ("한빛커피 회사의 주소는 어디입니까?", "ko", False),
    ("한빛커피는 어떻게 운영되는지?", "ko", False),
    ("기장 공장 견학 일정을 알고 싶습니다.", "ko", False),  # a request, not a statement
    ("근무 규정을 설명해 주세요.", "ko", False),
    ("한빛커피 본사 바다", "ko", False),  # keywords: a noun in 다 is no sentence ending
    ("浜松工場と熊本工場の製造部門は二交替制です。", "ja", True),
    ("浜松工場では何を生産していますか。", "ja", False),
    ("HS-8の重さを教えてください。", "ja", False),
    ("HS-8について知りたいです。", "ja", False),
    ("我们对给顾客和经销商带来的不便深表歉意。", "zh", True),
    ("请介绍一下青岚茶业。", "zh", False),
    ("我想了解龙井茶的采摘时间。", "zh", False),
    ("青岚茶业的总部在哪里？", "zh", False),
    ("The Wren W300 carries 300 kg.", "en", False),  # English is not checked: "Explain how …" is a request
])
def test_a_cjk_question_that_only_states(question: str, language: str, statement: bool) -> None:
    assert states(question, language) is statement


async def test_the_critic_drops_a_statement_before_any_llm_call(bakery, embeddings):
    judge = ScriptedJudge([])  # any call would fail the test
    opened = "利兹面包店于2010年开业。"
    sample = _sample(bakery, opened).model_copy(update={"question": opened, "language": "zh"})
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "not_a_question"
    assert judge.calls == []


def _asked(question: str, persona: str, context: str, **metadata: str) -> TestSample:
    return TestSample(id="a", question=question, reference_answer="x", persona=persona, metadata=metadata,
                      reference_contexts=[ContextRef(chunk_id="c", text=context)])


def test_a_question_about_its_asker() -> None:
    changelog = "1.2.0 - 2025-10-26\n- Add support for Python 3.14"
    asked = _asked("What version of Python does the software engineer use?", "Software Engineer", changelog)
    assert names_its_asker(asked) == "Software Engineer"
    # the typos style wrote "sfotware"; the writer's own question names the asker
    typed = _asked("What version of Pthon does the sfotware engineer use?", "Software Engineer", changelog,
                   question_before_typos=asked.question)
    assert names_its_asker(typed) == "Software Engineer"
    assert names_its_asker(_asked("李四在什么情况下可以退款？", "李四", "购买该批次的顾客可凭包装退款。")) == "李四"
    korean = _asked("이은은 언제 원두를 받을 수 있을까요?", "이은", "다음 날 로스팅하여 발송합니다.")
    assert names_its_asker(korean) == "이은"
    # a Latin name with a Korean particle after it (session 58)
    latin = _asked("HangulPy Developer는 어떤 조사 형태를 구하는지?", "HangulPy Developer", "tossi.pick(word, morph)")
    assert names_its_asker(latin) == "HangulPy Developer"
    assert names_its_asker(_asked("Hangulpy는 무엇인가요?", "HangulPy Developer", "forked from Hangulpy")) is None


def test_an_asker_the_contexts_speak_of_or_a_word_that_only_holds_its_name() -> None:
    minutes = "Priya Raman became CTO in 2021."
    assert names_its_asker(_asked("When did Acme appoint its CTO?", "CTO", minutes)) is None
    assert names_its_asker(_asked("Which CTOs did Acme have?", "CTO", "Acme's founders.")) is None  # a word of its own
    assert names_its_asker(_asked("When did Acme open?", "Software Engineer", "Acme opened in 2011.")) is None
    assert names_its_asker(_asked("When did Acme open?", "", "Acme opened in 2011.")) is None


async def test_the_critic_drops_a_question_about_its_asker_before_any_llm_call(bakery, embeddings):
    judge = ScriptedJudge([])  # any call would fail the test
    sample = _sample(bakery, "The baker opened it in 2010.").model_copy(
        update={"question": "When did the pastry chef open the Leeds bakery?", "persona": "Pastry Chef"})
    verdict = await Critic(bakery, judge, embeddings).review(sample)
    assert not verdict.ok and verdict.reason == "names_the_asker" and "Pastry Chef" in verdict.detail
    assert judge.calls == []

