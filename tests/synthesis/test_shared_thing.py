"""shared_thing: what two English questions both call "the …", when they share no name."""

from __future__ import annotations

import pytest

from ragkit.synthesis._conversation import ChatOutput, ChatTurn, Link, on_one_subject
from ragkit.synthesis._follow_up import shared_thing, substitute


@pytest.mark.parametrize(("earlier", "question", "thing"), [
    ("What was the root cause of the timing race in the joint controller?",
     "What were the contributing factors to the timing race?", "timing race"),
    ("What was the cost of replacing the upright of the pallet rack?",
     "What was the speed of the robot when it made contact with the upright?", "upright"),
    ("What was the cost of replacing the upright of the pallet rack?", "What was the severity of the incident?", None),
    ("What is the name of the first product Acme Robotics released?",
     "What is the name of the company's first product?", None),  # "the company" is not "the first product"
    ("What is the maximum room rate per night in London?", "What is the cost of a private car in the UK?", None),
    ("Where is the 龙井 garden?", "How big is the 龙井 garden?", None),  # CJK text: no "the" to go by
])
def test_the_longest_run_after_the_that_both_questions_have(earlier, question, thing):
    assert shared_thing([earlier], question) == thing


def test_the_thing_becomes_a_pronoun_with_its_article():
    assert substitute("What were the contributing factors to the timing race?", "timing race", "en") == \
        "What were the contributing factors to it?"


def test_a_chat_whose_turns_call_one_thing_the_same_keeps_them():
    written = [
        ChatTurn(question="What was the root cause of the timing race in the joint controller?", answer="A", quote="A"),
        ChatTurn(question="What were the contributing factors to the timing race?", answer="B", quote="B"),
        ChatTurn(question="What is the code for the battery low light?", answer="C", quote="C"),
        ChatTurn(question="What is the code for the safety scanner fault light?", answer="D", quote="D")]
    chat = ChatOutput(turns=list(written))
    sources, links = on_one_subject(chat, [0, 1, 1, 0], [], "en")
    assert links == [Link("timing race")] and sources == [0, 1]  # the light turns share nothing with the first two
    lights = ChatOutput(turns=written[2:])
    assert on_one_subject(lights, [1, 0], [], "en") == ([1, 0], [
        Link("What is the code for the safety scanner fault light?", "What about the safety scanner fault light?")])


def test_a_shared_frame_wins_over_a_subject_outside_the_thing_asked_about():
    chat = ChatOutput(turns=[ChatTurn(question="河坊街旗舰店的负责人是谁？", answer="黄婷", quote="黄婷"),
                             ChatTurn(question="西溪店的负责人是谁？", answer="孙悦", quote="孙悦")])
    assert on_one_subject(chat, [0, 0], [], "zh")[1] == [Link("西溪店的负责人是谁？", "那西溪店呢？")]
    named = ChatOutput(turns=[  # the shared name is inside the thing asked about: a pronoun for it
        ChatTurn(question="What is the purpose of the 'ProtectiveStop' error in the acme-motion SDK?", answer="A",
                 quote="A"),
        ChatTurn(question="What is the purpose of the 'SpeedLimitExceeded' error in the acme-motion SDK?",
                 answer="B", quote="B")])
    assert on_one_subject(named, [0, 0], [], "en")[1] == [Link("acme-motion SDK")]
