"""The quality critic: every candidate sample passes it before the runner keeps it.

Checks, cheapest first (each LLM check runs only when every check before it passed):

1. ``invalid_sample``: empty question or answer, or reference contexts without a graph chunk id.
2. ``wrong_language`` / ``repeated_text`` / ``cut_short`` / ``first_person_answer``: the question or answer is not
   in the language of its source chunks (an answer that is a command they give, "pip install x", is in none), or
   has characters of a script that language is not written in and its contexts lack ("… a director of the公司"); it
   loops (a run of words three times); it stops inside a backtick or bracket it opened (the writer's quotation mark
   ended its JSON string); an English answer speaks as its source's author ("co-founded Acme with me").
3. ``mentions_context`` / ``unnamed_reference`` / ``copies_context``: the question points at its source ("the
   passage", "the example above", "本节"; see ``_pointers``), which the user of the system under test never saw,
   points back at something it never names ("What is its budget?", "该产品…"; in Chinese, Japanese and Korean,
   whose nouns take no article, any question that names nothing of the corpus: "员工在进入车间前需要做什么？"
   leaves open whose employees and which workshop; a Latin-script word the corpus writes names something there,
   in whatever case: "安装 pkuseg 的步骤是什么？") or at one of several documents of a kind ("the incident
   report" in a corpus with two), or copies a sentence (or most of itself) verbatim from a
   context. ``not_a_question``: a Korean, Japanese or Chinese question is a statement and asks nothing.
   ``names_the_asker``: the question is about its asker, the persona, whom no context mentions ("What version of
   Python does the software engineer use?").
   ``unattested_name``: a Japanese or Korean question names a compound the corpus never does, while its contexts
   qualify the same head otherwise ("콜롬비아 블렌드" beside 해운대 블렌드 and 달맞이 블렌드: ``_premise``), or, in
   any language, a person the corpus never names (a placeholder: "李四在什么情况下可以退款？").
   ``borrowed_record``: the reference gives a list item's or table row's facts under the name of another item of
   the same list (沈嘉禾 as "总经理，2018年起任职", the next line's 林晓雯: ``_records``).
4. ``answer_restates_question``: the reference answer only repeats the question's words.
5. ``near_duplicate``: the question is close (embedding cosine) to a question already kept, or its reference gives
   the number a kept sample's does, from the same sentence (``_repeats``).
6. ``not_answerable`` / ``single_passage``: one LLM call. The judge answers the question from the contexts alone,
   without seeing the reference answer (a small judge shown an answer tends to agree with it): it copies the
   sentences that answer the question, which must be found in the contexts, and gives a short answer, which must
   not only repeat the question (a keyword query that asks nothing: "MIT License" → "MIT License"). Samples
   with ``metadata["needs_passages"] = k`` (multi-hop) are dropped as ``single_passage`` when the judge's evidence
   comes from fewer than k passages; their questions asked together (the writer's, or split at question marks) are
   answered one per call. For samples that must not be answerable (``metadata["answerable"] is False``), the
   contexts are the reference contexts plus the graph chunks nearest to the question, and the sample is dropped as
   ``answerable`` when the judge finds an answer there.
7. ``wrong_answer``: the judge's answer and the reference must agree. ``_checks.agreement`` decides by their words
   when it can (differing numbers or names disagree); when it cannot (the reference states the judge's number
   among others: "4, as the list has 5 items" mentions "5" but does not answer it), the claim engine checks the
   judge's answer, restated with the question, against the reference: one more call, only then.
8. ``not_self_contained``: for a question with a pointing word ("it", "this", "该") that also names something, one
   LLM call that sees no document, only the question: can it be understood with no document at hand?
9. ``unsupported_reference``: the claim engine splits the reference answer into claims and checks them against
   the reference contexts read together, each headed by its document title and section (the faithfulness check
   the evaluation makes; the split is cached for it; ``_reference``). A claim the judge does not label supported
   drops the sample, and so does one it labels supported with a probability under ``reference_floor``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ragkit.evaluation import ClaimStore
from ragkit.kg import KnowledgeGraph
from ragkit.llm import Embeddings, Judge
from ragkit.synthesis._agreement import agreement, in_more_detail
from ragkit.synthesis._checks import (
    ambiguous_document,
    copies_context,
    distinct,
    korean_place_stems,
    latin_words,
    names_something,
    package_name,
    pointing,
    points_back,
    restates_question,
    writes_a_latin_name,
)
from ragkit.synthesis._critic_prompts import (
    CRITIC_PROMPT,
    QUESTION_CHECK_PROMPT,
    CriticInput,
    QuestionCheckInput,
)
from ragkit.synthesis._pointers import mentions_context
from ragkit.synthesis._premise import unattested_name, unattested_person
from ragkit.synthesis._records import borrowed_record
from ragkit.synthesis._reference import reference_check
from ragkit.synthesis._repeats import Repeats
from ragkit.synthesis._scenarios import VAGUE_TYPES
from ragkit.synthesis._writer import answer_source, asked_apart, quote_source, unlabelled
from ragkit.synthesis._written import Verdict, names_its_asker, states, written_checks, written_forms
from ragkit.text import CJK, CJK_CHAR, QUESTION_MARKS, asks_yes_or_no, is_yes_or_no, normalise_language, units, unspaced
from ragkit.types import TestSample


@dataclass
class Critic:
    """Reviews candidate samples for one generation run; remembers kept questions for duplicate checks."""

    kg: KnowledgeGraph
    judge: Judge | None
    embeddings: Embeddings
    duplicate_threshold: float = 0.9
    """Cosine similarity of question embeddings at or above which a candidate is a near-duplicate."""
    nearest_k: int = 3
    """Graph chunks nearest to the question that an unanswerable question is checked against."""
    llm_check: bool = True
    """The LLM checks (steps 6-9); off, only the cheap ones run."""
    claims: ClaimStore | None = None
    """The claim engine that checks reference answers; by default one on ``judge``."""
    check_reference: bool = True
    reference_floor: float = 0.0
    """The least support (the judge's probability of "supported") each claim of a kept reference answer needs,
    besides its label; 0: the label alone decides (``GenerateOptions.min_reference_support``)."""
    _repeats: Repeats = field(init=False, repr=False)
    _chunk_ids: list[str] | None = field(default=None, repr=False)
    _chunk_matrix: np.ndarray | None = field(default=None, repr=False)
    _typed_names: list[str] | None = field(default=None, repr=False)
    _entity_names: list[str] | None = field(default=None, repr=False)
    _naming_words: list[str] | None = field(default=None, repr=False)
    _titles: list[str] | None = field(default=None, repr=False)
    _corpus: str | None = field(default=None, repr=False)
    _lower_corpus: str | None = field(default=None, repr=False)
    _latin_words: set[str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._repeats = Repeats(self.embeddings, self.duplicate_threshold)
        if self.claims is None and self.check_reference and self.judge is not None:
            self.claims = ClaimStore(self.judge)

    def _named(self, sample: TestSample, forms: list[str]) -> bool:
        """Whether the question, in one of its written forms, names something (a typo may hide a name: "tablate");
        in Chinese, Japanese or Korean, a Latin word the corpus writes is a name in any case ("pkuseg 是…，它在哪些
        领域…" names what its "它" points back at)."""
        if any(names_something(q, self.naming_words()) for q in forms):
            return True
        return normalise_language(sample.language or "") in CJK and \
            any(writes_a_latin_name(q, self.corpus_latin_words()) for q in forms)

    def cheap_checks(self, sample: TestSample, compare_with: int | None = None) -> Verdict:
        """Every check except the LLM one (no LLM call); duplicates are looked for among the first
        ``compare_with`` kept samples (all when None)."""
        if not sample.question.strip() or not (sample.reference_answer or "").strip():
            return Verdict(False, "invalid_sample", "empty question or reference answer")
        for ref in sample.reference_contexts:
            if not ref.chunk_id or ref.chunk_id not in self.kg.g:
                return Verdict(False, "invalid_sample", f"reference context {ref.chunk_id!r} is not a graph chunk")
        verdict = written_checks(sample)
        if not verdict.ok:
            return verdict
        forms = written_forms(sample)
        if any(mentions_context(q) for q in forms):
            return Verdict(False, "mentions_context", f"the question refers to its source: {sample.question[:80]!r}")
        named = self._named(sample, forms)
        if not named and any(points_back(q) for q in forms):
            return Verdict(False, "unnamed_reference", f"the question points at something it never names: "
                           f"{sample.question[:80]!r}")
        phrase = next((a for q in forms if (a := ambiguous_document(q, self.document_titles()))), None)
        if phrase:
            return Verdict(False, "unnamed_reference", f"the question says {phrase!r}, and the corpus has several: "
                           f"{sample.question[:80]!r}")
        supporting = [r.text for r in sample.reference_contexts if not r.distractor]
        if copies_context(sample.question, supporting):
            return Verdict(False, "copies_context", f"the question copies the context: {sample.question[:80]!r}")
        if states(sample.question, normalise_language(sample.language or "")):
            return Verdict(False, "not_a_question", f"the question states and asks nothing: {sample.question[:80]!r}")
        if asker := names_its_asker(sample):
            return Verdict(False, "names_the_asker", f"the question is about its asker, {asker!r}, whom its "
                           "contexts never mention")
        if name := self.unattested_name(sample):
            return Verdict(False, "unattested_name", f"the question names {name}, and the corpus never does")
        # without articles, a Chinese, Japanese or Korean noun may be "the workshop" of one document: a question
        # there that names no company, person, place or code points at what it never names, as "the project" does
        if not named and normalise_language(sample.language or "") in CJK:
            return Verdict(False, "unnamed_reference", f"the question names nothing of the corpus: "
                           f"{sample.question[:80]!r}")
        if borrowed := self.borrowed_record(sample):
            return Verdict(False, "borrowed_record", f"the reference gives {borrowed}")
        if sample.metadata.get("answerable", True) is not False and \
                restates_question(sample.reference_answer or "", sample.question):
            return Verdict(False, "answer_restates_question",
                           f"the answer adds nothing to the question: {(sample.reference_answer or '')[:80]!r}")
        dup = self.duplicate_of(sample, compare_with)
        if dup is not None:
            return Verdict(False, "near_duplicate", f"close to kept sample {dup}")
        return Verdict(True)

    async def review(self, sample: TestSample, compare_with: int | None = None) -> Verdict:
        """All checks, cheapest first; the LLM checks (the critic's answer, the question check, the reference's
        split and check) each run only when every check before it passed."""
        await self.embeddings.aembed([sample.question])  # off the event loop; later lookups hit the memo
        verdict = self.cheap_checks(sample, compare_with)
        if not verdict.ok or not self.llm_check or self.judge is None:
            return verdict
        if sample.metadata.get("answerable", True) is False:
            verdict = await self._unanswerable_check(sample)
            return await self._question_check(sample, verdict.checks) if verdict.ok else verdict
        passages = [r.text for r in sample.reference_contexts if not r.distractor]
        verdict = await self._answer_check(sample, passages)
        if verdict.ok:
            verdict = await self._question_check(sample, verdict.checks)
        if verdict.ok:
            verdict = await self._reference_check(sample, verdict.checks)
        return verdict

    async def _answer(self, passages: list[str], question: str, *, affirm: bool = True) -> dict[str, Any]:
        """The judge's own answer from ``passages`` and what it cites: only evidence found in a passage, once, and
        no question, which answers nothing (a README's FAQ lists its questions, "为什么要发布pkuseg？", and the judge
        cited one and answered from its own knowledge; the sample was kept twice, session 72). A small judge
        sometimes leaves the evidence out (more often in Chinese), or cites it in words of its own, though its
        answer is a span of a passage: that span is then the evidence."""
        assert self.judge is not None
        out = await self.judge.structured(CRITIC_PROMPT, CriticInput(passages=passages, question=question))
        evidence = distinct([unlabelled(e) for e in out.evidence  # "[0] The Leeds bakery…", or "[0]" alone
                             if not e.strip().endswith(QUESTION_MARKS)])
        cited = [(e, i) for e in evidence if len(units(e)) >= 2 and (i := quote_source(e, passages)) is not None]
        if not cited:  # an answer copied from a passage is its own evidence
            source = answer_source(out.answer, question, passages, quoted=bool(evidence))
            cited = [(out.answer.strip(), source)] if source is not None else []
        if not cited and affirm and is_yes_or_no(out.answer) and asks_yes_or_no(question):
            cited = await self._affirmed(out.answer, question, passages)
        return {"evidence": [e for e, _ in cited], "judge_answer": out.answer.strip(),
                "evidence_passages": sorted({i for _, i in cited})}

    async def _affirmed(self, answer: str, question: str, passages: list[str]) -> list[tuple[str, int]]:
        """A bare "yes" or "no" cites no words, and the small judge often gives none ("이수민은 품질관리팀장이었는가?"
        → "Yes", while the passage says "조사 책임자는 품질관리팀장 이수민이며"): its evidence is the question with
        its answer, from the first passage in which the claim engine finds that entailed (one check per passage).
        Not for a question meant to be unanswerable: the engine reads "Q? Yes" by its topic, and there nothing else
        checks its word ("西湖区是春茶生产的主要市场吗？" → "是", labelled unanswerable, was found entailed)."""
        if self.claims is None:
            return []
        for i, text in enumerate(passages):
            verdict = await self.claims.check_answer(text, answer, question)
            if verdict.label == "entailed":
                return [(f"{question} {answer.strip()}", i)]
        return []

    async def _answers(self, passages: list[str], questions: list[str]) -> dict[str, Any]:
        """``_answer`` to each of several questions asked together (a multi-hop sample's two), one call each, merged:
        asked both at once, the 1.5B judge often answered the first alone and cited its passage (about 5 of 15
        multi-hop ``single_passage`` drops on corpora/acme and ko, session 39). A part it cannot answer leaves the
        whole without evidence. One question is ``_answer``'s."""
        if len(questions) == 1:
            return await self._answer(passages, questions[0])
        each = [await self._answer(passages, q) for q in questions]
        answered = all(c["evidence"] and c["judge_answer"] for c in each)
        return {"evidence": distinct([e for c in each for e in c["evidence"]]) if answered else [],
                "judge_answer": "; ".join(c["judge_answer"] for c in each if c["judge_answer"]),
                "evidence_passages": sorted({i for c in each for i in c["evidence_passages"]}) if answered else []}

    async def _unanswerable_check(self, sample: TestSample) -> Verdict:
        """A question meant to be unanswerable, asked against its contexts and the graph's nearest chunks."""
        known = {r.chunk_id for r in sample.reference_contexts}
        passages = [r.text for r in sample.reference_contexts if not r.distractor]
        passages += [self.kg.chunk(c).text for c in self.nearest_chunks(sample.question) if c not in known]
        checks = await self._answer(passages, sample.question, affirm=False)
        if checks["evidence"] and checks["judge_answer"]:
            return Verdict(False, "answerable", f"the corpus answers it: {checks['evidence'][0][:80]!r}", checks)
        return Verdict(True, checks=checks)

    async def _answer_check(self, sample: TestSample, passages: list[str]) -> Verdict:
        """The judge answers from the reference contexts; its evidence must come from enough passages, and its
        answer must not clearly disagree with the reference (``_checks.agreement``)."""
        needed = int(sample.metadata.get("needs_passages", 1))
        parts = asked_apart(sample) if needed >= 2 else [sample.question]
        checks = await self._answers(passages, parts)
        if not checks["evidence"] or not checks["judge_answer"]:
            return Verdict(False, "not_answerable", "the judge found no passage sentence answering it", checks)
        if restates_question(checks["judge_answer"], sample.question):
            # the passages gave the judge nothing to add: a keyword query that asks nothing ("MIT License"), or a
            # question holding its own answer; the reference's words beside it are the writer's, not an answer
            return Verdict(False, "not_answerable", f"the judge's answer only repeats the question: "
                           f"{checks['judge_answer'][:60]!r}", checks)
        if len(checks["evidence_passages"]) < needed:
            return Verdict(False, "single_passage", f"the judge answered it from passage "
                           f"{checks['evidence_passages']} alone; {needed} passages should be needed", checks)
        reference, own = sample.reference_answer or "", checks["judge_answer"]
        vectors = await self.embeddings.aembed([own, reference])
        agree, why = agreement(own, reference, sample.question, float(vectors[0] @ vectors[1]))
        checks["agreement"] = why
        if agree == "unsure" and self.claims is not None:
            verdict = await self.claims.check_answer(reference, own, sample.question)
            checks["reference_gives_answer"] = verdict.label
            if verdict.label == "neutral" and in_more_detail(reference, own, checks["evidence"], passages,
                                                             sample.question):
                checks["agreement"] = f"{why}; the reference tells the judge's evidence line in more detail"
            elif verdict.label != "entailed":
                why = f"{why}; the reference does not give it as the answer ({verdict.label})"
                agree = "disagree"
        if agree == "disagree":
            return Verdict(False, "wrong_answer", f"the judge answers {own[:60]!r} ({why})", checks)
        return Verdict(True, checks=checks)

    async def _question_check(self, sample: TestSample, checks: dict[str, Any]) -> Verdict:
        """One call without any document: can the question be understood on its own? Asked only of a question
        with a pointing word ("it", "this", "该") that also names something, which the patterns cannot settle
        ("What does Acme make, and where is it made?"): on the critic's labelled cases the 1.5B judge called
        questions with no such word "not self-contained" as often as it caught one (bench/README.md)."""
        assert self.judge is not None
        if not pointing(sample.question):
            return Verdict(True, checks=checks)
        out = await self.judge.structured(QUESTION_CHECK_PROMPT, QuestionCheckInput(question=sample.question))
        checks = {**checks, "self_contained": out.self_contained}
        if not out.self_contained:
            return Verdict(False, "not_self_contained", f"the question needs its source in view: "
                           f"{sample.question[:80]!r}", checks)
        return Verdict(True, checks=checks)

    async def _reference_check(self, sample: TestSample, checks: dict[str, Any]) -> Verdict:
        if self.claims is None:
            return Verdict(True, checks=checks)
        return await reference_check(self.claims, self.kg, sample, checks, self.reference_floor)

    def document_titles(self) -> list[str]:
        """Each document's title and file name, as one text (computed once)."""
        if self._titles is None:
            self._titles = [f"{d.title or ''} {Path(d.path).stem}" for d in self.kg.documents()]
        return self._titles

    def unattested_name(self, sample: TestSample) -> str | None:
        """A person an answerable question names and the corpus never does, in every form of the question (a
        typo the writer did not make is no new person); or, in Japanese and Korean, such a compound
        (``_premise``)."""
        if sample.metadata.get("answerable", True) is False:
            return None
        if self._corpus is None:
            self._corpus = unspaced("".join(c.text for c in self.kg.chunks()))
            self._lower_corpus = self._corpus.lower()
        language = normalise_language(sample.language or "")
        people = [unattested_person(q, self._lower_corpus or "", language) for q in written_forms(sample)]
        if all(people):
            return f"the person {people[0]}"
        if language not in ("ja", "ko"):
            return None
        return unattested_name(sample.question, [r.text for r in sample.reference_contexts], self._corpus, language)

    def borrowed_record(self, sample: TestSample) -> str | None:
        """A list item's or table row's facts that an answerable sample's reference gives under another item's
        name (``_records``)."""
        if sample.metadata.get("answerable", True) is False:
            return None
        contexts = [r.text for r in sample.reference_contexts if not r.distractor]
        names = [n for n in self.typed_names() if len(n) >= 2]  # one character is no name to tell a record by
        return borrowed_record(sample.reference_answer or "", sample.question, contexts, names)

    def typed_names(self) -> list[str]:
        """The graph's entity names of a known type (computed once)."""
        if self._typed_names is None:
            self._typed_names = [e.name for e in self.kg.entities() if e.type.strip().lower() not in VAGUE_TYPES]
        return self._typed_names

    def entity_names(self) -> list[str]:
        """The typed names in a CJK script (computed once): how a Chinese, Japanese or Korean question names
        something. A Latin-script name is told by its capital letter instead; the graph's Latin names include common
        words a tagger took for names ("Payload"), which would excuse "this payload"."""
        if self._entity_names is None:
            self._entity_names = [n for n in self.typed_names() if CJK_CHAR.search(n)]
        return self._entity_names

    def corpus_latin_words(self) -> set[str]:
        """The corpus's words in the Latin script, lower-cased (computed once): ``writes_a_latin_name``."""
        if self._latin_words is None:
            self._latin_words = set().union(*(latin_words(c.text) for c in self.kg.chunks()))
        return self._latin_words

    def naming_words(self) -> list[str]:
        """What names a question's subject besides a capitalised word or a code: the CJK entity names, and the
        name a document goes by when its title is a package's or tool's name: one word, or two joined by a hyphen,
        in lower case ("orjson", "tqdm"; "python" and "tabulate" of "python-tabulate"). A prose title
        ("Company Overview") or a file name made of one ("travel-and-expenses-policy") names no thing: its words
        would excuse "the policy". Korean place names also go without their administrative suffix (기장 of
        기장군: ``korean_place_stems``)."""
        if self._naming_words is None:
            parts = {p for d in self.kg.documents() for p in package_name(d.title or "")}
            places = korean_place_stems(c.text for c in self.kg.chunks() if c.language == "ko")
            self._naming_words = [*self.entity_names(), *sorted(parts), *sorted(places)]
        return self._naming_words

    # -- near-duplicates ------------------------------------------------------------------------------

    def duplicate_of(self, sample: TestSample, compare_with: int | None = None) -> str | None:
        """Id of a kept sample (among the first ``compare_with``) that the candidate repeats (``Repeats``)."""
        return self._repeats.repeat_of(sample, compare_with)

    def accept(self, sample: TestSample) -> None:
        """Remember a kept sample, so later repeats of it are dropped."""
        self._repeats.accept(sample)

    # -- nearest chunks -------------------------------------------------------------------------------

    def nearest_chunks(self, text: str) -> list[str]:
        """Ids of the ``nearest_k`` graph chunks most similar to ``text``."""
        if self._chunk_matrix is None:
            chunks = self.kg.chunks()
            missing = [c.text for c in chunks if not c.embedding]
            computed = iter(self.embeddings.embed(missing)) if missing else iter(())
            rows = [np.asarray(c.embedding, dtype=np.float32) if c.embedding else next(computed) for c in chunks]
            self._chunk_ids = [c.id for c in chunks]
            self._chunk_matrix = np.stack(rows) if rows else np.zeros((0, 1), dtype=np.float32)
        if not self._chunk_ids:
            return []
        sims = self._chunk_matrix @ self.embeddings.embed([text])[0]
        order = np.argsort(-sims)[: self.nearest_k]
        return [self._chunk_ids[i] for i in order]

