"""Text-level helpers of the claim engine: tidy claim lists, repair copy errors and claims cut at a quote, short
answers, exact matches, prompt windows and the passages that hold a claim's words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.text import (
    CJK_CHAR,
    FUNCTION_WORDS,
    HAN,
    cjk_language,
    count_tokens,
    morphemes,
    normalise,
    numbers,
    opens_with_yes_or_no,
    search_terms,
    split_sentences,
)


def tidy(items: Sequence[str]) -> list[str]:
    """Whitespace collapsed, empty and repeated items dropped, order kept."""
    out: list[str] = []
    for item in items:
        text = " ".join(item.split())
        if text and text not in out:
            out.append(text)
    return out


def without_cut_short(claims: Sequence[str]) -> list[str]:
    """``claims`` without a claim that another one begins with and goes on from ("The York plant has more staff."
    beside "The York plant has more staff than the Leeds plant."): cut short, the split's copy says what the whole
    does not ("more staff" than what?), and the check reads it by its topic (session 45: 0.99 for the wrong plant)."""
    cores = [normalise(c).rstrip(_EDGE_PUNCT + " ") for c in claims]
    return [c for c, core in zip(claims, cores, strict=True)
            if not core or not any(o != core and o.startswith(core) and (CJK_CHAR.search(core) or o[len(core)] == " ")
                                   for o in cores)]


_HAN_CHAR = re.compile(f"[{HAN}]")


def untranslated(claims: Sequence[str], text: str, question: str | None) -> list[str]:
    """``claims``, each that the split wrote in another language replaced by the text's sentence that shares most of
    its characters. Given a Japanese answer, the 1.5B split once wrote "松田健二是あおい食堂的料理长。" (Chinese 是,
    的, 长 for は, の, 長; session 48), which no rule reads as Japanese. A Japanese or Korean claim with a Han
    character that neither the text nor its question has is such a translation."""
    if cjk_language(text) not in ("ja", "ko"):
        return list(claims)
    known = set(text) | set(question or "")
    sentences = [s for s in split_sentences(text) if s.strip()]

    def nearest(claim: str) -> str:
        return max(sentences, key=lambda s: len(set(s) & set(claim)))

    return tidy([nearest(c) if sentences and set(_HAN_CHAR.findall(c)) - known else c for c in claims])


_ASKING_END = re.compile(r"[?？]\s*$")
def of_the_text(claims: Sequence[str], text: str, question: str | None) -> list[str]:
    """``claims`` without those the split took from the question instead of ``text``: a question ("明湖店是哪一年开业
    的？"), or, when the text says something of its own, a claim that brings in words of the question the text does
    not use and none of the text's own words or numbers ("The Birch reservoir holds more water than Alder." of "The
    Birch reservoir was built to supply a new steelworks."; 21 of 307 claims of the validity answers, bench/README.md,
    session 45). Checked, such a claim scores what the question presumes, not what the text says. A text with no
    words of its own ("네, 품질관리팀장이었습니다." to "이수민은 품질관리팀장이었는가?") answers by the question's
    words: its claim is the question's statement. When no claim is left, the text's sentences are its claims."""
    asked = _content(question or "")
    own = _content(text) - asked
    stated = set(numbers(text))

    def borrowed(claim: str) -> bool:
        if _ASKING_END.search(claim):
            return True
        words = _content(claim)
        return bool(own) and bool(words & asked - _content(text)) and not words & own \
            and not set(numbers(claim)) & stated

    kept = [c for c in claims if not borrowed(c)] or [s for s in split_sentences(text) if s.strip()]
    # a claim that begins with a bare yes or no ("네, 품질관리팀장이었습니다.") has lost its subject to the question
    return [restate(question, c) if question and opens_with_yes_or_no(c) else c for c in kept] if claims else []


def _content(text: str) -> set[str]:
    """The words that carry content: not function words, two characters or more; in Korean the content morphemes
    (nouns, verb and adjective stems, adverbs: "품질", "관리", "팀장" of "품질관리팀장이었습니다"), whose endings
    change between a question and its answer."""
    words = korean_content(text) if cjk_language(text) == "ko" else None
    return {w for w in words or search_terms(text) if w not in FUNCTION_WORDS and len(w) >= 2 and not w.isdigit()}


_OPENS_WITH_PRONOUN = re.compile(r"\s*(?:(?:It|Its|It's|They|Their|This|These|He|She|His|Her)\b|[它其该此他她])")


def rule_language(passage: str, claim: str) -> str:
    """The language the word rules read a claim and its passage in: the passage's CJK language, else the claim's
    ("K10支持PROFINET。" is mostly Latin), else English."""
    return cjk_language(passage) or cjk_language(claim) or "en"


def goes_on(sentence: str) -> bool:
    """Whether ``sentence`` begins by pointing back at the thing named before ("It was launched in 2019", "其员工约…"):
    it speaks of the last sentence's subject."""
    return _OPENS_WITH_PRONOUN.match(sentence) is not None


def korean_content(text: str) -> list[str] | None:
    """The content morphemes of a Korean text (nouns, verb and adjective stems, adverbs), without its particles and
    endings; None without MeCab."""
    parsed = morphemes(text, "ko")
    return None if parsed is None else [m for m, features, _ in parsed if features[0][:1] in ("N", "V", "M")]


_EDGE_PUNCT = "\"'“”‘’()[]{}.,;:!?。，、；：！？「」『』（）"


def _core(token: str) -> str:
    return token.strip(_EDGE_PUNCT)


def _miscopied(a: str, b: str) -> bool:
    """One character apart, not counting case ("Their" and "their" are the same word), and not in the last
    character unless both are digits: a word's last character is where Korean particles and endings change
    ("스페인어를" for "스페인어와" is grammar, not a copy error)."""
    if len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a.lower(), b.lower(), strict=True)) if x != y]
    return len(diff) == 1 and (diff[0] < len(a) - 1 or (a[-1].isdigit() and b[-1].isdigit()))


CLAIM_CHARS = 300
"""The longest claim the split's reply schema lets it write: a longer one is cut there (``whole_at_cap``)."""
MOST_CLAIMS = 32
"""The most claims the split's reply schema lets it write: the text's claims after them are not written
(``rest_at_cap``)."""


def whole_at_cap(claims: Sequence[str], text: str) -> list[str]:
    """Claims the reply schema cut at ``CLAIM_CHARS``, put back whole. A sentence longer than that (the 34 languages a
    package is localised to, session 70) came back as its first 300 characters, ending inside a word ("… Russian,
    Simplized"), and its rest as a claim of its own with no subject ("Chinese, Sinhala, … Vietnamese."), which the
    check found neutral: a right reference was dropped as unsupported, and a right answer's faithfulness falls the
    same way. A claim at the cap whose words but the last (the cut one) are in a sentence of ``text`` is that
    sentence; the claims right after it that the sentence holds are the pieces of its rest, and go."""
    sentences = [" ".join(s.split()) for s in split_sentences(text) if s.strip()]
    out: list[str] = []
    whole: str | None = None
    for claim in claims:
        flat = " ".join(claim.split())
        if whole is not None and flat.rstrip(_EDGE_PUNCT + " ") in whole:
            continue
        whole = None
        if len(claim) >= CLAIM_CHARS:
            head = flat.rsplit(" ", 1)[0] if " " in flat[-40:] else flat[:-2]  # CJK: no space to cut the word at
            whole = next((s for s in sentences if head in s), None) if len(head) >= CLAIM_CHARS // 2 else None
        out.append(whole or claim)
    return out


def rest_at_cap(claims: Sequence[str], text: str) -> list[str]:
    """Claims of a split that wrote as many as it may (``MOST_CLAIMS``), with the text they stop short of as
    sentences. Asked to split "Kellan Audio ships its K7 headphones to" 35 countries, the split wrote one claim per
    country and stopped at the 32nd: the last three went unchecked, and an answer wrong about them lost nothing. The
    claims stop in the sentence the last one shares most words with; that sentence, when some of its words are in
    no claim, and every sentence after it follow as claims of their own."""
    sentences = [" ".join(s.split()) for s in split_sentences(text) if s.strip()]
    if not claims or not sentences:
        return list(claims)
    said = {t for c in claims for t in search_terms(c)}
    last = set(search_terms(claims[-1]))
    at = max(range(len(sentences)), key=lambda i: (len(last & set(search_terms(sentences[i]))), -i))
    rest = sentences[at + 1:]
    if not set(search_terms(sentences[at])) <= said:
        rest.insert(0, sentences[at])
    return [*claims, *(s for s in rest if s not in claims)]


def whole_at_quotes(claims: Sequence[str], text: str) -> list[str]:
    """Claims cut at a double quotation mark of ``text``, put back whole. The split writes each claim as a JSON
    string, and the small judge sometimes closed it at the text's own quote: "…属于绿茶，但所用的"白叶一号"品种在
    春季新叶呈玉白色…" gave the claim "…属于绿茶，但所用的", which the check then judged as a statement. A claim
    that ends just before a quotation mark of the text, inside one of its sentences, is that sentence."""
    sentences = split_sentences(text)
    out = []
    for claim in claims:
        cut = claim.strip()
        before_quote = re.compile(re.escape(cut) + r'\s*"') if cut and not cut.endswith('"') else None
        whole = next((s for s in sentences if before_quote.search(s)), None) if before_quote else None
        out.append(whole.strip() if whole is not None else claim)
    return out


def repair_copies(claims: Sequence[str], text: str, question: str | None = None) -> list[str]:
    """Claim words that the split mis-copied from ``text`` ("균속" for "근속"), put back as written.

    A claim restates ``text``. A claim word is a copy error when it is neither in the text nor in the question
    (nor one of their words with a particle added), is one character away from exactly one text word (not in its
    last character, where particles change), and stands next to the same neighbour as that word in the text (or is
    long enough, eight characters, to need no neighbour: a Chinese or Japanese sentence is one word here). Left in,
    the check would judge a statement the text never made. Words shorter than two characters in a CJK script or
    four in others are never touched (too little to tell a copy from another word)."""
    words = [_core(w) for w in text.split()]
    known = {w.lower() for w in words} | {_core(w).lower() for w in (question or "").split()}
    pairs = set(zip(words, words[1:], strict=False))
    return [_repaired(claim, words, known, pairs) for claim in claims]


def _repaired(claim: str, words: list[str], known: set[str], pairs: set[tuple[str, str]]) -> str:
    tokens = claim.split()
    cores = [_core(t) for t in tokens]
    for i, core in enumerate(cores):
        lower = core.lower()
        if lower in known or len(core) < (2 if CJK_CHAR.search(core) else 4) or \
                any(len(w) >= 2 and lower.startswith(w) for w in known):  # a known word with a particle: 한국어를
            continue
        close = {w for w in words if _miscopied(core, w)}
        if len(close) != 1:
            continue
        (word,) = close
        before, after = cores[i - 1] if i else None, cores[i + 1] if i + 1 < len(cores) else None
        if len(core) >= 8 or (before, word) in pairs or (word, after) in pairs:
            tokens[i] = tokens[i].replace(core, word)
    return " ".join(tokens)


SHORT_ANSWER_TOKENS = 8
"""An answer of at most this many tokens (``count_tokens``: a CJK character or ~0.8 of a word each) in one
sentence is a short answer: it says nothing without its question, so its claim is the question restated with it."""


def is_short_answer(text: str, question: str) -> bool:
    """True for a bare answer to ``question`` such as "Oslo.", "The Northern Rifles." or "南岭大学。": short, one
    sentence, and missing a term of the question. An answer that writes every term of its question says it all
    itself ("BYVoid's email address is …" to "BYVoid email address"), and restated it read as a garble the check
    entailed at 0.44 (session 67's unseen Chinese READMEs)."""
    asked = set(search_terms(question))
    return (count_tokens(text) <= SHORT_ANSWER_TOKENS and len(split_sentences(text)) <= 1
            and not (asked and asked <= set(search_terms(text))))


def restate(question: str, answer: str) -> str:
    """The one claim of a short answer: the question followed by the answer, in the words of both."""
    return f"{question.strip()} {answer.strip()}"


_ENUMERATOR = re.compile(r"^\s*(?:\(?\d{1,2}[.)）]|[-*•·])\s*")  # "1. ", "(2) ", "- ": a list's mark, no fact


def keep_numbers(claims: Sequence[str], text: str) -> list[str]:
    """``claims`` with every number of ``text`` kept: a sentence stating a number that no claim states is added
    whole, in place of the claims taken from it (those whose numbers it states and half of whose words are its).
    The split sometimes drops a year that qualifies a sentence ("2005年禾丰食品的销售额约3.6亿元" became
    "禾丰食品的销售额约3.6亿元", so a wrong year scored as right), or a whole first sentence of several (6 of 172
    generated references, 4 of 136 validity answers, bench/README.md)."""
    out = list(claims)
    for sentence in split_sentences(text):
        sentence = _ENUMERATOR.sub("", sentence)
        stated = set(numbers(sentence))
        if not stated - set().union(*(set(numbers(c)) for c in out)):
            continue
        terms = set(search_terms(sentence))
        taken = [i for i, c in enumerate(out) if numbers(c) and set(numbers(c)) <= stated
                 and 2 * len(set(search_terms(c)) & terms) >= len(set(search_terms(c)))]
        at = taken[0] if taken else len(out)
        out = [c for i, c in enumerate(out) if i not in taken]
        out.insert(min(at, len(out)), sentence)
    return out


def equal_forms(passage: str, known: Sequence[str]) -> set[str]:
    """Normalised sentences of ``passage`` and its ``known`` claims: what a claim may equal to be entailed."""
    return {normalise(t) for t in (*split_sentences(passage), passage, *known) if t.strip()}


_BOUNDARY_START = re.compile(r"\s*(?:[,;、]|and\b|as well as\b|并且|而且|以及|并|且)")
_BOUNDARY_END = re.compile(r"(?:[,;、]\s*|\band\s+|\bas well as\s+|并且|而且|以及|并|且)$")
_END_MARKS = " .。!！"
_MIN_PART = 8  # characters: a conjunct shorter than this ("B", "2019") may be another thing's


def conjunct_of(passage: str, claim: str) -> bool:
    """Whether ``claim`` is one conjunct of a sentence of ``passage`` as written: the sentence up to a clause
    boundary ("PHP's SimpleXML API is vulnerable to quadratic entity expansion" of "… expansion and loads entities
    from local and remote resources"), or its subject with a later conjunct ("PHP's SimpleXML API loads entities
    from local and remote resources"). The small judge gave such verbatim parts 0.63–0.68 (bench/README.md, session
    45). The part must follow a conjunction whole: "Leeds ships 400 orders a day" is no part of "Leeds ships 900
    orders a day and York ships 400 orders a day". Or the claim is the sentence's start with items of the list that
    follows it (``_items_of``)."""
    part = normalise(claim).strip().rstrip(_END_MARKS)
    if len(part) < _MIN_PART:
        return False
    for sentence in split_sentences(passage):
        whole = normalise(sentence).strip().rstrip(_END_MARKS)
        if whole.startswith(part) and len(whole) > len(part) and _BOUNDARY_START.match(whole[len(part):]):
            return True
        shared = _shared_start(part, whole)
        rest = part[shared:]
        if shared and len(rest) >= _MIN_PART and whole.endswith(rest) and len(whole) - len(rest) > shared \
                and _BOUNDARY_END.search(whole[shared : len(whole) - len(rest)]):
            return True
        if shared and _items_of(whole[shared:], rest):
            return True
    return False


_LIST_SEPARATOR = r"(?:[,;:、]|\band\b|\bor\b|以及|和|与|及|或)"
_LIST_DENIED = re.compile(r"\b(?:not|never|no|none|nor|without|cannot|except|excluding|but|other than|apart from)\b|"
                          r"n't|不|没|未|无|無|非|除|않|없|못|아니|ない|ません")
"""A negation or exception in a list's sentence: its items may not all be alike ("…, but not Chile or Peru")."""


def _items_of(tail: str, rest: str) -> bool:
    """Whether ``rest`` is one or more items of a list that ``tail`` gives: each has a separator before it and
    after it (or the end), in a tail of two separators or more. "Kellan Audio ships its K7 headphones to Estonia" of
    "… to 35 countries: Austria, …, Estonia, Finland and …": the embedded split wrote one such claim per country,
    and the judge found 3 of 32 not supported (bench/README.md, session 72). An item with a digit is left to the
    value checks, and a name in another clause ("…, and its CEO lives in Spain") has no separator before it. A list
    with a negation or an exception is left to the judge."""
    if len(re.findall(_LIST_SEPARATOR, tail)) < 2 or _LIST_DENIED.search(tail):
        return False
    items = [i.strip() for i in re.split(_LIST_SEPARATOR, rest)]
    if not items or any(len(i) < 2 or not re.search(r"[^\W\d_]", i) or re.search(r"\d", i) for i in items):
        return False
    return all(re.search(rf"(?:^|{_LIST_SEPARATOR})\s*{re.escape(i)}\s*(?:{_LIST_SEPARATOR}|$)", tail) for i in items)


def _shared_start(a: str, b: str) -> int:
    """The length of the words ``a`` and ``b`` begin with alike (a Latin text cut back to a space; at least two
    words, or two CJK characters)."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    if not CJK_CHAR.search(a[:n]):
        n = a.rfind(" ", 0, n + 1) + 1 if n < len(a) and a[n - 1 : n] != " " else n
        return n if a[:n].count(" ") >= 2 else 0
    return n if n >= 2 else 0


def prompt_windows(passages: Sequence[str], budget: int) -> list[list[int]]:
    """Consecutive groups of passage indices whose estimated tokens stay within ``budget`` (each at least one)."""
    out: list[list[int]] = [[]]
    used = 0
    for k, passage in enumerate(passages):
        size = count_tokens(passage)
        if out[-1] and used + size > budget:
            out.append([])
            used = 0
        out[-1].append(k)
        used += size
    return out


def term_sets(passages: Sequence[str]) -> list[set[str]]:
    """Each passage's search terms (words without stop words, bigrams of Han and kana runs), for ``holding``."""
    return [set(search_terms(p)) for p in passages]


def holding(claim: str, passages: Sequence[set[str]]) -> list[int] | None:
    """The passages a claim stands on, when its words settle it; None when the judge must name them.

    ``passages`` are the passages' ``term_sets``. The words settle it when at least half of the claim's terms
    occur in the passages and one passage holds every one of them that any passage holds (the passages that do
    are named), or, for a fact that needs two passages, exactly one pair of passages holds them together
    (``_bridged``). They do not when the terms are spread over passages in more ways than one, or are mostly in
    none (a paraphrase, another language)."""
    terms = set(search_terms(claim))
    held = [terms & p for p in passages]
    anywhere = set().union(*held)
    if not terms or 2 * len(anywhere) < len(terms):
        return None
    return [k for k, h in enumerate(held) if h == anywhere] or _bridged(held, passages)


def _bridged(held: list[set[str]], passages: Sequence[set[str]]) -> list[int] | None:
    """A fact of two passages: the one pair that together hold every claim term any passage holds, and that speak
    of one thing (share a term: "Aldermoor is named after Edwin Hart" and "Edwin Hart served in the Rifles" for
    "Aldermoor's namesake served in the Rifles"); None when no pair or several do."""
    anywhere = set().union(*held)
    pairs = [[i, j] for i in range(len(held)) for j in range(i + 1, len(held))
             if held[i] | held[j] == anywhere and passages[i] & passages[j]]
    return pairs[0] if len(pairs) == 1 else None
