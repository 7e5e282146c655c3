#!/usr/bin/env python3
"""The thing an exception names, denied (session 63): is "Drivers do not get 25 days of leave" entailed by "every
employee except drivers gets 25 days of leave"?

Until session 63 the exception rule of ``_polarity`` contradicted such a claim without a call, in all four
languages: it read the claim as ignoring the exception. Each case is a passage, its question, and claims labelled
right (True) or wrong (False), in English, Chinese, Korean and Japanese; each claim is checked alone, as the claim
engine checks it. Right claims deny of the excepted thing what the passage says of the others, or say what it says
of them; wrong ones say it of the excepted thing, or deny it of the others. The set was written before the first
run. ``--rule-off`` runs it with the old reading (the claim contradicted).

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/exception_probe.py [--rule-off]
"""

from __future__ import annotations

import asyncio

from claim_probe import Case, probe, rule_off

CASES: list[Case] = [
    ("Leave\n\nEvery employee except drivers gets 25 days of paid leave a year.", "Do drivers get 25 days of leave?",
     [("Drivers do not get 25 days of paid leave a year.", True),
      ("Employees other than drivers get 25 days of paid leave a year.", True),
      ("Drivers get 25 days of paid leave a year.", False),
      ("Office employees do not get 25 days of paid leave a year.", False)]),
    ("Parking\n\nAll visitors except contractors may use the north car park.",
     "Can contractors use the north car park?",
     [("Contractors may not use the north car park.", True),
      ("Contractors may use the north car park.", False)]),
    ("休假制度\n\n除临时工外，所有正式员工每年享有10天带薪年假。", "临时工可以享受带薪年假吗？",
     [("临时工不享有每年10天带薪年假。", True),
      ("正式员工每年享有10天带薪年假。", True),
      ("临时工每年享有10天带薪年假。", False),
      ("正式员工不享有带薪年假。", False)]),
    ("停车规定\n\n除外包人员外，所有访客都可以使用北侧停车场。", "外包人员可以使用北侧停车场吗？",
     [("外包人员不可以使用北侧停车场。", True),
      ("外包人员可以使用北侧停车场。", False)]),
    ("휴가 규정\n\n운전기사를 제외한 모든 직원은 연 25일의 유급휴가를 받는다.", "운전기사도 연 25일의 휴가를 받나요?",
     [("운전기사는 연 25일의 유급휴가를 받지 않는다.", True),
      ("운전기사는 연 25일의 유급휴가를 받는다.", False)]),
    ("주차 안내\n\n협력업체 직원을 제외한 모든 방문객은 북쪽 주차장을 이용할 수 있다.",
     "협력업체 직원도 북쪽 주차장을 이용할 수 있나요?",
     [("협력업체 직원은 북쪽 주차장을 이용할 수 없다.", True),
      ("협력업체 직원은 북쪽 주차장을 이용할 수 있다.", False)]),
    ("休暇規程\n\n運転手を除く全従業員は年25日の有給休暇を取得できる。", "運転手も年25日の有給休暇を取得できますか？",
     [("運転手は年25日の有給休暇を取得できない。", True),
      ("運転手は年25日の有給休暇を取得できる。", False)]),
    ("駐車場案内\n\n協力会社の社員を除くすべての来訪者は北側駐車場を利用できる。",
     "協力会社の社員は北側駐車場を利用できますか？",
     [("協力会社の社員は北側駐車場を利用できない。", True),
      ("協力会社の社員は北側駐車場を利用できる。", False)]),
]


def old_reading() -> None:
    """``_opposed`` as before session 63: a claim's negation of the thing excepted counts as opposed."""
    import ragkit.evaluation._polarity as polarity

    setattr(polarity, "denies_the_excepted", lambda claim, sentence: False)  # noqa: B010 (the name _opposed calls)


if __name__ == "__main__":
    rule_off(__doc__.splitlines()[0], "with the old reading", old_reading)
    print(asyncio.run(probe(CASES)))
