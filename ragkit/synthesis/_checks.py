"""The critic's checks that need no LLM: a question that points back at what it never names, copies its source, or
is answered by its own words; and whether two short answers to one question agree (a question that points at its
source: ``_pointers``).

They are cheap and run before any LLM check, so that a candidate they reject costs no critic call.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable

from ragkit.kg import mentioned_in
from ragkit.text import (
    FUNCTION_WORDS,
    HAN,
    HANGUL,
    HIRAGANA,
    KANA,
    UNDETERMINED,
    asks_yes_or_no,
    morphemes,
    normalise,
    opens_with_yes_or_no,
    split_sentences,
    units,
)


def _mostly_cjk(tokens: list[str]) -> bool:
    """Whether most of ``units`` are single CJK characters: each is about half a word, so a run length set in words
    counts double."""
    return sum(not t.isascii() and len(t) == 1 for t in tokens) > len(tokens) / 2


def copies_context(question: str, contexts: list[str], *, min_tokens: int = 8, share: float = 0.7) -> bool:
    """True when the question contains a whole context sentence of ``min_tokens`` or more, or when a run of
    at least ``min_tokens`` tokens copied from a context makes up ``share`` of the question.

    A CJK character is about half a word, so for questions written mostly in CJK characters the run must be
    twice as long.
    """
    q = units(question)
    if _mostly_cjk(q):
        min_tokens *= 2
    if len(q) < min_tokens:
        return False
    q_text = " ".join(q)
    for context in contexts:
        c = units(context)
        match = difflib.SequenceMatcher(None, q, c, autojunk=False).find_longest_match(0, len(q), 0, len(c))
        if match.size >= min_tokens and match.size >= share * len(q):
            return True
        for sentence in split_sentences(context):
            s = units(sentence)
            if len(s) >= min_tokens and f" {' '.join(s)} " in f" {q_text} ":
                return True
    return False


# Words that point back at something named before: in a question asked on its own, nothing was
_POINTING = re.compile(
    # "that" only before a noun it points with ("that year"; mostly it is a relative pronoun), and not the "it"
    # of "does it take", "is it possible"; それぞれ is "each", no pointer
    r"\b(?:this|these|those|its|they|their|them|he|she|his|her|him)\b"
    r"|\bit\b(?!\s+(?:takes?|took|costs?|means?|matters?|is\s+(?:possible|true|necessary|allowed|required)))"
    r"|\bthat\s+(?:year|month|week|day|date|time|company|plant|site|product|project|team|report|incident)\b"
    r"|该|这|此(?!外)|它|この|その|あの|これ|それ(?!ぞれ)|同社|(?:^|\s)(?:이|그|저)\s|그것|이것|해당",
    re.IGNORECASE,
)
_DEFINITE_GENERIC = re.compile(
    # a definite description that needs an antecedent: "the project", "the company's budget", "the new policy"
    r"\bthe\s+(?:\w+\s+){0,2}(?:project|company|firm|organi[sz]ation|product|device|system|programme|program|policy|"
    r"plan|team|department|report|document|section|chapter|article|study|paper|book|example|code|function|"
    r"software|tool|library|contract|agreement|incident|meeting|event|author|speaker)s?\b",
    re.IGNORECASE,
)
_MODEL_NAME = re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{2,}\b")
"""A token with letters and digits, such as "K10", "W300" or "INC-2023-014": a name."""
_CODE_NAME = re.compile(r"`[^`\s][^`]*`|(?<![\w.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+"
                        r"|(?<![\w.])[A-Za-z][A-Za-z0-9]+(?:\.[A-Za-z][A-Za-z0-9]+)+")
"""Code: a span in backticks, an identifier with an underscore ("load_dotenv") or a dotted name of two letters or
more a side ("tqdm.notebook", "citm_catalog.json"; not "e.g."): a name in technical documents, written in lower
case."""

_LATIN = "A-Za-z\u00c0-\u024f"
_NAME = re.compile(f"(?<![{_LATIN}\\d'’])[A-Z][{_LATIN}\\d'’-]*")
"""A capitalised Latin word, also between CJK characters ("K2307-03" of "K2307-03からK2307-21まで")."""
_HANGUL_WORD = re.compile(f"^[{HANGUL}]+$")


def capitalised_names(text: str, question: str) -> set[str]:
    """Capitalised words of ``text`` that the question does not use and that are not a capitalised function word
    ("The", "In"): the names an answer adds (Latin scripts only; CJK answers are left to the token checks)."""
    asked = {w.lower() for w in _NAME.findall(question)}
    return {w.lower() for w in _NAME.findall(text)} - asked - FUNCTION_WORDS


def informative(text: str, question: str) -> set[str]:
    """Tokens that carry the answer: not already in the question (a Korean word counts as there when a question word
    shares its stem: "확인" and "확인되었는지"), and a number, a CJK character or a word of four or more letters
    (short function words say little about agreement)."""
    asked = set(units(question))
    return {t for t in units(text) if not found_in(t, asked) and (any(c.isdigit() for c in t) or not t.isascii()
                                                                 or len(t) >= 4)}


def found_in(token: str, others: set[str]) -> bool:
    """Whether ``token`` is among ``others``; a Korean word also matches one that shares its stem, since
    particles and endings attach to it ("서울" and "서울은")."""
    if token in others:
        return True
    if _HANGUL_WORD.match(token) and len(token) >= 2:
        return any(_HANGUL_WORD.match(o) and (o.startswith(token) or token.startswith(o)) and min(len(o), len(token))
                   >= 2 for o in others)
    return False


def pointing(question: str) -> bool:
    """Whether the question has a word that points back at something named before ("it", "this", "该", "この")."""
    return _POINTING.search(question) is not None


def points_without_naming(question: str, names: Iterable[str]) -> bool:
    """True when the question points back at something ("this arm", "its budget", "该产品", "この例", or a
    definite description such as "the project" or "the company's budget") and names nothing: no capitalised name,
    no model name ("K10") or code ("load_dotenv", "`default`"), none of ``names`` (entity names in CJK scripts, which
    have no capitals, and lower-case names such as "orjson"). Asked
    with no document at hand, it has no answer. "What does Acme make, and where is it made?" names Acme; "What is
    the budget of Project Lark?" names the project."""
    return points_back(question) and not names_something(question, names)


def points_back(question: str) -> bool:
    """Whether the question points back at something: a pointing word, or a definite description ("the
    project")."""
    return pointing(question) or _DEFINITE_GENERIC.search(question) is not None


def latin_words(text: str) -> set[str]:
    """The words of ``text`` in the Latin script, of three characters or more, as ``units`` gives them (lower
    case)."""
    return {t for t in units(text) if len(t) >= 3 and t[0].isascii() and t[0].isalpha()}


def writes_a_latin_name(question: str, corpus_words: set[str]) -> bool:
    """Whether a Chinese, Japanese or Korean question writes a word in the Latin script that the corpus also
    writes (``latin_words``). Written among CJK characters, such a word is the name of a package, a product or a
    command in whatever case: "安装 pkuseg 的步骤是什么？" names pkuseg, which no capital letter marks."""
    return bool(latin_words(question) & corpus_words)


def names_something(question: str, names: Iterable[str]) -> bool:
    """Whether the question names something: a capitalised name, a model name, code, or one of ``names``."""
    if capitalised_names(question, "") or _MODEL_NAME.search(question) or _CODE_NAME.search(question):
        return True
    return any(mentioned_in(name, question) for name in names)


_DOCUMENT_KIND = re.compile(
    # "the incident report", "the press release", "the product spec": a kind of document, and no name in the phrase
    r"\bthe\s+((?:[a-z][a-z-]*\s+){0,2}(?:report|document|guide|manual|minutes|announcement|release notes|"
    r"press release|handbook|charter|policy|specification|datasheet|faq|memo|notice|letter|email|profile))\b"
    # … unless the phrase goes on to say which: "the press release about the Wren W300", "the report of 2023"
    r"(?!\s+(?:about|on|for|of|from|dated|titled|called|named|by|in|at)\b)",
)


def ambiguous_document(question: str, titles: Iterable[str]) -> str | None:
    """The phrase of an English question that names a kind of document ("the incident report") which two or more
    of the corpus's documents are (their titles or file names hold every word of it), or None. A user asking
    "Who is named in the incident report?" of a corpus with two incident reports has no way to say which; "the
    travel policy" of a corpus with one travel policy is a real reference."""
    wanted = [m.group(1) for m in _DOCUMENT_KIND.finditer(question)]
    if not wanted:
        return None
    named = [set(units(title)) for title in titles]
    for phrase in wanted:
        words = set(units(phrase))
        if sum(words <= title for title in named) >= 2:
            return phrase
    return None


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|`[^`]*`")
"""Text in quotation marks or backticks."""

_ASKING_HAN = frozenset("什么哪里谁几怎样何吗呢吧请问")
"""Han characters of Chinese question words and question particles (什么, 哪里, 谁, 几, 怎样, 为何, 请问)."""
_ASKING_KOREAN = ("어디", "무엇", "뭐", "무슨", "누구", "누가", "언제", "어떻게", "어떤", "어느", "왜", "몇", "얼마")
"""Stems of Korean question words; particles attach to them ("어디에", "무엇을")."""
ASKING_WORDS = re.compile("为什么|什么|哪|谁|几|多少|怎么|怎样|如何|为何|何时|吗|呢|"
                          "いつ|どこ|どの|どう|どれ|どんな|なぜ|誰|何|いくら|いくつ|"
                          f"(?<![{HANGUL}])(?:{'|'.join(_ASKING_KOREAN)})")
"""Question words of Chinese, Japanese and Korean, where they stand in a text (Korean ones at a word's start)."""
_HIRAGANA_WORD = re.compile(f"^[{HIRAGANA}]+$")


def _names_nothing_korean(word: str) -> bool:
    """A Korean word that does not start with a noun: a predicate ("있나요", "되었는지") or an adverb ("가장"), by
    MeCab-ko's tag of its first morpheme (V…, M…); False without MeCab."""
    if not _HANGUL_WORD.match(word):
        return False
    parsed = morphemes(word, "ko")
    return bool(parsed and parsed[0][1][0].startswith(("V", "M")))


def _naming(asked: set[str]) -> set[str]:
    """Of a question's informative tokens, those that name what it asks about: without its function words, question
    words ("where", "哪里", "어디에") and Korean predicates and adverbs ("있나요", "가장"), and for Japanese without
    hiragana, which there spells particles, endings and question words (どこにありますか)."""
    return {t for t in asked if t not in FUNCTION_WORDS and t not in _ASKING_HAN
            and not _HIRAGANA_WORD.match(t) and not t.startswith(_ASKING_KOREAN) and not _names_nothing_korean(t)}


_ONE_OF = re.compile(f"之一|(?<![{HANGUL}])중의?\\s*하나[{HANGUL}]*|の?(?:一つ|ひとつ|1つ)")
""""One of" in Chinese, Korean and Japanese ("销售渠道之一", "매장 중 하나입니다", "販売チャネルの一つ"): it places
the thing asked about among its kind and names none of them. English's "one of" is made of short words, which
``informative`` already passes over."""


def restates_question(answer: str, question: str, share: float = 0.8) -> bool:
    """True when the answer only repeats the question: every informative token of the answer (see
    ``informative``) is in the question, and they make up ``share`` or more of the words that name what the
    question asks about (question words do not count: "杭州河坊街旗舰店在哪里？" → "杭州河坊街旗舰店" restates).
    "One of" adds nothing to the question's words in any language ("杭州河坊街旗舰店是青岚茶业的哪个销售渠道？" →
    "…是青岚茶业的销售渠道之一。" restates).

    "Who owns Nadia's project?" → "Nadia owns Nadia's project." restates; "Is it made in Leeds or York?" →
    "In Leeds." and "Yes." do not, and neither does a quoted value the question lacks, though it holds no word
    ("The default directory is \".\""), nor a yes-or-no question's answer that opens with its "yes" or "no" and
    then says it again ("周立平是厂长吗？" → "是的，周立平是厂长。": 是 and 的 are in the question).
    """
    if any(quoted[1:-1].strip() not in question for quoted in _QUOTED.findall(answer)):
        return False
    if asks_yes_or_no(question) and opens_with_yes_or_no(answer):
        return False
    mine, asked = informative(_ONE_OF.sub(" ", answer), ""), informative(question, "")
    # a Korean word is in the question with another particle too ("성수점" in "성수점은")
    return bool(mine) and all(found_in(t, asked) for t in mine) and \
        len(mine) >= share * len(_naming(asked))


def loops(text: str, n: int = 5, times: int = 3) -> bool:
    """True when a run of ``n`` tokens (twice as many CJK characters) comes back ``times`` times or more: the loop
    a small model falls into under greedy decoding ("They also have a 3D camera. They also have a 3D camera. …"),
    which no checked claim catches, since each repeat is as true as the first."""
    u = units(text)
    if _mostly_cjk(u):
        n *= 2
    runs = Counter(tuple(u[i:i + n]) for i in range(len(u) - n + 1))
    return any(count >= times for count in runs.values())


# The CJK scripts a language is not written in: a character of one of them in an answer that none of its contexts
# has is a slip of the writer into another language ("... a director of the公司."), too short for detection to see.
_FOREIGN_SCRIPTS = {
    "zh": f"{KANA}{HANGUL}",
    "ja": HANGUL,
    "ko": f"{KANA}{HAN}",  # Hanja in a Korean answer that its contexts lack is the model slipping into Chinese
}
_ALL_CJK = f"{HAN}{KANA}{HANGUL}"


def stray_script(text: str, language: str, contexts: Iterable[str]) -> str:
    """The characters of ``text`` in a script its ``language`` is not written in and that no context contains
    (empty when none): Han, kana or Hangul in an English answer, kana or Hangul in a Chinese one. ``language`` is
    a normalised code; "und" checks nothing."""
    if language == UNDETERMINED:
        return ""
    foreign = re.findall(f"[{_FOREIGN_SCRIPTS.get(language, _ALL_CJK)}]", text)
    if not foreign:
        return ""
    seen = set("".join(contexts))
    return "".join(dict.fromkeys(c for c in foreign if c not in seen))


_FIRST_PERSON = re.compile(r"(?<![\w\-./])(?:[Mm]e|[Mm]y|[Mm]yself)(?![\w\-./])")
"""Not "I" (a roman numeral in "Type I"), not "mine" (a coal mine), and not the "my" of a name in code
("my-virtual-env", "my_app.py")."""


def first_person(answer: str, question: str) -> bool:
    """True when an English reference answer speaks in the first person singular ("me", "my") outside quotation
    marks and the question does not: the writer copied a letter or an announcement in its author's voice ("Daniel
    Reyes, who co-founded Acme with me"), which no assistant's answer would say."""
    if _FIRST_PERSON.search(question):
        return False  # "How do I reset my badge?": the user's own voice, which an answer may echo
    return _FIRST_PERSON.search(_QUOTED.sub(" ", answer)) is not None


_SECOND_PERSON = re.compile(r"你|您|あなた|당신|\b(?:you|your|yours)\b", re.IGNORECASE)
_ASKING_TO_TELL = re.compile(r"(?:你|您)(?:能|可以)?(?:告诉我|知道)|请问|あなたは知っていますか|"
                             r"\b(?:can|could|would) you (?:tell|show) me\b|\bdo you know\b", re.IGNORECASE)
"""A request to the one asked that says nothing about them: "您能告诉我…", "do you know …"."""


def _unaddressed(question: str, name: str | None) -> str | None:
    """``question`` without ``name`` where it is spoken to, first ("Anna, what …") or last ("…, Anna?"); None when
    it is not."""
    if not name or not name.strip():
        return None
    called = re.escape(name.strip())
    if found := re.match(rf"\s*{called}\s*[,，、:：]\s*", question):
        rest = question[found.end():]
        return rest[:1].upper() + rest[1:]
    if found := re.search(rf"\s*[,，、]\s*{called}\s*([?？.。!！]?)\s*$", question):
        return question[:found.start()] + found.group(1)
    return None


def without_address(question: str, name: str | None) -> str:
    """``question`` without the persona's name spoken to, when nothing else in it speaks to the persona: "青岚茶业
    公司经理，您能告诉我白茶的加工流程吗？" → "您能告诉我白茶的加工流程吗？", "Anna, what is the warranty on the K10?" →
    "What is the warranty on the K10?". The small writer often calls the asker by name; the question it asks is still
    the asker's own. A question that goes on to ask the persona about themselves ("李四，你平时的午休时间是怎样的？",
    "…你对密封有什么看法？") is left as it is, for ``addresses`` to drop."""
    rest = _unaddressed(question, name)
    if rest is None or not rest.strip() or _SECOND_PERSON.search(_ASKING_TO_TELL.sub(" ", rest)):
        return question
    return rest


def addresses(question: str, name: str | None) -> bool:
    """True when ``question`` speaks to ``name``, the persona who asks it: "李四，你平时的午休时间是怎样的？", "Anna,
    what is …?", "… for you, Anna?". The writer took the persona for the one asked; the question is the persona's
    own, and a RAG system is not called by the user's name."""
    return _unaddressed(question, name) is not None


def distinct(texts: list[str]) -> list[str]:
    """``texts`` without repeats (compared normalised) or empty items, in their order."""
    seen: set[str] = set()
    out = []
    for text in texts:
        key = normalise(text)
        if key and key not in seen:
            seen.add(key)
            out.append(text.strip())
    return out


_KO_DIVISION = re.compile("(?:광역시|특별시|특별자치시|군|구|시|읍)$")
"""Korean administrative suffixes that everyday writing drops: 기장 of 기장군, 해운대 of 해운대구, 부산 of
부산광역시."""


def korean_place_stems(texts: Iterable[str]) -> set[str]:
    """The Korean place names ``texts`` write with an administrative suffix, without it (기장 of 기장군). mecab-ko-dic
    tags the short form a common noun (기장, "captain"), so a question about "기장 로스팅 공장" would seem to name
    nothing. A common noun that happens to end so (출입구, "entrance") gives a stem no question names a place by;
    the cost is only that such a question is not taken to name nothing."""
    stems = set()
    for text in texts:
        for word, fields, _ in morphemes(text, "ko") or []:  # none without MeCab
            if fields[0] in ("NNG", "NNP") and fields[1] != "인명" and (m := _KO_DIVISION.search(word)) and \
                    m.start() >= 2:
                stems.add(word[:m.start()])
    return stems


def package_name(title: str) -> list[str]:
    """The names of a title that is a package's or tool's name (``Critic.naming_words``), else none: the title,
    and each part of three letters or more ("ja-timex" and "timex"; "ja" alone names nothing)."""
    title = title.strip()
    parts = re.split(r"[-_.]", title)
    if any(c.isspace() for c in title) or len(parts) > 2:
        return []
    if any(not p or not p[0].islower() or not p.isalnum() or p.isdigit() or p in FUNCTION_WORDS for p in parts):
        return []
    named = [p for p in parts if len(p) >= 3]
    return list(dict.fromkeys([title, *named])) if named else []

