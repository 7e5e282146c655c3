"""A claim that denies what the passage denies, of the same thing, is entailed without a call (``_denials``); one
that drops the denial's qualifier, speaks of another thing, turns two names round or joins two things is not; and one
that drops the time or amount a denial holds only at is neutral without a call."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._denials import denied_again
from ragkit.evaluation._polarity import read
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

EN = ("Harbor Line ferries\n\nThe Osprey ferry sails from Kirkwall every morning. It does not carry cars, but it takes "
      "bicycles free of charge. The Petrel ferry carries cars and does not sail on Sundays. In the free plan, the Mira "
      "app does not sync notes over mobile data. Alice does not pay Bob for the hosting.")
ZH = "服务说明\n\n青禾书店周一不营业。书店不提供送货服务，但可以免费包装礼品。"
KO = ("이용 안내\n\n한빛 도서관은 월요일에 문을 열지 않는다. "
      "도서관은 외부 음식 반입을 허용하지 않지만, 생수는 가지고 들어올 수 있다.")
JA = "ご利用案内\n\nさくら美術館では、館内での写真撮影を許可していません。ロッカーは無料で利用できます。"
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


def test_a_negation_knows_its_head() -> None:
    (negation,) = read("In the free plan, the Mira app does not sync notes.", "en").negations
    assert negation.head == ["free", "plan", "mira", "app"] and negation.scope == ["sync", "notes"]
    (negation,) = read("The Petrel ferry carries cars and does not sail on Sundays.", "en").negations
    assert negation.head == [] and negation.before == ["petrel", "ferry", "carries", "cars"]
    (negation,) = read("周一，书店不营业。", "zh").negations
    assert negation.head == ["周", "一", "书", "店"] and negation.scope == ["营", "业"]


@pytest.mark.parametrize("claim", [
    "The Osprey ferry cannot carry cars.",  # "cannot" for "does not", the subject from the sentence before
    "The Osprey ferry does not carry cars from Kirkwall.",  # denies less than the passage
    "The Petrel ferry doesn't sail on Sundays.",
    "The Mira app cannot sync notes over mobile data in the free plan.",
    "Alice doesn't pay Bob for the hosting.",
])
def test_a_denial_said_again_is_entailed(claim: str) -> None:
    assert denied_again(EN, claim) == "entailed"


@pytest.mark.parametrize("claim", [
    "The Mira app does not sync notes over mobile data.",  # the free plan dropped
    "The Mira app does not sync notes.",
    "The Petrel ferry does not carry cars.",  # what the passage says it does
    "The Osprey ferry does not sail on Sundays.",  # the other ferry's
    "Bob does not pay Alice for the hosting.",  # turned round
    "The Osprey ferry does not carry cars or bicycles.",  # joins two things
    "The Osprey ferry sails from Kirkwall but does not carry cars.",  # a clause of its own beside the denial
])
def test_a_denial_changed_is_not_entailed(claim: str) -> None:
    assert denied_again(EN, claim) != "entailed"


@pytest.mark.parametrize(("passage", "claim"), [
    ("Members don't have to pay for parking.", "Members do not pay for parking."),
    ("会员不用支付停车费。", "会员不支付停车费。"),
    ("会员无需预约。", "会员不预约。"),
])
def test_no_need_is_no_denial(passage: str, claim: str) -> None:
    assert denied_again(passage, claim) != "entailed"


@pytest.mark.parametrize(("passage", "claim"), [
    ("Tickets are not refundable unless the event is cancelled.", "Tickets are not refundable."),
    ("The pool does not open if it rains.", "The pool does not open."),
    ("泳池不开放，如果下雨的话。", "泳池不开放。"),
])
def test_a_denial_under_a_condition_is_left_alone(passage: str, claim: str) -> None:
    assert denied_again(passage, claim) is None


@needs_mecab
def test_a_korean_condition_is_left_alone() -> None:
    assert denied_again("비가 오면 수영장은 문을 열지 않는다.", "수영장은 문을 열지 않습니다.") != "entailed"


@needs_mecab
def test_a_korean_or_japanese_claim_may_speak_of_the_place_the_passage_opens_with() -> None:
    korean = "이용 안내\n\n은하 미술관은 연중무휴로 운영한다. 별빛 미술관은 월요일에 쉰다. 반려동물은 입장할 수 없다."
    assert denied_again(korean, "은하 미술관에서는 반려동물이 입장할 수 없습니다.") == "entailed"
    # not the place the passage opens with
    assert denied_again(korean, "별빛 미술관에서는 반려동물이 입장할 수 없습니다.") != "entailed"
    japanese = ("ご利用案内\n\nさくら美術館では、館内での写真撮影を許可していません。"
                "団体予約は電話では受け付けていません。")
    assert denied_again(japanese, "さくら美術館では団体予約を電話で受け付けていません。") == "entailed"
    assert denied_again(japanese, "さくら美術館では団体予約を受け付けていません。") != "entailed"  # 電話 dropped
    onsen = "ご利用案内\n\nこもれび温泉は年中無休です。露天風呂は冬季は利用できません。館内では喫煙できません。"
    # a clause with no subject of its own
    assert denied_again(onsen, "こもれび温泉では館内で喫煙できません。") == "entailed"
    assert denied_again(onsen, "こもれび温泉では喫煙できません。") != "entailed"  # 館内 dropped


@needs_mecab
def test_no_need_is_no_denial_in_korean_and_japanese() -> None:
    assert denied_again("회원은 주차비를 내지 않아도 된다.", "회원은 주차비를 내지 않습니다.") != "entailed"
    assert denied_again("会員は駐車料金を払わなくてもよい。", "会員は駐車料金を払いません。") != "entailed"


def test_chinese_names_in_full_what_the_sentence_names_short() -> None:
    assert denied_again(ZH, "青禾书店不提供送货服务。") == "entailed"
    assert denied_again(ZH, "青禾说明书店不提供送货服务。") != "entailed"  # "青禾说明" is written nowhere before
    assert denied_again(ZH, "青禾书店不提供服务。") != "entailed"  # 送货 dropped
    assert denied_again(ZH, "青禾书店不提供送货服务或礼品包装。") != "entailed"
    assert denied_again(ZH, "青禾书店周二不营业。") != "entailed"


@needs_mecab
def test_korean_and_japanese_in_another_register() -> None:
    assert denied_again(KO, "한빛 도서관은 월요일에 문을 열지 않습니다.") == "entailed"
    assert denied_again(KO, "한빛 도서관은 외부 음식 반입을 허용하지 않습니다.") == "entailed"
    assert denied_again(KO, "한빛 도서관은 문을 열지 않습니다.") != "entailed"  # Monday dropped
    assert denied_again(KO, "한빛 도서관은 생수 반입을 허용하지 않습니다.") != "entailed"
    assert denied_again(JA, "さくら美術館は館内での写真撮影を許可していません。") == "entailed"
    assert denied_again(JA, "さくら美術館では館内での撮影を許可していません。") != "entailed"  # 写真 dropped
    assert denied_again(JA, "さくら美術館では写真撮影やロッカーの利用を許可していません。") != "entailed"


async def test_the_engine_entails_a_denial_said_again_without_a_call() -> None:
    judge = ScriptedJudge([])
    verdicts = await ClaimStore(judge).check(EN, ["The Osprey ferry cannot carry cars."])
    assert [v.label for v in verdicts] == ["entailed"] and judge.calls == []


LIMITED = ("Riverside Pool\n\nThe pool does not open before 7 am on weekdays. Since 2021, the pool has not sold day "
           "passes. Lifeguards are not on duty in the diving area after 8 pm. Refunds are never issued after 30 days.")


@pytest.mark.parametrize(("claim", "limited"), [
    ("Riverside Pool does not open on weekdays.", True),  # before 7 am dropped
    ("Lifeguards at Riverside Pool are not on duty in the diving area.", True),
    ("Refunds are not issued.", True),  # after 30 days dropped
    ("Riverside Pool does not open before 7 am on weekdays.", False),  # said again whole
    ("Riverside Pool does not sell day passes.", False),  # a year is a start, read by the status rules
    ("Lifeguards are not on duty in the diving area after 9 pm.", False),  # another time: not a dropped one
])
def test_a_denial_without_its_time_or_amount_is_limited(claim: str, limited: bool) -> None:
    assert (denied_again(LIMITED, claim) == "neutral") is limited


@pytest.mark.parametrize(("passage", "claim"), [
    ("The museum has not charged admission for 20 years.", "The museum does not charge admission."),  # up to now
    ("博物馆20年来不收门票。", "博物馆不收门票。"),
    ("Flight 370 does not stop in Dubai.", "The flight does not stop in Dubai."),  # a number that names a thing
])
def test_a_span_up_to_now_or_a_name_is_no_limit(passage: str, claim: str) -> None:
    assert denied_again(passage, claim) != "neutral"


def test_a_time_span_or_a_time_without_a_subject_in_chinese() -> None:
    passage = "营业说明\n\n春风面馆每周三不营业。面馆下午两点到五点不提供堂食。晚上八点以后不接受电话预约。"
    assert denied_again(passage, "春风面馆不提供堂食。") == "neutral"
    assert denied_again(passage, "春风面馆不接受电话预约。") == "neutral"
    assert denied_again(passage, "春风面馆下午两点到五点不提供堂食。") != "neutral"


@needs_mecab
def test_a_dropped_time_in_korean_and_japanese_but_not_a_start() -> None:
    korean = ("매장 안내\n\n초록 마트는 오후 9시 이후 주류를 판매하지 않는다. "
              "월요일부터 마트는 비닐봉투를 제공하지 않는다.")
    assert denied_again(korean, "초록 마트는 주류를 판매하지 않습니다.") == "neutral"
    assert denied_again(korean, "초록 마트는 비닐봉투를 제공하지 않습니다.") != "neutral"
    japanese = "ご案内\n\nみどり歯科は土曜日の午後は診療していません。"
    assert denied_again(japanese, "みどり歯科は診療していません。") == "neutral"
    assert denied_again(japanese, "みどり歯科は土曜日の午後は診療していません。") != "neutral"


async def test_the_engine_makes_a_dropped_limit_neutral_without_a_call() -> None:
    judge = ScriptedJudge([])
    verdicts = await ClaimStore(judge).check(LIMITED, ["Refunds are not issued."])
    assert [v.label for v in verdicts] == ["neutral"] and judge.calls == []
