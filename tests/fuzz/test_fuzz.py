"""Property-based tests: any input to a reader, the chunker or a verdict parser gives a result or a clear
error (a RagkitError naming the place), never a crash."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragkit.errors import RagkitError
from ragkit.evaluation._claim_prompts import SPLIT, attribute_prompt, check_prompt
from ragkit.kg._chunking import chunk_document
from ragkit.llm._calls import Completion
from ragkit.llm._judge import _valid
from ragkit.runs import load_samples
from ragkit.text import count_tokens
from ragkit.types import Document, Element

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# text of any script, with control characters, plus CJK sentences, an escape sequence and a bidi override
SAMPLES = ["", " ", "龙井茶产自杭州。", "서울은 한국의 수도이다.", "東京は日本の首都です。", "\x1b[31mred", "a\u202eb"]
TEXT = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Z", "Cc")), max_size=200) | \
    st.sampled_from(SAMPLES)
COLUMNS = ["user_input", "question", "response", "answer", "retrieved_contexts", "contexts", "reference",
           "ground_truth", "reference_contexts", "id", "query", "gt_answer", "response_ids", "metadata"]
JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                       max_leaves=12)
RECORD = st.dictionaries(st.sampled_from(COLUMNS) | TEXT, JSONISH, max_size=6)


def _load(name: str, data: bytes) -> None:
    with TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            samples = load_samples(path)
        except RagkitError as exc:
            assert str(exc).strip() and "\n" not in str(exc).strip(), str(exc)
            return
        assert samples and all(s.id for s in samples)


@FUZZ
@given(st.binary(max_size=600), st.sampled_from(["t.jsonl", "t.json", "t.csv"]))
def test_any_bytes_as_a_test_set(data: bytes, name: str) -> None:
    _load(name, data)


@FUZZ
@given(st.lists(RECORD, max_size=5))
def test_any_records_as_jsonl_json_and_csv(records: list[dict]) -> None:
    _load("t.jsonl", "".join(json.dumps(r) + "\n" for r in records).encode())
    _load("t.json", json.dumps(records).encode())
    import csv
    import io

    buf = io.StringIO()
    keys = sorted({k for r in records for k in r})
    writer = csv.DictWriter(buf, fieldnames=keys)
    writer.writeheader()
    for r in records:
        writer.writerow({k: json.dumps(v) if isinstance(v, list | dict) else v for k, v in r.items()})
    _load("t.csv", buf.getvalue().encode())


ELEMENT = st.builds(Element, kind=st.sampled_from(["title", "heading", "paragraph", "list_item", "table", "code"]),
                    text=TEXT | st.text(min_size=200, max_size=3000), level=st.none() | st.integers(1, 6),
                    page=st.none() | st.integers(1, 50))


@FUZZ
@given(st.lists(ELEMENT, max_size=12), st.integers(16, 400), st.sampled_from(["en", "zh", "ja", "ko", "und"]))
def test_the_chunker_keeps_every_word_within_the_bound(elements: list[Element], max_tokens: int, lang: str) -> None:
    doc = Document(id="d1", path="f.md", format="md", content_hash="h", language=lang, title="t", elements=elements)
    chunks = chunk_document(doc, max_tokens=max_tokens)
    assert len({c.id for c in chunks}) == len(chunks)
    assert all(c.text.strip() or not c.text for c in chunks)
    # nothing is lost: every visible character of the elements is in the chunks (which may add "- " to list
    # items and repeat a table's header row)
    kept = Counter("".join("".join(c.text for c in chunks).split()))
    given_chars = Counter("".join("".join(el.text.split()) for el in elements))
    assert not given_chars - kept
    for c in chunks:
        assert c.tokens == count_tokens(c.text)
        assert c.tokens <= 2 * max_tokens, (c.tokens, max_tokens)  # one bounded block, and its headings


REPLY = TEXT | JSONISH.map(json.dumps) | st.dictionaries(
    st.sampled_from(["0", "1", "2", "claims", "verdict", "passages"]) | TEXT,
    st.sampled_from(["supported", "contradicted", "not_mentioned", "SUPPORTED", "yes"]) | JSONISH, max_size=4,
).map(lambda d: "```json\n" + json.dumps(d) + "\n```")


@FUZZ
@given(REPLY, st.integers(1, 6), st.integers(1, 5))
def test_any_reply_to_a_claim_prompt_validates_or_is_refused(raw: str, n: int, m: int) -> None:
    for prompt in (SPLIT, check_prompt(n), attribute_prompt(n, m)):
        parsed = _valid(prompt, Completion(text=raw, finish_reason="stop"))  # None means: re-ask
        assert parsed is None or isinstance(parsed, prompt.output)


NUMBERISH = st.text(st.sampled_from(list("0123456789.,| -\n年月日월万亿億만억조제第 millionthousandMarch"
                                         "kmg米克分钟시간時間")), max_size=60) | TEXT


@FUZZ
@given(NUMBERISH, NUMBERISH)
def test_the_claim_engines_text_rules_take_any_text(passage: str, claim: str) -> None:
    from ragkit.evaluation._bounds import against_bound
    from ragkit.evaluation._claim_text import keep_numbers
    from ragkit.evaluation._comparisons import as_compared_in, compared
    from ragkit.evaluation._denials import denied_again
    from ragkit.evaluation._modality import mode_changed
    from ragkit.evaluation._people import said_of_another
    from ragkit.evaluation._periods import against_period
    from ragkit.evaluation._polarity import denied
    from ragkit.evaluation._quantifiers import overstated
    from ragkit.evaluation._restated import other_value
    from ragkit.evaluation._roles import swapped
    from ragkit.evaluation._siblings import said_of_sibling
    from ragkit.evaluation._status import ended
    from ragkit.evaluation._table_facts import placements
    from ragkit.evaluation._together import bound_to_another_year, stated_together
    from ragkit.evaluation._values import blanked, stated_values
    from ragkit.text import as_written_in, month_forms, number_forms, year_and_month

    for form in number_forms(passage):
        assert 0 <= form.start < form.end <= len(passage)
    for month in month_forms(passage):
        assert year_and_month(passage[month.start:month.end]) == (month.year, month.month)
    statements, holes = blanked([claim], [True], stated_values(passage), asked=passage)
    assert len(statements) <= 1 and all(h.value for h in holes)
    assert isinstance(as_written_in(passage, claim), str)
    assert isinstance(keep_numbers([claim], passage), list)
    assert isinstance(stated_together(claim, passage), bool)
    assert isinstance(bound_to_another_year(passage, claim, passage), bool)
    assert isinstance(other_value(passage, claim), bool)
    assert len(placements(passage, [claim])) == 1
    word = said_of_sibling(passage, claim)
    assert word is None or bool(word.strip())
    assert compared(passage, claim) in (None, "entailed", "contradicted")
    assert len(as_compared_in(passage, [claim])) == 1
    assert isinstance(against_bound(passage, claim), bool)
    assert isinstance(denied(passage, claim), bool) and isinstance(overstated(passage, claim), bool)
    assert denied_again(passage, claim) in (None, "entailed", "neutral")
    assert isinstance(swapped(passage, claim), bool) and isinstance(mode_changed(passage, claim), bool)
    assert said_of_another(passage, claim) is None or isinstance(said_of_another(passage, claim), str)
    assert ended(passage, claim) in (None, "moved", "until")
    assert isinstance(against_period(passage, claim), bool)
