"""A claim that names a place by the region or country that holds it, where the passage names the place itself.

"Acme's main plant is located in Sheffield, UK." against "Acme's main plant is located in Sheffield, England." is
the same fact. The small judge calls it contradicted, as it does "Munich, Germany" against "Munich, Bavaria" and
"Austin, USA" against "Austin, Texas" (0.02–0.35; bench/README.md, session 55): the check prompt names "another
place" as a contradiction, and the judge reads any other place name as one. The README's main job scored such an
answer's factual correctness 0.11.

A place here is a country or a subdivision of one (ISO 3166, from ``pycountry``: "England" and "Sheffield" in the
United Kingdom, "Texas" in the United States, "Bavaria" in Germany, "Osaka" in Japan), by its English name or a
common short form ("UK", "USA"). A name that stands for two places ("Georgia", "Limburg") is none. Places are read
in chains, names joined by commas ("Sheffield, England", "Austin, Texas"). A claim's chain is implied by a passage
chain when each of its names is in the passage chain, or is a place that holds one of the passage chain's places:
"Sheffield, UK" and "the United Kingdom" by "Sheffield, England"; "Sheffield, England" by "Sheffield, UK" too, as
ISO 3166 puts Sheffield in England. The claim is entailed when, with its chains written as passage chains that
imply them, it is a sentence of the passage, or one conjunct of one (``_claim_text.conjunct_of``): so the rest of
the claim must be the passage's words, and "moved from the UK to Cork" is read against where the passage says the
move began. English only: in Chinese, Japanese and Korean the judge read "中国杭州" against "浙江省杭州市" as stated.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache

from ragkit.evaluation._claim_text import conjunct_of, rule_language
from ragkit.evaluation._hedges import conditioned
from ragkit.evaluation._polarity import read
from ragkit.text import normalise, split_sentences

_SHORT_FORMS = {  # English short forms of countries that ISO 3166 names otherwise (facts, not a list to tune)
    "GB": ("UK", "U.K.", "Britain", "Great Britain"),
    "US": ("US", "U.S.", "USA", "U.S.A.", "United States of America"),
    "KR": ("Korea",), "RU": ("Russia",), "TR": ("Turkey",), "CZ": ("Czech Republic",), "NL": ("the Netherlands",),
}
_CN_SUFFIX = re.compile(r" (?:Sheng|Shi|Zizhiqu|Huizu Zizhiqu|Zhuangzu Zizhiqu|Weiwu'er Zizhiqu)$")
"""A Chinese province's name in ISO 3166-2 carries its type ("Zhejiang Sheng"); English writes "Zhejiang"."""
_WORD = r"[A-Z](?:[\w'’-]|\.(?=[A-Z]))*\.?"  # "Sheffield", "Baden-Württemberg", "U.K."
_MEMBER = rf"{_WORD}(?:(?<!\.) (?:of |the |upon |on |de |du |la )?{_WORD})*"  # not on past a full stop
_CHAIN = re.compile(rf"(?:\bthe )?{_MEMBER}(?:, {_MEMBER})*")
_ABBREVIATION = re.compile(r"\b[A-Z]\.(?:[A-Z]\.)+$")  # "U.K.", whose last point is its own
_MAX_CHAINS = 3
_WHERE = re.compile(  # a predicate of where the subject or a past event is: the place stands as its object
    r"(?:\b(?:located|based|headquartered|situated|founded|born|lives?|lived|resides?|resided|moved?|moves|"
    r"relocated?|relocates|opened|opens|built|made|manufactured|produced|assembled|developed|designed|sold|"
    r"available|held|hosted|registered|incorporated|place|comes?|came)(?: (?![\w'’-]*\d)[\w'’-]+){0,3}?|"
    r"\b(?:is|are|was|were))\s+(?:in|at|near|from|to)\s+$")
_CLAUSE_END = re.compile(r"(?:\s+(?:in|since|from)\s+\d{4})?(?:[.;!]?\s*$|,\s+(?:and|but)\s|\s+(?:and|to)\s+[A-Z])")
"""After the place: the end of the sentence or of its clause (", and", ", but"), a year, or another place."""
_WIDER_SAYS_MORE = re.compile(r"\b(?:only|just|solely|exclusively|except|outside|all|every|each|any|none|no)\b",
                              re.IGNORECASE)
"""Words under which a wider place says more, not less: "sold only in Texas", "all of its stores in Bavaria"."""


def places_implied(passage: str, claim: str) -> bool:
    """Whether ``claim`` is a sentence of ``passage``, or one conjunct of one, but for a place it names by the
    region or country that holds the place the passage names (see the module docstring)."""
    if rule_language(passage, claim) != "en":
        return False
    ours = [c for c in _chains(claim) if c[1]][:_MAX_CHAINS]
    if not ours:
        return False
    texts = [text for text, _, _ in ours]
    wider = _upward(claim, [span for _, _, span in ours])
    for sentence, theirs in _sentence_chains(passage):
        options = [[text, *(t for t, names in theirs if _stands_for(t, names, text, chain, wider[i]))]
                   for i, (text, chain, _) in enumerate(ours)]
        for choice in itertools.product(*options):
            if list(choice) == texts:
                continue  # the claim as written: the other rules' and the judge's
            written = _rewritten(claim, ours, choice)
            if normalise(written).rstrip(" .") == normalise(sentence).rstrip(" .") or conjunct_of(sentence, written):
                return True
    return False


@lru_cache(maxsize=64)
def _sentence_chains(passage: str) -> tuple[tuple[str, tuple[tuple[str, list[str | None]], ...]], ...]:
    """Each sentence of ``passage`` that names a place, with its place chains; read once for all claims."""
    out = []
    for sentence in split_sentences(passage):
        chains = tuple((text, names) for text, names, _ in _chains(sentence) if names)
        if chains:
            out.append((sentence, chains))
    return tuple(out)


def _stands_for(theirs: str, their_places: list[str | None], ours: str, our_places: list[str | None],
                wider: bool) -> bool:
    """Whether the passage chain ``theirs`` may stand for the claim's ``ours``: it implies it, and either names
    the same place first ("Sheffield, England" for "Sheffield, UK": only the places that hold it differ, so the
    claim says the same in any sentence), or the claim's chain names a wider place where that says less
    (``wider``)."""
    if theirs == ours or not _implies(their_places, our_places) or not _unknown(ours, our_places) <= \
            set(_members(theirs)):
        return False
    return _members(theirs)[0] == _members(ours)[0] or wider


def _upward(claim: str, chains: list[tuple[int, int]]) -> list[bool]:
    """For each place chain of the claim (its span), whether a wider place there says less: it is where the subject
    or a past event is ("is located in", "was born in", "moved its line from … to"), it ends its clause, and the claim
    has no denial, condition or "only". Not a place that narrows a noun ("Employees in Texas get …", "Staff based in
    Wales work …"), or that bounds a predicate ("Shipping is free in Ontario"), where a wider place says more."""
    if _WIDER_SAYS_MORE.search(claim) or read(claim, "en").scopes or conditioned(claim, "en"):
        return [False] * len(chains)
    out: list[bool] = []
    for i, (a, b) in enumerate(chains):
        after_another = i > 0 and out[-1] and claim[chains[i - 1][1] : a] in (" to ", " and ", ", ")
        where = after_another or _WHERE.search(claim[:a]) is not None
        out.append(where and _CLAUSE_END.match(claim[b:]) is not None)
    return out


def _chains(text: str) -> Iterator[tuple[str, list[str | None], tuple[int, int]]]:
    """Each chain of capitalised names ("Sheffield, England", "the United Kingdom"): its text, the place each of its
    names is (None for a name that is no known place), and its span. A chain with no place holds only Nones."""
    names = _gazetteer()[0]
    for match in _CHAIN.finditer(text):
        written = match.group()
        if written.endswith(".") and not _ABBREVIATION.search(written):
            written = written.removesuffix(".")  # a sentence's full stop
        codes = [names.get(m) for m in _members(written)]
        yield written, codes if any(codes) else [], (match.start(), match.start() + len(written))


def _members(chain: str) -> list[str]:
    return [m.removeprefix("the ") for m in chain.split(", ")]


def _unknown(chain: str, codes: list[str | None]) -> set[str]:
    """The names of ``chain`` that are no known place: the passage chain that stands for it must hold them too."""
    return {m for m, c in zip(_members(chain), codes, strict=True) if c is None}


def _implies(theirs: list[str | None], ours: list[str | None]) -> bool:
    """Whether a passage chain of places ``theirs`` implies the claim's ``ours``: each of our places is one of
    theirs or holds one of them (our names that are no known place must be theirs too: ``_unknown``)."""
    holders = _gazetteer()[1]
    known = {c for c in theirs if c}
    if len({_country(c) for c in known}) > 1:
        return False  # "Sheffield, Tasmania": a name of one country qualified by a place of another is not that place
    held = known | {h for c in known for h in holders.get(c, ())}
    return all(c is None or c in held for c in ours)


def _country(code: str) -> str:
    return code.split("-")[0]


def _rewritten(claim: str, ours: list[tuple[str, list[str | None], tuple[int, int]]], choice: tuple[str, ...]) -> str:
    """The claim with each of its chains written as chosen."""
    out, end = "", 0
    for (_, _, (a, b)), chosen in zip(ours, choice, strict=True):
        out += claim[end:a] + chosen
        end = b
    return out + claim[end:]


@lru_cache(maxsize=1)
def _gazetteer() -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """English place names → ISO 3166 code (a name of two places left out), and each subdivision's code → the
    codes of the subdivisions and the country that hold it. Loaded on first use."""
    import gettext

    import pycountry

    english = gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=["en"], fallback=True)
    found: dict[str, set[str]] = {}
    for country in pycountry.countries:
        for name in (country.name, getattr(country, "common_name", None), getattr(country, "official_name", None),
                     *_SHORT_FORMS.get(country.alpha_2, ())):
            if name and "," not in name:
                found.setdefault(name.removeprefix("the "), set()).add(country.alpha_2)
    parents = {sub.code: getattr(sub, "parent_code", None) for sub in pycountry.subdivisions}
    holders: dict[str, frozenset[str]] = {}
    for sub in pycountry.subdivisions:
        own = sub.name.split(" [")[0]  # "Cardiff [Caerdydd GB-CRD]": a Welsh area's two names
        for name in {own, english.gettext(sub.name), _CN_SUFFIX.sub("", own)}:
            if "," not in name and "(" not in name:
                found.setdefault(name, set()).add(sub.code)
        holders[sub.code] = frozenset(_parents(sub.code, parents)) | {sub.country_code}
    return {name: next(iter(codes)) for name, codes in found.items() if len(codes) == 1}, holders


def _parents(code: str, parents: dict[str, str | None]) -> Iterator[str]:
    """The codes of the subdivisions that hold subdivision ``code``, nearest first."""
    above = parents.get(code)
    while above:
        yield above
        above = parents.get(above)
