"""The shared claim engine: split texts into atomic claims, then check them, once per run.

Three primitives carry most metrics:

- ``split(text, question=...)``: one LLM call per text → atomic, self-contained claims in the text's language
  (pronouns resolved, lists taken apart, the answer entity kept), plus the named entities of the text. A short
  answer ("Oslo.") becomes one claim that restates the question with it, so that it can be checked on its own.
- ``attribute(passages, claims)``: one ``check`` per group of ≤ ``group_size`` claims against the retrieved
  contexts joined into one text → an ``Attribution`` per claim with the verdict on the set: a fact that needs two
  passages together (what the multi-hop generator asks) is supported by the set though by neither alone. With
  ``name_contexts`` (context precision, noise sensitivity), one more call with the contexts numbered names the
  contexts each claim needs.
- ``check(passage, claims, question=...)``: one LLM call per group → a ``Verdict`` per claim against one text, the
  reference or the response, read as an answer to the question. ``check_answer`` checks a short answer the same
  way (the test-set critic asks whether a reference gives its judge's answer).

A claim that states a number, and that the check finds the passage to speak about, is checked again by a cloze of
its numbers (``_values``: one more call per group), because the small judge verifies a claim by its topic and
misses a number taken from the neighbouring fact; the question's own numbers are not blanked.

A claim whose normalised text equals a claim or a sentence of the passage is supported without a call: an answer
identical to the reference scores 1.0 whatever the judge would have said. The passage's words settle other kinds
of claim without a call too (``_settled``: a conjunct of a sentence, a table's value, a comparison, a bound, a
sibling's fact), and the split keeps only the text's own claims (``_claim_text.of_the_text``). Everything is
memoised by content hash for the whole run in an asyncio-safe memo: concurrent requests for the same key await one
task, so faithfulness, context recall, noise sensitivity and the RAGChecker family on one sample split each text
once and check each claim list once.

``SampleClaims`` (in ``_metric_context``) is the per-sample view the metrics read, with its four claim checks.

The verdict types and the ``Score.details["claims"]`` payload live in ``_verdicts``, the prompts in
``_claim_prompts``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ragkit.evaluation._claim_prompts import (
    LABEL,
    SPLIT,
    AttributeInput,
    CheckInput,
    Judgement,
    SplitInput,
    attribute_prompt,
    check_prompt,
)
from ragkit.evaluation._claim_text import (
    MOST_CLAIMS,
    conjunct_of,
    equal_forms,
    holding,
    prompt_windows,
    restate,
    term_sets,
    tidy,
)
from ragkit.evaluation._settled import settled, witnesses
from ragkit.evaluation._split_repairs import repaired
from ragkit.evaluation._table_facts import placements
from ragkit.evaluation._together import dates_together, stated_together
from ragkit.evaluation._values import (
    ClozeAloneInput,
    ClozeInput,
    as_counted,
    as_kind,
    blanked,
    cloze_prompt,
    combined,
    dates_by_text,
    misread,
    options,
    stated_values,
    units_by_value,
)
from ragkit.evaluation._verdicts import Attribution, Verdict
from ragkit.evaluation._versions import versions_as_written
from ragkit.llm import Judge, content_key
from ragkit.text import as_written_in, in_digits, normalise, numbers

T = TypeVar("T")

SETTLED = 0.9
"""P(entailed) from the check above which a claim whose numbers the passage binds as it says gets no cloze."""

ENGINE_VERSION = "9"
"""Bumped when a prompt or a verdict rule changes: part of every memo key, so old cached results are never mixed in."""


def _settled(claim: str, verdict: Verdict, placed: set[str] | frozenset[str]) -> bool:
    """A claim the cloze could only confirm, already entailed with near certainty: every number it states is one
    the passage binds as it says (or the question states). Asking would cost a call and change little."""
    own = set(numbers(claim))
    return bool(own) and own <= placed and verdict.label == "entailed" and verdict.support >= SETTLED


# -- the store ------------------------------------------------------------------------------------


@dataclass
class ClaimStats:
    """What the claim engine did in a run."""

    split_calls: int = 0
    attribute_calls: int = 0
    check_calls: int = 0
    value_calls: int = 0
    """Cloze calls on the numbers of checked claims (``_values``)."""
    memo_hits: int = 0
    padded_verdicts: int = 0
    """Verdicts the judge left out (counted as neutral)."""


@dataclass(frozen=True)
class Split:
    """The claims and named entities of one text."""

    claims: list[str]
    entities: list[str]


class ClaimStore:
    """Memoised ``split`` and ``check`` for one run, shared by every metric and sample.

    Examples:
        >>> store = ClaimStore(judge)
        >>> claims = await store.split("Paris is the capital of France.", question="What is France's capital?")
        >>> verdicts = await store.check("Paris.", claims, question="What is France's capital?")
        >>> attributions = await store.attribute(["Paris is in France.", "Paris is the capital."], claims)
    """

    def __init__(self, judge: Judge, *, group_size: int = 8, max_claims: int = MOST_CLAIMS,
                 joint_contexts: bool = False, window_tokens: int = 3000, name_by_words: bool | None = None) -> None:
        self.judge = judge
        self.name_by_words = judge.settings.name_by_words if name_by_words is None else name_by_words
        """Name a claim's passages by its words when they settle it (``holding``); the judge's setting by default."""
        self.window_tokens = window_tokens
        self.joint_contexts = joint_contexts
        self.group_size = max(1, group_size)
        self.max_claims = max_claims
        self.stats = ClaimStats()
        self._memo: dict[str, asyncio.Future[Any]] = {}

    async def _once(self, key: str, make: Callable[[], Awaitable[T]]) -> T:
        """Run ``make()`` once per key; concurrent callers await the same task. Failures are not kept."""
        fut = self._memo.get(key)
        if fut is None:
            fut = asyncio.ensure_future(make())
            self._memo[key] = fut

            def forget_failure(done: asyncio.Future[Any], key: str = key) -> None:
                if done.cancelled() or done.exception() is not None:
                    if self._memo.get(key) is done:
                        del self._memo[key]

            fut.add_done_callback(forget_failure)
        else:
            self.stats.memo_hits += 1
        result: T = await asyncio.shield(fut)
        return result

    async def split_full(self, text: str, question: str | None = None) -> Split:
        """Claims and entities of ``text`` (one LLM call, memoised)."""
        if not text.strip():
            return Split([], [])
        key = content_key("split", ENGINE_VERSION, self.judge.model, text.strip(), question or "")

        async def run() -> Split:
            self.stats.split_calls += 1
            out = await self.judge.structured(SPLIT, SplitInput(question=question or "(none)", text=text.strip()))
            return Split(repaired(out.claims, text, question, self.max_claims), tidy(out.entities))

        return await self._once(key, run)

    async def split(self, text: str, question: str | None = None) -> list[str]:
        """Atomic, self-contained claims of ``text`` in its language (one LLM call per text, memoised)."""
        return (await self.split_full(text, question)).claims

    async def entities(self, text: str, question: str | None = None) -> list[str]:
        """Named entities of ``text``; they come with the split, so they cost no extra call."""
        return (await self.split_full(text, question)).entities

    async def check(self, passage: str, claims: Sequence[str], *, question: str | None = None,
                    known: Sequence[str] = (), asked: str | None = None, valued: str | None = None) -> list[Verdict]:
        """A verdict per claim against ``passage``, read as an answer to ``question``.

        A claim's numbers and versions are first written as the passage writes the same values
        (``as_written_in``, ``versions_as_written``). A claim the passage's words settle is given its verdict
        without a call (``_settled``: a sentence of the passage or one of ``known``, its own claims; a table's
        value in its place or out of it; a comparison; a bound turned round; a negation dropped or added, or
        "all" for "most"; a sibling's fact); the others go to the judge in groups of ≤ ``group_size``, memoised.
        The numbers of a claim the passage speaks of are checked again by a cloze (``_values``), but for those
        of ``asked``, the question the claims answer (``question`` by default), in ``valued`` (the passage by
        default).
        """
        if not passage.strip():
            return [Verdict(label="neutral") for _ in claims]
        claims = [versions_as_written(passage, as_written_in(passage, c)) for c in claims]
        same = equal_forms(passage, known)
        asked = (asked if asked is not None else question) or ""
        verdicts = [settled(passage, c, same, t, asked, question or "")
                    for c, t in zip(claims, placements(passage, claims), strict=True)]
        ask = [c for c, v in zip(claims, verdicts, strict=True) if v is None]
        results = await asyncio.gather(*(self._check_group(passage.strip(), question or None, g, asked,
                                                           (valued or passage).strip()) for g in self._groups(ask)))
        judged = iter(v for part in results for v in part)
        return [v if v is not None else next(judged) for v in verdicts]

    async def check_answer(self, passage: str, answer: str, question: str) -> Verdict:
        """Whether ``passage``, an answer to ``question``, gives the short ``answer`` to it: the answer restated
        with the question (as ``split`` restates a short answer) and checked as one claim."""
        (verdict,) = await self.check(passage, [restate(question, answer)], question=question)
        return verdict

    def _groups(self, claims: list[str]) -> list[list[str]]:
        """``claims`` in consecutive groups of ≤ ``group_size``: one judge call each."""
        return [claims[i : i + self.group_size] for i in range(0, len(claims), self.group_size)]

    async def _check_group(self, passage: str, question: str | None, claims: list[str], asked: str,
                           valued: str) -> list[Verdict]:
        key = content_key("check", ENGINE_VERSION, self.judge.model, passage, question, claims, asked, valued)

        async def run() -> list[Verdict]:
            self.stats.check_calls += 1
            scored = await self.judge.structured_scored(
                check_prompt(len(claims)), CheckInput(question=question or "(none)", passage=passage, claims=claims))
            values = [getattr(scored.output, f"c{i}", None) for i in range(len(claims))]
            probs = [scored.label(str(i)) for i in range(len(claims))]
            verdicts = [self._verdict(v, p) for v, p in zip(values, probs, strict=True)]
            labels = [_distribution(v, p) for v, p in zip(values, probs, strict=True)]
            return await self._values(passage, question, claims, verdicts, labels, asked, valued)

        return await self._once(key, run)

    async def _values(self, passage: str, question: str | None, claims: list[str], verdicts: list[Verdict],
                      labels: list[dict[str, float]], asked: str, valued: str) -> list[Verdict]:
        """The verdicts of claims that state a number and that the passage speaks of, read again with a cloze
        of their numbers (``_values``): one call for the group. A choice that tells nothing (``misread``) is set
        aside: another number for a value that a table puts where the claim's names point (``placements``) or
        that one clause of the passage states as the claim does (``stated_together``), or a date that one sentence
        gives with the claim's other numbers (``dates_together``). Among a table's many numbers
        the cloze picked a neighbouring cell's, and given a year and an amount it filled the year's blank with the
        amount, and so contradicted right claims. It may still confirm them."""
        dated = [dates_together(c, passage) for c in claims]
        placed = [set(numbers(c)) | dated[i] if dated[i] or stated_together(c, passage)
                  else t.placed if t is not None else frozenset()
                  for i, (c, t) in enumerate(zip(claims, placements(passage, claims), strict=True))]
        given = set(numbers(asked))
        ask = [v.label != "neutral" and not v.padded and not _settled(c, v, placed[i] | given)
               for i, (c, v) in enumerate(zip(claims, verdicts, strict=True))]
        stated = stated_values(passage)
        statements, holes = blanked(claims, ask, stated, asked)
        if not holes:
            return verdicts
        self.stats.value_calls += 1
        text, blanks = in_digits(valued), "\n".join(statements)
        scored = await self.judge.structured_scored(
            cloze_prompt(len(holes), options(stated, holes), asked=question is not None),
            ClozeInput(question=question, passage=text, statements=blanks) if question is not None
            else ClozeAloneInput(passage=text, statements=blanks))
        chosen: dict[int, list[tuple[dict[str, float], str]]] = {}
        units, dates = units_by_value(passage), dates_by_text(passage)  # read once for every blank of the group
        for k, hole in enumerate(holes):
            value = getattr(scored.output, f"c{k}", None)
            if value is None:  # a blank left out gives no evidence
                continue
            distribution = as_counted(as_kind(_distribution(value, scored.label(str(k))), hole, dates), hole, units)
            if misread(hole, max(distribution, key=distribution.__getitem__), placed[hole.claim]):
                continue
            chosen.setdefault(hole.claim, []).append((distribution, hole.value))
        return [combined(labels[i], [d for d, _ in chosen[i]], [v for _, v in chosen[i]]) if i in chosen else v
                for i, v in enumerate(verdicts)]

    def _verdict(self, value: Judgement | None, prob: Any) -> Verdict:
        """A label from the judge (None: left out, counted as neutral) with its probability when known."""
        if value is None:
            self.stats.padded_verdicts += 1
            return Verdict(label="neutral", padded=True)
        p = prob.expected({"supported": 1.0}) if prob is not None else None
        return Verdict(label=LABEL[Judgement(value).value], p=p)

    async def attribute(self, passages: Sequence[str], claims: Sequence[str], *, name_contexts: bool = False,
                        asked: str | None = None) -> list[Attribution]:
        """An ``Attribution`` per claim against the passages read together.

        A claim equal (normalised) to a sentence of passage k is attributed to k without a call. For the others,
        the verdict on the set is a ``check`` against the passages joined into one (a fact that needs two of
        them is stated there); passages over the prompt budget are joined in windows, and a claim keeps its
        best-supported window. ``name_contexts`` adds one call per claim group, with the passages numbered, that
        names the passages each claim needs (what per-chunk metrics read). The set verdict does not come from that
        numbered form: on the validity cases a small judge called claims "supported" by on-topic distractors far
        more often there than against the joined text (bench/README.md).
        """
        claims = list(claims)
        passages = [p.strip() for p in passages]
        if not any(passages):
            return [Attribution(verdict=Verdict(label="neutral")) for _ in claims]
        sentences = [equal_forms(p, ()) for p in passages]
        found: list[Attribution | None] = [None] * len(claims)
        for i, claim in enumerate(claims):
            ks = [k for k, sents in enumerate(sentences)
                  if normalise(claim) in sents or conjunct_of(passages[k], claim)]
            if ks:
                found[i] = Attribution(verdict=Verdict(label="entailed"), by=ks[:1])
        ask = [c for c, a in zip(claims, found, strict=True) if a is None]
        windows = prompt_windows(passages, self.window_tokens)
        verdicts = await self._joined(passages, windows, ask, asked)
        named: list[list[int]] = [[] for _ in ask]
        if name_contexts and ask:
            joined = "\n\n".join(passages)  # numbers and times as the passages write them, for their words
            named = await self._name(passages, windows, [as_written_in(joined, c) for c in ask], verdicts, asked)
        judged = iter(Attribution(verdict=v, by=by) for v, by in zip(verdicts, named, strict=True))
        return [a if a is not None else next(judged) for a in found]

    async def _joined(self, passages: list[str], windows: list[list[int]], claims: list[str],
                      asked: str | None) -> list[Verdict]:
        """Each claim checked against the passages joined into one text (per window; the best window wins)."""
        if not claims:
            return []
        # the cloze reads only passages with a value: one without, after the value's, made it answer "none" (session 61)
        per_window = await asyncio.gather(*(self.check(
            "\n\n".join(passages[k] for k in w), claims, asked=asked,
            valued="\n\n".join(passages[k] for k in w if stated_values(passages[k]))) for w in windows))
        return [max((got[i] for got in per_window), key=_strength) for i in range(len(claims))]

    async def _name(self, passages: list[str], windows: list[list[int]], claims: list[str],
                    verdicts: list[Verdict], asked: str | None) -> list[list[int]]:
        """The passages each claim stands on: none for a claim the set neither supports nor contradicts (not asked
        about); with ``name_by_words``, the passages a rule settles it on (``_settled.witnesses``: a table rarely
        names what it is about, so the words point at the passage that does), else by its words when
        they settle it (``holding``), which named passages better than the embedded 1.5B judge on the validity
        cases and on RAGChecker's per-chunk labels (bench/README.md); else by the judge, in groups of ≤
        ``group_size`` claims."""
        terms = term_sets(passages) if self.name_by_words else None

        def settled(claim: str, verdict: Verdict) -> list[int] | None:
            if verdict.label == "neutral":
                return []
            if terms is None:
                return None
            return witnesses(passages, claim, asked or "") or holding(claim, terms)

        named = [settled(c, v) for c, v in zip(claims, verdicts, strict=True)]
        ask = [c for c, by in zip(claims, named, strict=True) if by is None]
        results = await asyncio.gather(*(self._attribute_windows(passages, windows, g) for g in self._groups(ask)))
        by_judge = iter(a.by for part in results for a in part)
        return [by if by is not None else next(by_judge) for by in named]

    async def _attribute_windows(self, passages: list[str], windows: list[list[int]],
                                 claims: list[str]) -> list[Attribution]:
        per_window = await asyncio.gather(*(self._attribute_group([passages[k] for k in w], claims)
                                            for w in windows))
        out = []
        for i in range(len(claims)):
            options = [Attribution(verdict=got[i].verdict, by=[w[k] for k in got[i].by if k < len(w)])
                       for w, got in zip(windows, per_window, strict=True)]
            out.append(max(options, key=lambda a: _strength(a.verdict)))
        return out

    async def _attribute_group(self, passages: list[str], claims: list[str]) -> list[Attribution]:
        key = content_key("attribute", ENGINE_VERSION, self.judge.model, passages, claims)

        async def run() -> list[Attribution]:
            self.stats.attribute_calls += 1
            scored = await self.judge.structured_scored(attribute_prompt(len(claims), len(passages)),
                                                        AttributeInput(passages=passages, claims=claims))
            out = []
            for i in range(len(claims)):
                item = getattr(scored.output, f"c{i}", None)
                verdict = self._verdict(item.verdict if item else None, scored.label(str(i), "verdict"))
                by = sorted(set(item.passages)) if item and verdict.label != "neutral" else []
                out.append(Attribution(verdict=verdict, by=by))
            return out

        return await self._once(key, run)


def _distribution(value: Any, prob: Any) -> dict[str, float]:
    """The probability of each label the judge could write: from its log-probabilities, else all on ``value``."""
    if prob is not None:
        return dict(prob.distribution)
    return {str(getattr(value, "value", value)): 1.0} if value is not None else {}


def _strength(verdict: Verdict) -> tuple[float, bool]:
    """Which of a claim's verdicts over prompt windows wins: the best support, then a contradiction."""
    return verdict.support, verdict.label == "contradicted"
