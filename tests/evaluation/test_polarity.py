"""A claim that says what the passage denies, or "all" where it says "most" (``_polarity``), in the four languages;
the claim engine asks the judge nothing about either."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._polarity import denied, read
from ragkit.evaluation._quantifiers import overstated
from ragkit.testing import ScriptedJudge
from ragkit.text import morphemes

EN = ("The Kestrel K10 does not support PROFINET; it supports Modbus TCP. Most orders ship within 48 hours. Every "
      "employee except drivers gets 25 days of leave a year. The Harlow ferry no longer stops at Pier 4. Docuvault "
      "imports Word files. It cannot import PDF files. The library is not only a lending library but also a museum.")
ZH = ("K10机械臂不支持PROFINET，只支持Modbus TCP。大部分订单在48小时内发货。除司机外，所有员工每年有25天年假。"
      "渡轮已不再停靠4号码头。")
KO = ("K10 로봇은 PROFINET을 지원하지 않고 Modbus TCP를 지원한다. "
      "운전기사를 제외한 모든 직원은 연 25일의 휴가를 받는다. 여객선은 더 이상 4번 부두에 서지 않는다. "
      "탈로 노트는 HTML로 내보낸다. PDF로는 내보낼 수 없다.")
JA = ("K10ロボットはPROFINETに対応しておらず、Modbus TCPに対応しています。"
      "運転手を除く全従業員は年25日の休暇を取得します。出発後の乗車券は払い戻しできない。ほとんどの注文は48時間以内に発送されます。")
needs_mecab = pytest.mark.skipif(morphemes("テスト", "ja") is None or morphemes("테스트", "ko") is None,
                                 reason="MeCab is not installed")


def test_a_negation_covers_the_rest_of_its_clause_in_english_and_chinese() -> None:
    reading = read("The K10 does not support PROFINET, but it supports Modbus TCP.", "en")
    assert reading.scopes == [["support", "profinet"]]
    assert read("K10不支持PROFINET，只支持Modbus TCP。", "zh").scopes == [["支", "持", "profinet"]]


@needs_mecab
def test_a_korean_particle_before_the_negation_still_negates() -> None:
    # "모든 직원이 보너스를 받지는 않는다" (not every employee gets a bonus) denies; read as an assertion, it
    # contradicted "직원은 보너스를 받지 않습니다"
    assert read("모든 직원이 보너스를 받지는 않는다.", "ko").scopes == [["직원", "보너스", "받"]]
    assert not denied("모든 직원이 보너스를 받지는 않는다.", "직원은 보너스를 받지 않습니다.")


@needs_mecab
def test_a_negation_covers_its_clause_back_to_the_topic_in_korean_and_japanese() -> None:
    assert read("K10 로봇은 PROFINET을 지원하지 않고 Modbus TCP를 지원한다.", "ko").scopes == [["profinet", "지원"]]
    japanese = read("K10ロボットはPROFINETに対応しておらず、Modbusに対応しています。", "ja")
    assert japanese.scopes == [["profinet", "対応"]]


def test_an_exception_covers_only_the_thing_excepted() -> None:
    assert read("Every employee except drivers gets 25 days.", "en").scopes == [["drivers"]]
    assert read("除司机外，所有员工每年有25天年假。", "zh").scopes == [["司", "机"]]


@pytest.mark.parametrize(("passage", "claim", "against"), [
    (EN, "The Kestrel K10 supports PROFINET.", True),
    (EN, "The Kestrel K10 supports Modbus TCP.", False),
    (EN, "The Kestrel K10 does not support PROFINET.", False),
    (EN, "Drivers get 25 days of leave a year.", True),
    (EN, "Employees other than drivers get 25 days of leave a year.", False),
    (EN, "The Harlow ferry stops at Pier 4.", True),  # "no longer"
    (EN, "Docuvault imports PDF files.", True),  # "It cannot …" goes on about Docuvault
    (EN, "Docuvault imports Word files.", False),
    (EN, "The library is a lending library and a museum.", False),  # "not only … but also"
    (ZH, "K10支持PROFINET。", True),
    (ZH, "K10支持Modbus TCP。", False),
    (ZH, "司机每年有25天年假。", True),
    (ZH, "渡轮停靠4号码头。", True),  # "不再"
    # denied of the thing excepted, it says what the passage says: no opposite (session 63; they were contradicted)
    (EN, "Drivers do not get 25 days of leave a year.", False),
    (ZH, "司机每年没有25天年假。", False),
])
def test_a_claim_that_drops_a_negation_or_an_exception_is_denied(passage: str, claim: str, against: bool) -> None:
    assert denied(passage, claim) is against


@needs_mecab
@pytest.mark.parametrize(("passage", "claim", "against"), [
    (KO, "K10 로봇은 PROFINET을 지원한다.", True),
    (KO, "K10 로봇은 Modbus TCP를 지원한다.", False),
    (KO, "운전기사는 연 25일의 휴가를 받는다.", True),
    (KO, "여객선은 4번 부두에 선다.", True),  # "더 이상 … 않는다"
    (KO, "탈로 노트는 PDF로 내보낸다.", True),  # a contrast ("PDF로는"), not a topic
    (KO, "탈로 노트는 HTML로 내보낸다.", False),
    (JA, "K10ロボットはPROFINETに対応しています。", True),
    (JA, "K10ロボットはModbus TCPに対応しています。", False),
    (JA, "運転手は年25日の休暇を取得します。", True),
    (JA, "出発後の乗車券は払い戻しできる。", True),  # "払い戻し" a noun here, a verb there
    (KO, "운전기사는 연 25일의 휴가를 받지 않는다.", False),  # the thing excepted, denied: what the passage says
    (JA, "運転手は年25日の休暇を取得しません。", False),
])
def test_a_korean_or_japanese_claim_that_drops_a_negation_is_denied(passage: str, claim: str, against: bool) -> None:
    assert denied(passage, claim) is against


def test_a_negation_the_claim_adds_is_denied_where_the_passage_says_it_plainly() -> None:
    assert denied("The Leeds bakery opens on Sundays.", "The Leeds bakery does not open on Sundays.")
    assert not denied("The Leeds bakery opens daily except on Sundays.", "The Leeds bakery does not open on Sundays.")


@pytest.mark.parametrize(("passage", "claim", "against"), [
    ("The pool does not open if it rains.", "The pool opens.", False),
    ("The shop does not open unless the owner is in.", "The shop opens.", False),
    ("The pool does not open until 9 am.", "The pool opens at 9 am.", False),
    ("The app cannot sync when offline.", "The app can sync.", False),
    ("The pool does not open if it rains.", "The pool opens if it rains.", True),  # the same condition
    ("The app does not work unless a key is entered.", "The app works if a key is entered.", False),
    ("如果下雨，游泳池不开放。", "游泳池开放。", False),
    ("Members don't have to pay for parking.", "Members pay for parking.", False),
    ("Members don't have to pay for parking.", "Members have to pay for parking.", True),  # the need itself
    ("Backups are not required for test servers.", "Backups are required for test servers.", True),
    ("会员不用支付停车费。", "会员支付停车费。", False),
    ("The pool does not open on Sundays.", "The pool opens on Sundays if it rains.", False),
])
def test_a_denial_under_a_condition_or_of_a_need_opposes_only_its_like(passage: str, claim: str,
                                                                         against: bool) -> None:
    assert denied(passage, claim) is against


@needs_mecab
def test_a_korean_or_japanese_condition_or_need_opposes_nothing() -> None:
    assert not denied("비가 오면 수영장은 문을 열지 않는다.", "수영장은 문을 연다.")
    assert not denied("회원은 주차비를 내지 않아도 된다.", "회원은 주차비를 낸다.")
    assert not denied("雨の場合、プールは開きません。", "プールは開きます。")
    assert not denied("会員は駐車料金を払わなくてもよい。", "会員は駐車料金を払う。")
    assert denied("회원은 수건 값을 내지 않아도 된다.", "회원은 수건 값을 내야 한다.")


def test_a_sentence_that_says_it_plainly_stands_against_one_that_denies_it() -> None:
    passage = "Docuvault does not import PDF files in the free plan. It imports PDF files in the paid plan."
    assert not denied(passage, "Docuvault imports PDF files.")
    assert not denied("The K10 supports PROFINET but not EtherNet/IP.", "The K10 supports PROFINET.")
    assert denied("The K10 supports PROFINET but not EtherNet/IP.", "The K10 supports EtherNet/IP.")


@pytest.mark.parametrize(("passage", "claim", "over"), [
    (EN, "All orders ship within 48 hours.", True),
    (EN, "Most orders ship within 48 hours.", False),
    ("The museum is sometimes open late on Fridays.", "The museum is open late every Friday.", True),
    ("All orders ship within 48 hours.", "All orders ship within 48 hours.", False),
    (ZH, "所有订单都在48小时内发货。", True),
    ("大部分订单在48小时内发货。", "大多数订单在48小时内发货。", False),
])
def test_all_where_the_passage_says_most_is_overstated(passage: str, claim: str, over: bool) -> None:
    assert overstated(passage, claim) is over


@needs_mecab
def test_all_where_the_passage_says_most_is_overstated_in_korean_and_japanese() -> None:
    assert overstated("대부분의 주문은 48시간 안에 발송된다.", "모든 주문은 48시간 안에 발송된다.")
    assert overstated(JA, "すべての注文は48時間以内に発送されます。")


async def test_the_engine_settles_both_without_a_call() -> None:
    judge = ScriptedJudge([])
    claims = ["The Kestrel K10 supports PROFINET.", "All orders ship within 48 hours."]
    verdicts = await ClaimStore(judge).check(EN, claims)
    assert [v.label for v in verdicts] == ["contradicted", "neutral"] and judge.calls == []
