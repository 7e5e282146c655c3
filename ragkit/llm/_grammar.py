"""The grammar a structured reply of the embedded model is decoded under: the reply's JSON schema as GBNF.

llama-cpp-python converts a ``response_format`` schema itself, with three flaws that cost ragkit replies:

- Its string character is ``[^"\\]``, so a raw control character (a line break) may stand inside a JSON string.
  JSON forbids it, pydantic rejects the reply, and the Judge asks again: a whole call. llama.cpp's own converter
  excludes ``\\x00-\\x1F`` and ``\\x7F``, and so does this one.
- It writes a constant (an ``enum`` value or a ``const``) as ``json.dumps`` does, with non-ASCII characters as
  ``\\uXXXX`` escapes, so the model must spell "是" as six ASCII characters, which it has never seen written so. A
  constant here is the JSON text of the value as it is written (valid JSON too).
- It leaves a backslash in a constant unescaped (``gbnf_literal``), so a value with a quote in it gives a grammar
  llama.cpp cannot parse.

Everything else is llama-cpp-python's ``SchemaConverter``, so a schema decodes as it did.
"""

from __future__ import annotations

import functools
import json
from typing import Any

__all__ = ["STRING_CHAR", "gbnf_literal", "json_grammar"]

STRING_CHAR = r'[^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F])'
"""One character of a JSON string: any but a quote, a backslash or a control character, or an escape."""


_LITERAL_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}


def gbnf_literal(text: str) -> str:
    """``text`` as a GBNF string literal. llama-cpp-python escapes quotes and line breaks but not a backslash, so
    the JSON text of a value with a quote in it ("new \\"reflective zone\\" map") made a grammar llama.cpp cannot
    parse, and a grammar it cannot parse ends the process (a null sampler)."""
    return '"' + "".join(_LITERAL_ESCAPES.get(ch, ch) for ch in text) + '"'


@functools.cache
def _converter_class() -> type:
    from llama_cpp.llama_grammar import BuiltinRule, SchemaConverter

    class Converter(SchemaConverter):
        def _add_primitive(self, name: str, rule: Any) -> Any:
            return super()._add_primitive(name, BuiltinRule(STRING_CHAR, []) if name == "char" else rule)

        def _generate_constant_rule(self, value: Any) -> str:
            return gbnf_literal(json.dumps(value, ensure_ascii=False))

    return Converter


@functools.lru_cache(maxsize=256)
def _grammar_text(schema_json: str) -> str:
    converter = _converter_class()(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    schema = converter.resolve_refs(json.loads(schema_json), "stdin")
    converter.visit(schema, "")
    return str(converter.format_grammar())


def json_grammar(schema: dict[str, Any]) -> str:
    """The GBNF grammar of the JSON replies that match ``schema`` (memoised: a prompt's schema recurs). Its keys
    keep their order: the reply's fields come in the order of the schema's properties."""
    return _grammar_text(json.dumps(schema, ensure_ascii=False))
