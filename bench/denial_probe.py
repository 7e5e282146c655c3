#!/usr/bin/env python3
"""Negated claims against passages that deny something (session 54): how the judge and ``_denials`` score them.

Each claim is checked alone, as a one-claim answer would be, against its passage and one unrelated passage. The right
claims deny what the passage denies, in other words or another register; the wrong ones drop the denial's qualifier,
speak of another thing, turn two names round, or join two things. ``--rule-off`` leaves every claim to the judge.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/denial_probe.py <set> [--rule-off]   # design … held6
"""

from __future__ import annotations

import argparse
import asyncio

from ragkit.calibration import roc_auc
from ragkit.evaluation import ClaimStore
from ragkit.llm import Judge

Case = tuple[str, str, list[tuple[str, bool]]]  # language, passage, (claim, right?)

DESIGN: list[Case] = [
 ("en", "Harbor Line ferries\n\nThe Osprey ferry sails from Kirkwall every morning. "
  "It does not carry cars, but it takes bicycles free of charge. "
  "The Petrel ferry carries cars and does not sail on Sundays.",
  [("The Osprey ferry cannot carry cars.", True),
   ("The Petrel ferry doesn't sail on Sundays.", True),
   ("The Osprey ferry does not carry cars from Kirkwall.", True),
   ("The Petrel ferry does not carry cars.", False),
   ("The Osprey ferry does not take bicycles.", False),
   ("The Osprey ferry does not carry cars or bicycles.", False),
   ("The Osprey ferry does not sail on Sundays.", False),
   ("The Osprey ferry does not sail from Kirkwall.", False)]),
 ("en", "Plans\n\nIn the free plan, the Mira app does not sync notes over mobile data. "
  "Contractors are not eligible for the annual bonus, but interns are.",
  [("The Mira app cannot sync notes over mobile data in the free plan.", True),
   ("Contractors cannot get the annual bonus.", True),
   ("The Mira app does not sync notes over mobile data.", False),
   ("Interns are not eligible for the annual bonus.", False),
   ("The Mira app does not sync notes.", False)]),
 ("zh", "服务说明\n\n青禾书店周一不营业。书店不提供送货服务，但可以免费包装礼品。会员卡不能转让给他人。",
  [("青禾书店星期一不开门营业。", True),
   ("青禾书店不提供送货服务。", True),
   ("青禾书店的会员卡不可以转让给他人。", True),
   ("青禾书店不提供礼品包装。", False),
   ("青禾书店不提供服务。", False),
   ("青禾书店周一不提供送货服务或礼品包装。", False),
   ("青禾书店周二不营业。", False)]),
 ("ko", "이용 안내\n\n한빛 도서관은 월요일에 문을 열지 않는다. "
  "도서관은 외부 음식 반입을 허용하지 않지만, 생수는 가지고 들어올 수 있다. "
  "열람실은 예약 없이 이용할 수 없다.",
  [("한빛 도서관은 월요일에 문을 열지 않습니다.", True),
   ("한빛 도서관은 외부 음식 반입을 허용하지 않습니다.", True),
   ("한빛 도서관 열람실은 예약 없이 이용할 수 없습니다.", True),
   ("한빛 도서관은 생수 반입을 허용하지 않습니다.", False),
   ("한빛 도서관은 음식을 허용하지 않습니다.", False),
   ("한빛 도서관은 화요일에 문을 열지 않습니다.", False),
   ("한빛 도서관은 문을 열지 않습니다.", False)]),
 ("ja", "ご利用案内\n\nさくら美術館では、館内での写真撮影を許可していません。"
  "ロッカーは無料で利用できます。団体予約は電話では受け付けていません。",
  [("さくら美術館は館内での写真撮影を許可していません。", True),
   ("さくら美術館では団体予約を電話で受け付けていません。", True),
   ("さくら美術館では館内での撮影を許可していません。", False),
   ("さくら美術館ではロッカーを利用できません。", False),
   ("さくら美術館では団体予約を受け付けていません。", False),
   ("さくら美術館では写真撮影やロッカーの利用を許可していません。", False)]),
]

HELD: list[Case] = [
 ("en", "Kestrel robots\n\nThe Kestrel K10 does not support PROFINET; it supports Modbus TCP. "
  "The K20 supports both protocols. "
  "Firmware updates are not installed automatically on the K10.",
  [("The Kestrel K10 doesn't support PROFINET.", True),
   ("The K10 cannot support the PROFINET protocol.", True),
   ("On the Kestrel K10, firmware updates are not installed automatically.", True),
   ("The K20 does not support PROFINET.", False),
   ("The Kestrel K10 does not support Modbus TCP.", False),
   ("The Kestrel K10 does not support any protocol.", False),
   ("Firmware updates are not installed on the K10.", False),
   ("The Kestrel K10 does not support PROFINET or Modbus TCP.", False)]),
 ("en", "Billing\n\nAlice does not pay Bob for the hosting. Refunds are never issued after 30 days.",
  [("Alice doesn't pay Bob for the hosting.", True),
   ("Refunds are not issued after 30 days.", True),
   ("Bob does not pay Alice for the hosting.", False),
   ("Refunds are not issued.", False)]),
 ("zh", "使用规定\n\n本停车场不接受现金付款，只能用手机支付。夜间十点以后不允许车辆进入。员工车辆不收取停车费。",
  [("该停车场不接受用现金付款。", True),
   ("夜间十点以后停车场不允许车辆进入。", True),
   ("该停车场不接受手机支付。", False),
   ("该停车场不允许车辆进入。", False),
   ("访客车辆不收取停车费。", False)]),
 ("ko", "회원 규정\n\n가온 피트니스는 미성년자의 회원 가입을 받지 않는다. "
  "회원권은 다른 사람에게 양도할 수 없다. 샤워실은 자정 이후 운영하지 않는다.",
  [("가온 피트니스는 미성년자의 회원 가입을 받지 않습니다.", True),
   ("가온 피트니스의 회원권은 다른 사람에게 양도할 수 없습니다.", True),
   ("가온 피트니스 샤워실은 자정 이후 운영하지 않습니다.", True),
   ("가온 피트니스는 회원 가입을 받지 않습니다.", False),
   ("가온 피트니스 샤워실은 운영하지 않습니다.", False),
   ("가온 피트니스는 성인의 회원 가입을 받지 않습니다.", False)]),
 ("ja", "配送について\n\nみなと食品は離島への配送を行っていません。"
  "冷凍品は代金引換で購入できません。日曜日は出荷しません。",
  [("みなと食品は離島への配送を行いません。", True),
   ("みなと食品の冷凍品は代金引換で購入することができません。", True),
   ("みなと食品は配送を行っていません。", False),
   ("みなと食品は本州への配送を行っていません。", False),
   ("みなと食品の冷凍品は購入できません。", False)]),
]

HELD2: list[Case] = [  # written after the rule had been read against DESIGN and HELD, before it was run on these
 ("en", "Northgate Clinic\n\nThe clinic does not take walk-in patients on weekends. "
  "Dr. Reyes does not prescribe antibiotics by phone, but Dr. "
  "Okafor does. Parking is not free for visitors after 6 pm.",
  [("Northgate Clinic does not take walk-in patients on weekends.", True),
   ("Dr. Reyes doesn't prescribe antibiotics by phone.", True),
   ("At Northgate Clinic, parking is not free for visitors after 6 pm.", True),
   ("Northgate Clinic does not take walk-in patients.", False),
   ("Dr. Okafor does not prescribe antibiotics by phone.", False),
   ("Dr. Reyes does not prescribe antibiotics.", False),
   ("Parking is not free for visitors.", False),
   ("Northgate Clinic does not take patients on weekends or holidays.", False)]),
 ("en", "Vendors\n\nHollis Foods supplies the cafeteria. "
  "The supplier does not deliver on public holidays. "
  "Marlow Dairy does not supply Hollis Foods.",
  [("Hollis Foods does not deliver on public holidays.", True),
   ("Marlow Dairy doesn't supply Hollis Foods.", True),
   ("Hollis Foods does not supply Marlow Dairy.", False),
   ("Marlow Dairy does not deliver on public holidays.", False),
   ("Hollis Foods does not deliver.", False)]),
 ("zh", "入住须知\n\n云杉酒店不允许携带宠物入住。酒店不提供机场接送服务。泳池在冬季不对外开放，健身房全年开放。",
  [("云杉酒店不提供机场接送服务。", True),
   ("云杉酒店的泳池在冬季不对外开放。", True),
   ("云杉酒店不提供接送服务。", False),
   ("云杉酒店的健身房在冬季不对外开放。", False),
   ("云杉酒店的泳池不对外开放。", False)]),
 ("ko", "수강 안내\n\n다온 요가원은 초보자 수업을 주말에 열지 않는다. "
  "요가원은 수강료를 현금으로 받지 않는다. 개인 레슨은 환불되지 않는다.",
  [("다온 요가원은 수강료를 현금으로 받지 않습니다.", True),
   ("다온 요가원은 초보자 수업을 주말에 열지 않습니다.", True),
   ("다온 요가원의 개인 레슨은 환불되지 않습니다.", True),
   ("다온 요가원은 수강료를 받지 않습니다.", False),
   ("다온 요가원은 수업을 열지 않습니다.", False),
   ("다온 요가원은 초보자 수업을 평일에 열지 않습니다.", False)]),
 ("ja", "営業案内\n\nひかりベーカリーは月曜日に営業していません。"
  "店ではクレジットカードが使えません。パンの予約は前日までしか受け付けません。",
  [("ひかりベーカリーは月曜日に営業していません。", True),
   ("ひかりベーカリーではクレジットカードが使えません。", True),
   ("ひかりベーカリーは営業していません。", False),
   ("ひかりベーカリーでは現金が使えません。", False),
   ("ひかりベーカリーはパンの予約を受け付けません。", False)]),
]


HELD3: list[Case] = [  # written before the dropped-limit rule: a time or amount dropped (wrong), a start dropped
 ("en", "Riverside Pool\n\nThe pool does not open before 7 am on weekdays. "
  "Since 2021, the pool has not sold day passes. "
  "Lifeguards are not on duty in the diving area after 8 pm. "
  "The sauna does not accept children under 12.",
  [("Riverside Pool does not open before 7 am on weekdays.", True),
   ("Riverside Pool does not sell day passes.", True),
   ("Riverside Pool does not open on weekdays.", False),
   ("Lifeguards at Riverside Pool are not on duty in the diving area.", False),
   ("The sauna at Riverside Pool does not accept children.", False),
   ("Riverside Pool's sauna does not accept children under 12.", True)]),
 ("zh", "门诊须知\n\n本诊所周日不接诊。晚上八点以后不接受电话预约。自2022年起，诊所不再提供上门服务。",
  [("本诊所周日不接诊。", True),
   ("该诊所不提供上门服务。", True),
   ("本诊所不接诊。", False),
   ("该诊所不接受电话预约。", False)]),
 ("ko", "매장 안내\n\n초록 마트는 매주 화요일에 배달을 하지 않는다. "
  "마트는 오후 9시 이후 주류를 판매하지 않는다. "
  "2020년부터 마트는 비닐봉투를 제공하지 않는다.",
  [("초록 마트는 화요일에 배달을 하지 않습니다.", True),
   ("초록 마트는 비닐봉투를 제공하지 않습니다.", True),
   ("초록 마트는 배달을 하지 않습니다.", False),
   ("초록 마트는 주류를 판매하지 않습니다.", False)]),
 ("ja", "利用規約\n\nあおぞらジムは毎週水曜日に営業しません。"
  "プールは夜8時以降は利用できません。"
  "2019年から、ジムはタオルの貸し出しを行っていません。",
  [("あおぞらジムは水曜日に営業しません。", True),
   ("あおぞらジムはタオルの貸し出しを行っていません。", True),
   ("あおぞらジムは営業しません。", False),
   ("あおぞらジムのプールは利用できません。", False)]),
]


HELD4: list[Case] = [  # written after the limit rule was mended on HELD3, before it was run on these
 ("en", "Elm Street Library\n\nThe library does not lend laptops on Saturdays. "
  "Visitors cannot book study rooms more than 7 days ahead. "
  "The library has not charged late fees since March. "
  "It does not open on public holidays.",
  [("Elm Street Library does not lend laptops on Saturdays.", True),
   ("The Elm Street Library does not charge late fees.", True),
   ("Elm Street Library does not open on public holidays.", True),
   ("Elm Street Library does not lend laptops.", False),
   ("Visitors to Elm Street Library cannot book study rooms.", False),
   ("Elm Street Library does not open.", False)]),
 ("zh", "营业说明\n\n春风面馆每周三不营业。面馆下午两点到五点不提供堂食。面馆不接受外卖平台订单。",
  [("春风面馆周三不营业。", True),
   ("春风面馆不接受外卖平台的订单。", True),
   ("春风面馆不营业。", False),
   ("春风面馆不提供堂食。", False)]),
 ("ko", "이용 규칙\n\n푸른 수영장은 일요일에 자유 수영을 운영하지 않는다. "
  "수영장은 만 6세 미만 어린이의 단독 입장을 허용하지 않는다. "
  "수영장은 현금 결제를 받지 않는다.",
  [("푸른 수영장은 일요일에 자유 수영을 운영하지 않습니다.", True),
   ("푸른 수영장은 현금 결제를 받지 않습니다.", True),
   ("푸른 수영장은 자유 수영을 운영하지 않습니다.", False),
   ("푸른 수영장은 어린이의 단독 입장을 허용하지 않습니다.", False)]),
 ("ja", "ご案内\n\nみどり歯科は土曜日の午後は診療していません。"
  "歯科では10歳未満の子どものホワイトニングを行っていません。駐車場はありません。",
  [("みどり歯科は土曜日の午後は診療していません。", True),
   ("みどり歯科には駐車場がありません。", True),
   ("みどり歯科は診療していません。", False),
   ("みどり歯科では子どものホワイトニングを行っていません。", False)]),
]


HELD5: list[Case] = [  # written before the frame step ("あさひ水族館では…", "은하 미술관에서는…") was built
 ("ja", "施設案内\n\nあさひ水族館は年中無休です。館内ではフラッシュ撮影ができません。ペットは入館できません。",
  [("あさひ水族館ではフラッシュ撮影ができません。", True),
   ("あさひ水族館ではペットは入館できません。", True),
   ("あさひ水族館では撮影ができません。", False),
   ("あさひ水族館では館内での飲食ができません。", False)]),
 ("ko", "이용 안내\n\n은하 미술관은 연중무휴로 운영한다. "
  "전시실에서는 음식물을 먹을 수 없다. 반려동물은 입장할 수 없다.",
  [("은하 미술관 전시실에서는 음식물을 먹을 수 없습니다.", True),
   ("은하 미술관에서는 반려동물이 입장할 수 없습니다.", True),
   ("은하 미술관에서는 음식물을 먹을 수 없습니다.", False),
   ("은하 미술관 전시실에서는 사진을 찍을 수 없습니다.", False)]),
]


HELD6: list[Case] = [  # written after every mend of the session, before anything was run on it
 ("en", "Greenway Bikes\n\nGreenway Bikes does not rent e-bikes to riders under 16. "
  "The shop never repairs carbon frames. It does not open on Mondays in winter. "
  "Members don't have to pay a deposit.",
  [("Greenway Bikes doesn't rent e-bikes to riders under 16.", True),
   ("Greenway Bikes never repairs carbon frames.", True),
   ("Greenway Bikes does not rent e-bikes.", False),
   ("Greenway Bikes does not open on Mondays.", False),
   ("Greenway Bikes does not repair frames.", False),
   ("Greenway Bikes members do not pay a deposit.", False)]),
 ("zh", "借阅规则\n\n明湖图书馆的古籍不外借。图书馆周一上午不开放。逾期未还的读者三十天内不能再借书。",
  [("明湖图书馆的古籍不外借。", True),
   ("明湖图书馆周一上午不开放。", True),
   ("明湖图书馆不开放。", False),
   ("逾期未还的读者不能再借书。", False)]),
 ("ko", "예약 안내\n\n소담 한의원은 토요일 오후에 진료하지 않는다. "
  "한의원은 전화 예약을 받지 않는다. 초진 환자는 당일 예약을 할 수 없다.",
  [("소담 한의원은 토요일 오후에 진료하지 않습니다.", True),
   ("소담 한의원은 전화 예약을 받지 않습니다.", True),
   ("소담 한의원은 진료하지 않습니다.", False),
   ("소담 한의원은 예약을 받지 않습니다.", False)]),
 ("ja", "ご利用案内\n\nこもれび温泉では、タトゥーのある方の入浴をお断りしていません。"
  "露天風呂は冬季は利用できません。館内では喫煙できません。",
  [("こもれび温泉の露天風呂は冬季は利用できません。", True),
   ("こもれび温泉では館内で喫煙できません。", True),
   ("こもれび温泉の露天風呂は利用できません。", False),
   ("こもれび温泉では喫煙できません。", False)]),
]


async def run(cases: list[Case]) -> None:
    store = ClaimStore(Judge(None))
    values, labels = [], []
    for _, passage, claims in cases:
        for claim, right in claims:
            (found,) = await store.attribute([passage, "The weather was mild that year."], [claim])
            values.append(found.support)
            labels.append(right)
            print(f"{'right' if right else 'wrong'} {found.support:.2f} {found.verdict.label:<12} {claim}")
    right = [v for v, r in zip(values, labels, strict=True) if r]
    wrong = [v for v, r in zip(values, labels, strict=True) if not r]
    print(f"AUC {roc_auc(values, labels):.3f}; right at 0.5 or more {sum(v >= 0.5 for v in right)} of {len(right)}; "
          f"wrong under 0.5 {sum(v < 0.5 for v in wrong)} of {len(wrong)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=["design", "held", "held2", "held3", "held4", "held5", "held6"])
    parser.add_argument("--rule-off", action="store_true", help="leave every claim to the judge")
    args = parser.parse_args()
    if args.rule_off:
        import ragkit.evaluation._settled as settled

        settled.denied_again = lambda passage, claim: None  # type: ignore[assignment]
    sets = {"design": DESIGN, "held": HELD, "held2": HELD2, "held3": HELD3, "held4": HELD4, "held5": HELD5,
            "held6": HELD6}
    asyncio.run(run(sets[args.set]))


if __name__ == "__main__":
    main()
