"""Asides about the sources and courtesies to the reader are no claims; facts about documents are."""

from __future__ import annotations

import pytest

from ragkit.evaluation._asides import is_aside, without_asides


@pytest.mark.parametrize("text", [
    "The documents do not say what the bridge cost.",
    "However, the provided context doesn't mention its opening hours.",
    "There is no information about the fee in the documents.",
    "I hope this helps!",
    "资料中没有提到相关费用。",
    "不过，上述资料并未说明建造时间。",
    "希望以上信息对你有所帮助。",
    "費用については資料に記載がありません。",
    "お役に立てれば幸いです。",
    "비용에 대해서는 자료에 나와 있지 않습니다.",
    "제공된 문서에서 해당 정보를 찾을 수 없습니다.",
    "도움이 되었으면 합니다.",
    "No details are given about the warranty.",
    "文档里没有关于保修期的说明。",
    "保証期間は資料に書かれていません。",
    "資料に含まれていません。ご参考になれば幸いです。",  # two asides in one claim
    "보증 기간은 자료에 없습니다.",
    "보증 기간은 문서에 적혀 있지 않습니다.",
])
def test_an_aside_is_no_claim(text: str) -> None:
    assert is_aside(text)


@pytest.mark.parametrize("text", [
    "The contract documents include the annex on liability.",  # a fact about a document of the corpus
    "The Harlow Footbridge was designed by Mara Quill.",
    "Passengers must show their documents at the gate.",
    "The policy does not cover flights booked by staff.",
    "该合同规定了付款期限。",
    "我们希望扩大在华南的业务。",  # hoping, but not a courtesy
    "申請書類は窓口に提出します。",
    "이 문서는 2020년에 작성되었습니다.",
    "문서에 서명이 없으면 계약은 무효입니다.",  # what a missing signature means: a fact
    "이 제품은 문서 작업에 필요한 기능이 없습니다.",
    "書類に不備がない場合は三日で発行されます。",
    "资料费不包含在学费中。",
    "I hope this helps. The fee is 10 euros.",  # a courtesy beside a fact: the claim states the fact
    "Feel free to call the helpline on 0800 123 456.",  # a courtesy that tells where to go
    "資料に記載がない場合は窓口に問い合わせてください。",  # what to do: an instruction of the documents
])
def test_a_fact_is_no_aside(text: str) -> None:
    assert not is_aside(text)


def test_without_asides_keeps_the_facts_in_order() -> None:
    claims = ["富山工場の主な製品はかまぼこです。", "費用については資料に記載がありません。",
              "富山工場は1960年に開設されました。"]
    assert without_asides(claims) == [claims[0], claims[2]]
    assert without_asides(["I hope this helps."]) == []
