"""The critic's unattested-name check: a question naming a compound or a person that its corpus never names."""

from kg_builder import build_graph

from ragkit.synthesis._critic import Critic
from ragkit.synthesis._premise import unattested_name, unattested_person
from ragkit.text import unspaced
from ragkit.types import ContextRef, TestSample

CATALOG = ("블렌드\n- 해운대 블렌드: 브라질 50%, 콜롬비아 30%, 에티오피아 20%. 미디엄 로스팅으로 고소합니다.\n"
           "- 달맞이 블렌드: 에티오피아 60%, 케냐 40%. 라이트 로스팅으로 산미가 밝습니다.")
PROFILE = "2017년: 기장군에 기장 로스팅 공장을 세웠습니다. 이때부터 모든 원두를 이 공장에서 볶습니다."
CORPUS = unspaced(CATALOG + PROFILE)


def test_a_compound_the_corpus_never_names_is_flagged():
    found = unattested_name("콜롬비아 블렌드는 어디에서 만들어졌나요?", [CATALOG], CORPUS, "ko")
    assert found == "콜롬비아 블렌드 (the contexts name 달맞이 블렌드, 해운대 블렌드)"
    assert unattested_name("케냐 블렌드는 어떤 맛인가요?", [CATALOG], CORPUS, "ko") is not None


def test_names_the_corpus_uses_are_not_flagged():
    assert unattested_name("달맞이 블렌드는 어떤 맛인가요?", [CATALOG], CORPUS, "ko") is None
    assert unattested_name("해운대블렌드의 가격은?", [CATALOG], CORPUS, "ko") is None  # written without the space
    # the head is never qualified otherwise in the contexts: nothing says the name is wrong
    assert unattested_name("부산 공장은 언제 세워졌나요?", [PROFILE], CORPUS, "ko") is None
    # the modifier is nowhere in the contexts: a question about something else, not a misnamed thing
    assert unattested_name("과테말라 블렌드는 있나요?", [CATALOG], CORPUS, "ko") is None
    # languages without MeCab's nouns are left alone
    assert unattested_name("What is the Colombia blend made of?", [CATALOG], CORPUS, "en") is None


async def test_the_critic_drops_an_answerable_question_on_an_unattested_name(embeddings):
    kg = build_graph({"catalog.md": [(CATALOG, [("해운대 블렌드", "product"), ("달맞이 블렌드", "product")])],
                      "profile.md": [(PROFILE, [("기장군", "place")])]}, embeddings, language="ko")
    chunk = next(c for c in kg.chunks() if "블렌드" in c.text)

    def sample(question: str, **meta: object) -> TestSample:
        return TestSample(id="k", question=question, reference_answer="브라질 50%, 콜롬비아 30%, 에티오피아 20%입니다.",
                          language="ko", metadata=dict(meta),
                          reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])

    critic = Critic(kg, None, embeddings, llm_check=False)
    verdict = critic.cheap_checks(sample("콜롬비아 블렌드는 무엇으로 만드나요?"))
    assert verdict.reason == "unattested_name" and "해운대 블렌드" in verdict.detail
    assert critic.cheap_checks(sample("해운대 블렌드는 무엇으로 만드나요?")).ok
    # an unanswerable question may name what the corpus lacks: that is its point
    assert critic.cheap_checks(sample("콜롬비아 블렌드는 무엇으로 만드나요?", answerable=False)).reason != \
        "unattested_name"


NOTICE = ("LS-230412批次退款通知：购买该批次岚山冷泡茶的顾客，可凭包装在任一渠道退款。"
          "质量负责人陈思远表示，问题由干燥线故障引起。")
MINUTES = "Present: Priya Raman (CTO), Daniel Reyes. Priya reported on the firmware rollout."


def test_a_person_the_corpus_never_names_is_flagged_in_any_language():
    zh, en = unspaced(NOTICE).lower(), unspaced(MINUTES).lower()
    assert unattested_person("李四在什么情况下可以退款？", zh, "zh") == "李四"  # a placeholder the writer put in
    assert unattested_person("What did John Smith's team report?", en, "en") == "John Smith"
    # people the corpus names: by their whole name, a part of it, with a possessive, in other case
    assert unattested_person("陈思远负责什么？", zh, "zh") is None
    assert unattested_person("What did Priya's team report?", en, "en") is None
    assert unattested_person("What does daniel reyes do?", en, "en") is None
    # no person at all
    assert unattested_person("LS-230412批次的顾客可以退款吗？", zh, "zh") is None


async def test_the_critic_drops_a_question_about_an_invented_person_unless_a_typo_made_it(embeddings):
    kg = build_graph({"minutes.md": [(MINUTES, [])]}, embeddings)
    chunk = kg.chunks()[0]

    def sample(question: str, **meta: object) -> TestSample:
        return TestSample(id="p", question=question, reference_answer="The firmware rollout.", language="en",
                          metadata=dict(meta),
                          reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text, source=chunk.source)])

    critic = Critic(kg, None, embeddings, llm_check=False)
    verdict = critic.cheap_checks(sample("What did John Smith report on at the meeting?"))
    assert verdict.reason == "unattested_name" and "John Smith" in verdict.detail
    assert critic.cheap_checks(sample("What did Priya Raman report on at the meeting?")).ok
    # the typos style wrote "Reeys"; the writer's own question names Daniel Reyes
    typed = "What did Daniel Reeys report on at the meeting?"
    assert critic.cheap_checks(sample(typed)).reason == "unattested_name"
    written = "What did Daniel Reyes report on at the meeting?"
    assert critic.cheap_checks(sample(typed, question_before_typos=written)).ok
