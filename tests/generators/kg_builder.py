"""Hand-built knowledge graphs for generator and runner tests (no parsing; real embeddings when given)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

import numpy as np

from ragkit.kg._graph import ChunkNode, DocumentNode, EntityMention, EntityNode, KnowledgeGraph
from ragkit.llm._embeddings import Embeddings
from ragkit.testing import claim_reply, contains
from ragkit.text import split_sentences

Spec = dict[str, list[tuple[str, list[tuple[str, str]]]]]
"""{document path: [(chunk text, [(entity name, entity type), ...]), ...]}"""

# A small fictional bakery chain; facts cross documents (people, products, places).
BAKERY: Spec = {
    "company.md": [
        ("Brightloaf Bakeries was founded in Leeds in 2009 by Maria Okafor. It runs two bakeries, in Leeds and "
         "in Bristol, and sells the Harvest Rye and the Oat Crown loaves.",
         [("Brightloaf Bakeries", "organization"), ("Leeds", "place"), ("Maria Okafor", "person"),
          ("Bristol", "place"), ("Harvest Rye", "product"), ("Oat Crown", "product")]),
        ("Maria Okafor is the chief executive. Tomasz Wierzbicki has been head baker since 2015 and designed "
         "the sourdough starter programme used in both bakeries.",
         [("Maria Okafor", "person"), ("Tomasz Wierzbicki", "person")]),
    ],
    "leeds-bakery.md": [
        ("The Leeds bakery opened in 2010 on Kirkstall Road. It has 48 staff and bakes about 9,000 loaves a "
         "day in three deck ovens.",
         [("Leeds", "place"), ("Kirkstall Road", "place")]),
        ("Leeds bakes the Harvest Rye, a dense rye loaf proved for 14 hours. The site manager is Priya Nand, "
         "who joined from a dairy cooperative in 2018.",
         [("Leeds", "place"), ("Harvest Rye", "product"), ("Priya Nand", "person")]),
    ],
    "bristol-bakery.md": [
        ("The Bristol bakery opened in 2017 near Temple Meads. It has 31 staff and bakes about 5,500 loaves a "
         "day in one tunnel oven.",
         [("Bristol", "place"), ("Temple Meads", "place")]),
        ("Bristol makes the Oat Crown, a soft oat loaf topped with rolled oats. Its manager, Owen Hale, "
         "previously ran a pizzeria in Cardiff.",
         [("Bristol", "place"), ("Oat Crown", "product"), ("Owen Hale", "person"), ("Cardiff", "place")]),
    ],
    "products.md": [
        ("The Harvest Rye weighs 800 g, keeps for six days and costs 4.20 pounds. It is made from 70 percent "
         "wholegrain rye flour.",
         [("Harvest Rye", "product")]),
        ("The Oat Crown weighs 600 g, keeps for three days and costs 3.10 pounds. It won a regional bread "
         "award in 2021.",
         [("Oat Crown", "product")]),
    ],
    "safety-notice-2022.md": [
        ("In March 2022 a conveyor guard failed in the Bristol bakery. Nobody was hurt. Owen Hale ordered new "
         "guards from the supplier Marlow Engineering, fitted within two weeks.",
         [("Bristol", "place"), ("Owen Hale", "person"), ("Marlow Engineering", "organization")]),
    ],
}

COFFEE_KO: Spec = {
    "회사소개.md": [
        ("한빛커피는 2013년에 부산에서 창업한 스페셜티 커피 회사입니다. 직원은 약 85명이며 카페 세 곳을 운영합니다. "
         "창업자는 정다은 대표이고 본사는 해운대구에 있습니다. 매년 봄에 새 원두 카탈로그를 냅니다.",
         [("한빛커피", "organization"), ("부산", "place")]),
        ("기장 로스팅 공장은 2017년에 문을 열었습니다. 한빛커피의 모든 원두를 이곳에서 주문을 받은 뒤에 볶습니다. "
         "공장에는 로스터 두 대가 있고 직원은 열두 명입니다. 매월 첫째 토요일에 견학 프로그램을 운영합니다.",
         [("기장 로스팅 공장", "place"), ("한빛커피", "organization")]),
    ],
}

TEA_ZH: Spec = {
    "公司简介.md": [
        ("青岚茶业成立于2008年，总部位于杭州，创始人是林晓梅。公司有两处自有茶园，出产龙井茶和安吉白茶。",
         [("青岚茶业", "organization"), ("杭州", "place"), ("林晓梅", "person")]),
    ],
    "茶园.md": [
        ("龙坞茶园建于2010年，面积约320亩，由茶园主管何春生负责日常管理。明前茶一般在每年3月中下旬开采。",
         [("龙坞茶园", "place"), ("何春生", "person")]),
        ("安吉白茶基地建于2016年，面积约180亩，由吴建国负责管理。青岚茶业的白茶原料全部来自这里。",
         [("安吉白茶基地", "place"), ("吴建国", "person"), ("青岚茶业", "organization")]),
    ],
    "工厂.md": [
        ("余杭加工厂于2012年投产，有员工约60人，负责全部茶叶的摊放、炒制和包装。厂长是王志强。",
         [("余杭加工厂", "place"), ("王志强", "person")]),
    ],
}


def build_graph(spec: Spec, embeddings: Embeddings | None = None, *, language: str = "en",
                similar: bool = True, summaries: bool = True) -> KnowledgeGraph:
    """A graph from ``spec``: documents, chunks, entities, and has_chunk / next / mentions / shares_entity edges;
    with ``embeddings``, chunk and summary embeddings and ``similar`` edges (top 2 per chunk, cosine >= 0.2)."""
    kg = KnowledgeGraph()
    mentions: dict[str, set[str]] = defaultdict(set)
    for path, chunks in spec.items():
        doc_id = "doc-" + hashlib.sha1(path.encode()).hexdigest()[:8]
        title = path.rsplit(".", 1)[0].replace("-", " ")
        kg.add(DocumentNode(id=doc_id, path=path, format="md", content_hash=doc_id, language=language, title=title,
                            summary=chunks[0][0].split("。")[0].split(". ")[0] if summaries else None,
                            themes=[e for _, ents in chunks for e, _ in ents][:3]))
        previous = None
        for i, (text, ents) in enumerate(chunks):
            cid = f"{doc_id}-c{i}"
            kg.add(ChunkNode(id=cid, doc_id=doc_id, text=text, index=i, language=language, source=path,
                             tokens=len(text.split()), entities=[EntityMention(name=n, type=t) for n, t in ents],
                             keyphrases=[]))
            kg.add_edge(doc_id, cid, "has_chunk")
            if previous:
                kg.add_edge(previous, cid, "next")
            previous = cid
            for name, kind in ents:
                eid = name.lower()
                if kg.get(eid) is None:
                    kg.add(EntityNode(id=eid, name=name, type=kind))
                kg.add_edge(cid, eid, "mentions")
                mentions[eid].add(cid)
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for chunk_ids in mentions.values():
        ordered = sorted(chunk_ids)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                pairs[(a, b)] += 1
    for (a, b), weight in pairs.items():
        kg.add_edge(a, b, "shares_entity", float(weight))
    if embeddings is not None:
        chunks_ = kg.chunks()
        matrix = embeddings.embed([c.text for c in chunks_])
        for c, v in zip(chunks_, matrix, strict=True):
            c.embedding = v.tolist()
        for doc in kg.documents():
            if doc.summary:
                doc.summary_embedding = embeddings.embed([doc.summary])[0].tolist()
        if similar:
            sims = matrix @ matrix.T
            for i, c in enumerate(chunks_):
                for j in np.argsort(-sims[i])[1:3]:
                    if sims[i, j] >= 0.2:
                        kg.add_edge(c.id, chunks_[int(j)].id, "similar", float(sims[i, j]))
    return kg


# -- a scripted model for generator and runner tests --------------------------------------------------------

_STOP = {"the", "and", "for", "from", "with", "about", "that", "this", "which", "were", "was", "has", "have", "its",
         "day", "are", "who", "since", "into"}


def body(passage: str) -> str:
    """A prompt passage without its ``(from: ...)`` header line."""
    return passage.split("\n", 1)[1] if passage.startswith("(from:") else passage


def first_sentence(text: str) -> str:
    for stop in ("。", ". "):
        if stop in text:
            return text.split(stop)[0] + stop.strip()
    return text


def _content_words(text: str, k: int) -> list[str]:
    words = [w.strip(".,;:()") for w in text.split()]
    picked = [w for w in words if len(w) > 4 and w.lower() not in _STOP and w[:1].islower()]
    return list(dict.fromkeys(picked))[:k]


UNANSWERABLE = "00000"


def qa_reply(data: Any) -> dict[str, Any]:
    """A plausible question / answer / quotes for the shared QA prompt, in the requested language."""
    passages = [body(p) for p in data.passages]
    topic = data.topic if not data.topic.startswith("(") else "this"
    # the unanswerable generator's pattern question is marked with digits: every style keeps them (web_search keeps
    # content words, typos edits letters only)
    mark = f"{UNANSWERABLE} " if "exactly as" in data.task else ""
    if "(zh)" in data.language:
        question = f"{mark}{topic}的情况是怎样的？"
        answer = first_sentence(passages[0])
    else:
        words = _content_words(" ".join(passages), 3)
        question = f"{mark}Could you explain how {topic} relates to {' and '.join(words) or 'the rest'}?"
        answer = first_sentence(passages[0])
    quotes = [" ".join(first_sentence(p).split()[:6]) if " " in p else first_sentence(p)[:12] for p in passages]
    return {"question": question, "answer": answer, "quotes": quotes}


def bridge_reply(data: Any) -> dict[str, Any]:
    """``qa_reply`` in the multi-hop prompt's shape: one fact copied from each of the two passages first, then a
    question on each."""
    reply = qa_reply(SimpleNamespace(**{**vars(data), "passages": [data.passage_0, data.passage_1]}))
    second = f"{data.topic}还有什么情况？" if "(zh)" in data.language else f"What else is said about {data.topic}?"
    return {"fact_from_passage_0": reply["quotes"][0], "fact_from_passage_1": reply["quotes"][-1],
            "question_about_fact_0": reply["question"], "question_about_fact_1": second,
            "answer": reply["answer"]}


def comparison_reply(data: Any) -> dict[str, Any]:
    """``qa_reply`` in the comparison prompt's shape: a fact of the first passage and of the last copied first."""
    reply = qa_reply(SimpleNamespace(**vars(data), topic=f"{data.first} and {data.second}", task=""))
    return {"fact_about_first": reply["quotes"][0], "fact_about_second": reply["quotes"][-1],
            "question": reply["question"], "answer": reply["answer"]}


def chat_reply(data: Any) -> dict[str, Any]:
    """A chat for the conversation prompt: turn k asks about sentence k of the passages, later turns with "it"."""
    sentences = [s for p in data.passages for s in split_sentences(body(p))][: max(2, data.questions)]
    zh = "(zh)" in data.language
    turns = []
    for k, sentence in enumerate(sentences):
        question = f"{data.topic}的第{k + 1}个情况是什么？" if zh else f"What is fact {k + 1} about {data.topic}?"
        turns.append({"question": question, "answer": sentence, "quote": sentence[:40]})
    return {"turns": turns}


def critic_reply(data: Any, *, answerable: bool = True, supported: bool = True) -> dict[str, Any]:
    """The judge's reply: the first sentence of the first passage as evidence and answer (which agrees with
    ``qa_reply``'s reference answer), an unrelated answer when not ``supported``, nothing when not ``answerable``."""
    evidence = [first_sentence(body(p)) for p in data.passages] if answerable else []
    answer = (evidence[0] if supported else "purple elephants 999") if answerable else ""
    return {"evidence": evidence, "answer": answer}


def grounded(passage: str, claim: str) -> str:
    """A claim is supported when the passage contains it (``contains``) or when it holds a whole passage sentence (a
    short answer restated after a question written as keywords)."""
    sentences = [s.strip().rstrip(".。").lower() for s in split_sentences(passage)]
    if any(s and s in claim.lower() for s in sentences):
        return "supported"
    return contains(passage, claim)


def question_check_reply(data: Any) -> dict[str, Any]:
    """The no-document question check: a question pointing at "the example" is not self-contained."""
    return {"self_contained": "the example" not in data.question.lower()}


def persona_reply(data: Any) -> dict[str, Any]:
    return {"personas": [{"name": f"Analyst {i + 1}"}
                         for i in range(len(data.document_groups))]}


def default_script(call: Any) -> dict[str, Any]:
    """Replies by prompt name: good samples that pass the critic. Questions made by the unanswerable generator
    (``qa_reply`` marks them with ``UNANSWERABLE``) are not answerable."""
    if call.prompt_name == "generate.qa":
        return qa_reply(call.data)
    if call.prompt_name == "generate.bridge_qa":
        return bridge_reply(call.data)
    if call.prompt_name == "generate.comparison_qa":
        return comparison_reply(call.data)
    if call.prompt_name == "generate.conversation":
        return chat_reply(call.data)
    if call.prompt_name == "generate.follow_up":  # the subject the system prompt names, left out
        subject = call.messages[0]["content"].split("leave out '", 1)[1].split("'", 1)[0]
        question = call.messages[-1]["content"]
        return question.replace(subject, "它" if "的第" in question else "it")
    if call.prompt_name == "generate.critic":
        return critic_reply(call.data, answerable=UNANSWERABLE not in call.data.question)
    if call.prompt_name == "generate.question_check":
        return question_check_reply(call.data)
    if call.prompt_name == "generate.personas":
        return persona_reply(call.data)
    reply = claim_reply(call, claims=lambda text: [text], label=grounded)  # the critic's check of the reference
    if reply is not None:
        return reply
    raise AssertionError(f"unexpected prompt {call.prompt_name}")
