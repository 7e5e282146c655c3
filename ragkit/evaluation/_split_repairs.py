"""What the split's reply goes through before its claims are the text's: each step mends one way in which the 1.5B
split was seen to write a claim the text never made (the steps' docstrings give the cases)."""

from __future__ import annotations

from collections.abc import Sequence

from ragkit.evaluation._appositions import with_appositions
from ragkit.evaluation._asides import without_asides
from ragkit.evaluation._claim_text import (
    is_short_answer,
    keep_numbers,
    of_the_text,
    repair_copies,
    rest_at_cap,
    restate,
    tidy,
    untranslated,
    whole_at_cap,
    whole_at_quotes,
    without_cut_short,
)
from ragkit.evaluation._settled import as_said_in


def repaired(claims: Sequence[str], text: str, question: str | None, limit: int) -> list[str]:
    """The split's ``claims`` of ``text`` mended, at most ``limit`` of them and then the text they stop short of:
    words put back as the text writes them, a claim cut at the schema's length or at a quotation mark made whole, a
    number the split dropped kept, a claim the text contradicts replaced by its sentence, claims in another language
    or taken from the question dropped, asides left out and appositions added, the text after the ``limit``-th
    claim added as sentences (``rest_at_cap``); and a short answer to ``question`` made the one claim that restates
    the question with it."""
    out = repair_copies(whole_at_quotes(whole_at_cap(claims, text), text), text, question)
    out = without_cut_short(tidy(as_said_in(text, keep_numbers(out, text))))
    out = without_asides(of_the_text(untranslated(out, text, question), text, question))
    out = with_appositions(text, out)
    if len(claims) >= limit or len(out) > limit:  # the reply holds as many claims as it may: the rest is unsaid
        out = rest_at_cap(out[:limit], text)
    if out and question and is_short_answer(text, question):
        return [restate(question, text)]
    return out
