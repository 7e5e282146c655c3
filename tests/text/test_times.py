"""Clock times as written, and the minute of the day each means."""

from __future__ import annotations

import pytest

from ragkit.text import as_written_in
from ragkit.text._times import time_forms


@pytest.mark.parametrize(("text", "times"), [
    ("open 9 am to 5:30 pm", [("9 am", 540), ("5:30 pm", 1050)]),
    ("09:00 to 17:30", [("09:00", 540), ("17:30", 1050)]),
    ("午前8時30分から午後5時30分まで、休憩は1時間", [("午前8時30分", 510), ("午後5時30分", 1050)]),  # 1時間 is hours
    ("오전 9시부터 오후 6시까지, 점심시간은 12시부터 1시간", [("오전 9시", 540), ("오후 6시", 1080), ("12시", 720)]),
    ("上午9点至下午6点", [("上午9点", 540), ("下午6点", 1080)]),
    ("8時半, 2시 반", [("8時半", 510), ("2시 반", 150)]),
    ("version 3.10:12", []),
])
def test_times_are_read_in_every_language(text: str, times: list[tuple[str, int]]) -> None:
    assert [(text[f.start:f.end], f.minute) for f in time_forms(text)] == times


def test_a_time_in_another_form_is_written_as_the_passage_writes_it() -> None:
    passage = "勤務時間は午前8時30分から午後5時30分まで。"
    assert as_written_in(passage, "8時30分から17時30分まで。") == "午前8時30分から午後5時30分まで。"
    assert as_written_in("Open 9 am to 5:30 pm.", "Open 09:00 to 17:30.") == "Open 9 am to 5:30 pm."
    # a bare hour is read on the 24-hour clock: "6시" is never made equal to "오후 6시"
    assert as_written_in("오후 6시까지", "6시까지") == "6시까지"
