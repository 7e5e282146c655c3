"""A state the passage tells in the past, said in the present: "Ivy Stone is the club's secretary" against "Ivy Stone
was the club's secretary"; "赵磊是公司的财务总监" against "赵磊曾是公司的财务总监"; "-이다" against "-이었다"; "である"
against "だった".

The small judge reads such a claim by its words, all of which the passage holds: on a probe of 8 such claims in four
languages it called 7 entailed (0.45 to 1.00; bench/README.md, session 48). ``_status`` reads a state that ended by
its end ("until 2019", "moved from X to Y"); here the past form alone tells it, so the claim is unsupported, not
contradicted: the state may still hold, but the passage does not say so.

Read in each clause (commas and semicolons cut it, so "Martin Cole is its treasurer, and Ivy Stone was its secretary"
tells one state in each tense): a copula or "there is" told in the past ("was the …", "was in Leeds", 曾是, 曾任,
原是, 以前在, 前任, -이었다, -였다, 있었다, だった, であった, でした, にあった), not a past event ("was built in 1932",
"建于", "세워졌다", "建てられた"). The claim, told in the present with no year and no negation of its own, must hold
every word of the clause but its past markers ("once", 原来, 원래, もと), its numbers and how long the state lasted
("for twenty years", "20년 동안"), and say nothing the clause, its sentence's first clause (a Chinese clause leaves
its subject there) and the question do not. A sentence that says the
state still holds ("and still is", 现在, 지금, 今も), or another clause that says the claim in the present, leaves it
to the judge.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import holds, read
from ragkit.evaluation._status import CLAUSE_CUT, past
from ragkit.text import FUNCTION_WORDS, in_digits, morphemes, split_sentences, units

_CLAUSE = re.compile(CLAUSE_CUT.pattern + r"|\s+and\s+|\s+but\s+")
_YEAR = re.compile(r"(?:1[89]|20)\d\d")
_EN_PAST_BE = frozenset({"was", "were"})
_EN_ADVERBS = frozenset("once formerly previously originally also then briefly long".split())
_EN_PARTICIPLE = re.compile(r"(?:ed|en|wn)$")
_EN_IRREGULAR = frozenset("born built made held led run sold known given taken written found set put shut paid kept "
                          "left brought bought taught thought told sent spent won lost hit cut read begun done gone "
                          "seen shown grown drawn met hung struck sworn".split())
_ZH_FORMER = re.compile(r"曾经?(?:是|任|担任|为|在)|原(?:来|先)?(?:是|为|在)|(?:过去|以前|从前)(?:是|在)|前任")
_MARKERS = frozenset("was were once formerly previously originally 曾 经 原 来 先 前 任 是 为 过 去 以 "
                     "원래 예전 이전 과거 당시 もと 元 以前 かつて 当時".split())
"""Words that only tell the past or join the state to its holder: a claim in the present need not hold them."""
_DURATION = frozenset("year years month months week weeks decade decades day days 年 间 月 周 天 년 간 동안 개월 달 "
                      "間 ヶ月 か月 週間".split())
"""How long the past state lasted ("for twenty years", "20년 동안", "二十年間"), with its number: a claim in the
present need not hold it either."""
NOW = re.compile(r"\b(?:still|now|currently|today|remains?)\b|仍|现在|目前|如今|지금|현재|여전히|現在|今も|"
                    r"今でも|引き続き", re.IGNORECASE)
"""Words that say a state holds now: a clause with them tells no past state, and names the one who came after."""


def formerly(passage: str, claim: str, asked: str = "") -> bool:
    """Whether ``passage`` tells in the past the state that ``claim`` says in the present (see the module
    docstring). ``asked`` is the question the claim answers, whose words the claim may repeat."""
    language = rule_language(passage, claim)
    if _YEAR.search(claim) or past(claim, language):
        return False
    reading = read(claim, language)
    if reading.scopes or not reading.words:
        return False
    said, given = False, read(asked, language).words if asked else []
    for first, clauses in _states(passage, language):
        for words, own in clauses:
            if own is not None:
                if own and holds(reading.words, own) and holds(words + first + given, reading.words):
                    said = True
            elif holds(words, reading.words):
                return False  # the claim said in the present, or as an event, somewhere else
    return said


_Clause = tuple[list[str], "list[str] | None"]


@lru_cache(maxsize=16)
def _states(passage: str, language: str) -> tuple[tuple[list[str], tuple[_Clause, ...]], ...]:
    """Each sentence of ``passage``: its first clause's words, and each clause's words with, for a clause that tells
    a past state, the words a claim of it must hold (None for any other clause). Read once for all the claims
    checked; not to be changed."""
    out = []
    for sentence in split_sentences(passage):
        clauses = [c for c in _CLAUSE.split(sentence) if c.strip()]
        first = read(clauses[0], language).words if clauses else []
        read_clauses: list[_Clause] = []
        for clause in clauses:
            own = None
            if a_past_state(clause, language) and not _still(clause, clauses, language):
                own = [w for w in read(in_digits(clause), language).words if w not in _MARKERS and
                       w not in FUNCTION_WORDS and w not in _DURATION and not any(ch.isdigit() for ch in w)]
            read_clauses.append((read(clause, language).words, own))
        out.append((first, tuple(read_clauses)))
    return tuple(out)


def _still(clause: str, clauses: list[str], language: str) -> bool:
    """Whether the clause, or one of its sentence that adds nothing to it but "now" ("…, and still is"), says the
    state holds now. "It is now in the High Street" names another place: the old one is past."""
    if NOW.search(clause):
        return True
    words = read(clause, language).words
    for other in clauses:
        if other != clause and NOW.search(other):
            added = [w for w in read(NOW.sub(" ", other), language).words if w not in FUNCTION_WORDS]
            if all(holds(words, [w]) for w in added):
                return True
    return False


@lru_cache(maxsize=1024)
def a_past_state(clause: str, language: str) -> bool:
    """Whether the clause tells a state in the past (a copula or "there is"), not a past event."""
    if language == "en":
        tokens = units(clause)
        for i, t in enumerate(tokens):
            if t in _EN_PAST_BE:
                after = [w for w in tokens[i + 1 :] if w not in _EN_ADVERBS][:1]
                if after and not _EN_PARTICIPLE.search(after[0]) and after[0] not in _EN_IRREGULAR:
                    return True
        return False
    if language == "zh":
        return _ZH_FORMER.search(clause) is not None
    parsed = morphemes(clause, language) or []
    if language == "ko":
        tags = [f[0].split("+") for _, f, _ in parsed]
        words = [m for m, _, _ in parsed]
        return any(("VCP" in t or (words[i] == "있" and t[0] in ("VV", "VA"))) and
                   ("EP" in t or (i + 1 < len(tags) and tags[i + 1][0] == "EP")) for i, t in enumerate(tags))
    bases = [f[6] if len(f) > 6 else "" for _, f, _ in parsed]
    kinds = [f[0] for _, f, _ in parsed]
    return any(bases[i] == "た" and kinds[i] == "助動詞" and i > 0 and bases[i - 1] in ("だ", "です", "ある")
               for i in range(len(parsed)))
