"""What was so and is no longer, said as so now: "The Hamamatsu plant makes brakes" against "In 2015 brake production
moved from the Hamamatsu plant to the Kumamoto plant"; "Ellen Marsh is the chief executive" against "Ellen Marsh was
chief executive until 2019".

The small judge reads such a claim by its words, all of which the passage holds: on 21 such claims in four
languages it called 14 entailed (bench/README.md, session 46). Two forms are read, each in four languages:
- a move ("moved from X to Y", "从X迁到Y", "X에서 Y로 이전", "XからYへ移転"): a claim in the present that names X and
  not Y and shares a word with what moved ("brake") is contradicted;
- a state that ended ("until 2019", "至2019年", "2019년까지", "2019年まで", in a sentence told in the past or that
  says what came after, "その後"): a claim in the present, with no year of its own, whose words the clause holds, is
  contradicted.
A claim told in the past ("was", "曾", "-었-", "た") or with a year of its own is left to the judge.

The other side of each form is the state that holds now (``arrived``): "Brakes are made at the Kumamoto plant", or
"Daniel Reyes leads the company" after "…until 2019; since then Daniel Reyes has led the company". The judge
doubted such claims (a reference answer scored 0.44 to 0.49), and the rules for things said of a sibling or of
another person called some of them neutral: the passage does speak of the old place and the old holder. A claim in
the present that names the new side and not the old, and whose every word the move's clause or the after-clause
holds (with the question's words, and a verb of doing: "is done at", "负责", "맡다"), is entailed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import holds, read
from ragkit.text import FUNCTION_WORDS, morphemes, split_sentences, units

_YEAR = r"(?:1[89]|20)\d\d"
_UNTIL = {
    "en": re.compile(rf"\b(?:until|till)\s+(?:[A-Z][a-z]+\s+)?{_YEAR}\b"),
    "zh": re.compile(rf"(?:(?<!截)至|到|直到){_YEAR}年"),  # not 截至 ("as of")
    "ko": re.compile(rf"{_YEAR}년\s*(?:\d+월\s*)?까지"),
    "ja": re.compile(rf"{_YEAR}年(?:\d+月)?まで"),
}
_MOVED = {
    "en": re.compile(r"\bfrom\s+(?:the\s+)?(?P<x>[^,.;]+?)\s+to\s+(?:the\s+)?(?P<y>[^,.;]+?)"
                     r"(?=\s+in\s+\d|\s+on\s|[,.;]|$)"),
    "zh": re.compile(r"从(?P<x>[^，。；]+?)(?:转移|迁移|迁|搬迁|搬|移)(?:到|至|往)了?(?P<y>[^，。；]+)"),
    "ko": re.compile(r"(?P<x>[^\s,.]+(?:\s[^\s,.]+)?)에서\s+(?P<y>[^\s,.]+?(?:\s[^\s,.]+?)?)(?:으로|로)\s*"
                     r"(?:옮|이전|이관)"),
    "ja": re.compile(r"(?P<x>[^、。はがを]+?)から(?P<y>[^、。]+?)(?:へ|に)(?:移管|移転|移設|移し|移っ)"),
}
CLAUSE_CUT = re.compile(r"[;；,，、]")
"""Where a sentence's clauses meet: what the rules of a clause read apart."""
_EN_MOVE = re.compile(r"\b(?:moved|transferred|relocated|shifted)\b", re.IGNORECASE)
_EN_PAST = frozenset("was were had did formerly former previously ago used took left ran began became held "
                     "sold bought went came moved".split())
_EN_BE = frozenset("is are be been being get gets".split())
_ZH_PAST = re.compile(r"曾|过去|以前|原来|原先|此前|前任|原任|当时")
_AFTERWARDS = re.compile(r"\b(?:since then|after that|afterwards|thereafter)\b|此后|之后|以后|其后|이후|그 뒤|그 후|"
                         r"その後|以降", re.IGNORECASE)
"""Words that say a later state followed ("…until 2019; since then …", "…まで社長を務め、その後は…"): the state ended,
whatever the tense."""
_MOVE_WORDS = frozenset("moved transferred relocated shifted 转 移 迁 搬 至 到 年 月 옮 이전 이관 되 移管 移転 移設 "
                        "移す 移る".split())
"""Words of the move itself, and Chinese time units, which say nothing of what moved."""
_CHANGE = re.compile(r"\b(?:moved|transferred|relocated|shifted|until|till)\b|迁|搬|移|至|옮|이전|이관|까지|まで",
                     re.IGNORECASE)
"""Words that tell of a change: a second one about what moved ("…and moved back to Leeds in 2022") leaves the
present to the judge."""
_DOING = {
    "en": frozenset("do does done doing handle handles handled handling perform performs performed carry carries "
                    "carried out run runs lead leads".split()),
    "zh": frozenset("进 行 负 责 承 担 任 由 做".split()),  # characters, as Chinese is read
    "ko": frozenset("하 맡 담당 진행 처리 되".split()),
    "ja": frozenset("行 担当 担 扱 務 実施 する れる".split()),
}
"""Verbs that say only that the subject does what the clause names ("The Corby depot handles packaging" after
"packaging moved … to the Corby depot"; "한도윤이 영업본부장을 맡고 있다"): a claim may add them."""


def past(text: str, language: str) -> bool:
    """Whether ``text`` is told in the past: an English past form ("was", "chaired", but not the passive "are
    made"), a Chinese marker (曾, 以前), a Korean past ending (-었-/-았-/-였-), a Japanese た."""
    if language == "en":
        tokens = units(text)
        return any(t in _EN_PAST or (t.endswith("ed") and len(t) > 3 and (i == 0 or tokens[i - 1] not in _EN_BE))
                   for i, t in enumerate(tokens))
    if language == "zh":
        return _ZH_PAST.search(text) is not None
    parsed = morphemes(text, language) or []
    if language == "ko":
        return any("EP" in f[0].split("+") for _, f, _ in parsed)
    return any(f[0] == "助動詞" and len(f) > 6 and f[6] == "た" for _, f, _ in parsed)


def ended(passage: str, claim: str, asked: str = "") -> str | None:
    """How ``passage`` says that what ``claim`` says in the present is so no longer ("moved", "until"), or None.
    ``asked`` is the question the claim answers: the split puts the question's subject into a claim ("山口洋子が館長
    である" to "みどり図書館の館長は…" becomes "みどり図書館の館長は山口洋子である"), where the passage, about that
    subject, need not name it in the clause."""
    language = rule_language(passage, claim)
    if re.search(_YEAR, claim) or _UNTIL[language].search(claim) or past(claim, language):
        return None
    words = read(claim, language)
    if words.scopes:  # a negation ("no longer makes brakes") is the polarity rule's
        return None
    for sentence in split_sentences(passage):
        if _moved_away(sentence, words.words, language):
            return "moved"
        if _until(sentence, words.words, asked, language):
            return "until"
    return None


def _moved_away(sentence: str, claimed: list[str], language: str) -> bool:
    """Whether the sentence moves something from X to Y, and the claim names X, not Y, and a word of what moved."""
    if language == "en" and not _EN_MOVE.search(sentence):
        return False
    for found in _MOVED[language].finditer(sentence):
        origin, target = read(found.group("x"), language).words, read(found.group("y"), language).words
        only_target = [w for w in target if w not in origin]
        if not origin or not only_target or not holds(claimed, origin) or any(holds(claimed, [w]) for w in only_target):
            continue
        rest = read(sentence[: found.start()] + " " + sentence[found.end() :], language).words
        moved = [w for w in rest if w not in _MOVE_WORDS and w not in origin and w not in target
                 and w not in FUNCTION_WORDS and not w.isdigit() and (len(w) > 1 or language != "en")]
        if any(holds(claimed, [w]) for w in moved):
            return True
    return False


def _until(sentence: str, claimed: list[str], asked: str, language: str) -> bool:
    """Whether a clause of the sentence, told in the past, says how long something lasted, and holds the claim's
    words: all but those the question ``asked`` gives, and at least one it does not."""
    if not _UNTIL[language].search(sentence) or not (past(sentence, language) or _AFTERWARDS.search(sentence)):
        return False
    given = read(asked, language).words if asked else []  # read only here: few sentences end a state
    own = [w for w in claimed if not holds(given, [w])]
    for clause in CLAUSE_CUT.split(sentence):
        if not _UNTIL[language].search(clause):
            continue
        words = read(clause, language).words
        if holds(words, own) and holds(words + given, claimed):
            return True
    return False


_Side = tuple[list[str], list[str], list[str], list[str], bool]
"""What a move or a succession says holds now: the words a claim of it may use; the new place or holder, of which
it must name a word; what moved or passed on, of which it must name a word, or every word (the flag: a role that
passed on, "销售总监", where "刘芳是市场总监" names only 总监); and the old side."""


def arrived(passage: str, claim: str, asked: str = "") -> bool:
    """Whether ``passage`` says that what ``claim`` says in the present is so now: the claim names where something
    moved to, or who came after a state that ended, and nothing of the old side (see the module docstring).
    ``asked`` is the question the claim answers: the claim may repeat its words (the split writes "Tallow chairs are
    upholstered at …" after "Where are Tallow chairs upholstered?"), but not one the passage says of the old
    side."""
    language = rule_language(passage, claim)
    if re.search(_YEAR, claim) or _UNTIL[language].search(claim) or past(claim, language):
        return False
    words = read(claim, language)
    if words.scopes:
        return False
    given = read(asked, language).words if asked else []
    for sentence in split_sentences(passage):
        for side in [*_moves(sentence, language), *_successions(sentence, language, given)]:
            # the question's words are checked against the old side only for a claim that could say it
            if _says(words.words, side, given, language) and \
                    _says(words.words, side, _not_of(passage, sentence, side[3], given, language), language) and \
                    not _changed_again(passage, side[1] + side[2] + side[3], language):
                return True
    return False


@lru_cache(maxsize=16)
def _clause_words(passage: str, language: str) -> tuple[tuple[str, str, list[str]], ...]:
    """Each clause of ``passage`` with its sentence and its words, read once for all the claims checked; not to be
    changed."""
    return tuple((s, c, read(c, language).words) for s in split_sentences(passage) for c in CLAUSE_CUT.split(s))


def _changed_again(passage: str, what: list[str], language: str) -> bool:
    """Whether more than one clause tells of a change to what moved or passed on, or of the new or old side's."""
    return sum(1 for _, c, words in _clause_words(passage, language)
               if _CHANGE.search(c) and any(holds(words, [w]) for w in what)) > 1


def _not_of(passage: str, sentence: str, old: list[str], given: list[str], language: str) -> list[str]:
    """The question's words that no clause of ``passage`` naming the old side holds, outside the sentence read:
    "returns", asked of the Corby depot, is what the passage says the Leicester depot now handles."""
    clauses = [words for s, _, words in _clause_words(passage, language) if s != sentence]
    tainted = [w for words in clauses if any(holds(words, [o]) for o in old) for w in words]
    return [w for w in given if not holds(tainted, [w])]


def _says(claimed: list[str], side: _Side, given: list[str], language: str) -> bool:
    allowed, new, what, old, every = side
    named = [w for w in what if holds(claimed, [w])]
    return not any(holds(claimed, [w]) for w in old) and any(holds(claimed, [w]) for w in new) and \
        bool(named) and (not every or len(named) == len(what)) and \
        all(w in _DOING[language] or holds(allowed + given, [w]) for w in claimed)


def _moves(sentence: str, language: str) -> list[_Side]:
    """Each move of the sentence, read in its own clause ("Printing moved from Norwich to Ipswich, and binding stayed
    in Norwich" moved printing only)."""
    if language == "en" and not _EN_MOVE.search(sentence):
        return []
    out = []
    for clause in CLAUSE_CUT.split(sentence):
        for found in _MOVED[language].finditer(clause):
            origin, target = read(found.group("x"), language).words, read(found.group("y"), language).words
            old, new = [w for w in origin if w not in target], [w for w in target if w not in origin]
            rest = read(clause[: found.start()] + " " + clause[found.end() :], language).words
            moved = [w for w in rest if w not in _MOVE_WORDS and w not in FUNCTION_WORDS and not w.isdigit()]
            if old and new and moved:
                out.append((moved + target, new, moved, old, False))
    return out


def _successions(sentence: str, language: str, given: list[str]) -> list[_Side]:
    """A sentence that ends a state and says who came after ("…until 2022; since then Tom Braddock has led the sales
    team"): the after-clause's words; those it does not share with the ended part (the new holder); those it does
    (the role that passed on: "sales"), all of which a claim must name; and the ended part's own words that the
    question does not give (the old holder, not the firm that the question names)."""
    after = _AFTERWARDS.search(sentence)
    if after is None or not _UNTIL[language].search(sentence[: after.start()]):
        return []
    before = [w for w in read(_UNTIL[language].sub(" ", sentence[: after.start()]), language).words
              if w not in FUNCTION_WORDS and w not in _DOING[language] and not w.isdigit()]
    then = [w for w in read(sentence[after.end() :], language).words
            if w not in _MOVE_WORDS and w not in FUNCTION_WORDS and w not in _DOING[language]]
    new, role = [w for w in then if w not in before], [w for w in then if w in before]
    old = [w for w in before if w not in then and not holds(given, [w])]
    return [(then, new, role, old, True)] if old and new and role else []
