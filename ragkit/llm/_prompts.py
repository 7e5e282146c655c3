"""Prompts as typed values: an instruction, an input model, an output model and examples."""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, create_model

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out", bound=BaseModel)


def render_fields(data: BaseModel) -> str:
    """Render an input model as labelled sections, which small models read better than JSON."""
    parts = []
    for name, value in data.model_dump(mode="json").items():
        parts.append(f"## {name}\n{_render_value(value)}")
    return "\n\n".join(parts)


def _render_value(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return value.strip() or "(empty)"
    if isinstance(value, list):
        if not value:
            return "(empty list)"
        return "\n".join(f"[{i}] {_render_value(v)}" for i, v in enumerate(value))
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def numbered_labels(name: str, n: int, labels: type[enum.Enum] | type[BaseModel], *, prefix: str,
                    optional: bool = False, bare_labels: bool = False) -> type[BaseModel]:
    """An output model holding one entry per numbered item: the model writes keys "0" … "n-1", read back as
    fields ``{prefix}0`` …; titles are dropped from the schema to keep the prompt short. An entry is a label
    (a str Enum) or a small model of its own (a label with evidence).

    ``optional``: a label the model leaves out reads as None (the schema still requires every number);
    ``bare_labels``: the label enum's title and description are dropped from the schema too.
    """
    fields: dict[str, Any] = {f"{prefix}{i}": (labels, Field(None if optional else ..., alias=str(i)))
                              for i in range(n)}

    def tidy(schema: dict[str, Any]) -> None:
        schema.pop("title", None)
        if bare_labels:
            for definition in schema.get("$defs", {}).values():
                definition.pop("title", None)
                definition.pop("description", None)
        if optional:
            schema["required"] = [str(i) for i in range(n)]
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
            if optional:
                prop.pop("default", None)

    return create_model(name, __config__=ConfigDict(populate_by_name=True, json_schema_extra=tidy), **fields)


@dataclass(frozen=True)
class Prompt(Generic[In, Out]):
    """A typed prompt. ``render(data)`` gives chat messages; the Judge validates the reply as ``output``.

    Examples:
        >>> class Q(BaseModel): text: str
        >>> class A(BaseModel): claims: list[str]
        >>> SPLIT = Prompt("split", "Split the text into claims.", Q, A)
    """

    name: str
    instruction: str
    input: type[In]
    output: type[Out]
    examples: tuple[tuple[In, Out], ...] = field(default=())
    max_tokens: int = 512
    """Completion budget: bounds runaway outputs of small models."""

    def schema(self, choices: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
        """The reply's JSON schema; with ``choices``, each named top-level string field is one of its values (an
        ``enum``): what the model is decoded under, while the prompt shows the plain schema."""
        schema = self.output.model_json_schema()
        for name, values in (choices or {}).items():
            props = schema.get("properties", {})
            if name not in props or props[name].get("type") != "string":
                raise ValueError(f"prompt {self.name!r}: choices for {name!r}, which is no string field of its reply")
            if values:
                props[name] = {**props[name], "enum": list(dict.fromkeys(values))}
        return schema

    def render(self, data: In) -> list[dict[str, str]]:
        # The schema stays before the data although it varies with the data's size (n claims, m passages), which
        # ends the prefix that calls of one prompt share. Moved after the data, it left the validity bench's AUCs
        # level but lowered its mean scores of right answers by 0.02-0.04 (bench/README.md, issue 16).
        schema = json.dumps(self.schema(), ensure_ascii=False)
        system = (
            f"{self.instruction.strip()}\n\n"
            "Reply with one JSON object only, no prose, matching this JSON schema:\n"
            f"{schema}"
        )
        for i, (ex_in, ex_out) in enumerate(self.examples, 1):
            system += (
                f"\n\n--- Example {i} (illustration only; never copy its content) ---\n"
                f"{render_fields(ex_in)}\n\n## reply\n{ex_out.model_dump_json()}"
            )
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": render_fields(data)},
        ]
