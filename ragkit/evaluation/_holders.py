"""Who holds which title, read in Chinese, Japanese and Korean: "许文静担任澄江纺织的总经理" against "澄江纺织的董事长是
吴国平，总经理是许文静，技术总监是韩磊".

A passage that lists several people with their titles is where the small judge reads a person's title worst. On a
probe of eight such lists with another passage retrieved beside them (bench/README.md, session 51) it scored five of
the eight right answers below 0.5 ("许文静担任澄江纺织的总经理。" 0.47, "한지민이 바다제약의 연구소장을 맡고 있습니다."
0.28) and one wrong one at 0.92. The taggers that ``_people`` reads miss many of these names (jieba tags neither
吴国平 nor 许文静), so here a holder is read by where it stands: right after its title and a copula or a colon
("总经理是许文静", "技術部長は石井真一", "연구소장은 한지민이며", "관장: 이수빈"), as the rest of its clause.

A claim that says no more than that one person holds one title (the words of holding, and words of the sentence the
passage names them in, such as the firm: "罗佳慧是明川物流的首席财务官", "石井真一が北斗電機の技術部長を務めている") is
entailed when the passage gives that title to that person, and neutral when the passage gives the title to someone
else and the person another title. A person the passage gives no title, or a title held by two, is left to the judge.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ragkit.evaluation._former import a_past_state
from ragkit.evaluation._status import CLAUSE_CUT
from ragkit.text import HAN, KATAKANA, cjk_language, split_sentences, unspaced, word_bounds

_KANA = KATAKANA + "\u3005"  # katakana, and 々 of 佐々木
TITLE_ENDINGS = {
    "zh": "长|总监|经理|主管|师|主任|总裁|董事|主席|代表|负责人|专员|顾问|官",
    "ja": "長|監督|主任|担当|師|役|代表|顧問|マネージャー",
    "ko": "장|대표|이사|매니저|감독|고문|책임자",
}
"""How a title ends in each language (…总监, …部長, …팀장): what the apposition claims read as a title too."""
_TITLE = {
    "zh": f"[{HAN}]{{0,8}}?(?:{TITLE_ENDINGS['zh']})",
    "ja": f"[{HAN}{_KANA}]{{0,10}}?(?:{TITLE_ENDINGS['ja']})",
    "ko": f"[가-힣]{{0,8}}?(?:{TITLE_ENDINGS['ko']})",
}
"""A title as it ends (…总监, …部長, …팀장); the words before it in its clause may name the firm ("澄江纺织的")."""
_NAME = {"zh": f"[{HAN}]{{2,4}}", "ja": f"[{HAN}{_KANA}]{{2,7}}", "ko": "[가-힣]{2,4}"}
_COPULA = {"zh": r"(?:是|为|：|:)", "ja": r"(?:は|：|:)", "ko": r"(?:은|는|\s*:)"}
_CLAUSE_END = {
    "zh": r"[。.]?",
    "ja": r"(?:である|です|だ|で)?[。.]?",
    "ko": r"(?:이고|이며|이다|입니다|이에요|예요|다)?[.。]?",
}
_HOLDS = {  # a claim told from the person's side: "许文静担任…总经理", "石井真一が…技術部長を務めている"
    "zh": re.compile(rf"^(?:由)?(?P<who>{_NAME['zh']}?)(?:担任|出任|任|是|为)(?P<what>.*?)[。.]?$"),
    "ja": re.compile(rf"^(?P<who>{_NAME['ja']}?)(?:は|が)(?P<what>.*?)(?:である|です|だ|を務めている|を務めています|"
                     r"を務める|を務めます)?[。.]?$"),
    "ko": re.compile(rf"^(?P<who>{_NAME['ko']}?)(?:은|는|이|가)\s*(?P<what>.*?)"
                     r"(?:이다|입니다|이에요|예요|[을를]\s*맡고\s*(?:있습니다|있다)|[을를]\s*맡는다)?[.。]?$"),
}
_OWNER = {"zh": re.compile(rf"^(?P<firm>.*)的(?P<title>{_TITLE['zh']})$"),
          "ja": re.compile(rf"^(?P<firm>.*)の(?P<title>{_TITLE['ja']})$"),
          "ko": re.compile(rf"^(?P<firm>.*?)(?:의)?\s+(?P<title>{_TITLE['ko']})$")}
_NOT_NOW = ("前任", "原任", "前", "原", "元", "旧", "代理", "전")
"""A word before a title that makes it not the holder's now: 前总经理, 元社長, 전 대표."""
_WHEN = frozenset({"以前", "以后", "现在", "目前", "当时", "过去", "将来", "現在", "当時", "今後",
                   "이전", "현재", "지금", "당시", "과거"})
"""Words of time that can end a clause where a holder would ("料理長は以前、松田健二だった"): no holder."""
_NOW = re.compile(r"^(?:现任|現任|현)\s*")
"""A word before a title that says it is held now (现任总裁): the title is the same without it."""
_STATED = {language: re.compile(rf"(?P<title>{_TITLE[language]}){_COPULA[language]}\s*(?P<who>{_NAME[language]}?)"
                                rf"{_CLAUSE_END[language]}$") for language in _TITLE}
"""A clause that gives a title its holder, the holder after it: "总经理是许文静", "관장: 이수빈"."""
_HELD = {
    "ja": re.compile(rf"(?<![{HAN}{_KANA}])(?P<who>{_NAME['ja']}?)が(?P<title>{_TITLE['ja']})を務め"),
    "ko": re.compile(rf"(?<![가-힣])(?P<who>{_NAME['ko']}?)[이가]\s*(?P<title>{_TITLE['ko']})[을를]\s*맡"),
}
"""A clause that gives a title its holder, the holder first: "札幌支店は山本大輔が支店長を務め", "송민호가 개발팀장을
맡고 있다". (Chinese writes no particle after a name, so "…许文静担任总经理" does not show where the name begins.)"""
Pair = tuple[str, str, str, str]
"""(title, holder, the sentence that says so, and its clause)."""


@lru_cache(maxsize=256)
def title_pairs(text: str, language: str, holder_first: bool = True) -> tuple[Pair, ...]:
    """(title, holder, sentence, clause) of each clause of ``text`` that gives a title its holder, the holder after it
    ("总经理是许文静") or, with ``holder_first``, in Japanese and Korean before it ("山本大輔が支店長を務め")."""
    stated, held = _STATED[language], _HELD.get(language) if holder_first else None
    out: list[Pair] = []
    for sentence in split_sentences(text):
        for clause in CLAUSE_CUT.split(sentence):
            said = clause.strip()
            found = stated.search(said) or (held.search(said) if held else None)
            if not found or a_past_state(clause, language):
                continue
            title, before = _bare(found["title"], language), said[: found.start("title")].rstrip()
            if found["who"] not in _WHEN and not before.endswith(_NOT_NOW) and not title.startswith(_NOT_NOW):
                out.append((_NOW.sub("", title), found["who"], sentence, clause))
    return tuple(out)


def _bare(title: str, language: str) -> str:
    """The title without the firm before it ("澄江纺织的总经理" → "总经理")."""
    owner = _OWNER[language].match(title)
    return owner["title"] if owner else title


def _claimed(claim: str, language: str) -> tuple[str, str, str] | None:
    """(title, holder, firm) when ``claim`` says only that one person holds one title, either way round."""
    said = claim.strip()
    if len([c for c in CLAUSE_CUT.split(said) if c.strip()]) > 1:  # more than one clause says more than the title
        return None
    pairs = title_pairs(said, language, holder_first=False)  # a claim told holder first is read by _HOLDS, firm and all
    if len(pairs) == 1:
        title, who, _, _ = pairs[0]
        firm = said[: said.index(title)] if title in said else ""
        return title, who, re.sub(r"(?:的|の|의)\s*$", "", firm).strip()
    held = _HOLDS[language].match(said)
    if not held:
        return None
    what = held["what"].strip()
    if owner := _OWNER[language].match(what):
        return owner["title"], held["who"], owner["firm"].strip()
    return (what, held["who"], "") if re.fullmatch(_TITLE[language], what) else None


@lru_cache(maxsize=256)
def _claim_reading(passage: str, claim: str) -> tuple[tuple[str, str, str], tuple[Pair, ...], tuple[str, ...]] | None:
    """The claim's (title, holder, firm), the passage's pairs, and the languages they were read in; None when the
    claim says more than who holds a title. ``settled`` asks both rules of each claim and passage: read once."""
    language = cjk_language(claim) or cjk_language(passage)
    if language is None:
        return None
    claimed = _claimed(claim, language)
    if claimed is None:
        return None
    languages = tuple(sorted({language, cjk_language(passage) or language}))  # kanji and colons read as Chinese too
    pairs = tuple(p for lang in languages for p in title_pairs(passage, lang))
    return claimed, pairs, languages


def holds_title(passage: str, claim: str) -> bool:
    """Whether ``claim`` says no more than that a person holds the title ``passage`` gives them (see the module
    docstring): the firm it names, if any, is in the sentence that gives it."""
    reading = _claim_reading(passage, claim)
    if reading is None:
        return False
    (title, who, firm), pairs, _ = reading
    given = [s for t, w, s, _ in pairs if t == title and w == who]
    if not given or not firm:
        return bool(given)
    # the firm it names, in the sentence that gives the title, or in none that gives a title to someone else; never
    # in a clause that gives the same title to another ("开发部的经理是王海，设计部的经理是李娜": 李娜 is not 开发部's)
    firm = unspaced(firm)
    if any(firm in unspaced(c) for t, w, _, c in pairs if t == title and w != who):
        return False
    return any(firm in unspaced(s) for s in given) or (
        firm in unspaced(passage) and not any(firm in unspaced(s) for _, w, s, _ in pairs if w != who))


def former_title(passage: str, claim: str) -> bool:
    """Whether ``claim`` gives a person a title that a Chinese ``passage`` gives them only as held before: the title
    right after a word that ends it and right before their name ("前董事长陈国平出席了…", "原厂长周立平"), while no
    clause gives it to them now. The word must be a word of its own (jieba): "目前董事长陈国平" is the chairman now.

    ``_titles.unqualified`` reads a qualified title too (副, 代理, 前任), but finds the person with the taggers, which
    miss many Chinese names (jieba tags neither 许文静 nor 吴国平); here the person is the claim's holder, read as
    ``holds_title`` reads it, and the one-character 前 and 原 need jieba's word boundary."""
    reading = _claim_reading(passage, claim)
    if reading is None or "zh" not in reading[2]:
        return False
    (title, who, _), pairs, _ = reading
    if any(t == title and w == who for t, w, _, _ in pairs):
        return False
    for sentence in split_sentences(passage):
        for clause in CLAUSE_CUT.split(sentence):
            for found in re.finditer(rf"(?:{'|'.join(_NOT_NOW)})(?={re.escape(title + who)})", clause):
                if found.start() in word_bounds(clause, "zh"):
                    return True
    return False


def title_of_another(passage: str, claim: str) -> bool:
    """Whether ``claim`` gives a person a title that ``passage`` gives someone else, while it gives the person
    another title and never this one."""
    reading = _claim_reading(passage, claim)
    if reading is None:
        return False
    (title, who, _), pairs, languages = reading
    holders = {w for t, w, _, _ in pairs if t == title}
    own = {t for t, w, _, _ in pairs if w == who}
    if not holders or who in holders or not own or title in own:
        return False
    # a clause that names both, and gives no title its holder as the lists do, may give the title to the person in
    # words of its own ("2020年起吴国平兼任总经理")
    return not any(who in c and title in c and not any(title_pairs(c, lang) for lang in languages)
                   for s in split_sentences(passage) for c in CLAUSE_CUT.split(s))
