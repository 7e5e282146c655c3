"""A fact of one thing said of its sibling (``said_of_sibling``), in the four languages, without a call."""

from __future__ import annotations

import pytest

from ragkit.evaluation._siblings import said_of_sibling, siblings

FERRIES = ("The Marlin ferry serves Kelby Island and leaves from Pier 4 at dawn. The Osprey ferry serves Tarn Island "
           "and carries bicycles free of charge. Kelby has no car deck; Tarn's pier takes cars up to two tonnes.")
WAREHOUSES = "城东仓库由李建国管理，主要存放冷链食品。城西仓库由王芳管理，主要存放日用百货。"
LABS = ("대전 연구소는 배터리 소재를 개발하며, 정민호 소장이 이끈다. "
        "광주 연구소는 태양광 패널을 개발하며, 한지은 소장이 이끈다.")
BRANCHES = ("札幌支店は山本大輔が支店長を務め、農業機械を扱っている。"
            "福岡支店は中村恵が支店長を務め、建設機械を扱っている。")


@pytest.mark.parametrize(("passage", "claim", "sibling"), [
    (FERRIES, "Kelby Island is served by the Osprey ferry.", True),
    (FERRIES, "Kelby Island's ferry carries bicycles free of charge.", True),
    (FERRIES, "Kelby Island is served by the Marlin ferry.", False),
    (FERRIES, "Kelby Island has no car deck.", False),  # "Kelby" alone names it
    (FERRIES, "The Osprey ferry carries bicycles, unlike the Marlin ferry.", False),  # both named
    (WAREHOUSES, "城东仓库由王芳管理。", True),
    (WAREHOUSES, "李建国负责管理城东仓库。", False),
    (LABS, "대전 연구소는 태양광 패널을 개발한다.", True),
    (LABS, "대전 연구소에서는 배터리 소재를 개발합니다.", False),
    (BRANCHES, "札幌支店は建設機械を扱っている。", True),
    (BRANCHES, "山本大輔が札幌支店の支店長です。", False),
])
def test_said_of_sibling(passage, claim, sibling):
    assert (said_of_sibling(passage, claim) is not None) is sibling


def test_a_sentence_that_names_neither_may_speak_of_either():
    # "It" may be the Osprey or the Marlin: its words do not count against a claim about the Marlin
    passage = "The Marlin ferry serves Kelby Island. The Osprey ferry serves Tarn Island. It leaves from Pier 4."
    assert said_of_sibling(passage, "The Marlin ferry leaves from Pier 4.") is None


def test_siblings_share_a_head_and_need_a_proper_name_before_it():
    assert siblings(WAREHOUSES) == {"仓库": {"城东", "城西"}}
    assert siblings("部分岚山冷泡茶出现结块，同时为岚山冷泡茶提供白茶原料。") == {}  # "部分", "提供" are no names


def test_a_claim_may_name_the_sibling_beside_its_own_thing():
    assert said_of_sibling(FERRIES, "Kelby Island lies west of Tarn.") is None


CONTROLLERS = ("The CB-3 controller supports Modbus TCP and PROFINET. The older CB-2 also supported EtherNet/IP.")


def test_model_codes_of_one_series_are_siblings() -> None:
    assert siblings(CONTROLLERS) == {"cb": {"cb-3", "cb-2"}}
    assert said_of_sibling(CONTROLLERS, "The CB-3 supports EtherNet/IP.") is not None  # the CB-2's protocol
    assert said_of_sibling(CONTROLLERS, "The CB-3 supports PROFINET.") is None
    passage = "旧款CB-2还支持EtherNet/IP。CB-3于2021年推出。"  # a code between CJK characters
    assert said_of_sibling(passage, "CB-3支持EtherNet/IP。") is not None


def test_a_japanese_ending_is_no_word_of_a_sibling() -> None:
    # "発売しました" shares "売し" only with the HS-5's sentence, which says "発売し、"
    passage = ("1996年に外装変速機「HS-5」を発売し、完成部品メーカーになりました。\n"
               "- 2023年：8段変速機「HS-8」を発売。")
    assert said_of_sibling(passage, "2023年、8段変速機「HS-8」を発売しました。") is None


SCANNERS = ("Release history: the Kestrel K1 scanner shipped on 2021-06-14. "
            "The Kestrel K2 followed on 2023-02-09 with a faster sensor.")


def test_the_kind_both_siblings_are_is_no_fact_of_one() -> None:
    # "scanner" follows the K2 in the claim and the K1 in the passage: what both are, not what the K1 did
    assert said_of_sibling(SCANNERS, "The Kestrel K2 scanner was released on 2023-02-09.") is None
    assert said_of_sibling(SCANNERS, "The Kestrel K2 shipped with a faster sensor.") is not None  # the K1's verb
    # a word after a sibling's code that the claim writes elsewhere is still the sibling's
    assert said_of_sibling(CONTROLLERS, "The CB-3 supports EtherNet/IP.") is not None
