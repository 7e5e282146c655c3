"""A claim that names a place by the region or country that holds it (``_places``): entailed where the passage
names the place itself, and never where the wider place says more."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._places import places_implied
from ragkit.testing import ScriptedJudge

PLANT = "Acme Robotics's main plant is located in Sheffield, England. Its software team works in Porto."


@pytest.mark.parametrize(("passage", "claim"), [
    (PLANT, "Acme Robotics's main plant is located in Sheffield, UK."),
    (PLANT, "Acme Robotics's main plant is located in Sheffield, U.K."),
    (PLANT, "Acme Robotics's main plant is located in the United Kingdom."),
    ("The lab is based in Austin, Texas.", "The lab is based in Austin, USA."),
    ("Brightline opened its office in Munich, Bavaria in 2019.",
     "Brightline opened its office in Munich, Germany in 2019."),
    ("The headquarters are in Sheffield, UK.", "The headquarters are in Sheffield, England."),  # ISO: Sheffield
    ("Harbor Labs has offices in Edinburgh, Scotland and Cardiff, Wales.",
     "Harbor Labs has offices in Edinburgh, UK and Cardiff, UK."),
    ("The 2024 summit was held in Kyoto.", "The 2024 summit was held in Japan."),
    ("Employees in Sheffield, England get 20 days of leave.",  # the same place, its holder named otherwise
     "Employees in Sheffield, UK get 20 days of leave."),
])
def test_a_place_named_by_what_holds_it_is_implied(passage: str, claim: str) -> None:
    assert places_implied(passage, claim)


@pytest.mark.parametrize(("passage", "claim"), [
    (PLANT, "Acme Robotics's main plant is located in Sheffield, Scotland."),
    (PLANT, "Acme Robotics's main plant is located in Leeds, England."),
    (PLANT, "Acme Robotics's main plant is located in Sheffield, USA."),
    (PLANT, "Acme Robotics's software team is located in the United Kingdom."),
    (PLANT, "Acme Robotics's main plant is located in Sheffield, England."),  # as written: not this rule's
    ("Our support centre is in Toronto, Ontario.", "Our support centre is in Toronto, Quebec."),
    ("Northwind moved its line from Leeds, England to Cork, Ireland.",
     "Northwind moved its line from Cork, Ireland to Leeds, UK."),
    # a wider place that says more: under a denial, "only", a noun it narrows, a predicate it bounds
    ("Acme Robotics does not have a plant in Sheffield, England.",
     "Acme Robotics does not have a plant in the United Kingdom."),
    ("The Vega camera is sold only in Texas.", "The Vega camera is sold only in the USA."),
    ("Employees in Texas get 20 days of leave.", "Employees in the USA get 20 days of leave."),
    ("Shipping is free in Ontario.", "Shipping is free in Canada."),
    ("Customers who live in Bavaria pay no delivery fee.", "Customers who live in Germany pay no delivery fee."),
    ("Staff based in Wales work a 35-hour week.", "Staff based in the UK work a 35-hour week."),
    ("The company has 40 employees in Osaka.", "The company has 40 employees in Japan."),
    ("Staff based in Wales, however, work a 35-hour week.", "Staff based in the UK, however, work a 35-hour week."),
    ("Staff based in Wales and paid monthly work 35 hours.", "Staff based in the UK and paid monthly work 35 hours."),
    ("The lab is in Sheffield, Tasmania.", "The lab is in Sheffield, UK."),  # another Sheffield
    ("青岚茶业的总部位于浙江省杭州市。", "青岚茶业的总部位于中国杭州。"),  # English only
])
def test_another_place_or_a_wider_one_that_says_more_is_not(passage: str, claim: str) -> None:
    assert not places_implied(passage, claim)


async def test_the_engine_entails_it_without_a_call() -> None:
    judge = ScriptedJudge([])
    store = ClaimStore(judge)
    (verdict,) = await store.check(PLANT, ["Acme Robotics's main plant is located in Sheffield, UK."])
    assert verdict.label == "entailed"
    assert judge.calls == []
