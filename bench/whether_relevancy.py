"""Answer relevancy on questions whether something is so (session 52): for each question, three answers that give
what is asked (a yes; a no with a bare "no"; a no in other words) and two that do not (another fact of the same
subject; a dodge, or in ``HELD2`` a second other fact). ``DESIGN`` was written before any change and ``HELD`` with
it, not looked at until the prompt was fixed; ``HELD2`` was written after the validity run showed other facts read
as a "no", before any variant ran on it. Figures: bench/README.md, "Answer relevancy: a question whether something
is so".

Usage (from the repo root): ``PYTHONPATH=. .venv/bin/python bench/whether_relevancy.py design|held|held2``
"""

from __future__ import annotations

import sys

from ragkit.calibration import roc_auc
from ragkit.evaluation import evaluate_sync
from ragkit.llm import Judge
from ragkit.types import EvalSample, RagResponse, TestSample

DESIGN = [
 ("en", "Does the Marlow library lend e-readers?",
  ["Yes, members can borrow an e-reader for three weeks.",
   "No, the Marlow library does not lend e-readers.",
   "E-readers are for use inside the library only; they cannot be taken home."],
  ["The Marlow library opens at nine on weekdays.", "I'm not sure what the library lends."]),
 ("en", "Is parking free at the Eastgate clinic?",
  ["Yes, the clinic car park is free for patients.",
   "No. Parking at Eastgate costs two pounds an hour.",
   "Patients pay two pounds an hour to park there."],
  ["The Eastgate clinic has twelve consulting rooms.", "Parking details are not something I can confirm."]),
 ("zh", "青松酒店提供机场接送服务吗？",
  ["是的，青松酒店提供免费机场接送。",
   "不提供。青松酒店没有机场接送服务。",
   "酒店没有安排机场接送，客人需要自己打车。"],
  ["青松酒店共有120间客房。", "我不太清楚酒店的服务项目。"]),
 ("zh", "会员可以在周末使用健身房吗？",
  ["可以，会员周末也能使用健身房。",
   "不可以，健身房周末只对教练开放。",
   "周末健身房不对会员开放。"],
  ["健身房位于大楼的三层。", "这个问题我无法回答。"]),
 ("ja", "さくら美術館では館内で写真を撮ってもいいですか？",
  ["はい、フラッシュを使わなければ撮影できます。",
   "いいえ、館内での撮影は禁止されています。",
   "館内は撮影禁止です。"],
  ["さくら美術館は1985年に開館しました。", "撮影についてはわかりません。"]),
 ("ja", "この定期券で特急に乗れますか？",
  ["はい、追加料金なしで特急に乗れます。",
   "いいえ、特急には別に特急券が必要です。",
   "特急を利用するには特急券を別に買う必要があります。"],
  ["定期券は1か月、3か月、6か月の3種類です。", "その点は確認できません。"]),
 ("ko", "한울 도서관에서 노트북을 빌릴 수 있나요?",
  ["네, 도서관 회원은 노트북을 하루 동안 빌릴 수 있습니다.",
   "아니요, 한울 도서관은 노트북을 대여하지 않습니다.",
   "노트북 대여 서비스는 제공하지 않습니다."],
  ["한울 도서관은 매주 월요일에 휴관합니다.", "노트북 대여에 대해서는 잘 모르겠습니다."]),
 ("ko", "이 요금제로 해외 로밍이 되나요?",
  ["네, 추가 요금 없이 로밍이 됩니다.",
   "아니요, 해외 로밍은 별도로 신청해야 합니다.",
   "해외에서는 사용할 수 없고 로밍을 따로 신청해야 합니다."],
  ["이 요금제의 월 데이터는 10GB입니다.", "로밍 여부는 알 수 없습니다."]),
]
HELD = [
 ("en", "Can I return a sale item for a refund?",
  ["Yes, sale items can be refunded within 14 days.",
   "No, sale items are exchange only.",
   "Sale items can only be exchanged, not refunded."],
  ["Our sale runs until the end of January.", "I can't say what the returns policy is."]),
 ("en", "Does the Harbour Line run on Sundays?",
  ["Yes, it runs every hour on Sundays.",
   "No. The Harbour Line has no Sunday service.",
   "There is no Sunday service on the Harbour Line."],
  ["The Harbour Line has eleven stations.", "Timetables change often, so I can't tell."]),
 ("zh", "这款手机支持无线充电吗？",
  ["支持，最高15瓦无线充电。",
   "不支持，这款手机只能用数据线充电。",
   "这款手机只能有线充电。"],
  ["这款手机有黑色和白色两种颜色。", "我不了解这款手机的充电方式。"]),
 ("zh", "外国游客需要预约才能参观故宫吗？",
  ["需要，所有游客都必须提前实名预约。",
   "不需要，外国游客可以直接在售票处买票。",
   "外国游客当天到售票处买票就可以进去。"],
  ["故宫每周一闭馆。", "关于预约的事情我说不准。"]),
 ("ja", "このホテルにペットを連れて泊まれますか？",
  ["はい、小型犬なら一緒に泊まれます。",
   "いいえ、ペット連れの宿泊はお断りしています。",
   "ペットの同伴はできません。"],
  ["このホテルには大浴場があります。", "ペットについては存じません。"]),
 ("ja", "学生は入学金を分割で払えますか？",
  ["はい、3回までの分割払いができます。",
   "いいえ、入学金は一括で支払う必要があります。",
   "入学金は一括払いのみです。"],
  ["入学金は20万円です。", "支払い方法についてはお答えできません。"]),
 ("ko", "이 식당은 예약 없이 갈 수 있나요?",
  ["네, 예약 없이도 방문할 수 있습니다.",
   "아니요, 이 식당은 예약제로만 운영됩니다.",
   "예약을 하지 않으면 입장할 수 없습니다."],
  ["이 식당은 2015년에 문을 열었습니다.", "예약 정책은 잘 모르겠습니다."]),
 ("ko", "외국인도 이 카드를 발급받을 수 있나요?",
  ["네, 외국인등록증이 있으면 발급받을 수 있습니다.",
   "아니요, 이 카드는 내국인만 발급받을 수 있습니다.",
   "내국인만 이 카드를 만들 수 있습니다."],
  ["이 카드의 연회비는 만 원입니다.", "발급 조건은 확인할 수 없습니다."]),
]
HELD2 = [
 ("en", "Is the museum shop open on Mondays?",
  ["Yes, the shop opens every day from ten.",
   "No, the shop is closed on Mondays.",
   "The museum shop only opens Tuesday to Sunday."],
  ["The museum shop sells prints and books.", "Entry to the museum is free for children."]),
 ("en", "Do I need a visa to work in the Dublin office?",
  ["Yes, non-EU staff need a work permit before they start.",
   "No, EU citizens can work there without a visa.",
   "EU citizens can start work in Dublin without one."],
  ["The Dublin office has about sixty staff.", "Our Dublin office moved to Grand Canal Dock in 2020."]),
 ("zh", "这家银行的储蓄卡有年费吗？",
  ["有，每年收取10元年费。",
   "没有，这家银行的储蓄卡免年费。",
   "储蓄卡不收任何年费。"],
  ["这家银行在全国有三百多家网点。", "储蓄卡可以在柜台或手机银行申请。"]),
 ("zh", "孩子可以一个人坐高铁吗？",
  ["可以，年满十四岁的孩子可以单独乘车。",
   "不可以，未满十四岁的孩子必须由成人陪同。",
   "十四岁以下的儿童需要成人陪同乘车。"],
  ["高铁票可以提前十五天购买。", "儿童票按成人票价的一半计算。"]),
 ("ja", "この施設は車椅子で利用できますか？",
  ["はい、全館バリアフリーになっています。",
   "いいえ、2階へはエレベーターがないため利用できません。",
   "2階にはエレベーターがなく、車椅子では上がれません。"],
  ["この施設は1990年に建てられました。", "施設の駐車場は50台分あります。"]),
 ("ja", "アルバイトにもボーナスは出ますか？",
  ["はい、年に一回、寸志が支給されます。",
   "いいえ、ボーナスは正社員だけに支給されます。",
   "ボーナスが出るのは正社員のみです。"],
  ["アルバイトの時給は1100円からです。", "アルバイトは週3日から勤務できます。"]),
 ("ko", "이 아파트는 반려동물을 키울 수 있나요?",
  ["네, 소형 반려동물은 키울 수 있습니다.",
   "아니요, 이 아파트에서는 반려동물을 키울 수 없습니다.",
   "관리 규약상 반려동물 사육이 금지되어 있습니다."],
  ["이 아파트는 2018년에 준공되었습니다.", "이 아파트의 관리비는 월 20만 원 정도입니다."]),
 ("ko", "주말에도 택배가 배송되나요?",
  ["네, 토요일에도 배송됩니다.",
   "아니요, 택배는 평일에만 배송됩니다.",
   "주말에는 배송을 하지 않습니다."],
  ["택배 요금은 3,000원입니다.", "배송 조회는 앱에서 할 수 있습니다."]),
]


KINDS = ("yes", "no", "no in other words", "not: another fact", "not: a dodge or another fact")


def samples(cases: list[tuple[str, str, list[str], list[str]]]) -> tuple[list[EvalSample], list[bool], list[str]]:
    out, labels, kinds = [], [], []
    for i, (_lang, question, good, bad) in enumerate(cases):
        for j, answer in enumerate(good + bad):
            out.append(EvalSample(test=TestSample(id=f"{i}-{j}", question=question),
                                  response=RagResponse(answer=answer)))
            labels.append(j < len(good))
            kinds.append(KINDS[j])
    return out, labels, kinds


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "design"
    batch, labels, kinds = samples({"design": DESIGN, "held": HELD, "held2": HELD2}[name])
    result = evaluate_sync(batch, ["answer_relevancy"], judge=Judge(), progress=False)
    values = [r.scores["answer_relevancy"].value or 0.0 for r in result.samples]
    for sample, value, kind in zip(batch, values, kinds, strict=True):
        print(f"{value:.2f}  {kind:30s} {sample.test.question} | {sample.response.answer}")
    for kind in KINDS:
        got = [v for v, k in zip(values, kinds, strict=True) if k == kind]
        print(f"mean {kind}: {sum(got) / len(got):.2f}")
    good = [v for v, lab in zip(values, labels, strict=True) if lab]
    bad = [v for v, lab in zip(values, labels, strict=True) if not lab]
    print(f"{name}: AUC {roc_auc(values, labels):.3f}; relevant >= 0.5: {sum(v >= 0.5 for v in good)}/{len(good)}; "
          f"not relevant < 0.5: {sum(v < 0.5 for v in bad)}/{len(bad)}")


if __name__ == "__main__":
    main()
