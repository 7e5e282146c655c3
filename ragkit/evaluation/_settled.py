"""Verdicts the passage's own words settle, without a call to the judge.

Each rule reads one kind of fact that the small judge checks by its topic and gets wrong (bench/README.md):
- a claim equal (normalised) to a sentence of the passage, or to one of the passage's own claims, or one conjunct
  of a sentence as written (``_claim_text.conjunct_of``), is entailed, and so is one that is such a sentence but
  for a place it names by the region or country that holds it ("Sheffield, UK" for "Sheffield, England";
  ``_places``);
- a value of the passage's tables put in the row or column the table puts it is entailed, and one put in another
  row or column is contradicted (``_table_facts.placements``);
- a comparison of two things is entailed or contradicted by the passage's numbers of each (``_comparisons``);
- a value bounded the other way round from the passage ("at least 10 kg" against "up to 10 kg") is contradicted
  (``_bounds``), and so is a value counted over another period ("400 orders a week" against "a day"; ``_periods``),
  and a claim of several amounts one of which the passage counts only with other values (``_amounts``), and an
  amount put in a year the passage states it with nowhere ("2005年…销售额约3.6亿元" where 2005 is the founding year;
  ``_together``), and a clause of the passage said again with one of its values changed ("4호 매장을 열었다" against
  "2018년에 2호 매장을 열었다"; ``_restated``);
- what the passage denies, said as true, or what it says, denied, is contradicted (``_polarity``; not a denial
  under another condition than the claim's, nor one of a need: ``_hedges``), and what it denies,
  denied again whole of the same thing, is entailed (``_denials``), and so is the whole fact a sentence says of a
  group, denied of the thing its exception names (``_exceptions``); what it says of "most", said of "all", is
  neutral (``_quantifiers``);
- what the passage says moved away or ended ("moved from X to Y", "until 2019"), said in the present, is
  contradicted, and where it moved to, or who came after, said in the present, is entailed (``_status``); a state
  the passage tells in the past ("was the club's secretary"), said in the present, is neutral (``_former``), and so
  is a title without the qualifier the passage gives it ("director" for "acting director", 사장 for 부사장;
  ``_titles``), and so is a code name or a quoted value written nearly as the passage writes it, but not quite
  (``_literals``), and so is praise the passage never gives ("widely used", "powerful"; ``_praise``), and so is a
  version it never writes ("v3.1.0" where it writes v3.0.5; ``_versions``), and so is a
  thing of a list put in the place the list gives another ("the Ashby warehouse is in
  Northamptonshire" against "the Kettering warehouse in Northamptonshire and the Ashby warehouse in
  Leicestershire"; ``_bindings``), and where it does put it, said with nothing more, is entailed; an amount
  the passage gives two things together, said of one of them, is neutral (``_totals``); a person given the title a
  list of Chinese, Japanese or Korean titles gives them is entailed, and given another's title, neutral
  (``_holders``);
- two names in each other's places ("Tom reports to Priya" against "Priya reports to Tom") is contradicted
  (``_roles``); a duty where the passage gives a choice, or a choice for a duty, is neutral (``_modality``);
- what the passage says only of a thing's sibling, said of the thing, is neutral (``_siblings``), and so is what
  it says only of another person (``_people``), and what a changelog gives under another release's heading
  (``_releases``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.evaluation._amounts import amount_differs
from ragkit.evaluation._bindings import in_own_place, misplaced
from ragkit.evaluation._bounds import against_bound
from ragkit.evaluation._claim_text import conjunct_of, rule_language
from ragkit.evaluation._comparisons import as_compared_in, compared, comparison_witnesses
from ragkit.evaluation._denials import denied_again
from ragkit.evaluation._exceptions import excepted_again
from ragkit.evaluation._former import formerly
from ragkit.evaluation._holders import former_title, holds_title, title_of_another
from ragkit.evaluation._literals import written_otherwise
from ragkit.evaluation._modality import mode_changed
from ragkit.evaluation._people import said_of_another
from ragkit.evaluation._periods import against_period
from ragkit.evaluation._places import places_implied
from ragkit.evaluation._polarity import denied, read, readings
from ragkit.evaluation._praise import unsaid_praise
from ragkit.evaluation._quantifiers import overstated
from ragkit.evaluation._releases import said_of_another_release
from ragkit.evaluation._restated import other_value
from ragkit.evaluation._roles import swapped
from ragkit.evaluation._siblings import said_of_sibling
from ragkit.evaluation._status import arrived, ended
from ragkit.evaluation._table_facts import Placement, table_witnesses
from ragkit.evaluation._titles import unqualified
from ragkit.evaluation._together import bound_to_another_year
from ragkit.evaluation._totals import total_of_part
from ragkit.evaluation._verdicts import Verdict
from ragkit.evaluation._versions import unwritten_version
from ragkit.text import cjk_language, has_word, normalise

_ASKED = re.compile(r"^.*[?？]\s*(?=\S)", re.DOTALL)
"""A short answer's claim is its question and the answer ("Who does Nadia report to? Omar Kline reports to …")."""


def settled(passage: str, claim: str, same: set[str], placed: Placement | None, asked: str = "",
            question: str = "") -> Verdict | None:
    """The verdict on ``claim`` that ``passage`` settles by its words, or None for the judge. ``same`` holds the
    normalised sentences and claims of the passage; ``placed`` is the claim's placement in its tables; ``asked`` is
    the question the claim answers; ``question`` the one the passage answers, if it is an answer."""
    in_line = placed is not None and placed.in_line and _line_says(passage, claim, asked)
    if normalise(claim) in same or conjunct_of(passage, claim) or (placed is not None and placed.pinned) or \
            places_implied(passage, claim) or in_line:
        return Verdict(label="entailed")
    if placed is not None and placed.misplaced:
        return Verdict(label="contradicted")
    if by_numbers := compared(passage, claim):
        return Verdict(label=by_numbers)
    said = _ASKED.sub("", claim)  # what a short answer's claim says, without its question
    if against_bound(passage, claim) or against_period(passage, claim) or amount_differs(passage, claim, asked) or \
            denied(passage, said) or swapped(passage, said) or ended(passage, said, asked) or \
            bound_to_another_year(passage, said, asked) or other_value(passage, said):
        return Verdict(label="contradicted")
    denial = denied_again(passage, said)  # one reading for both its verdicts
    if overstated(passage, said) or mode_changed(passage, said) or formerly(passage, said, asked) or \
            unqualified(passage, said) or misplaced(passage, said) or total_of_part(passage, said) or \
            title_of_another(passage, said) or former_title(passage, said) or \
            written_otherwise(passage, said, asked) or unsaid_praise(passage, said, asked) or \
            unwritten_version(passage, said, question) or denial == "neutral":
        return Verdict(label="neutral")
    if arrived(passage, said, asked) or in_own_place(passage, said) or holds_title(passage, said) or \
            denial == "entailed" or excepted_again(passage, said):
        # before the sibling and people rules, which read the passage's other side or other thing
        return Verdict(label="entailed")
    if said_of_sibling(passage, claim) or said_of_another(passage, said) or said_of_another_release(passage, said):
        return Verdict(label="neutral")
    return None


def _line_says(passage: str, claim: str, asked: str) -> bool:
    """Whether a claim whose values stand in the one row or column it names (``Placement.in_line``) says no more:
    it denies nothing, and every word of it is the passage's or its question's ("해든 베이커리의 소금빵은
    2,900원이에요." of a menu table under "대표 메뉴", asked "해든 베이커리의 소금빵은 얼마인가요?"). The judge gave
    such right claims 0.6-0.7 (bench/README.md, session 64)."""
    language = rule_language(passage, claim)
    said = read(claim, language)
    known = {w for text in (passage, asked) for w in read(text, language).words}
    return not said.scopes and all(has_word(known, w) for w in said.words)


def as_said_in(text: str, claims: Sequence[str]) -> list[str]:
    """``claims`` split from ``text``, each one that the text itself contradicts replaced by the sentence of the text
    that holds most of its words. The 1.5B split turns a text round: "あおば運輸はひかり物流を買収した。" became
    "ひかり物流はあおば運輸を買収しました。", and a comparison "福岡支店の社員は札幌支店より多い。" its reverse
    (bench/README.md, sessions 45 and 46): claims the text never made, which would credit a wrong answer."""
    language = cjk_language(text) or "en"
    sentences = readings(text, language)

    def nearest(claim: str) -> str:
        words = set(read(claim, language).words)
        return max(sentences, key=lambda s: len(words & set(s[1].words)))[0]

    return [nearest(c) if sentences and (swapped(text, c) or denied(text, c)) else c
            for c in as_compared_in(text, claims)]


def witnesses(passages: Sequence[str], claim: str, asked: str = "") -> list[int]:
    """The passages on which a claim the rules settle stands: those whose tables hold its value, that give the values
    it compares, or that say where something moved to or who came after. Empty when no rule reads the claim; the
    passages' words, or the judge, then name them. A passage that only names the question's subject ("해든 베이커리는
    2016년에 문을 열었다.") is not one of them, though with the move it holds every word of the claim."""
    return table_witnesses(passages, claim) or comparison_witnesses(passages, claim) or \
        [k for k, p in enumerate(passages)
         if arrived(p, claim, asked) or in_own_place(p, claim) or holds_title(p, claim)]
