"""Conversations end to end on the embedded model and embeddings (RAGKIT_LIVE_TESTS=1): ``ragkit generate -g
conversational`` on an English and a Chinese corpus, then ``ragkit benchmark`` of the English conversations
against the baseline, whose follow-ups are rewritten from the conversation before it retrieves, scored per turn
and per conversation (knowledge retention, completeness)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragkit.cli import cli
from ragkit.text._language import detect_language
from ragkit.types import EvalSample, TestSample

pytestmark = pytest.mark.live
CORPORA = Path(__file__).resolve().parents[2] / "corpora"


MAX_DROPS = {"acme": "8", "zh": "13"}
"""Dropped candidates allowed per chat asked (the default is 2; a run stops after more than that times the chats
asked, plus one). On corpora/zh the 1.5B writer's chats pass the critic about one time in five (4 kept of 20 and
of 22 candidates, -n 5, bench/README.md "Session 32"), and with -n 1 the plan holds six: at the default bound one
kept chat was a coin toss (CI failed on it before session 31, and it failed on session 32's code). At 13 the
generator plans again and may try about 14 before it gives up. On corpora/acme about two in five pass; session
31's run kept its 2 chats after 4 drops, right at the default bound. The English test asks for one chat (two took
about 1,050 s of CI's 90 minutes, which stop 44 used up to 5,088 s), so it may try ten: with two in five passing,
all ten fail about one time in 170. The bar a chat must pass is the critic's, unchanged; only how long the test
may look is raised."""


def conversations(corpus: str, n: int, tmp: Path) -> tuple[dict[str, list[TestSample]], Path, str]:
    out = tmp / f"{corpus}-chats.jsonl"
    result = CliRunner().invoke(cli, ["generate", str(CORPORA / corpus), "-g", "conversational", "-n", str(n),
                                      "-o", str(out), "-k", str(tmp / f"{corpus}.kg.json"), "--extractor", "fast",
                                      "--max-drops", MAX_DROPS[corpus], "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    chats: dict[str, list[TestSample]] = defaultdict(list)
    for line in out.read_text(encoding="utf-8").splitlines():
        sample = TestSample.model_validate_json(line)
        assert sample.conversation is not None
        chats[sample.conversation.id].append(sample)
    return chats, out, result.stderr


def check_turns(chats: dict[str, list[TestSample]], n: int) -> None:
    assert len(chats) == n
    for turns in chats.values():
        assert len(turns) >= 2 and [t.conversation.turn for t in turns] == list(range(1, len(turns) + 1))
        assert {t.conversation.turns for t in turns} == {len(turns)}
        for k, turn in enumerate(turns, 1):
            assert [h.question for h in turn.history] == [t.question for t in turns[:k - 1]]
            assert turn.reference_answer and turn.reference_contexts
            if k > 1:  # a follow-up: not its standalone question, which the critic answered
                assert turn.question != turn.metadata["standalone_question"]


def test_english_conversations_and_a_benchmark_of_them(tmp_path: Path) -> None:
    chats, testset, report = conversations("acme", 1, tmp_path)
    print(report)
    check_turns(chats, 1)
    run = tmp_path / "run"
    result = CliRunner().invoke(cli, ["benchmark", str(CORPORA / "acme"), "--testset", str(testset), "--target",
                                      "baseline", "--extractor", "fast", "-m", "reference_resolution", "-m",
                                      "faithfulness", "-m", "knowledge_retention", "-m", "conversation_completeness",
                                      "-o", str(run), "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    answered = [EvalSample.model_validate_json(line) for line in (run / "responses.jsonl").read_text().splitlines()]
    follow_ups = [s for s in answered if s.test.conversation and s.test.conversation.turn > 1]
    assert follow_ups and all(s.response.answer and not s.response.error for s in answered)
    for s in follow_ups:  # the baseline saw its own earlier answers and retrieved with a rewritten question
        assert s.test.history[0].answer and s.response.metadata["search_query"] != s.test.question
    scores = [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]
    resolved = [r["scores"]["reference_resolution"]["value"] for r in scores
                if r["scores"]["reference_resolution"]["value"] is not None]
    assert len(resolved) == len(follow_ups)
    # knowledge retention scores every follow-up, completeness each conversation once, on its last turn
    by_id = {s.test.id: s for s in answered}
    for name, scored in (("knowledge_retention", follow_ups),
                         ("conversation_completeness",
                          [s for s in answered if s.test.conversation and s.test.conversation.is_last])):
        values = {r["sample_id"]: r["scores"][name] for r in scores if r["scores"][name]["value"] is not None}
        assert set(values) == {s.test.id for s in scored}, (name, values)
        assert all(0.0 <= v["value"] <= 1.0 and v["explanation"] for v in values.values())
        print(name, {k: (v["value"], v["explanation"], by_id[k].response.answer[:80]) for k, v in values.items()})
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "turn 2</h3>" in html and "earlier turn(s)" in html


def test_chinese_conversations(tmp_path: Path) -> None:
    chats, _, report = conversations("zh", 1, tmp_path)
    print(report)
    check_turns(chats, 1)
    for turns in chats.values():
        assert all(t.language == "zh" and detect_language(t.question) == "zh" for t in turns), turns
