"""A candidate that repeats a kept sample: a question near a kept one with an answer that does not disagree, or one
fact asked twice.

Two samples whose reference answers give the same number from the same sentence ask one fact. Questions on it can
be far apart as embeddings when they ask it of different names: "한빛커피는 언제 창업했나?" (→ 2013년 5월) and
"정다은 대표가 창업한 년도는?" (→ 2013년) both read "정다은 대표가 2013년 5월에 창업". A test set that asks it
twice measures one fact twice and another not at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ragkit.llm import Embeddings
from ragkit.synthesis._agreement import agreement, new_numbers
from ragkit.synthesis._written import written_forms
from ragkit.text import number_spans, number_value, split_sentences, units
from ragkit.types import TestSample


@dataclass
class Repeats:
    """The samples kept so far, by their questions' and answers' embeddings and the facts their answers give."""

    embeddings: Embeddings
    threshold: float
    """Cosine similarity of question embeddings at or above which a candidate is a near-duplicate, unless the two
    answers disagree."""
    _kept: list[TestSample] = field(default_factory=list, repr=False)
    _asked: list[set[tuple[str, ...]]] = field(default_factory=list, repr=False)
    _forms: list[np.ndarray] = field(default_factory=list, repr=False)
    _answers: list[np.ndarray] = field(default_factory=list, repr=False)
    _facts: list[Fact | None] = field(default_factory=list, repr=False)

    def repeat_of(self, sample: TestSample, compare_with: int | None = None) -> str | None:
        """Id of a kept sample (among the first ``compare_with``) that the candidate repeats: its question is near
        (each side taken as kept and as the writer wrote it, ``written_forms``: typos and search keywords, added
        after writing, move an embedding enough to hide a repeat, "primary npm registry" against "What is the
        primary npm registry used by npm doctor?": 0.81 as kept, 0.90 as written) and is the same question in
        the same words, or the answers do not disagree; or it asks the same fact."""
        kept = self._forms[:compare_with] if compare_with is not None else self._forms
        if not kept:
            return None
        written = written_forms(sample)
        forms = self.embeddings.embed(written)
        sims = [float((k @ forms.T).max()) for k in kept]
        asked = {tuple(units(q)) for q in written}
        for i in sorted(range(len(kept)), key=lambda i: -sims[i]):
            if sims[i] < self.threshold:
                break
            if asked & self._asked[i] or not self._answers_differ(sample, i):  # one question asked twice repeats
                return self._kept[i].id
        fact = answered_fact(sample)
        same = [i for i, f in enumerate(self._facts[:len(kept)]) if fact and f and fact.same_as(f)]
        return self._kept[same[0]].id if same else None

    def _answers_differ(self, sample: TestSample, i: int) -> bool:
        """Whether the candidate's reference and kept sample ``i``'s disagree each way (other numbers, other names,
        or few words in common and a low cosine: ``agreement``). Their questions then ask different things, however
        near: "부산에서 로스팅 공장은 언제 견학하는지?" (the tours, 10시) and "취업규칙에서 기장 로스팅 공장의 근무
        시간은 어떻게 정해져 있나요?" (the shifts, 6시–3시) are 0.91 apart as embeddings."""
        mine, other = sample.reference_answer or "", self._kept[i]
        theirs = other.reference_answer or ""
        similarity = float(self.embeddings.embed([mine])[0] @ self._answers[i])
        return agreement(mine, theirs, sample.question, similarity)[0] == "disagree" and \
            agreement(theirs, mine, other.question, similarity)[0] == "disagree"

    def accept(self, sample: TestSample) -> None:
        """Remember a kept sample: its question's forms, its answer and the fact the answer gives."""
        written = written_forms(sample)
        self._kept.append(sample)
        self._asked.append({tuple(units(q)) for q in written})
        self._forms.append(self.embeddings.embed(written))
        self._answers.append(self.embeddings.embed([sample.reference_answer or ""])[0])
        self._facts.append(answered_fact(sample))


@dataclass(frozen=True)
class Fact:
    """Where a reference answer's numbers stand (chunk id and sentence) and which numbers they are."""

    places: frozenset[tuple[str, str]]
    values: frozenset[str]

    def same_as(self, other: Fact) -> bool:
        """Both stand in one sentence, and one's numbers are among the other's ("2013" and "2013, 5")."""
        return bool(self.places & other.places) and (self.values <= other.values or other.values <= self.values)


_ASKS_A_NUMBER = re.compile(
    r"\bwhen\b|\bhow\s+(?:many|much|long|old|often|far|large|big|high)\b"
    r"|\b(?:what|which)\s+(?:year|date|month|day|time|percentage|share|number|amount|price|version)\b"
    r"|何时|什么时候|哪一?[年月天日]|几(?!乎)|多少|多[大长久高远重]|年份|日期|时间"
    r"|いつ|何[年月日時人回歳個台件割]|いくつ|いくら|どのくらい|どれくらい"
    r"|언제|몇|얼마|년도|연도|날짜|일자|시기|기간",
    re.IGNORECASE,
)
"""A question that asks for a number, a date or a time: "when", "how many", "what year", 何时, 多少, いつ, 何人,
언제, 몇, and the Korean nouns a question asks by ("창업한 년도는?")."""


def answered_fact(sample: TestSample) -> Fact | None:
    """The sentences of the sample's own contexts (not its distractors) that hold every number its reference gives
    beyond those the question states, each number once. None unless the question asks for a number, a date or a
    time and the sample is meant to be answerable, or when the reference gives no such number or no sentence holds
    them all. A number written twice in a sentence ("2016년 입사" of two people in one row) does not
    tell which of its facts is asked."""
    if not _ASKS_A_NUMBER.search(sample.question) or sample.metadata.get("answerable", True) is False:
        return None  # a number the answer states on the way is not what it answers; nor is a fact not there
    values = frozenset(new_numbers(sample.reference_answer or "", sample.question))
    if not values:
        return None
    own = [(ref.chunk_id, ref.text) for ref in sample.reference_contexts if ref.chunk_id and not ref.distractor]
    places = frozenset((chunk_id, sentence) for chunk_id, text in own if chunk_id
                       for sentence in split_sentences(text) if _holds_once(sentence, values))
    return Fact(places, values) if places else None


def _holds_once(sentence: str, values: Iterable[str]) -> bool:
    found = [number_value(sentence[a:b]) for a, b in number_spans(sentence)]
    return all(found.count(v) == 1 for v in values)
