"""What an answer says about its sources or to its reader, which is no claim about the world.

RAG systems wrap an answer in asides: what the documents do not give ("费用については資料に記載がありません。", "The
documents do not say what it cost.") and a closing courtesy ("お役に立てれば幸いです。"). The split's instruction
already leaves refusals and greetings out, but the 1.5B split kept such asides as claims in Japanese and Korean,
and the check calls them unsupported: a right answer with one aside lost up to half its faithfulness (bench/README.md,
"Asides about the sources", session 52). An aside is read by its words, in each language: the documents (a generic
name for them, not "the contract documents") and a verb that says they do not give something, or a courtesy that
gives no number, address or link ("Feel free to call 0800 123 456" tells the reader something).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragkit.text import split_sentences

_EN_SOURCES = (r"(?:the |these |those |provided |given |available |retrieved |supplied |above |following )*"
               r"(?:documents?|documentation|context|passages?|sources?|texts?|materials?|information|excerpts?)"
               r"(?: (?:provided|given|above|available|retrieved|supplied))?")
_EN_NOT_GIVEN = (r"(?:do|does|did)(?: not|n't)(?: \w+ly)? (?:say|mention|state|specify|include|contain|give|provide|"
                 r"cover|describe|discuss|address|indicate|list|name|explain)")
_EN = re.compile(
    rf"^(?:(?:however|unfortunately|but|note that|please note that|i'm sorry|i am sorry|sorry),? )?"
    rf"(?:{_EN_SOURCES} {_EN_NOT_GIVEN}\b"
    rf"|there (?:is|are) no (?:information|mention|details?|data)\b.* (?:in|from) {_EN_SOURCES}"
    r"|no (?:information|details?|mention|data) (?:is|are|was|were) (?:given|provided|available|included)\b)",
    re.IGNORECASE)

_ZH_SOURCES = (r"(?:所?提供的|现有的?|上述|以上|给定的)?(?:资料|文档|文件|上下文|材料|参考资料|文本)"
               r"(?:中|里|里面|内|当中)?")
_ZH = re.compile(
    rf"^(?:但是?|不过|然而|遗憾的是|可惜|抱歉|对不起|很抱歉)?[，,]?{_ZH_SOURCES}(?:并|均|都|也)?(?:没有|没|未|并未|未曾|无)"
    r"(?:提到|提及|说明|记载|给出|包含|涉及|写明|列出|介绍|相关|找到"
    r"|(?:关于|有关)?[^。！？]{0,24}的?(?:信息|说明|记载|内容|资料)[。.！!]?$)")
_JA_SOURCES = (r"(?:提供された|与えられた|上記の|参照した|お手元の)?"
               r"(?:資料|文書|ドキュメント|文脈|コンテキスト|テキスト|文献)")
_JA = re.compile(
    rf"(?:^|[、はにで]){_JA_SOURCES}"
    r"(?:に|には|では|で|の中に|中に)?(?:は|も)?(?:記載|言及|記述|説明|情報)(?:が|は|も)?"
    r"(?:ありません|されていません|見当たりません|見つかりません|ございません|(?:ない|されていない)[。.]?$)"
    rf"|(?:^|[、はにで]){_JA_SOURCES}(?:に|には|では|の中に|中に)(?:は|も)?[^。]{{0,12}}?"
    r"(?:書かれて|載って|含まれて|記載されて|触れられて)(?:いません|いない|おりません)[。.]?$")
_KO = re.compile(
    r"(?:^|\s)(?:제공된 |주어진 |위의 |참고한 )?(?:자료|문서|문맥|컨텍스트|텍스트|본문)"
    r"(?:에|에는|에서는|에서|상에는|상)\s*(?:\S+\s+){0,3}?"
    r"(?:나와 있지 않|나와있지 않|언급되어 있지 않|언급되지 않|언급이 없|기재되어 있지 않|포함되어 있지 않|"
    r"설명되어 있지 않|명시되어 있지 않|찾을 수 없|찾지 못|확인할 수 없"
    r"|(?:\S+\s+)?(?:\S+ 있지 않|없)(?:습니다|다|음|어요|아요)[.。]?$)")
_COURTESY = re.compile(
    r"^(?:(?:i )?hope (?:this|that|it) helps|let me know if|feel free to|please let me know"
    r"|if you have (?:any )?(?:other|more|further) questions"
    r"|(?:希望|但愿)(?:这|以上|上述)?(?:些)?(?:信息|回答|内容|答复)?(?:能|可以)?对(?:您|你)有(?:所)?帮助"
    r"|如(?:果)?(?:还)?有(?:其他|任何)?(?:问题|疑问)"
    r"|お役に立て(?:れば|たら)|ご参考になれば|(?:他に|ほかに)?(?:ご質問|ご不明な点)があれば"
    r"|도움이 (?:되(?:었|셨)?(?:으면|기를|길)|되셨기를)|(?:더 )?궁금한 (?:점|것)이 있으시?면)", re.IGNORECASE)
_TELLS = re.compile(r"\d|@|https?:|www\.")
"""A number, an address or a link: a courtesy that holds one tells the reader where to go."""


def is_aside(claim: str) -> bool:
    """Whether ``claim`` is what the documents do not give, or a courtesy to the reader, and nothing more: each of
    its sentences is one ("資料に含まれていません。ご参考になれば幸いです。")."""
    sentences = [s.strip() for s in split_sentences(claim.strip())]
    return bool(sentences) and all(_is_aside(s) for s in sentences)


def _is_aside(sentence: str) -> bool:
    if any(p.search(sentence) for p in (_EN, _ZH, _JA, _KO)):
        return True
    return _COURTESY.search(sentence) is not None and _TELLS.search(sentence) is None


def without_asides(claims: Sequence[str]) -> list[str]:
    """``claims`` without the asides: an answer of asides alone has no claim, as a refusal has none."""
    return [c for c in claims if not is_aside(c)]
