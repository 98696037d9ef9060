"""Money as text: the one Python formatter (core/money.py) and the SQL macros rs(), that writes
sums into findings and papers, and rupees(), that writes the CSV files' amounts, agree to the
paisa on every amount."""

from __future__ import annotations

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.money import paise_text, rs
from pipeline.core.paths import SQL_DIR


@pytest.fixture(scope="module")
def sql():
    con = duckdb.connect()
    con.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
    yield con
    con.close()


@pytest.mark.parametrize("paise, text", [
    (0, "Rs 0.00"), (5, "Rs 0.05"), (99999, "Rs 999.99"), (100000, "Rs 1,000.00"), (12000000, "Rs 1,20,000.00"),
    (123456789012, "Rs 1,23,45,67,890.12"), (-150, "Rs -1.50"), (-1200000, "Rs -12,000.00"), (None, "Rs 0.00"),
])
def test_a_sum_in_a_sentence_is_written_as_the_pages_write_it(sql, paise, text):
    assert sql.execute("SELECT rs(CAST(? AS BIGINT))", [paise]).fetchone()[0] == text
    assert rs(paise or 0) == text == "Rs " + paise_text(paise or 0, grouping=True)


def test_a_sum_given_as_a_decimal_is_written_the_same(sql):
    assert sql.execute("SELECT rs(CAST(12000000 AS DECIMAL(18, 0))), rs(CAST(150 AS DOUBLE))").fetchone() == \
        ("Rs 1,20,000.00", "Rs 1.50")


@given(st.integers(min_value=-(2 ** 63 - 1), max_value=2 ** 63 - 1) | st.integers(min_value=-10 ** 9, max_value=10 ** 9))
def test_sql_and_python_agree_on_every_amount(sql, paise):
    assert sql.execute("SELECT rs(CAST(? AS BIGINT))", [paise]).fetchone()[0] == rs(paise)


@pytest.mark.parametrize("paise", [0, 1, -1, 99, -100, 12000050, 10 ** 16 - 1, -(10 ** 16 - 1), 10 ** 16,
                                   -(10 ** 16), 2 ** 63 - 1, -(2 ** 63 - 1)])
def test_a_csv_amount_is_the_formatter_s_on_either_side_of_the_short_path(sql, paise):
    # rupees() takes DuckDB's DECIMAL text under 10^16 paise, and paise_text() from there
    assert sql.execute("SELECT rupees(CAST(? AS BIGINT))", [paise]).fetchone()[0] == paise_text(paise, grouping=False)


@given(st.integers(min_value=-(2 ** 63 - 1), max_value=2 ** 63 - 1) | st.integers(min_value=-10 ** 6, max_value=10 ** 6))
def test_every_csv_amount_is_written_as_python_writes_it(sql, paise):
    assert sql.execute("SELECT rupees(CAST(? AS BIGINT))", [paise]).fetchone()[0] == paise_text(paise, grouping=False)
