"""The grammar of a structured reply of the embedded model (``ragkit.llm._grammar``): llama-cpp-python's own
conversion of the schema, but for a JSON string's characters (no raw control character) and constants written as
they are (no ``\\uXXXX`` escapes). Offline: the grammar's text; tests/llm/test_local_runtime.py decodes under it."""

from __future__ import annotations

import importlib
import json
import pkgutil
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

import ragkit
import ragkit.generators
import ragkit.metrics
from ragkit.evaluation._claim_prompts import check_prompt
from ragkit.evaluation._values import cloze_prompt
from ragkit.kg._reading import reading_prompt
from ragkit.llm import Prompt
from ragkit.llm._grammar import STRING_CHAR, json_grammar
from ragkit.metrics.answer_relevancy import reverse_prompt

gbnf = pytest.importorskip("llama_cpp.llama_grammar")


def stock(schema: dict[str, Any]) -> str:
    return str(gbnf.json_schema_to_gbnf(json.dumps(schema)))


def rules(grammar: str) -> dict[str, str]:
    return dict(line.split(" ::= ", 1) for line in grammar.splitlines() if " ::= " in line)


def every_prompt() -> list[Prompt[Any, Any]]:
    """The Prompt values of ragkit, the built-in metrics and generators, and the prompts made per call."""
    found: dict[int, Prompt[Any, Any]] = {}
    for package in (ragkit, ragkit.metrics, ragkit.generators):
        names = [package.__name__] + [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
        for name in names:
            if name.startswith("ragkit.cli") or name == "ragkit.pytest_plugin":
                continue
            module = importlib.import_module(name)
            found.update({id(v): v for v in vars(module).values() if isinstance(v, Prompt)})
    made = [check_prompt(n) for n in (1, 3)] + [cloze_prompt(2, ["12", "2019"]), reading_prompt(2),
                                                reverse_prompt(2)]
    return list(found.values()) + made


def test_every_prompt_decodes_as_before_but_for_the_characters_of_a_string() -> None:
    prompts = every_prompt()
    assert len(prompts) >= 15, [p.name for p in prompts]
    for prompt in prompts:
        ours, theirs = rules(json_grammar(prompt.schema())), rules(stock(prompt.schema()))
        assert ours.keys() == theirs.keys(), prompt.name
        changed = {name for name in ours if ours[name] != theirs[name]}
        assert changed <= {"char"}, (prompt.name, changed)


def test_a_string_may_hold_no_raw_control_character_but_its_escape() -> None:
    class Reply(BaseModel):
        answer: str
        short: str = Field(max_length=5)

    grammar = rules(json_grammar(Reply.model_json_schema()))
    assert grammar["char"] == STRING_CHAR
    assert r"\x00-\x1F" in STRING_CHAR and r"\x7F" in STRING_CHAR  # what JSON forbids unescaped
    assert '"\\\\" (["\\\\/bfnrt]' in STRING_CHAR  # ... written as "\n" it is allowed
    assert "char" in grammar["short"] and "char" in grammar["string"]  # both kinds of string use it
    assert rules(stock(Reply.model_json_schema()))["char"] == r'[^"\\] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F] ' \
        r'[0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F])'  # the flaw this module mends, in the library ragkit pins


def test_a_label_in_any_script_is_written_as_it_is() -> None:
    class Verdict(BaseModel):
        verdict: Literal["是", "否", "不明"]
        note: Literal["はい"] = "はい"

    ours, theirs = rules(json_grammar(Verdict.model_json_schema())), rules(stock(Verdict.model_json_schema()))
    assert ours["verdict"] == '"\\"是\\"" | "\\"否\\"" | "\\"不明\\""'
    assert "\\u662f" in theirs["verdict"]  # llama-cpp-python's: six ASCII characters for 是
    assert '"\\"はい\\""' in ours["note"]


def test_the_fields_keep_the_schema_order() -> None:
    class Reply(BaseModel):
        zeta: int
        alpha: bool

    assert rules(json_grammar(Reply.model_json_schema()))["root"].index("zeta") < \
        rules(json_grammar(Reply.model_json_schema()))["root"].index("alpha")


def test_a_constant_with_quotes_and_backslashes_is_a_literal_of_its_json_text() -> None:
    from ragkit.llm._grammar import gbnf_literal

    assert gbnf_literal('"a \\"b\\""') == '"\\"a \\\\\\"b\\\\\\"\\""'
    assert gbnf_literal("x\ny") == '"x\\ny"'
    grammar = rules(json_grammar({"type": "object", "properties": {"f": {"enum": ['say "hi"', "C:\\tmp"]}}}))
    assert grammar["f"] == '"\\"say \\\\\\"hi\\\\\\"\\"" | "\\"C:\\\\\\\\tmp\\""'
