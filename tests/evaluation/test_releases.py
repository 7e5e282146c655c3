"""A changelog's changes of one release, said of another release, are neutral without a call."""

from __future__ import annotations

import pytest

from ragkit.evaluation import ClaimStore
from ragkit.evaluation._releases import said_of_another_release, sections
from ragkit.testing import ScriptedJudge

CHANGELOG = """Changelog

2.4.1 (2025-03-02)

- Fixed a crash when a config file has no [server] section.
- The --quiet flag now also hides download progress.

2.4.0 (2025-02-10)

- Dropped support for Python 3.8.
- Added a plugin system for custom storage backends.
"""
ZH_CHANGELOG = """更新日志

3.2.1 (2024-08-15)

- 修复了竖排文字识别时标点错位的问题。
- 提高了表格识别的速度。

3.2.0 (2024-07-01)

- 不再支持Python 3.7。
- 新增了手写体识别模型。
"""


def test_a_changelog_is_read_as_sections_by_release() -> None:
    before, releases = sections(CHANGELOG)
    assert before.strip() == "Changelog"
    assert list(releases) == ["2.4.1", "2.4.0"]
    assert "plugin system" in releases["2.4.0"] and "plugin system" not in releases["2.4.1"]
    assert sections("Release 2.4.1 (2025-03-02) fixed a crash.")[1] == {}  # a sentence, not a heading


@pytest.mark.parametrize(("passage", "claim", "other"), [
    (CHANGELOG, "Tidewater 2.4.1 added a plugin system for custom storage backends.", "2.4.0"),
    (CHANGELOG, "Version 2.4.1 dropped support for Python 3.8.", "2.4.0"),
    (CHANGELOG, "Tidewater 2.4.0 fixed a crash when a config file has no [server] section.", "2.4.1"),
    (ZH_CHANGELOG, "青禾OCR 3.2.1新增了手写体识别模型。", "3.2.0"),
    # its own release's changes, in the changelog's words or in others
    (CHANGELOG, "Tidewater 2.4.1 fixed a crash when a config file has no [server] section.", None),
    (CHANGELOG, "In version 2.4.1, --quiet hides download progress as well.", None),
    (ZH_CHANGELOG, "青禾OCR 3.2.1提高了表格识别的速度。", None),
    # two releases named, or none of the headings: not this rule's to read
    (CHANGELOG, "Tidewater 2.4.0 and 2.4.1 added a plugin system for custom storage backends.", None),
    (CHANGELOG, "Tidewater 2.5.0 added a plugin system for custom storage backends.", None),
    # one pair of words is too little to tell whose change it is
    (CHANGELOG, "Tidewater 2.4.1 dropped support for Windows.", None),  # "dropped support" alone
])
def test_a_change_of_another_release(passage: str, claim: str, other: str | None) -> None:
    assert said_of_another_release(passage, claim) == other


async def test_another_releases_change_is_neutral_without_a_call() -> None:
    judge = ScriptedJudge([])
    (verdict,) = await ClaimStore(judge).check(CHANGELOG, ["Tidewater 2.4.1 added a plugin system for custom storage "
                                                           "backends."])
    assert verdict.label == "neutral" and judge.calls == []
