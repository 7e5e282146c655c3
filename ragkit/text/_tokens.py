"""Tokenisation for every script, in one place: the measures and splits every stage shares.

- ``units``: a language-neutral size measure: words, with each Han or kana character one unit (Korean, which puts
  spaces between words, counts words).
- ``count_tokens``: an estimate of LLM tokens (one per CJK character, 1.3 per word of other scripts), for chunk
  sizes and prompt budgets.
- ``split_sentences``: sentences after CJK terminators (no space needed) or ``. ! ?`` followed by a space and a
  non-lowercase character (common abbreviations, initials and the number of a numbered heading skipped), and at
  line breaks.
- ``search_terms``: retrieval terms (BM25): the word tokens of ``_lexical.tokens`` (jieba words for Chinese, MeCab
  words for Japanese, MeCab-ko morphemes for Korean, so that particles come off their nouns) without English stop
  words, plus the character bigrams of Han and kana runs, which match across a segmentation that differs between
  a query and a document.
- Word-level tokens for overlap scores (``tokens``) live with those scores in ``_lexical``.
"""

from __future__ import annotations

import math
import re

from ragkit.text._lexical import normalise, tokens
from ragkit.text._scripts import CJK_CHAR, HAN, KANA
from ragkit.text._stopwords import FUNCTION_WORDS

_UNIT = re.compile(f"[{HAN}{KANA}]|[^\\W_{HAN}{KANA}]+")
_WORD = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")
_IDEOGRAPHIC_RUN = re.compile(f"[{HAN}{KANA}]+")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st vs etc e.g i.e no fig approx dept inc ltd co corp jan feb mar apr jun jul aug "
    "sep sept oct nov dec rev vol p pp ca cf al".split()
)
_CJK_END = re.compile(r"[。！？；!?…]+[」』”’\"'）)\]】]*")
_LATIN_END = re.compile(r"[.!?]+[”’\"')\]]*(?=\s)")
_ITEM_NUMBER = re.compile(r"\(?\d{1,3}(?:\.\d{1,3})*")
"""The number of a numbered heading or list item: "2", "3.1", "(4"."""


def units(text: str) -> list[str]:
    """Lower-cased words, with each Han or kana character one unit (a language-neutral size measure)."""
    return _UNIT.findall(text.lower())


def count_tokens(text: str) -> int:
    """Approximate LLM tokens: one per CJK character, 1.3 per word of other scripts.

    Examples:
        >>> count_tokens("The arm weighs 33.5 kg.")
        7
        >>> count_tokens("青岚茶业")
        4
    """
    cjk = len(CJK_CHAR.findall(text))
    rest = CJK_CHAR.sub(" ", text) if cjk else text
    return cjk + math.ceil(1.3 * len(_WORD.findall(rest)))


def search_terms(text: str) -> list[str]:
    """Retrieval terms: word tokens without ``FUNCTION_WORDS``, plus the bigrams of Han and kana runs."""
    out = [t for t in tokens(text) if t not in FUNCTION_WORDS]
    for match in _IDEOGRAPHIC_RUN.finditer(normalise(text)):
        run = match.group(0)
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (see the module docstring)."""
    out: list[str] = []
    for line in text.split("\n"):
        start = 0
        for cut in _sentence_ends(line):
            piece = line[start:cut].strip()
            if piece:
                out.append(piece)
            start = cut
        tail = line[start:].strip()
        if tail:
            out.append(tail)
    return out


SENTENCE_END = (".", "!", "?", "。", "！", "？", "\"", "”", "」")
BRACKETS = ("()", "[]", "{}", "（）", "「」", "『』", "《》", "【】")
"""Pairs of brackets, opening mark first, in the scripts ragkit reads (the full-width pair before NFKC)."""
QUESTION_MARKS = ("?", "？")
"""What a question ends with: the ASCII mark and the full-width one of Chinese and Japanese (Korean uses "?")."""

_YES_OR_NO = r"\s*(?:yes|no|네|예|아니요|아니오|아닙니다|是的|是|不是|对|不对|否|はい|いいえ)"
"""A bare "yes" or "no", in the languages ragkit writes and reads."""
_BARE_YES_OR_NO = re.compile(_YES_OR_NO + r"\s*[.!。！]?\s*$", re.IGNORECASE)
_OPENING_YES_OR_NO = re.compile(_YES_OR_NO + r"\s*[,，、.。!！]", re.IGNORECASE)


def is_yes_or_no(text: str) -> bool:
    """Whether ``text`` is only "yes" or "no" ("Yes.", "네", "是的", "いいえ")."""
    return _BARE_YES_OR_NO.match(text) is not None


def opens_with_yes_or_no(text: str) -> bool:
    """Whether ``text`` begins with a bare "yes" or "no" and goes on ("네, 팀장이었습니다.", "No, it is not.")."""
    return _OPENING_YES_OR_NO.match(text) is not None


_WH = re.compile(r"\b(?:what|which|who|whom|whose|where|when|why|how)\b|为什么|什么|哪|谁|几|多少|多[大长久高远重]|"
                 r"怎么|怎样|如何|为何|何时|いつ|どこ|どの|どう|どれ|どんな|どちら|どっち|なぜ|誰|だれ|何|なに|いくら|"
                 r"いくつ|いかが|(?<![가-힣])(?:어디|무엇|뭐|무슨|누구|누가|언제|어떻게|어떤|어느|어때|왜|몇|얼마)",
                 re.IGNORECASE)
_EITHER = re.compile(r"\bor\b|还是|或者|それとも|か、|아니면|또는|혹은", re.IGNORECASE)
"""A choice between things ("… in Leeds or York?", "A还是B？"): asked by naming one, not by "yes" or "no"."""
_EN_AUXILIARY = re.compile(
    r"^\W*(?:(?:and|so|but|also|then),?\s+)?(?:is|are|was|were|am|do|does|did|can|could|will|would|should|shall|may|"
    r"might|must|has|have|had|isn't|aren't|wasn't|weren't|don't|doesn't|didn't|can't|couldn't|won't|wouldn't|"
    r"shouldn't|hasn't|haven't|hadn't)\b", re.IGNORECASE)
"""How an English question whether something is so begins. Asked of the absence of a question word alone, a typo
made one of a question ("Whre is the main plant locaed?", the ``typos`` style)."""
_TOPIC_ASKED = re.compile(r"(?:(?<=[가-힣])[은는]|は|呢)\s*[?？]\s*$")
"""A topic and a question mark ("정다은 대표가 창업한 년도는?", "浜松工場の従業員数は？"): it asks for a thing, by
ellipsis."""


def asks_yes_or_no(question: str) -> bool:
    """Whether ``question`` can be answered with a bare "yes" or "no": a question (it ends with a question mark)
    with no question word and no choice between things ("이수민은 품질관리팀장이었는가?", "Is the plant open on
    Sundays?"). Not "What is the maximum …?", not "Is the plant in Leeds or York?", not a topic that asks for a thing
    ("창업한 년도는?"), and not a keyword query, which asks nothing ("maximum memory attacker XML"). One with no
    Chinese, Japanese or Korean in it is read as English: it begins with an auxiliary ("Is", "Does", "Can't")."""
    return question.rstrip().endswith(QUESTION_MARKS) and _WH.search(question) is None \
        and _EITHER.search(question) is None and _TOPIC_ASKED.search(question) is None \
        and (CJK_CHAR.search(question) is not None or _EN_AUXILIARY.match(question) is not None)


def whole_sentences(text: str) -> str:
    """``text`` (whitespace collapsed) without a last sentence that a length limit cut off, one that ends without
    ``SENTENCE_END``; a text of one sentence is kept whole."""
    sentences = split_sentences(" ".join(text.split()))
    if len(sentences) > 1 and not sentences[-1].endswith(SENTENCE_END):
        sentences.pop()
    return " ".join(sentences)


def _sentence_ends(line: str) -> list[int]:
    cuts: list[int] = [m.end() for m in _CJK_END.finditer(line)]
    for m in _LATIN_END.finditer(line):
        rest = line[m.end():].lstrip()
        if not rest or rest[0].islower():
            continue
        if line[m.start()] == ".":
            before = line[:m.start()].rsplit(None, 1)  # the words before the stop: what is left, and the last one
            word = before[-1].lower().lstrip("(\"'“‘") if before else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or _item_number(before):
                continue
        cuts.append(m.end())
    return sorted(set(cuts))


def _item_number(before: list[str]) -> bool:
    """Whether a full stop after ``before`` (its line's text up to the stop, split off its last word) ends the number
    of a numbered heading or list item, alone at the start of the line or after a sentence ("2. Main
    specifications", "3.1. Root cause"): such a stop ends no sentence. Only the last word and the character before
    it are read, since a line (a PDF's, a minified page's) can hold thousands of sentences."""
    return bool(before) and _ITEM_NUMBER.fullmatch(before[-1]) is not None and \
        (len(before) == 1 or before[0].endswith((".", "!", "?", "。", "！", "？")))
