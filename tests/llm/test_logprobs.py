"""Label probabilities from token logprobs: ``Judge.structured_scored`` and the helpers behind it."""

from __future__ import annotations

import enum
import math
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from ragkit import Settings
from ragkit.llm._cache import Cache
from ragkit.llm._logprobs import TokenLogprob, label_fields, label_probs, string_spans
from ragkit.llm._prompts import Prompt
from ragkit.testing import ScriptedJudge, WithLogprobs


class Claims(BaseModel):
    passage: str
    claims: list[str]


class Verdict(BaseModel):
    claim: int
    label: Literal["supported", "contradicted", "unrelated"]


class Verdicts(BaseModel):
    verdicts: list[Verdict] = Field(max_length=10)


VERIFY = Prompt("verify", "Judge each claim against the passage.", Claims, Verdicts, max_tokens=200)
DATA = Claims(passage="Paris is the capital of France.", claims=["Paris is in France.", "Paris is in Spain."])


def settings() -> Settings:
    return Settings(model="openai/scripted-judge", max_retries=0, max_reasks=1)


def verdict_tokens() -> list[tuple]:
    return [
        ('{"verdicts": [{"claim": 0, "label": "', -0.01),
        ("supported", -0.2, [("contradicted", -2.0), ("unrelated", -3.0), ("Supported", -2.5), (" ", -4.0)]),
        ('"}, {"claim": 1, "label": "', -0.02),
        ("contra", -0.4, [("supported", -1.6), ("un", -2.2)]),
        ("dicted", -0.05),
        ('"}]}', -0.01),
    ]


async def test_structured_scored_gives_label_probabilities() -> None:
    text = '{"verdicts": [{"claim": 0, "label": "supported"}, {"claim": 1, "label": "contradicted"}]}'
    judge = ScriptedJudge([WithLogprobs(text, verdict_tokens())], settings=settings())
    scored = await judge.structured_scored(VERIFY, DATA)
    assert [v.label for v in scored.output.verdicts] == ["supported", "contradicted"]
    assert scored.tokens is not None and len(scored.tokens) == 6

    first = scored.label("verdicts", 0, "label")
    assert first is not None and first.value == "supported"
    assert first.prob == pytest.approx(math.exp(-0.2))
    # "Supported" counts for "supported" (labels differ by more than case); " " fits no label and is ignored
    mass = {"supported": math.exp(-0.2) + math.exp(-2.5), "contradicted": math.exp(-2.0), "unrelated": math.exp(-3.0)}
    total = sum(mass.values())
    assert first.distribution == pytest.approx({k: v / total for k, v in mass.items()})
    assert first.expected({"supported": 1.0}) == pytest.approx(mass["supported"] / total)

    second = scored.label("verdicts", 1, "label")
    assert second is not None and second.value == "contradicted"
    assert second.prob == pytest.approx(math.exp(-0.4 - 0.05))  # both tokens spelling the label
    mass2 = {"contradicted": math.exp(-0.4), "supported": math.exp(-1.6), "unrelated": math.exp(-2.2)}
    assert second.distribution == pytest.approx({k: v / sum(mass2.values()) for k, v in mass2.items()})
    assert scored.label("verdicts", 5, "label") is None


async def test_structured_scored_without_provider_logprobs() -> None:
    judge = ScriptedJudge([Verdicts(verdicts=[Verdict(claim=0, label="supported")])], settings=settings())
    scored = await judge.structured_scored(VERIFY, DATA)
    assert scored.output.verdicts[0].label == "supported"
    assert scored.tokens is None and scored.labels == ()


class Answer(BaseModel):
    says: Literal["yes", "no", "not said"]


SAYS = Prompt("says", "What does the answer say to the question?", Claims, Answer, max_tokens=20)


async def test_expected_value_of_a_label_field_with_and_without_probabilities() -> None:
    tokens = [('{"says": "', -0.01), ("no", -0.3, [("yes", -2.0), ("not", -1.5)]), ('"}', -0.01)]
    scored = await ScriptedJudge([WithLogprobs('{"says": "no"}', tokens)], settings=settings()).structured_scored(
        SAYS, DATA)
    label = scored.label("says")
    assert label is not None and 0.5 < label.distribution["no"] < 1.0
    assert scored.expected("says", {"yes": 1.0, "no": 1.0}) == pytest.approx(
        label.distribution["yes"] + label.distribution["no"]) != 1.0
    # no probabilities from the provider: the written label's weight, 0 for a label the weights leave out
    plain = await ScriptedJudge([Answer(says="no")], settings=settings()).structured_scored(SAYS, DATA)
    assert plain.expected("says", {"yes": 1.0, "no": 1.0}) == 1.0
    assert plain.expected("says", {"yes": 1.0}) == 0.0


async def test_structured_scored_is_cached_with_its_logprobs(tmp_path: Path) -> None:
    text = '{"verdicts": [{"claim": 0, "label": "supported"}, {"claim": 1, "label": "contradicted"}]}'
    path = tmp_path / "llm.sqlite"
    first = await ScriptedJudge([WithLogprobs(text, verdict_tokens())], settings=settings(),
                                cache=Cache(path)).structured_scored(VERIFY, DATA)
    again = ScriptedJudge([], settings=settings(), cache=Cache(path))
    second = await again.structured_scored(VERIFY, DATA)
    assert again.calls == [] and again.usage.total.cache_hits == 1
    assert second.labels == first.labels and second.tokens == first.tokens
    # a plain structured call asks without logprobs: its own cache entry
    plain = ScriptedJudge([text], settings=settings(), cache=Cache(path))
    await plain.structured(VERIFY, DATA)
    assert len(plain.calls) == 1


async def test_scored_reask_still_yields_labels() -> None:
    good = '{"verdicts": [{"claim": 0, "label": "supported"}]}'
    tokens = [('{"verdicts": [{"claim": 0, "label": "', -0.1), ("supported", -0.3, [("unrelated", -1.5)]),
              ('"}]}', 0.0)]
    judge = ScriptedJudge(['{"verdicts": [{"claim": 0, "label": "maybe"}]}', WithLogprobs(good, tokens)],
                          settings=settings())
    scored = await judge.structured_scored(VERIFY, DATA)
    assert len(judge.calls) == 2
    assert scored.labels[0].prob == pytest.approx(math.exp(-0.3))


def tok(text: str, logprob: float, top: list[tuple[str, float]] = ()) -> TokenLogprob:  # type: ignore[assignment]
    return TokenLogprob(token=text, logprob=logprob, token_bytes=tuple(text.encode()),
                        top=tuple((t, lp, tuple(t.encode())) for t, lp in top))


class Graded(BaseModel):
    label: Literal["not_supported", "not_sure", "supported"]


def test_labels_sharing_a_prefix_are_resolved_token_by_token() -> None:
    text = '{"label": "not_supported"}'
    tokens = (tok('{"label": "', 0.0), tok("not", -0.3, [("supported", -1.5)]),
              tok("_supported", -0.2, [("_sure", -1.8)]), tok('"}', 0.0))
    [lab] = label_probs(Graded(label="not_supported"), text, tokens)
    mass = {"supported": math.exp(-1.5), "not_supported": math.exp(-0.3 - 0.2), "not_sure": math.exp(-0.3 - 1.8)}
    assert lab.prob == pytest.approx(math.exp(-0.5))
    assert lab.distribution == pytest.approx({k: v / sum(mass.values()) for k, v in mass.items()})


def test_label_token_that_starts_with_the_quote() -> None:
    text = '{"label": "supported"}'
    tokens = (tok('{"label":', 0.0), tok(' "supported', -0.1, [(' "not', -2.0), (' "', -3.0)]), tok('"}', 0.0))
    [lab] = label_probs(Graded(label="supported"), text, tokens)
    assert lab.prob == pytest.approx(math.exp(-0.1))
    # ' "not' could begin two labels: its mass cannot be attributed, so only the chosen label has mass
    assert lab.distribution == {"not_supported": 0.0, "not_sure": 0.0, "supported": 1.0}


class Stance(enum.Enum):
    AGREE = "同意"
    DISAGREE = "反对"


class Chinese(BaseModel):
    理由: str
    立场: Stance
    tags: list[Literal["事实", "观点"]] = Field(default_factory=list)


def test_chinese_labels_enum_and_list_items() -> None:
    out = Chinese(理由="因为", 立场=Stance.DISAGREE, tags=["观点"])
    text = '{"理由": "因为", "立场": "反对", "tags": ["观点"]}'
    tokens = (tok('{"理由": "因为", "立场": "', 0.0), tok("反", -0.4, [("同", -1.2)]), tok("对", -0.01),
              tok('", "tags": ["', 0.0), tok("观点", -0.7, [("事实", -0.9)]), tok('"]}', 0.0))
    labels = {lab.path: lab for lab in label_probs(out, text, tokens)}
    assert set(labels) == {("立场",), ("tags", 0)}
    stance = labels[("立场",)]
    assert stance.value == "反对" and stance.prob == pytest.approx(math.exp(-0.41))
    assert stance.distribution["反对"] == pytest.approx(math.exp(-0.4) / (math.exp(-0.4) + math.exp(-1.2)))
    assert labels[("tags", 0)].distribution["事实"] == pytest.approx(
        math.exp(-0.9) / (math.exp(-0.7) + math.exp(-0.9)))


def test_tokens_that_do_not_spell_the_reply_give_no_labels() -> None:
    tokens = (tok('{"label": "', 0.0), tok("sure", -0.1), tok('"}', 0.0))
    assert label_probs(Graded(label="supported"), '{"label": "supported"}', tokens) == ()
    assert label_probs(Graded(label="supported"), '{"label": "supported"}', None) == ()


class Optional_(BaseModel):
    maybe: Literal["a", "b"] | None = None
    number: int = 0
    nested: Graded | None = None


def test_label_fields_walk_nested_and_optional_fields() -> None:
    found = list(label_fields(Optional_(maybe="b", nested=Graded(label="not_sure"))))
    assert found == [(("maybe",), "b", ("a", "b")),
                     (("nested", "label"), "not_sure", ("not_supported", "not_sure", "supported"))]
    assert list(label_fields(Optional_())) == []


def test_string_spans() -> None:
    text = 'Sure: {"a": "x\\"y", "b": [1, {"c": "中文"}, "z"], "d": null, "e": -1.5e3}'
    spans = string_spans(text, text.index("{"))
    assert {p: text[s:e] for p, s, e in ((p, *v) for p, v in spans.items())} == {
        ("a",): 'x\\"y', ("b", 1, "c"): "中文", ("b", 2): "z"}
    assert string_spans('{"a": ', 0) == {}
