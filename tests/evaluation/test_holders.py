"""Who holds which title, in Chinese, Japanese and Korean lists of titles (``_holders``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._holders import former_title, holds_title, title_of_another, title_pairs
from ragkit.evaluation._settled import settled

ZH = "澄江纺织的董事长是吴国平，总经理是许文静，技术总监是韩磊。"
ZH_APART = "明川物流由唐志远于2005年创办。现任总裁为唐志远，首席财务官为罗佳慧。"
ZH_TWO_FIRMS = "甲方公司的总经理是王立。乙方公司的总经理是赵敏。"
ZH_FORMER = "前总经理是许文静，现任总经理是吴国平。"
ZH_BOTH = "董事长是吴国平，总经理是许文静。2020年起吴国平兼任总经理。"
JA = "北斗電機の代表取締役社長は村上隆、技術部長は石井真一、営業部長は大塚恵である。"
JA_COLON = "工場長：西田和也、品質管理課長：堀江美紀、製造課長：佐々木大輔。"
KO = "바다제약의 대표는 정우진이고, 연구소장은 한지민이며, 생산팀장은 오세훈이다."
KO_COLON = "푸른도서관 관장: 이수빈, 사서팀장: 김태오."


def test_title_pairs_read_the_holder_after_the_title() -> None:
    assert [(t, w) for t, w, *_ in title_pairs(ZH, "zh")] == [
        ("董事长", "吴国平"), ("总经理", "许文静"), ("技术总监", "韩磊")]
    assert [(t, w) for t, w, *_ in title_pairs(KO_COLON, "ko")] == [("관장", "이수빈"), ("사서팀장", "김태오")]
    # not the former holder; 现任 says "now"
    assert [(t, w) for t, w, *_ in title_pairs(ZH_FORMER, "zh")] == [("总经理", "吴国平")]


@pytest.mark.parametrize(("passage", "claim", "held", "another"), [
    (ZH, "许文静担任澄江纺织的总经理。", True, False),
    (ZH, "澄江纺织的总经理是许文静。", True, False),
    (ZH, "吴国平担任澄江纺织的总经理。", False, True),
    (ZH_APART, "罗佳慧是明川物流的首席财务官。", True, False),  # the firm in another sentence that gives no title
    (ZH_APART, "唐志远是明川物流的首席财务官。", False, True),
    (ZH_TWO_FIRMS, "王立是乙方公司的总经理。", False, False),  # the firm of another holder's sentence
    (ZH_BOTH, "吴国平是总经理。", False, False),  # a clause of the passage gives it to him in its own words
    (ZH, "许文静担任澄江纺织的总经理，负责日常经营。", False, False),  # says more than the title
    (ZH, "澄江纺织的总经理是许文静，负责日常经营。", False, False),
    (JA, "石井真一が北斗電機の技術部長を務めている。", True, False),
    (JA, "大塚恵が北斗電機の技術部長を務めている。", False, True),
    (JA_COLON, "堀江美紀が品質管理課長です。", True, False),  # kanji and colons only, read as Japanese too
    (JA_COLON, "佐々木大輔が品質管理課長です。", False, True),
    (KO, "한지민이 바다제약의 연구소장을 맡고 있습니다.", True, False),
    (KO, "오세훈이 바다제약의 연구소장을 맡고 있습니다.", False, True),
    (KO_COLON, "이수빈은 푸른도서관 관장입니다.", True, False),
    (KO_COLON, "김태오는 푸른도서관 관장입니다.", False, True),
    (KO_COLON, "박민수는 푸른도서관 관장입니다.", False, False),  # a person the passage gives no title
])
def test_a_title_and_its_holder(passage: str, claim: str, held: bool, another: bool) -> None:
    assert holds_title(passage, claim) is held
    assert title_of_another(passage, claim) is another


def test_settled_reads_both_ways() -> None:
    assert settled(ZH, "许文静担任澄江纺织的总经理。", set(), None).label == "entailed"
    assert settled(ZH, "吴国平担任澄江纺织的总经理。", set(), None).label == "neutral"


JA_HELD = ("支店のご案内\n\n仙台支店は村上亮が支店長を務め、農業機械を扱っている。"
           "広島支店は大西香が支店長を務め、建設機械を扱っている。")
KO_HELD = "조직 안내\n\n영업팀은 정우진이 팀장을 맡고 있고, 기획팀은 한소희가 팀장을 맡고 있다."
ZH_TWO_DEPARTMENTS = "组织\n\n开发部的经理是王海，设计部的经理是李娜。"


@pytest.mark.parametrize(("passage", "claim", "held"), [
    # the holder before the title, in Japanese and Korean: "…は村上亮が支店長を務め", "정우진이 팀장을 맡고"
    (JA_HELD, "村上亮が仙台支店の支店長です。", True),
    (JA_HELD, "仙台支店の支店長は村上亮である。", True),
    (JA_HELD, "大西香が仙台支店の支店長です。", False),  # the other branch's, in its own sentence
    (KO_HELD, "정우진이 영업팀의 팀장입니다.", True),
    (KO_HELD, "한소희가 영업팀의 팀장입니다.", False),  # one sentence, but the clause of another holder
    # a firm that stands in a clause giving the same title to another is not the claim's
    (ZH_TWO_DEPARTMENTS, "王海是开发部的经理。", True),
    (ZH_TWO_DEPARTMENTS, "李娜是开发部的经理。", False),
    # a claim told holder first, against a passage that gives the title first, is read as before
    ("役員\n\n北斗電機の社長は大塚恵、技術部長は石井真一である。", "石井真一が技術部長を務めている。", True),
    ("임원\n\n바다제약의 대표는 문재형, 연구소장은 한지민이다.", "한지민이 연구소장을 맡고 있습니다.", True),
])
def test_the_holder_may_come_first_and_a_firm_goes_with_its_own_clause(passage: str, claim: str, held: bool) -> None:
    assert holds_title(passage, claim) is held
    assert [(t, w) for t, w, *_ in title_pairs(JA_HELD, "ja")] == [("支店長", "村上亮"), ("支店長", "大西香")]


@pytest.mark.parametrize(("passage", "claim", "former"), [
    ("前董事长陈国平出席了新总部的开业仪式。", "陈国平是董事长。", True),
    ("会议由前任总经理许文静主持。", "许文静是总经理。", True),
    ("原厂长周立平已于去年退休。", "周立平是青岚茶业的厂长。", True),
    # 目前 (now) ends in 前 but is a word of its own: the chairman now
    ("目前董事长陈国平表示，今年销量增长。", "陈国平是董事长。", False),
    # another title, another person, or the title given now in another clause
    ("前董事长陈国平出席了仪式。", "陈国平是总经理。", False),
    ("前董事长陈国平出席了仪式，现任董事长是吴国平。", "吴国平是董事长。", False),
    ("前董事长陈国平退休后，董事长是陈国平的儿子陈立。", "陈立是董事长。", False),
])
def test_a_title_held_before_is_not_held_now(passage: str, claim: str, former: bool) -> None:
    assert former_title(passage, claim) is former
    verdict = settled(passage, claim, set(), None)
    assert (verdict is not None and verdict.label == "neutral") is former
