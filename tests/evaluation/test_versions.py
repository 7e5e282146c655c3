"""A version the passage never writes (``_versions``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._versions import unwritten_version, versions, versions_as_written


@pytest.mark.parametrize(("text", "found"), [
    ("kotok v1.4.0 needs tokenizers v0.15.", {(1, 4), (0, 15)}),  # trailing zeros dropped
    ("SudachiPy 0.6.8 では Python 3.8 以上が必要です。", {(0, 6, 8)}),  # "3.8" with no "v" may be any number
    ("从 v3.2.0 开始，默认模型改为 base-v2。", {(3, 2)}),  # "base-v2" is a name, with no dot
    ("The fix was released on 2024.03.18 and weighs 2.5 kg.", set()),  # a date written with dots; an amount
    ("Runs on V8 and Node 20.", set()),
    ("192.168.0.1 is the default address.", {(192, 168, 0, 1)}),
])
def test_versions(text: str, found: set[tuple[int, ...]]) -> None:
    assert versions(text) == found


@pytest.mark.parametrize(("passage", "claim", "unwritten"), [
    ("从 v3.2.0 开始，默认模型改为 base-v2；v3.0.5 及更早版本使用 base-v1。", "v3.1.0 及更早版本使用 base-v1。", True),
    ("从 v3.2.0 开始，默认模型改为 base-v2；v3.0.5 及更早版本使用 base-v1。", "v3.0.5 及更早版本使用 base-v1。", False),
    ("hgtk 0.2.1 버전부터 josa 모듈을 지원합니다.", "josa 모듈은 v0.3.0부터 지원됩니다.", True),
    ("hgtk 0.2.1 버전부터 josa 모듈을 지원합니다.", "josa 모듈은 v0.2.1부터 지원됩니다.", False),  # "v" or not
    ("The API was frozen in release 2.0.", "The API was frozen in release 2.0.0.", False),  # the same numbers
    ("The API was frozen in release 2.", "The API was frozen in v2.0.", False),
    ("Python 3.9 or newer is required.", "Python 3.8 or newer is required.", False),  # no version: the cloze's
    ("２．０．３ 패치에서 고쳐졌습니다.", "2.0.3 패치에서 고쳐졌습니다.", False),  # full-width digits
    ("2024년 3월 18일에 배포되었습니다.", "2024.03.18에 배포되었습니다.", False),  # a date
    ("Requires Python 3.9 or newer.", "It needs nothing else.", False),
])
def test_unwritten_version(passage: str, claim: str, unwritten: bool) -> None:
    assert unwritten_version(passage, claim) is unwritten


def test_a_version_after_a_full_width_comma_is_read() -> None:
    passage = "pycorrector 1.0.4 版本新增了 MacBERT 纠错模型，1.1.2 版本加入了 ChatGLM 微调。"
    assert not unwritten_version(passage, "1.1.2 版本加入了 ChatGLM 微调。")
    assert unwritten_version(passage, "1.2.0 版本加入了 ChatGLM 微调。")


def test_a_version_the_question_of_an_answer_writes_is_written() -> None:
    claim, answer = "fastparse 2.1.0 requires Python 3.9 or newer.", "It needs Python 3.9.0 or later."
    assert unwritten_version(answer, claim)  # a retrieved context is read with no question
    assert not unwritten_version(answer, claim, "Which Python version does fastparse 2.1.0 need?")
    assert unwritten_version(answer, claim, "Which Python version does fastparse 2.2.0 need?")


@pytest.mark.parametrize(("passage", "claim", "written"), [
    ("The API was frozen in release 2.0. Patch 2.0.3 fixed it.", "The API was frozen in release 2.0.0.",
     "The API was frozen in release 2.0."),
    ("fastparse 2.1.0 requires Python 3.9 or newer.", "It needs Python 3.9.0 or later.",
     "It needs Python 3.9 or later."),
    ("hgtk v0.2 부터 josa 모듈을 지원합니다.", "josa 모듈은 0.2.0 버전부터 지원됩니다.",
     "josa 모듈은 0.2 버전부터 지원됩니다."),
    # a plain number is no version: "1.5" hours stays; and a version the passage writes two ways is left as it is
    ("It takes 1.5 hours.", "It takes 1.50 hours.", "It takes 1.50 hours."),
    ("Version 2.0 is also called 2.0.0.", "Version 2.0.0 ships.", "Version 2.0.0 ships."),
])
def test_a_version_is_written_as_the_passage_writes_it(passage: str, claim: str, written: str) -> None:
    assert versions_as_written(passage, claim) == written
