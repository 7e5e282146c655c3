#!/usr/bin/env python3
"""A place named by the region or country that holds it (session 55): what ``_places`` and the judge say.

"Acme's main plant is located in Sheffield, UK." against the reference "… located in Sheffield, England." is the
same fact: the README's main job scored that answer's factual correctness 0.11, the judge calling it contradicted.
Each claim here carries the label a careful reader gives it, against its passage: entailed, or not (contradicted
or neutral). The rule's verdicts are printed first (no call); then, unless ``--rule-only``, each claim is checked
alone, as a one-claim answer is, against its passage.

    RAGKIT_CACHE_DIR=cache PYTHONPATH=. .venv/bin/python bench/place_probe.py <set> [--rule-only | --rule-off]
    # sets: design, held, traps
"""

from __future__ import annotations

import argparse
import asyncio

from ragkit.calibration import roc_auc
from ragkit.evaluation import ClaimStore
from ragkit.evaluation._claim_text import equal_forms
from ragkit.evaluation._settled import settled
from ragkit.llm import Judge

Case = tuple[str, list[tuple[str, bool]]]  # passage, (claim, entailed?)

DESIGN: list[Case] = [
 ("Acme Robotics's main plant is located in Sheffield, England. Its software team works in Porto.",
  [("Acme Robotics's main plant is located in Sheffield, UK.", True),
   ("Acme Robotics's main plant is located in Sheffield, United Kingdom.", True),
   ("Acme Robotics's main plant is located in the United Kingdom.", True),
   ("Acme Robotics's main plant is located in Sheffield, Scotland.", False),
   ("Acme Robotics's main plant is located in Leeds, England.", False),
   ("Acme Robotics's main plant is located in Sheffield, USA.", False),
   ("Acme Robotics's software team is located in the United Kingdom.", False)]),
 ("The lab is based in Austin, Texas.",
  [("The lab is based in Austin, USA.", True),
   ("The lab is based in Austin, United States.", True),
   ("The lab is based in Austin, Mexico.", False),
   ("The lab is based in Dallas, Texas.", False)]),
 ("Brightline opened its office in Munich, Bavaria in 2019.",
  [("Brightline opened its office in Munich, Germany in 2019.", True),
   ("Brightline opened its office in Munich, Austria in 2019.", False),
   ("Brightline opened its office in Munich, Germany in 2018.", False)]),
 ("The headquarters are in Sheffield, UK.",
  [("The headquarters are in Sheffield, England.", True),
   ("The headquarters are in Sheffield, Wales.", False)]),
]

HELD: list[Case] = [  # written with DESIGN, before the rule was built or run on either; two labels were mended
    # after the judge-only run, before the rule existed ("from the United Kingdom" and "held in Japan" are true)
 ("Northwind Tea moved its packing line from Leeds, England to Cork, Ireland in 2021.",
  [("Northwind Tea moved its packing line from Leeds, UK to Cork, Ireland in 2021.", True),
   ("Northwind Tea moved its packing line from the United Kingdom to Cork, Ireland in 2021.", True),
   ("Northwind Tea moved its packing line from Cork, Ireland to Leeds, UK in 2021.", False)]),
 ("The conference takes place in Kyoto, Japan. The workshop day is held in Osaka.",
  [("The conference takes place in Kyoto, Japan.", True),
   ("The workshop day is held in Japan.", True),
   ("The conference takes place in Osaka, Japan.", False)]),
 ("Harbor Labs has offices in Edinburgh, Scotland and Cardiff, Wales.",
  [("Harbor Labs has offices in Edinburgh, UK and Cardiff, UK.", True),
   ("Harbor Labs has offices in Edinburgh, United Kingdom and Cardiff, Wales.", True),
   ("Harbor Labs has offices in Edinburgh, Wales and Cardiff, Scotland.", False),
   ("Harbor Labs has offices in Edinburgh, Ireland and Cardiff, Wales.", False)]),
 ("The plant near Lyon, Auvergne-Rhône-Alpes, employs 300 people.",
  [("The plant near Lyon, France, employs 300 people.", True),
   ("The plant near Lyon, Belgium, employs 300 people.", False),
   ("The plant near Lyon, France, employs 200 people.", False)]),
 ("Our support centre is in Toronto, Ontario.",
  [("Our support centre is in Toronto, Canada.", True),
   ("Our support centre is in Toronto, Quebec.", False),
   ("Our support centre is in Toronto, USA.", False)]),
]

TRAPS: list[Case] = [  # written after the rule's first version, before its guards: where the wider place says more
 ("Acme Robotics does not have a plant in Sheffield, England.",
  [("Acme Robotics does not have a plant in the United Kingdom.", False)]),
 ("The Vega camera is sold only in Texas.",
  [("The Vega camera is sold only in the USA.", False),
   ("The Vega camera is sold in the USA.", True)]),
 ("Employees in Texas get 20 days of leave.",
  [("Employees in the USA get 20 days of leave.", False)]),
 ("Shipping is free in Ontario.",
  [("Shipping is free in Canada.", False)]),
 ("Customers who live in Bavaria pay no delivery fee.",
  [("Customers who live in Germany pay no delivery fee.", False)]),
 ("In Scotland, the stores close at 8 pm.",
  [("In the UK, the stores close at 8 pm.", False)]),
 ("Staff based in Wales work a 35-hour week.",
  [("Staff based in the UK work a 35-hour week.", False)]),
 ("Brightline opened all of its stores in Bavaria on Sundays.",
  [("Brightline opened all of its stores in Germany on Sundays.", False)]),
 ("The company has 40 employees in Osaka.",
  [("The company has 40 employees in Japan.", False)]),
 ("Nadia Haddad was born in Cardiff, Wales in 1984.",
  [("Nadia Haddad was born in Cardiff, UK in 1984.", True)]),
 ("The 2024 summit was held in Kyoto.",
  [("The 2024 summit was held in Japan.", True)]),
 ("Greenway's warehouse is in Leeds, England, next to the rail depot.",
  [("Greenway's warehouse is in Leeds, UK, next to the rail depot.", True)]),
]

SETS = {"design": DESIGN, "held": HELD, "traps": TRAPS}


def rule_verdicts(cases: list[Case]) -> None:
    """The verdict the passage's words settle, per claim, with no call."""
    right = wrong = n_right = n_wrong = 0
    for passage, claims in cases:
        same = equal_forms(passage, ())
        for claim, entailed in claims:
            verdict = settled(passage, claim, same, None)
            said = verdict.label if verdict else "-"
            n_right += entailed
            n_wrong += not entailed
            right += entailed and said == "entailed"
            wrong += not entailed and said == "entailed"
            print(f"rule {'right' if entailed else 'wrong'} {said:<12} {claim}")
    print(f"rule: entails {right} of {n_right} right claims and {wrong} of {n_wrong} wrong ones")


async def judged(cases: list[Case]) -> None:
    store = ClaimStore(Judge(None))
    supports, labels = [], []
    for passage, claims in cases:
        for claim, entailed in claims:
            (found,) = await store.attribute([passage, "The weather was mild that year."], [claim])
            supports.append(found.support)
            labels.append(entailed)
            print(f"{'right' if entailed else 'wrong'} {found.support:.2f} {found.verdict.label:<12} {claim}")
    right = [s for s, r in zip(supports, labels, strict=True) if r]
    wrong = [s for s, r in zip(supports, labels, strict=True) if not r]
    print(f"AUC {roc_auc(supports, labels):.3f}; right at 0.5 or more {sum(s >= 0.5 for s in right)} of "
          f"{len(right)}; wrong under 0.5 {sum(s < 0.5 for s in wrong)} of {len(wrong)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=sorted(SETS))
    parser.add_argument("--rule-only", action="store_true", help="print the rule's verdicts only (no call)")
    parser.add_argument("--rule-off", action="store_true", help="leave every claim to the judge")
    args = parser.parse_args()
    if args.rule_off:
        import ragkit.evaluation._settled as settled_rules

        settled_rules.places_implied = lambda passage, claim: False  # type: ignore[assignment]
    rule_verdicts(SETS[args.set])
    if not args.rule_only:
        asyncio.run(judged(SETS[args.set]))


if __name__ == "__main__":
    main()
