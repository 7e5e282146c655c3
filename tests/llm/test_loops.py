"""A local reply caught in a loop is stopped early, as if cut at the token limit, and nothing else is."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ragkit.llm._local import LOOP_CHARS, _drain, looping


def chunks(text: str, *, piece: int = 3) -> list[dict[str, Any]]:
    """``text`` as llama-cpp-python streams it: a delta of a few characters per token, the last with its reason."""
    out: list[dict[str, Any]] = [{"choices": [{"delta": {"content": text[i:i + piece]}, "finish_reason": None}]}
                                 for i in range(0, len(text), piece)]
    out.append({"choices": [{"delta": {}, "finish_reason": "stop"}]})
    return out


@pytest.mark.parametrize("text", [
    '{"turns": [{"question": "' + "프렌치 " * 60,
    '{"claims": ["The plant is in Porto, ' + "in Porto, " * 25,
    "ab" * 100,
    "答案是" + "龙井茶" * 80,
])
def test_a_loop_is_seen(text: str) -> None:
    assert looping(text)


@pytest.mark.parametrize("text", [
    '{"c0": ' + ", ".join(['"supported"'] * 16) + "}",  # the most repeated valid reply: 16 labels
    '{"c0": ' + ", ".join(['"supported"'] * 16) + ", ",  # the same as it streams
    '{"turns": ["met", "met", "met", "met", "met", "met", "met", "met", "met", "met", "met", "met"]}',
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    "The Heron H6 has six joints. " * 3 + "Each joint has a brake. " * 2,
    "ha" * 20,  # too short to be worth stopping
    "Porto Plant " * 19,  # 228 characters, but not twenty times
])
def test_what_is_not_a_loop(text: str) -> None:
    assert not looping(text)


def test_the_stream_stops_in_a_loop_and_says_it_was_cut() -> None:
    text, finish = _drain(iter(chunks('{"question": "' + "프렌치 " * 400)), None, None, time.monotonic())
    assert finish == "length" and LOOP_CHARS <= len(text) < LOOP_CHARS + 100


def test_a_reply_without_a_loop_streams_to_its_end() -> None:
    reply = '{"answer": "' + "The Porto plant opened in 2021 and builds the Wren W300. " * 8 + '"}'
    assert _drain(iter(chunks(reply)), None, None, time.monotonic()) == (reply, "stop")
