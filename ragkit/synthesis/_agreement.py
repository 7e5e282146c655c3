"""Whether the critic's judge and the reference answer agree: by their words first (numbers, then names, then
the overlap of the other words), and, where the words cannot tell, by where in the passage each answer stands."""

from __future__ import annotations

from typing import Literal

from ragkit.kg import mentioned_in
from ragkit.synthesis._checks import capitalised_names, found_in, informative
from ragkit.synthesis._writer import quote_source
from ragkit.text import as_written_in, asks_yes_or_no, is_yes_or_no, numbers, quantities, units


def new_numbers(text: str, question: str) -> set[str]:
    """The numbers of ``text`` but for the quantities the question itself states."""
    asked = set(quantities(question))  # "10 kg" and "10天" are not the "10年" of a question
    return {n for n, unit in quantities(text) if (n, unit) not in asked and (n, "") not in asked}


Agreement = Literal["agree", "unsure", "disagree"]


def agreement(own: str, reference: str, question: str, similarity: float) -> tuple[Agreement, str]:
    """Whether the judge's own short answer and the reference answer agree, by their words alone: "agree",
    "disagree", or "unsure" when the words cannot tell (the critic then asks the claim engine whether the reference
    gives the judge's answer).

    Numbers, then names, go first, whatever the overlap of the other words: a number of the judge's answer that the
    reference does not state ("5" against "4"; "1897" against "1879"; a quantity the question states, "10 years",
    does not count, but "10 days" in answer to it does), or names on both sides with none of either written in the
    other ("Paris" against "London"), disagree (a version is a number: "v0.5.1" against "v2.9.1"); a number the
    judge gives where the reference states none ("two toy metrics" against a reference that lists them) is left to
    the words. The judge's numbers all in a reference that states other numbers too are unsure: "5" is in "4, as the
    list has 5 items", which does not answer 5. Otherwise the two agree when half of one side's informative tokens
    (see ``informative``) are in the other, or when the judge's tokens are mostly in the reference (it names one of
    the things the question compares); with little overlap, an embedding cosine >= 0.8 (a paraphrase) is unsure, and
    below it they disagree. A bare "yes" or "no" is unsure when the question asks for one (it has no words to
    compare), and disagrees when the question asks for more.
    """
    if is_yes_or_no(own):  # "Yes" has no word in common with "네, 품질관리팀장이었습니다"
        if not asks_yes_or_no(question):  # "Yes" to "What is the maximum …?" answers nothing
            return "disagree", "a bare yes or no to a question that asks for more"
        return "unsure", "a bare yes or no"
    own = as_written_in(reference, own)  # "1.2 million" against a reference's "1,200,000" is one number
    own_numbers, ref_numbers = new_numbers(own, question), new_numbers(reference, question)
    stated = set(numbers(reference))
    if not stated:  # a count the reference never gives is no other value: the words decide
        own_numbers = set()
    if own_numbers and not own_numbers <= stated:
        return "disagree", f"numbers differ: {sorted(own_numbers)} vs {sorted(ref_numbers) or 'none'}"
    own_names, ref_names = capitalised_names(own, question), capitalised_names(reference, question)
    if own_names and ref_names and not _named_by(own_names, reference) and not _named_by(ref_names, own):
        return "disagree", f"names differ: {sorted(own_names)} vs {sorted(ref_names)}"
    if own_numbers:
        others = sorted(ref_numbers - own_numbers)
        return ("unsure", f"the reference also states {others}") if others else ("agree", "numbers agree")
    mine, theirs = informative(own, question), informative(reference, question)
    if mine and theirs:
        recall = max(sum(found_in(t, theirs) for t in mine) / len(mine), sum(found_in(t, mine) for t in theirs)
                     / len(theirs))
        if recall >= 0.5:
            return "agree", f"token overlap {recall:.2f}"
    own_tokens, ref_tokens = set(units(own)), set(units(reference))
    if own_tokens and not mine:
        contained = sum(found_in(t, ref_tokens) for t in own_tokens) / len(own_tokens)
        if contained >= 0.75:
            return "agree", f"judge's answer contained in the reference ({contained:.2f})"
    return ("unsure" if similarity >= 0.8 else "disagree"), f"cosine {similarity:.2f}"


def _named_by(names: set[str], text: str) -> bool:
    """Whether ``text`` mentions one of ``names`` (``mentioned_in``: word-bounded, in any case): a capital finds a
    name, but need not match it. "SnowNLP是一个python写的类库…受到了TextBlob的启发" names the Python of "SnowNLP 是一个…
    Python 类库", and adds TextBlob, which the reference does not deny (session 69 dropped two right references so)."""
    return any(mentioned_in(name, text) for name in names)


def in_more_detail(reference: str, own: str, evidence: list[str], passages: list[str], question: str) -> bool:
    """True when every number the reference states beyond the judge's answer stands in a passage line (a paragraph,
    a list item, a table row) that also holds the judge's evidence: the two answer from one spot of the passage,
    the reference in more detail. "2교대로 운영" (two shifts) against "1조는 오전 6시부터 오후 3시까지, 2조는 오후
    2시부터 오후 11시까지", both from "- 기장 로스팅 공장은 2교대로 운영합니다. 1조는 …". A reference whose other
    numbers stand elsewhere may answer another question, and the claim engine's verdict stands."""
    others = new_numbers(reference, question) - new_numbers(own, question)
    lines = [line for p in passages for line in p.splitlines() if line.strip()]
    for quote in evidence if others else []:
        i = quote_source(quote, lines)
        if i is not None and others <= set(numbers(lines[i])):
            return True
    return False
