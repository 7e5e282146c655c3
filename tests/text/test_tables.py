"""Tables in text: rows of cells joined by ``|``, the first their header."""

from __future__ import annotations

from ragkit.text import Table, tables


def test_pipe_rows_are_a_table_whose_first_row_is_its_header() -> None:
    text = "Sites\n\nSite | City | Staff\nNorth | Leeds | 40\nSouth | Derby | 25\n\nAfter the table."
    assert tables(text) == [Table(("Site", "City", "Staff"), (("North", "Leeds", "40"), ("South", "Derby", "25")))]


def test_markdown_pipes_and_the_header_rule_are_read() -> None:
    (table,) = tables("| 메뉴 | 가격 |\n|---|:-:|\n| 소금빵 | 2,900원 |")
    assert table.header == ("메뉴", "가격") and table.rows == (("소금빵", "2,900원"),)


def test_a_row_that_lost_a_cell_is_left_out_and_the_others_kept() -> None:
    (table,) = tables("Measure | 2022 | 2023\nRevenue | 10 | 12\nSpending 4 | 5\nStaff | 50 | 60")
    assert table.rows == (("Revenue", "10", "12"), ("Staff", "50", "60"))


def test_no_table_in_one_pipe_line_in_code_or_under_a_sentence_with_a_pipe() -> None:
    assert tables("Use a | b to pipe.") == []
    assert tables("```\ncat x | grep y\ncat z | wc -l\n```") == []
    long = "A sentence that happens to hold a pipe character and runs on for well over eighty characters | x"
    assert tables(f"{long}\nrow | y") == []
