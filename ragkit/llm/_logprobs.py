"""Token log-probabilities of structured replies, and how sure the model was of each label it chose.

``Judge.structured_scored`` returns a :class:`Scored`: the validated output, the reply's tokens with their
log-probabilities (when the provider returns them), and one :class:`LabelProb` per label field, that is a field
typed ``Literal[...]`` (or a ``str`` Enum), anywhere in the output model, lists included.

For a label the model wrote, ``prob`` is the probability of the tokens spelling it. ``distribution`` spreads the
probability over every allowed value: at the token where the values part ways, each alternative token the
provider listed counts for the one value it can only begin (case-insensitively when that is unambiguous), and the
masses are renormalised. Give labels distinct first words (``supported`` / ``contradicted`` / ``unrelated``) so
that the first label token decides. With the embedded llama.cpp models the probabilities are the model's own,
read before the JSON grammar masks the scores.
"""

from __future__ import annotations

import enum
import json
import math
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel

Out = TypeVar("Out", bound=BaseModel)
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token: its text, log-probability, raw bytes and the best alternatives at its position."""

    token: str
    logprob: float
    token_bytes: tuple[int, ...] | None = None
    top: tuple[tuple[str, float, tuple[int, ...] | None], ...] = ()
    """(token, logprob, bytes) of the most likely tokens at this position, best first."""

    @property
    def raw(self) -> bytes:
        return bytes(self.token_bytes) if self.token_bytes is not None else self.token.encode("utf-8")


@dataclass(frozen=True)
class LabelProb:
    """How sure the model was of one label it wrote."""

    path: Path
    """Where the label sits in the output, e.g. ``("verdicts", 2, "label")``."""
    value: str
    prob: float
    """Probability of the tokens spelling ``value`` (given everything before them)."""
    distribution: dict[str, float] = field(default_factory=dict)
    """Probability of each allowed value (sums to 1); ``{value: 1.0}`` when no alternative was visible."""

    def expected(self, weights: dict[str, float]) -> float:
        """Expected value of ``weights`` under ``distribution``, e.g. ``{"supported": 1.0}`` → P(supported)."""
        return sum(p * weights.get(v, 0.0) for v, p in self.distribution.items())


@dataclass(frozen=True)
class Scored(Generic[Out]):
    """A validated output with the token log-probabilities behind it."""

    output: Out
    tokens: tuple[TokenLogprob, ...] | None
    """None when the provider returned no log-probabilities (then ``labels`` is empty)."""
    labels: tuple[LabelProb, ...] = ()

    def label(self, *path: str | int) -> LabelProb | None:
        """The label at ``path`` (``scored.label("verdicts", 0, "label")``), if its probability is known."""
        return next((lab for lab in self.labels if lab.path == path), None)

    def expected(self, name: str, weights: dict[str, float]) -> float:
        """Expected value of ``weights`` over the top-level label field ``name``: from the label's probabilities
        when the provider gave them, else the weight of the label the model wrote (``{"yes": 1.0}`` → P(yes), or
        0/1)."""
        label = self.label(name)
        if label is not None:
            return label.expected(weights)
        written = getattr(self.output, name)
        return weights.get(str(getattr(written, "value", written)), 0.0)


def plain_logprobs(logprobs: Any) -> list[dict[str, Any]] | None:
    """OpenAI-style ``choice.logprobs`` (object or dict) as plain JSON-able dicts, for the cache."""
    if logprobs is None:
        return None
    content = logprobs.get("content") if isinstance(logprobs, dict) else getattr(logprobs, "content", None)
    if not content:
        return None

    def one(item: Any) -> dict[str, Any]:
        get = item.get if isinstance(item, dict) else lambda k, d=None: getattr(item, k, d)
        raw = get("bytes")
        return {"token": str(get("token")), "logprob": float(get("logprob") or 0.0),
                "bytes": list(raw) if raw is not None else None}

    out = []
    for item in content:
        entry = one(item)
        tops = item.get("top_logprobs") if isinstance(item, dict) else getattr(item, "top_logprobs", None)
        entry["top_logprobs"] = [one(t) for t in tops or []]
        out.append(entry)
    return out


def tokens_from_plain(content: list[dict[str, Any]] | None) -> tuple[TokenLogprob, ...] | None:
    if not content:
        return None

    def raw(entry: dict[str, Any]) -> tuple[int, ...] | None:
        return tuple(entry["bytes"]) if entry.get("bytes") is not None else None

    return tuple(
        TokenLogprob(
            token=e["token"], logprob=e["logprob"], token_bytes=raw(e),
            top=tuple((t["token"], t["logprob"], raw(t)) for t in e.get("top_logprobs") or []),
        )
        for e in content
    )


# -- which fields are labels ----------------------------------------------------------------------------------------


def _allowed(annotation: Any) -> tuple[str, ...] | None:
    """The allowed string values of a Literal / str-Enum annotation (Optional allowed), else None."""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        values = typing.get_args(annotation)
        return tuple(values) if values and all(isinstance(v, str) for v in values) else None
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        values = tuple(m.value for m in annotation)
        return values if values and all(isinstance(v, str) for v in values) else None
    if origin is typing.Union or (origin is not None and getattr(origin, "__name__", "") == "UnionType"):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _allowed(options[0]) if len(options) == 1 else None
    return None


def _item_annotation(annotation: Any) -> Any:
    args = typing.get_args(annotation)
    return args[0] if typing.get_origin(annotation) in (list, tuple) and args else None


def label_fields(obj: BaseModel, path: Path = ()) -> Iterator[tuple[Path, str, tuple[str, ...]]]:
    """(path, value, allowed values) of every label in ``obj``, in field order."""
    for name, info in type(obj).model_fields.items():
        key = info.alias or name
        value = getattr(obj, name)
        allowed = _allowed(info.annotation)
        if allowed is not None and value is not None:
            yield (*path, key), getattr(value, "value", value), allowed
        elif isinstance(value, BaseModel):
            yield from label_fields(value, (*path, key))
        elif isinstance(value, list | tuple):
            item_allowed = _allowed(_item_annotation(info.annotation))
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    yield from label_fields(item, (*path, key, i))
                elif item_allowed is not None and item is not None:
                    yield (*path, key, i), getattr(item, "value", item), item_allowed


# -- where each string sits in the reply ----------------------------------------------------------------------------

_DECODER = json.JSONDecoder()


def _ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def string_spans(text: str, start: int = 0) -> dict[Path, tuple[int, int]]:
    """Character span (inside the quotes) of every string value of the JSON value at ``text[start:]``."""
    from json.decoder import scanstring  # type: ignore[attr-defined]

    spans: dict[Path, tuple[int, int]] = {}

    def value(i: int, path: Path) -> int:
        i = _ws(text, i)
        ch = text[i]
        if ch == '"':
            _, end = scanstring(text, i + 1)
            spans[path] = (i + 1, end - 1)
            return int(end)
        if ch in "{[":
            close, index = ("}" if ch == "{" else "]"), 0
            i = _ws(text, i + 1)
            if text[i] == close:
                return i + 1
            while True:
                if ch == "{":
                    key, i = scanstring(text, _ws(text, i) + 1)
                    i = _ws(text, i)
                    if text[i] != ":":
                        raise ValueError("expected ':'")
                    i = value(i + 1, (*path, key))
                else:
                    i = value(i, (*path, index))
                    index += 1
                i = _ws(text, i)
                if text[i] == ",":
                    i += 1
                    continue
                if text[i] != close:
                    raise ValueError(f"expected {close!r}")
                return i + 1
        _, end = _DECODER.raw_decode(text, i)
        return int(end)

    try:
        value(start, ())
    except (ValueError, IndexError):
        return {}
    return spans


# -- label probabilities ---------------------------------------------------------------------------------------------


def _consistent(value: bytes, path: bytes) -> bool:
    quoted = value + b'"'
    return quoted.startswith(path) or path.startswith(quoted)


def _distribution(
    tokens: tuple[TokenLogprob, ...], first: int, offsets: list[int], raw: bytes, start: int,
    chosen: str, allowed: tuple[str, ...],
) -> dict[str, float]:
    folded = len({v.lower() for v in allowed}) == len(allowed)

    def norm(b: bytes) -> bytes:
        return b.lower() if folded else b

    values = {v: norm(v.encode("utf-8")) for v in allowed}
    remaining = list(allowed)
    consumed, path_lp = b"", 0.0
    mass: dict[str, float] = {}
    for j in range(first, len(tokens)):
        tok = tokens[j]
        pre = raw[offsets[j] : start] if offsets[j] < start else b""
        alternatives = {bytes(t_raw) if t_raw is not None else t.encode("utf-8"): lp for t, lp, t_raw in tok.top}
        alternatives[tok.raw] = tok.logprob
        follow: list[str] | None = None
        for alt, lp in alternatives.items():
            if not alt.startswith(pre) or len(alt) == len(pre):
                continue
            path = consumed + norm(alt[len(pre) :])
            candidates = [v for v in remaining if _consistent(values[v], path)]
            if alt == tok.raw:
                if len(candidates) > 1:
                    follow = candidates
                else:
                    mass[chosen] = mass.get(chosen, 0.0) + math.exp(path_lp + lp)
            elif len(candidates) == 1:
                mass[candidates[0]] = mass.get(candidates[0], 0.0) + math.exp(path_lp + lp)
        if follow is None:
            break
        remaining, consumed, path_lp = follow, consumed + norm(tok.raw[len(pre) :]), path_lp + tok.logprob
    total = sum(mass.values())
    if total <= 0 or chosen not in mass:
        return {v: float(v == chosen) for v in allowed}
    return {v: mass.get(v, 0.0) / total for v in allowed}


def label_probs(output: BaseModel, text: str, tokens: tuple[TokenLogprob, ...] | None) -> tuple[LabelProb, ...]:
    """One LabelProb per label field of ``output`` whose tokens can be found in the reply ``text``."""
    if not tokens:
        return ()
    raw = text.encode("utf-8")
    offsets, pos = [], 0
    for tok in tokens:
        offsets.append(pos)
        pos += len(tok.raw)
    if not raw.startswith(b"".join(t.raw for t in tokens)[: len(raw)]):
        return ()  # the tokens do not spell the reply: nothing can be placed
    begin = text.find("{")
    spans = string_spans(text, begin) if begin >= 0 else {}
    out = []
    for path, value, allowed in label_fields(output):
        span = spans.get(path)
        if span is None:
            continue
        start, end = len(text[: span[0]].encode("utf-8")), len(text[: span[1]].encode("utf-8"))
        inside = [j for j, off in enumerate(offsets) if off < end and off + len(tokens[j].raw) > start]
        if not inside:
            continue
        prob = math.exp(sum(tokens[j].logprob for j in inside))
        dist = _distribution(tokens, inside[0], offsets, raw, start, value, allowed)
        out.append(LabelProb(path=path, value=value, prob=prob, distribution=dist))
    return tuple(out)
