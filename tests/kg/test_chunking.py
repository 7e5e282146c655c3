"""Chunk boundaries: headings, token bounds, tables, code, CJK sentences, content-hash ids."""

from __future__ import annotations

from ragkit.kg._chunking import chunk_document
from ragkit.text import count_tokens, split_sentences
from ragkit.types import Document, Element


def doc(*elements: Element, language: str = "en", doc_id: str = "d1") -> Document:
    return Document(id=doc_id, path="x.md", format="md", content_hash="h", language=language,
                    elements=list(elements))


def para(text: str) -> Element:
    return Element(kind="paragraph", text=text)


def heading(text: str, level: int = 2) -> Element:
    return Element(kind="heading", text=text, level=level)


SENTENCE = "The Kestrel arm moves parts between two conveyors in the Sheffield plant every day."


def test_count_tokens_latin_and_cjk() -> None:
    assert count_tokens("one two three four five six seven eight nine ten") == 13
    assert count_tokens("青岚茶业成立于二零零八年") == 12
    assert count_tokens("Acme 青岚") == 2 + 2
    assert count_tokens("") == 0


def test_split_sentences_latin_keeps_abbreviations() -> None:
    text = "Dr. Jane Smith joined in 2019. She leads the team, e.g. the vision group. Is it done? Yes!"
    assert split_sentences(text) == [
        "Dr. Jane Smith joined in 2019.", "She leads the team, e.g. the vision group.", "Is it done?", "Yes!",
    ]


def test_split_sentences_cjk_without_spaces() -> None:
    assert split_sentences("青岚茶业成立于2008年。总部在杭州！你知道吗？知道。") == [
        "青岚茶业成立于2008年。", "总部在杭州！", "你知道吗？", "知道。",
    ]
    assert split_sentences("東京は首都です。大阪は大きい。") == ["東京は首都です。", "大阪は大きい。"]
    assert split_sentences("서울은 수도입니다. 부산은 항구입니다.") == ["서울은 수도입니다.", "부산은 항구입니다."]


def test_headings_start_chunks_and_heading_path_is_kept() -> None:
    d = doc(
        Element(kind="title", text="Handbook", level=1),
        heading("Leave", 2), para(" ".join([SENTENCE] * 7)),
        heading("Annual leave", 3), para(" ".join([SENTENCE] * 7)),
        heading("Safety", 2), para(" ".join([SENTENCE] * 7)),
    )
    chunks = chunk_document(d, max_tokens=200, min_tokens=50)
    assert [c.heading_path for c in chunks] == [
        ["Handbook", "Leave"], ["Handbook", "Leave", "Annual leave"], ["Handbook", "Safety"],
    ]
    assert chunks[1].text.startswith("Annual leave\n\n")
    assert [c.index for c in chunks] == [0, 1, 2]
    assert all(c.doc_id == "d1" and c.source == "x.md" for c in chunks)


def test_small_sections_merge_and_no_chunk_ends_on_a_heading() -> None:
    d = doc(heading("A"), para("Short one."), heading("B"), para("Short two."), heading("C"))
    chunks = chunk_document(d, max_tokens=200, min_tokens=50)
    assert len(chunks) == 1
    assert chunks[0].text == "A\n\nShort one.\n\nB\n\nShort two.\n\nC"


def test_token_bound_respected_and_long_paragraph_split_at_sentences() -> None:
    d = doc(para(" ".join(f"Sentence number {i} talks about the plant." for i in range(60))))
    chunks = chunk_document(d, max_tokens=100, min_tokens=20)
    assert len(chunks) > 3
    assert all(c.tokens <= 100 for c in chunks)
    assert all(c.text.endswith("plant.") for c in chunks)
    assert " ".join(c.text for c in chunks) == d.elements[0].text


def test_table_is_not_split_when_it_fits() -> None:
    table = "\n".join(["Name | Role"] + [f"Person {i} | Engineer" for i in range(12)])
    d = doc(para(" ".join([SENTENCE] * 5)), Element(kind="table", text=table), para(SENTENCE))
    chunks = chunk_document(d, max_tokens=150, min_tokens=20)
    holding = [c for c in chunks if "Person 0 |" in c.text]
    assert len(holding) == 1 and "Person 11 | Engineer" in holding[0].text


def test_oversized_table_splits_by_rows_repeating_the_header() -> None:
    table = "\n".join(["Name | Role"] + [f"Person {i} | Engineer" for i in range(80)])
    chunks = chunk_document(doc(Element(kind="table", text=table)), max_tokens=100, min_tokens=20)
    assert len(chunks) > 2
    for c in chunks:
        assert c.text.startswith("Name | Role\n")
        assert all(" | " in line for line in c.text.split("\n"))
    rows = [line for c in chunks for line in c.text.split("\n")[1:]]
    assert rows == [f"Person {i} | Engineer" for i in range(80)]


def test_code_block_kept_whole_or_split_by_lines() -> None:
    code = "\n".join(f"x{i} = compute({i})" for i in range(10))
    chunks = chunk_document(doc(para(SENTENCE), Element(kind="code", text=code)), max_tokens=200, min_tokens=10)
    assert sum(code in c.text for c in chunks) == 1
    big = "\n".join(f"value_{i} = compute_something({i}, {i + 1})" for i in range(100))
    parts = chunk_document(doc(Element(kind="code", text=big)), max_tokens=80, min_tokens=10)
    assert "\n".join(p.text for p in parts) == big


def test_chinese_paragraph_split_at_chinese_sentence_ends() -> None:
    sentence = "青岚茶业的龙井茶产自杭州西湖区的龙坞茶园，每年春季采摘。"
    d = doc(para(sentence * 20), language="zh")
    chunks = chunk_document(d, max_tokens=100, min_tokens=20)
    assert len(chunks) > 1
    assert all(c.text.endswith("。") and c.tokens <= 100 for c in chunks)
    assert "".join(c.text for c in chunks) == sentence * 20
    assert {c.language for c in chunks} == {"zh"}


def test_chunk_ids_are_content_hashes() -> None:
    d = doc(heading("A"), para(" ".join([SENTENCE] * 10)), heading("B"), para(" ".join([SENTENCE] * 9)))
    first = chunk_document(d, max_tokens=200, min_tokens=50)
    again = chunk_document(d, max_tokens=200, min_tokens=50)
    assert [c.id for c in first] == [c.id for c in again]
    changed = d.model_copy(deep=True)
    changed.elements[3] = para(" ".join([SENTENCE] * 8))
    other = chunk_document(changed, max_tokens=200, min_tokens=50)
    assert other[0].id == first[0].id and other[1].id != first[1].id
    elsewhere = chunk_document(d.model_copy(update={"id": "d2"}), max_tokens=200, min_tokens=50)
    assert elsewhere[0].id != first[0].id  # identical text in another document is another chunk


def test_repeated_text_in_one_document_gets_distinct_ids() -> None:
    d = doc(heading("A"), para(" ".join([SENTENCE] * 10)), heading("A"), para(" ".join([SENTENCE] * 10)))
    chunks = chunk_document(d, max_tokens=200, min_tokens=50)
    assert len(chunks) == 2 and chunks[0].text == chunks[1].text and chunks[0].id != chunks[1].id


def test_mixed_language_document_tags_chunks() -> None:
    english = " ".join([SENTENCE] * 8)
    d = doc(heading("中文"), para("青岚茶业成立于2008年。" * 20), heading("English"), para(english), language="zh")
    chunks = chunk_document(d, max_tokens=200, min_tokens=50)
    assert [c.language for c in chunks] == ["zh", "en"]


def test_a_run_of_headings_with_nothing_under_them_is_cut_at_the_bound() -> None:
    """Found by the fuzz test: eight titles and no text made one chunk of 33 tokens at a bound of 16."""
    titles = ["0:0", "0:0:0一0", "0:0ぁ0㐀㐀㐀", "0:0ぁ0㐀㐀㐀", "0:0ぁ0㐀0㐀"]
    doc = Document(id="d1", path="f.md", format="md", content_hash="h", language="en", title="t",
                   elements=[Element(kind="title", text=t) for t in titles])
    chunks = chunk_document(doc, max_tokens=16)
    assert all(c.tokens <= 2 * 16 for c in chunks) and len(chunks) >= 2
    assert "".join("".join(c.text.split()) for c in chunks) == "".join(titles)  # nothing lost
