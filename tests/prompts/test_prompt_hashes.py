"""Every rendered prompt stays byte-identical: metrics, generators, the critic, personas and the graph build.

Each prompt is rendered with fixed inputs, through the real Judge with a scripted model at the litellm seam,
and the SHA-256 of its messages is compared with the values recorded in ``prompt_hashes.json``. A deliberate
prompt change re-records them: ``python tests/prompts/test_prompt_hashes.py --record`` (and says so in the
commit, with the validity figures before and after).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "generators"))  # kg_builder: the hand-built graphs of the generator tests

from kg_builder import BAKERY, TEA_ZH, build_graph, default_script  # noqa: E402

from ragkit import ContextRef, Conversation, EvalSample, RagResponse, TestSample, Turn, evaluate  # noqa: E402
from ragkit.evaluation._values import ClozeAloneInput, ClozeInput, cloze_prompt  # noqa: E402
from ragkit.kg._reading import CONDENSE_PROMPT, DocumentText, SectionSummaries, reading_prompt  # noqa: E402
from ragkit.llm._embeddings import Embeddings  # noqa: E402
from ragkit.metrics.answer_relevancy import WHETHER, DirectInput, ReverseInput, reverse_prompt  # noqa: E402
from ragkit.registry import available  # noqa: E402
from ragkit.synthesis import GenerateOptions, generate  # noqa: E402
from ragkit.synthesis._correction import CORRECTED_PROMPT, CorrectedInput  # noqa: E402
from ragkit.synthesis._critic import Critic  # noqa: E402
from ragkit.synthesis._phrasing import language_instruction  # noqa: E402
from ragkit.testing import ScriptedJudge  # noqa: E402

EXPECTED = HERE / "prompt_hashes.json"


def fill(schema: dict[str, Any], node: dict[str, Any] | None = None) -> Any:
    """A small valid value for a JSON schema: the reply of a model that always answers the same."""
    node = schema if node is None else node
    if "$ref" in node:
        return fill(schema, schema["$defs"][node["$ref"].split("/")[-1]])
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            return fill(schema, next(o for o in node[key] if o.get("type") != "null"))
    if "enum" in node:
        return node["enum"][0]
    kind = node.get("type", "object")
    if kind == "object":
        return {k: fill(schema, v) for k, v in node.get("properties", {}).items()}
    if kind == "array":
        return [fill(schema, node.get("items", {"type": "string"}))] * max(1, node.get("minItems", 1))
    if kind in ("integer", "number"):
        return node.get("minimum", 1)
    if kind == "boolean":
        return True
    return "Ada Lovelace wrote the first program in 1843."


class Recorder:
    """Scripted replies plus the SHA-256 of every rendered prompt, by prompt name (order-free: calls overlap)."""

    def __init__(self) -> None:
        self.hashes: dict[str, list[str]] = defaultdict(list)

    def record(self, call: Any) -> None:
        blob = json.dumps(call.messages, ensure_ascii=False, sort_keys=True).encode()
        self.hashes[call.prompt_name].append(hashlib.sha256(blob).hexdigest())

    def filler(self, call: Any) -> Any:
        self.record(call)
        return _reply_for(call)

    def generator_script(self, call: Any) -> Any:
        self.record(call)
        return default_script(call)


def _reply_for(call: Any) -> Any:
    schema = json.loads(call.messages[0]["content"].split("matching this JSON schema:\n", 1)[1].split("\n\n--- ")[0])
    return fill(schema)


def samples() -> list[EvalSample]:
    en = TestSample(
        id="en-1", question="Who wrote the first computer program, and when?",
        reference_answer="Ada Lovelace wrote it in 1843, for the Analytical Engine.",
        reference_contexts=[ContextRef(chunk_id="c1", text="Ada Lovelace published the first program in 1843.",
                                       source="ada.md")],
        language="en")
    zh = TestSample(
        id="zh-1", question="龙井茶产自哪里？", reference_answer="龙井茶产自杭州西湖。",
        reference_contexts=[ContextRef(chunk_id="c9", text="龙井茶是产自杭州西湖的绿茶。", source="tea.md")],
        language="zh")
    return [
        EvalSample(test=en, response=RagResponse(
            answer="Ada Lovelace wrote the first program in 1843.",
            retrieved_contexts=[ContextRef(chunk_id="c1", text="Ada Lovelace published the first program in 1843."),
                                ContextRef(chunk_id="c2", text="Charles Babbage designed the Analytical Engine.")])),
        EvalSample(test=zh, response=RagResponse(
            answer="龙井茶产自杭州。",
            retrieved_contexts=[ContextRef(chunk_id="c9", text="龙井茶是产自杭州西湖的绿茶。")])),
    ]


def follow_up() -> EvalSample:
    test = TestSample(id="chat-t2", question="And where is it built?", language="en",
                      history=[Turn(question="What does the Wren W300 carry?", answer="Up to 300 kg.")],
                      conversation=Conversation(id="chat", turn=2, turns=2, goal="Learn about the Wren W300"))
    return EvalSample(test=test, response=RagResponse(answer="The Wren W300 is built in Sheffield."))


async def render_all(embeddings: Embeddings) -> dict[str, list[str]]:
    rec = Recorder()
    # every metric, with its default arguments, on an English and a Chinese sample
    judge = ScriptedJudge(rec.filler)
    await evaluate(samples(), sorted(available("metric", plugins=False)), judge=judge, embeddings=embeddings,
                   progress=False, concurrency=1)
    # the metrics that read a conversation, on the last turn of one (the others score it as a single question)
    await evaluate([follow_up()], ["conversation_completeness", "knowledge_retention"], judge=judge,
                   embeddings=embeddings, progress=False, concurrency=1)
    # every generator, the critic and the persona prompt, on hand-built English and Chinese graphs
    for spec, language in ((BAKERY, "en"), (TEA_ZH, "zh")):
        kg = build_graph(spec, embeddings, language=language)
        names = sorted(available("generator", plugins=False))
        await generate(kg, len(names) * 2,
                       GenerateOptions(distribution={n: 1.0 for n in names}, seed=3, progress=False),
                       judge=ScriptedJudge(rec.generator_script), embeddings=embeddings)
        critic = Critic(kg, ScriptedJudge(rec.generator_script), embeddings)
        chunk = kg.chunks()[0]
        for answerable in (True, False):
            sample = TestSample(id="critic", question="What does the bakery in Leeds sell on Sundays?" if answerable
                                else "!What colour is the moon bakery's door?", reference_answer="Rye bread.",
                                reference_contexts=[ContextRef(chunk_id=chunk.id, text=chunk.text)],
                                language=language, metadata={"answerable": answerable})
            await critic.review(sample)
    # the graph build's prompts, rendered directly with fixed inputs
    fixed = ((CONDENSE_PROMPT, SectionSummaries(title="Ada", language="English",
                                                section_summaries=["Ada Lovelace wrote a program."])),
             (reading_prompt(1), DocumentText(title="Ada", language="English",
                                              sections=["Ada Lovelace wrote a program in 1843."])),
             (reading_prompt(2), DocumentText(title="龙井", language="Chinese",
                                              sections=["龙井茶产自杭州。", "[采摘]\n清明前采摘。"])),
             (CORRECTED_PROMPT, CorrectedInput(passages=["The Porto plant opened in 2016."],
                                               question="When did the Porto plant open?",
                                               language=language_instruction("en"))),
             (reverse_prompt(3), ReverseInput(answer="Ada Lovelace wrote the first program in 1843.")),
             (WHETHER, DirectInput(question="Did Ada Lovelace write a program?", answer="She did, in 1843.")),
             (cloze_prompt(2, ["2016", "2018", "none"]),
              ClozeInput(question="When did the plants open?", passage="Porto opened in 2016, Leeds in 2018.",
                         statements="The Porto plant opened in [0].\nThe Leeds plant opened in [1].")),
             (cloze_prompt(1, ["2016", "2018", "none"], asked=False),
              ClozeAloneInput(passage="Porto opened in 2016, Leeds in 2018.", statements="Leeds opened in [0].")))
    for prompt, data in fixed:
        blob = json.dumps(prompt.render(data), ensure_ascii=False, sort_keys=True).encode()
        rec.hashes[prompt.name].append(hashlib.sha256(blob).hexdigest())
    return {name: sorted(h) for name, h in sorted(rec.hashes.items())}


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[str]]:
    return asyncio.run(render_all(Embeddings(cache=False)))


def test_every_prompt_renders_byte_identical(rendered: dict[str, list[str]]) -> None:
    expected = json.loads(EXPECTED.read_text())
    assert sorted(rendered) == sorted(expected), "the set of prompts changed"
    for name, hashes in expected.items():
        assert rendered[name] == hashes, f"prompt '{name}' renders differently"


def test_the_recording_covers_metrics_generators_and_critic(rendered: dict[str, list[str]]) -> None:
    for name in ("claims.split", "claims.check", "generate.qa", "generate.bridge_qa", "generate.comparison_qa",
                 "generate.critic", "generate.personas", "kg.read_document", "kg.document_summary",
                 "conversation.retention", "conversation.completeness", "generate.correction", "claims.values",
                 "answer_relevancy.direct", "answer_relevancy.reverse", "context_relevance.passage"):
        assert name in rendered, name


if __name__ == "__main__" and "--record" in sys.argv:
    EXPECTED.write_text(json.dumps(asyncio.run(render_all(Embeddings(cache=False))), indent=1) + "\n")
    print(f"recorded {EXPECTED}")
