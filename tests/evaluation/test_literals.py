"""A code name or a quoted value written nearly, but not exactly, as the passage writes it (``_literals``)."""

from __future__ import annotations

import pytest

from ragkit.evaluation._literals import literals, written_otherwise


def test_literals_are_code_names_and_quoted_values() -> None:
    assert literals("Set max_retries, then call client.fetch_all() and `sync --all`.") == [
        "max_retries", "client.fetch_all()", "sync--all"]
    assert literals("jaconv.hira2kata('ともえまみ') は 'トモエマミ' を返します。") == [
        "jaconv.hira2kata('ともえまみ')", "ともえまみ", "トモエマミ"]
    # not an apostrophe's span, a model code's number, a version, or a short value
    assert literals("Acme's K10 and Tom's W300 run Python3.8; h2z is short.") == []


@pytest.mark.parametrize(("passage", "claim", "asked", "otherwise"), [
    ("Retries are set with the `max_retries` option.", "Retries are set with max_retry.", "", True),
    ("Retries are set with the `max_retries` option.", "Retries are set with max_retries.", "", False),
    ("Call `client.fetch_all()` to download every record.", "client.fetch_one() downloads every record.", "", True),
    ("jaconv.hira2kata('ともえまみ') は 'トモエマミ' を返します。", "'トモエマメ' を返します。", "", True),
    ("jaconv.hira2kata('ともえまみ') は 'ﾄﾓｴﾏﾐ' を返します。", "'トモエマミ' を返します。", "", False),  # one width
    ("설정 파일에서 log_level 값을 DEBUG로 바꿉니다.", "log_levels 값을 DEBUG로 바꿉니다.", "", True),
    ("使用 jieba.lcut() 得到列表。", "jieba.lcat() 得到列表。", "", True),
    # a call with its arguments: one function's name with another's input
    ("jaconv.alphabet2kana('japan') # => じゃぱん\njaconv.alphabet2kata('namba') # => 'ナンバ'",
     "jaconv.alphabet2kana('namba') は 'ナンバ' を生成します。", "", True),
    ("jaconv.alphabet2kana('japan') # => じゃぱん\njaconv.alphabet2kata('namba') # => 'ナンバ'",
     'jaconv.alphabet2kata("namba") は "ナンバ" を生成します。', "", False),  # another quote mark is the same call
    # a name and its number however joined; a value the question writes; a name nothing near
    ("It supports python3.8 and later.", "It supports 'Python 3.8' and later.", "", False),
    ("The `platformdirs` package finds directories.", "The `platfformdirs` package finds directories.",
     "What does the `platfformdirs` package do?", False),
    ("The `platformdirs` package finds directories.", "The `platfformdirs` package finds directories.", "", True),
    ("Call load_settings() first.", "Call parse_arguments() first.", "", False),
])
def test_written_otherwise(passage: str, claim: str, asked: str, otherwise: bool) -> None:
    assert written_otherwise(passage, claim, asked) is otherwise
