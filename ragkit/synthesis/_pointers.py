"""Whether a question points at the text it was written from: a check of the critic that needs no LLM."""

from __future__ import annotations

import re

from ragkit.text import normalise, tokens

# A question a user of the system under test could ask never points at the text it was written from. Each
# language's list names the text itself ("the passage") and the things a question can only point at when the text is
# in view ("the example", "the code above", "this section"); a name in between ("the travel policy document") makes
# it a real reference.
_POINTERS = {
    "en": r"\b(?:the|this|these|above|given|provided|following)\s+(?:passages?|texts?|excerpts?|contexts?)\b"
          r"|\baccording to the (?:passage|text|excerpt|context|document|article)\b"
          r"|\b(?:this|the above|the following|the given)\s+(?:examples?|snippets?|code|listing|figure|table|"
          r"diagram|section|chapter|paragraph|document|article|page)\b"
          r"|\bthe (?:code )?(?:examples?|snippets?|code|listing|figure|diagram|paragraph|table) "
          r"(?:above|below|shown|given|provided)\b"
          r"|\b(?:in|from) the (?:code )?(?:examples?|snippets?|listing|figure|diagram|paragraph)\b"
          r"|\b(?:shown|mentioned|described|given|listed) (?:above|below)\b",
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
