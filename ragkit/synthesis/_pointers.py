"""Whether a question points at the text it was written from: a check of the critic that needs no LLM."""

from __future__ import annotations

import re

from ragkit.text import normalise, normalise_language, tokens

# A question a user of the system under test could ask never points at the text it was written from. Each
# language's list names the text itself ("the passage") and the things a question can only point at when the text is
# in view ("the example", "the code above", "this section"); a name in between ("the travel policy document") makes
# it a real reference.
_POINTERS = {
    # "in the context of numerals" is English for "as to numerals", not a pointer (3 of enpkg's 9 drops, session 70)
    "en": r"\b(?:the|this|these|above|given|provided|following)\s+(?:passages?|texts?|excerpts?|contexts?(?!\s+of\b))\b"
          r"|\baccording to the (?:passage|text|excerpt|context|document|article)\b"
          r"|\b(?:this|the above|the following|the given)\s+(?:examples?|snippets?|code|listing|figure|table|"
          r"diagram|section|chapter|paragraph|document|article|page)\b"
          r"|\bthe (?:code )?(?:examples?|snippets?|code|listing|figure|diagram|paragraph|table) "
          r"(?:above|below|shown|given|provided)\b"
          r"|\b(?:in|from) the (?:code )?(?:examples?|snippets?|listing|figure|diagram|paragraph)\b"
          r"|\b(?:shown|mentioned|described|given|listed) (?:above|below)\b"
          # the prompt's own label of a passage, in a question of any language ("passage [0] 中提到的…", session 70)
          r"|\bpassage[_ ]?\[?\d+\]?",
    "zh": r"文中|本文|上文|下文|原文|段落中|文章中|材料中|文本中|本节|本章|该节|该章|上述|"
          r"(?:这|这一|该|此)段(?:文字|话|代码|内容|材料|描述)|"
          r"以下代码|如下代码|该示例|这个示例|此示例|这个例子|该例子|此例|本文档|该文档",
    "ja": r"本文|文中|この文章|この文書|この節|この章|この段落|この例(?!外)|上記|下記|以下のコード|このコード|"
          r"この記事",
    # a Korean noun takes its particle: "이 예제에서" points at the text, "이 장소" (this place) does not
    "ko": r"본문|(?:이|위의|위|아래의|아래|다음) (?:예제|예시|코드|문서|글|절|장|단락|기사|표|그림)"
          r"(?:에서|에|의|은|는|을|를|와|과)?(?=[\s?？.,!]|$)",
}
_SPACED = re.compile("|".join(f"(?:{_POINTERS[k]})" for k in ("en", "ko")), re.IGNORECASE)
_UNSPACED = re.compile("|".join(f"(?:{_POINTERS[k]})" for k in ("zh", "ja")))


def mentions_context(question: str) -> bool:
    """True when the question points at the text it was written from ('in the passage', 'the example above',
    '文中', 'この例', '위의'), which a user of the system under test has never seen. Chinese and Japanese write no
    spaces, so a pointer counts only where it begins and ends at word boundaries: "文中" (in the text) is not the
    end of "中文" and the start of "中" in "阿拉伯数字在中文中是如何转换的？" (how are Arabic numerals converted in
    Chinese?), which session 69 dropped twice as pointing at its source."""
    if _SPACED.search(question) is not None:
        return True
    text = normalise(question)
    if _UNSPACED.search(text) is None:
        return False
    starts, ends = _word_bounds(text)
    return any(_UNSPACED.fullmatch(text, s, e) for s in starts for e in ends if s < e <= s + 12)


def _word_bounds(text: str) -> tuple[list[int], set[int]]:
    """Where the words of normalised ``text`` (``tokens``: jieba, MeCab) start and end in it."""
    starts, ends, at = [], set(), 0
    for word in tokens(text):
        found = text.find(word, at)
        if found < 0:
            continue
        starts.append(found)
        at = found + len(word)
        ends.add(at)
    return starts, ends


# The writer's own word for what it was shown, ending a question ("What is the purpose of the `xmltodict.parse()`
# function in the given passage?", 3 of enpkg's 9 drops, session 70) or opening it ("According to the text, …",
# "根据上文，…"): the user of the system under test would ask the same question without it.
_TRAILING_EN = re.compile(r",?\s+(?:in|from|within|according to|based on)\s+(?:the|this)\s+"
                          r"(?:(?:given|provided|above|following)\s+)?(?:passage|text|excerpt|context)"
                          r"(?:\s+(?:above|below|provided|given))?(?=\s*[?.!]?\s*$)", re.IGNORECASE)
_LEADING = {
    "en": re.compile(r"^(?:according to|based on|in|from)\s+(?:the|this)\s+(?:(?:given|provided|above|following)\s+)?"
                     r"(?:passage|text|excerpt|context)\s*,\s*", re.IGNORECASE),
    "zh": re.compile(r"^(?:根据|依据|按照)?(?:上文|本文|原文|文中|文章|段落|材料)"
                     r"(?:内容|所述|中|的内容|的描述)?[，,]\s*"),
    "ja": re.compile(r"^(?:本文|この文章|上記の文章)(?:によると|によれば|では)[、,]\s*"),
    "ko": re.compile(r"^(?:본문|위\s?글|이\s?글)(?:에 따르면|에서는)\s*,?\s*"),
}
# what is left must still say what it asks about: not "What extra dependencies are mentioned?" (in the text), and, in
# English, a name, a code or a number ("the PathSpec class", "`parse()`", "version 2")
_TELLING_END = re.compile(r"\b(?:mentioned|described|stated|listed|given|discussed|shown|provided|said|noted|"
                          r"referred to|defined|explained|used|written)\s*[?.!]?\s*$", re.IGNORECASE)
_NAMED_EN = re.compile(r"(?<=\S\s)[A-Z]|[`_()\d]|\w\.\w")


def without_pointer(question: str, language: str) -> str:
    """``question`` without the pointer at its source that only opens or ends it, when what is left still says what
    it asks about; else as it is (and ``mentions_context`` drops it). A pointer inside the question ("in the passage
    about extras") holds part of what it asks, and stays."""
    language = normalise_language(language)
    out = question
    if language == "en":
        out = _TRAILING_EN.sub("", out)
    leading = _LEADING.get(language)
    if leading is not None and (rest := leading.sub("", out, count=1)) != out:
        out = rest[:1].upper() + rest[1:] if language == "en" else rest
    if out == question or not out.strip() or _TELLING_END.search(out):
        return question
    if language == "en" and not _NAMED_EN.search(out):
        return question
    if language == "en" and not out.rstrip().endswith(("?", ".", "!")) and question.rstrip().endswith("?"):
        out = out.rstrip() + "?"
    return out
