"""Two names in each other's places: "Tom Whitaker reports to Priya Nair" against "Priya Nair reports to Tom Whitaker".

The small judge reads a claim by its words, and a swap keeps every word: on 8 such claims in four languages it called
5 entailed (0.53–0.97), the Korean and Japanese ones nearly all (bench/README.md, session 46). A claim is contradicted
without a call when a sentence of the passage holds all its words and says the same relation with the two names the
other way round:
- in English and Chinese, by word order: the claim reads "X … Y" where the sentence reads "Y … X" with the same
  words between ("reports to", "为"), which says who does what to whom; a relation that reads the same both ways
  ("and", "married", "和", "与") is left alone, and a passive ("was acquired by") has other words between;
- in Korean and Japanese, by particles: two names whose roles (subject or topic, object, the one it is done
  to: "은/는/이/가", "을/를", "에게/에"; "は/が", "を", "に") the claim exchanges, both in the active or both in the
  passive. A name in the genitive ("최동욱의 뒤를 이어") has no role here, and is left to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.evaluation._claim_text import rule_language
from ragkit.evaluation._polarity import ZH_TOKEN, read
from ragkit.text import JAPANESE_NOT_A_THING, is_noun, morphemes, split_sentences

_JA_SKIP = JAPANESE_NOT_A_THING | {"数"}
_EN_TOKEN = re.compile(r"[A-Za-z0-9][\w'’&.-]*[A-Za-z0-9]|[A-Za-z0-9]")
_SYMMETRIC = frozenset(
    "and or nor with married met meets meet near next beside borders border similar like equals equal same versus vs "
    "between both together against & is are was were be been 和 与 跟 同 及 或 、 相 邻 结 婚 比 是 即".split())
"""Words of a relation that reads the same both ways round: "X and Y", "X married Y", "X和Y", and a copula: "质量经理是
陈思远" says what "陈思远是质量经理" says."""
_FUNCTION = frozenset("the a an of in on at to for by from as is was are were".split())
_MAX_TOKENS = 40

_ROLES = {  # particle → role
    "ko": {"은": "subject", "는": "subject", "이": "subject", "가": "subject", "께서": "subject",
           "을": "object", "를": "object", "에게": "to", "한테": "to", "께": "to", "에": "to"},
    "ja": {"は": "subject", "が": "subject", "を": "object", "に": "to"},
}
_PASSIVE = {
    "ko": re.compile(r"에\s*의해|에게\s*(?:인수|매각)되|당하|되었|됐|된다|됩니다"),
    "ja": re.compile(r"によって|により|れる|れた|られ|され"),
}


def swapped(passage: str, claim: str) -> bool:
    """Whether a sentence of ``passage`` holding the words of ``claim`` says its relation with the two names the
    other way round."""
    language = rule_language(passage, claim)
    if language in ("ko", "ja"):
        return _swapped_roles(passage, claim, language)
    pattern = ZH_TOKEN if language == "zh" else _EN_TOKEN
    said = pattern.findall(claim)
    if not 3 <= len(said) <= _MAX_TOKENS:
        return False
    return any(_swapped_order(said, [t.lower() for t in pattern.findall(s)], language)
               for s in split_sentences(passage))


def _swapped_order(said: list[str], sentence: list[str], language: str) -> bool:
    """Whether ``sentence`` holds every token of ``said`` and reads "Y M X" where the claim reads "X M Y"."""
    lower = [t.lower() for t in said]
    if not sentence or not set(lower) <= set(sentence):
        return False
    for i in range(len(lower)):
        for j in range(i + 1, len(lower)):
            if _name(said[i:j], language) and any(_turned(said, sentence, i, j, at, language)
                                                  for at in _find(sentence, lower[i:j])):
                return True
    return False


def _turned(said: list[str], sentence: list[str], i: int, j: int, at: int, language: str) -> bool:
    """Whether the claim's X (``said[i:j]``), found at ``at`` in the sentence, stands there after "Y M", where the
    claim goes on "M Y" after X; and the sentence nowhere reads "X M Y" itself."""
    lower = [t.lower() for t in said]
    x = lower[i:j]
    for k in range(j + 1, len(lower)):
        middle = lower[j:k]
        if _SYMMETRIC & set(middle) or all(t in _FUNCTION for t in middle):
            continue
        for m in range(k + 1, len(lower) + 1):
            y, start = lower[k:m], at - (k - j) - (m - k)
            if start >= 0 and sentence[start:at] == y + middle and _name(said[k:m], language) and \
                    _apart(x, y) and not _find(sentence, x + middle + y):
                return True
    return False


def _name(tokens: Sequence[str], language: str) -> bool:
    """A name: in English a run with a capitalised word and no function word at its edges; in Chinese two or more
    characters."""
    if language == "zh":
        return len("".join(tokens)) >= 2 and not _SYMMETRIC & set(tokens)
    if tokens[0].lower() in _FUNCTION or tokens[-1].lower() in _FUNCTION:
        return False
    return any(t[:1].isupper() for t in tokens)


def _apart(x: list[str], y: list[str]) -> bool:
    """Two names, neither part of the other ("东方农场" and "青禾农机" share a character, and are two)."""
    a, b = " ".join(x), " ".join(y)
    return a not in b and b not in a


def _find(tokens: list[str], part: list[str]) -> list[int]:
    return [i for i in range(len(tokens) - len(part) + 1) if tokens[i : i + len(part)] == part]


def _roles(text: str, language: str) -> dict[str, str]:
    """Each noun phrase of ``text`` that a role particle follows → its role (Korean and Japanese, by MeCab)."""
    parsed = morphemes(text, language) or []
    out: dict[str, str] = {}
    noun: list[str] = []
    for surface, features, _ in parsed:
        tag = features[0]
        if is_noun(features, language, skip=_JA_SKIP):
            noun.append(surface)
            continue
        role = _ROLES[language].get(surface) if tag.startswith(("J", "助詞")) else None
        if noun and role:
            out.setdefault("".join(noun), role)
        noun = []
    return out


def _swapped_roles(passage: str, claim: str, language: str) -> bool:
    """Whether a sentence holding the claim's words gives two of its names each other's roles, in the same voice."""
    claimed = _roles(claim, language)
    if len(claimed) < 2:
        return False
    wanted = read(claim, language).words
    passive = _PASSIVE[language].search(claim) is not None
    for sentence in split_sentences(passage):
        if (_PASSIVE[language].search(sentence) is not None) != passive:
            continue
        if not set(wanted) <= set(read(sentence, language).words):
            continue
        stated = _roles(sentence, language)
        pairs = [(a, b) for a in claimed for b in claimed if a < b and a in stated and b in stated]
        if any(claimed[a] != claimed[b] and stated[a] == claimed[b] and stated[b] == claimed[a] for a, b in pairs):
            return True
    return False
