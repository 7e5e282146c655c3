#!/usr/bin/env python3
"""An amount put in another year (session 63): is "2005年禾丰食品的销售额约3.6亿元" entailed by a passage that gives
3.6亿元 as the sales of 2023, and 2005 as the year of the company's founding?

On the native llama.cpp build the value cloze filled the year's blank of zh-sales' wrong answer with the founding
year (p = 0.90) and so entailed it (bench/README.md, "Validity on the native build"). Which year the small judge puts
beside an amount depends on the build. Each case is a passage, its question, and claims labelled right (True) or
wrong (False), in English, Chinese, Japanese and Korean; each claim is checked alone, as the claim engine checks it.
Some right claims join two facts of the passage with their years ("founded in 1987, … revenue of 41.5 million"), and
some wrong ones put the amount in a year the passage never writes. The set was written before the rule.
``--rule-off`` runs it without the rule.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/year_amount_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("青山茶业于2011年在杭州成立。2022年，公司营业收入约2.4亿元，较2021年的1.9亿元增长约26%，员工约260人。",
     "青山茶业的营业收入是多少？",
     [("2022年青山茶业的营业收入约2.4亿元。", True),
      ("2021年青山茶业的营业收入约1.9亿元。", True),
      ("青山茶业2022年营业收入约24000万元。", True),
      ("青山茶业成立于2011年，营业收入约2.4亿元。", True),
      ("2011年青山茶业的营业收入约2.4亿元。", False),
      ("2021年青山茶业的营业收入约2.4亿元。", False),
      ("2022年青山茶业的营业收入约1.9亿元。", False),
      ("2020年青山茶业的营业收入约2.4亿元。", False)]),
    ("한빛제과는 1998년 부산에서 설립되었다. 2022년 매출은 약 530억 원으로 2021년의 480억 원보다 증가했으며, 직원은 "
     "310명이다.", "한빛제과의 매출은 얼마인가요?",
     [("한빛제과의 2022년 매출은 약 530억 원이다.", True),
      ("한빛제과의 2021년 매출은 480억 원이었다.", True),
      ("한빛제과의 1998년 매출은 약 530억 원이다.", False),
      ("한빛제과의 2021년 매출은 약 530억 원이다.", False),
      ("한빛제과의 2022년 매출은 480억 원이었다.", False)]),
    ("さくら電機は1985年に名古屋で設立されました。2022年度の売上高は約120億円で、前年度の108億円から増加しました。",
     "さくら電機の売上高はいくらですか？",
     [("さくら電機の2022年度の売上高は約120億円です。", True),
      ("さくら電機の売上高は2022年度に約120億円でした。", True),
      ("さくら電機の1985年度の売上高は約120億円です。", False),
      ("さくら電機の2019年度の売上高は約120億円です。", False)]),
    ("Northgate Tools was founded in 1987 in Sheffield. In 2022 its revenue reached 41.5 million pounds, up from "
     "37.2 million pounds in 2021, and it employed 230 people.", "What was Northgate Tools' revenue?",
     [("In 2022, Northgate Tools' revenue reached 41.5 million pounds.", True),
      ("Northgate Tools' revenue was 37.2 million pounds in 2021.", True),
      ("Northgate Tools, founded in 1987, had revenue of 41.5 million pounds.", True),
      ("In 1987, Northgate Tools' revenue reached 41.5 million pounds.", False),
      ("In 2021, Northgate Tools' revenue reached 41.5 million pounds.", False),
      ("In 2022, Northgate Tools' revenue reached 37.2 million pounds.", False)]),
    ("Between 2018 and 2022 the Lindale Trust raised 12 million dollars in total. In 2023 it raised 3.1 million "
     "dollars.", "How much money did the Lindale Trust raise?",
     [("The Lindale Trust raised 3.1 million dollars in 2023.", True),
      ("The Lindale Trust raised 3.1 million dollars in 2018.", False),
      ("The Lindale Trust raised 12 million dollars in 2023.", False)]),
    ("2023年3月，工厂新增两条生产线，年产能提高到8000吨。2021年的年产能为5000吨。", "工厂的年产能是多少？",
     [("2021年工厂的年产能为5000吨。", True),
      ("2021年工厂的年产能为8000吨。", False),
      ("2023年工厂的年产能为5000吨。", False)]),
    ("2020년에 문을 연 이 도서관은 2023년 방문객이 약 12만 명이었다.", "도서관 방문객은 몇 명인가요?",
     [("2023년 도서관 방문객은 약 12만 명이었다.", True),
      ("2020년 도서관 방문객은 약 12만 명이었다.", False)]),
]


def without_rule() -> None:
    """``settled`` without the rule: an amount the passage binds to another year is left to the judge."""
    import ragkit.evaluation._settled as settled_module

    setattr(settled_module, "bound_to_another_year", lambda passage, claim, asked="": False)  # noqa: B010


if __name__ == "__main__":
    rule_off(__doc__.splitlines()[0], "without the rule", without_rule)
    print(asyncio.run(probe(CASES)))
