"""Selections: the first rows of a long one (select_first) are the first rows of the whole, and
say how many there are; quartiles are those pandas interpolates."""

import duckdb
import pandas as pd
import pytest

from pipeline.read.select import Cond, col, count, listing, quartile, select, select_first, total
from pipeline.reports import html as h


@pytest.fixture
def con():
    c = duckdb.connect()
    c.execute("CREATE TABLE cases AS SELECT 'C' || lpad(i::VARCHAR, 3, '0') AS case_id, "
              "CASE WHEN i % 7 = 0 THEN NULL ELSE 'O' || (i % 23)::VARCHAR END AS owner_id, "
              "(i % 5)::BIGINT AS heads, (i * 37 % 101)::BIGINT AS days FROM range(1, 400) t(i)")
    yield c
    c.close()


OWNERS = dict(where=[Cond("owner_id", "not_null")], having=[Cond("cases", ">", 1)], order=["cases DESC", "owner_id"])
MEASURES = (col("owner_id"), count("cases"), total("heads"), listing("case_id", "case_ids"))


@pytest.mark.parametrize("first", [1, 5, 23, 100])
def test_the_first_groups_are_the_first_rows_of_the_whole_selection(con, first):
    whole = select(con, "cases", *MEASURES, **OWNERS)
    some = select_first(con, "cases", *MEASURES, first=first, **OWNERS)
    assert some.attrs["rows"] == len(whole) == 23
    assert some.attrs["selection"] == whole.attrs["selection"]
    pd.testing.assert_frame_equal(some, whole.head(first).reset_index(drop=True))


def test_the_first_rows_of_a_plain_selection_and_a_group_named_null(con):
    rows = (col("case_id"), col("days"))
    whole = select(con, "cases", *rows, order=["days DESC", "case_id"])
    some = select_first(con, "cases", *rows, first=10, order=["days DESC", "case_id"])
    assert some.attrs["rows"] == 399
    pd.testing.assert_frame_equal(some, whole.head(10))
    # the owners with the NULL owner among the first groups: read whole, and cut
    every = select(con, "cases", *MEASURES, order=["cases DESC", "owner_id"])
    first = select_first(con, "cases", *MEASURES, first=3, order=["cases DESC", "owner_id"])
    assert first["owner_id"].isna().any()
    pd.testing.assert_frame_equal(first, every.head(3))


def test_quartiles_are_interpolated_as_pandas_does(con):
    q = select(con, "cases", col("heads"), quartile("days", 1, "q1"), quartile("days", 3, "q3"), order=["heads"])
    frame = con.execute("SELECT heads, days FROM cases").df()
    for r in q.to_dict("records"):
        days = frame.loc[frame["heads"] == r["heads"], "days"]
        assert (r["q1"], r["q3"]) == (float(days.quantile(0.25)), float(days.quantile(0.75)))


def test_a_table_of_the_first_rows_says_how_many_there_are(con):
    some = select_first(con, "cases", *MEASURES, first=5, **OWNERS)
    page = h.table(some, table_id="owners", max_rows=5)
    assert "The first 5 of 23 rows are shown" in page
    with pytest.raises(ValueError, match="needs every row"):
        h.table(some, table_id="owners", max_rows=5, total="all")
    with pytest.raises(ValueError, match="5 rows read of 23, and 10 are shown"):
        h.table(some, table_id="owners", max_rows=10)
