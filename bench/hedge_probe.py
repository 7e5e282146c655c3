#!/usr/bin/env python3
"""Claims against denials under a condition or of a need (session 55): what ``_polarity.denied`` and the judge say.

"The pool does not open if it rains" denies nothing of "The pool opens"; "Guests do not need to bring towels"
denies nothing of "Guests bring towels". Each claim carries the label a careful reader gives it: "entailed",
"neutral" or "contradicted". The rule's own verdicts are printed first (no call); then, unless ``--rule-only``,
each claim is checked alone, as a one-claim answer is, against its passage and one unrelated passage.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/hedge_probe.py <set> [--rule-only]   # design, held
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter

from ragkit.calibration import roc_auc
from ragkit.evaluation import ClaimStore
from ragkit.evaluation._claim_text import equal_forms
from ragkit.evaluation._settled import settled
from ragkit.llm import Judge

Case = tuple[str, str, list[tuple[str, str]]]  # language, passage, (claim, label)
E, N, C = "entailed", "neutral", "contradicted"

DESIGN: list[Case] = [
 ("en", "Riverside Pool\n\nThe Riverside pool does not open if it rains. It does not open on Sundays. "
  "Members don't have to pay for towels. Children under 8 cannot swim without an adult.",
  [("The Riverside pool opens.", N),
   ("The Riverside pool opens if it rains.", C),
   ("The Riverside pool opens on Sundays.", C),
   ("Members bring their own towels to the Riverside pool.", N),
   ("Children under 8 can swim without an adult at the Riverside pool.", C),
   ("The Riverside pool is closed on Sundays.", E)]),
 ("en", "Ledger Sync\n\nLedger Sync does not upload files when the laptop runs on battery. It never deletes local "
  "copies. Users do not need to restart the app after an update. The app does not work unless a licence key is "
  "entered.",
  [("Ledger Sync uploads files.", N),
   ("Ledger Sync deletes local copies.", C),
   ("Users restart Ledger Sync after an update.", N),
   ("Ledger Sync works.", N),
   ("Ledger Sync never deletes local copies.", E)]),
 ("zh", "游泳馆须知\n\n如果下雨，星河游泳馆不开放。游泳馆周日不开放。会员不用支付毛巾费。",
  [("星河游泳馆开放。", N),
   ("星河游泳馆周日开放。", C),
   ("星河游泳馆的会员支付毛巾费。", N),
   ("星河游泳馆周日不开放。", E)]),
 ("ko", "이용 안내\n\n비가 오면 푸른 수영장은 문을 열지 않는다. 수영장은 일요일에 문을 열지 않는다. "
  "회원은 수건 값을 내지 않아도 된다.",
  [("푸른 수영장은 문을 연다.", N),
   ("푸른 수영장은 일요일에 문을 연다.", C),
   ("푸른 수영장 회원은 수건 값을 낸다.", N)]),
 ("ja", "ご利用案内\n\n雨の場合、みどりプールは開きません。プールは日曜日に開きません。"
  "会員はタオル代を払わなくてもよい。",
  [("みどりプールは開きます。", N),
   ("みどりプールは日曜日に開きます。", C),
   ("みどりプールの会員はタオル代を払います。", N)]),
]

HELD: list[Case] = [  # written with DESIGN, before the rule was changed or run on either
 ("en", "Orchard Library\n\nThe library does not lend e-readers unless the borrower has a card. "
  "It does not charge late fees. Students do not need to book the study rooms. "
  "Laptops are not allowed in the reading room.",
  [("Orchard Library lends e-readers.", N),
   ("Orchard Library charges late fees.", C),
   ("Students book the study rooms at Orchard Library.", N),
   ("Laptops are allowed in the Orchard Library reading room.", C),
   ("Orchard Library does not charge late fees.", E)]),
 ("en", "Vega Camera\n\nThe Vega camera does not record video when the battery is below 10 percent. "
  "It cannot record in 8K. The camera does not need a memory card to take photos.",
  [("The Vega camera records video.", N),
   ("The Vega camera can record in 8K.", C),
   ("The Vega camera uses a memory card to take photos.", N),
   ("The Vega camera records video when the battery is below 10 percent.", C)]),
 ("zh", "借书规则\n\n如果没有借书证，松林图书馆不外借电子阅读器。图书馆不收逾期费。学生不需要预约自习室。",
  [("松林图书馆外借电子阅读器。", N),
   ("松林图书馆收逾期费。", C),
   ("松林图书馆的学生预约自习室。", N)]),
 ("ko", "대출 규정\n\n회원증이 없으면 솔숲 도서관은 전자책 단말기를 빌려주지 않는다. 도서관은 연체료를 받지 않는다. "
  "학생은 열람실을 예약하지 않아도 된다.",
  [("솔숲 도서관은 전자책 단말기를 빌려준다.", N),
   ("솔숲 도서관은 연체료를 받는다.", C),
   ("솔숲 도서관 학생은 열람실을 예약한다.", N)]),
 ("ja", "貸出規則\n\n利用カードがない場合、もりの図書館は電子書籍端末を貸し出しません。図書館は延滞料を取りません。"
  "学生は自習室を予約しなくてもよい。",
  [("もりの図書館は電子書籍端末を貸し出します。", N),
   ("もりの図書館は延滞料を取ります。", C),
   ("もりの図書館の学生は自習室を予約します。", N)]),
]

SETS = {"design": DESIGN, "held": HELD}


def rule_verdicts(cases: list[Case]) -> None:
    """The verdict the passage's words settle, per claim, with no call; and how often the rule contradicts a claim
    a reader would not."""
    wrongly, kept, total = 0, 0, Counter[str]()
    for _, passage, claims in cases:
        same = equal_forms(passage, ())
        for claim, label in claims:
            verdict = settled(passage, claim, same, None)
            said = verdict.label if verdict else "-"
            total[label] += 1
            wrongly += said == C and label != C
            kept += said == C and label == C
            print(f"rule {label:<12} {said:<12} {claim}")
    print(f"rule: contradicts {wrongly} of {total[E] + total[N]} claims a reader would not; "
          f"{kept} of {total[C]} contradicted claims")


async def judged(cases: list[Case]) -> None:
    store = ClaimStore(Judge(None))
    supports, entailed, confusion = [], [], Counter[tuple[str, str]]()
    for _, passage, claims in cases:
        for claim, label in claims:
            (found,) = await store.attribute([passage, "The weather was mild that year."], [claim])
            supports.append(found.support)
            entailed.append(label == E)
            confusion[label, found.verdict.label] += 1
            print(f"{label:<12} {found.support:.2f} {found.verdict.label:<12} {claim}")
    print(f"support AUC, entailed against the rest: {roc_auc(supports, entailed):.3f}")
    for label in (E, N, C):
        print(f"  {label}: " + ", ".join(f"{said} {confusion[label, said]}" for said in (E, N, C)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=sorted(SETS))
    parser.add_argument("--rule-only", action="store_true", help="print the rule's verdicts only (no call)")
    args = parser.parse_args()
    rule_verdicts(SETS[args.set])
    if not args.rule_only:
        asyncio.run(judged(SETS[args.set]))


if __name__ == "__main__":
    main()
