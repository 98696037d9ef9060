"""Selections: the first rows of a long one (select_first) are the first rows of the whole, and
say how many there are; quartiles are those pandas interpolates; totals are DuckDB's sums over
the whole selection."""

import duckdb
import pandas as pd
import pytest

from pipeline.read.select import (
    Cond,
    col,
    count,
    key_text,
    largest,
    listing,
    quartile,
    select,
    select_first,
    total,
    totals,
)
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
    with pytest.raises(ValueError, match="none was read"):
        h.table(some, table_id="owners", max_rows=5, total="all")
    # the total row is of all 23 groups, as DuckDB adds them up, not of the 5 the frame holds
    page = h.table(totals(con, some), table_id="owners", max_rows=5, total="all")
    whole = select(con, "cases", *MEASURES, **OWNERS)
    assert int(whole["cases"].sum()) > int(some["cases"].sum())
    assert f'<td class="num" data-col="cases">{int(whole["cases"].sum()):,}</td>' in page
    assert "(the total is of all of them)" in page
    with pytest.raises(ValueError, match="5 rows read of 23, and 10 are shown"):
        h.table(some, table_id="owners", max_rows=10)


def test_totals_add_up_what_adds_up_over_the_whole_selection(con):
    frame = totals(con, select(con, "cases", col("owner_id"), count("cases"), total("heads"), col("days"),
                               largest("days", "longest"), listing("case_id", "case_ids"),
                               where=[Cond("heads", ">", 0)], order=["owner_id"], key=["owner_id"]))
    # the row names (owner_id), a largest and a listing are not added up, nor a column the
    # selection is grouped by (days): only its sums and counts
    want = con.execute("SELECT count(*), sum(heads) FROM cases WHERE heads > 0").fetchone()
    assert frame.attrs["totals"] == {None: {"cases": want[0], "heads": want[1]}}
    # a plain (ungrouped) whole-number column is added up
    rows = totals(con, select(con, "cases", col("case_id"), col("heads"), where=[Cond("heads", ">", 2)],
                              order=["case_id"], key=["case_id"]))
    assert rows.attrs["totals"] == {None: {"heads": con.execute("SELECT sum(heads) FROM cases WHERE heads > 2")
                                           .fetchone()[0]}}
    # the totals are of the selection: a frame cut in pandas afterwards has them refused, and a
    # selection cut by a limit (which a page would not say) cannot have them
    with pytest.raises(ValueError, match="frame holds"):
        h.table(rows[rows["heads"] > 3], table_id="cut", total="all")
    with pytest.raises(ValueError, match="cut by a limit"):
        totals(con, select(con, "cases", col("case_id"), col("heads"), order=["case_id"], limit=3))


def test_totals_by_a_column_are_each_of_its_values_own(con):
    frame = totals(con, select(con, "cases", col("heads"), col("owner_id"), count("cases"),
                               where=[Cond("owner_id", "not_null")], order=["heads", "owner_id"]), by="heads")
    want = dict(con.execute("SELECT heads, count(*) FROM cases WHERE owner_id IS NOT NULL GROUP BY heads").fetchall())
    assert {k: v["cases"] for k, v in frame.attrs["totals"].items()} == {str(k): n for k, n in want.items()}
    # a pivot's total column shows them
    page = h.pivot(frame, "heads", "owner_id", "cases", table_id="p", total_label="all owners")
    assert all(f'data-key="{{&#34;heads&#34;: {k}}}">{v:,}</td>' in page for k, v in want.items())


def test_a_pivot_by_dates_finds_its_totals():
    # DuckDB gives a date, pandas a Timestamp: both are filed as the same text (key_text)
    import datetime as dt

    c = duckdb.connect()
    c.execute("CREATE TABLE t AS SELECT DATE '2026-10-01' + CAST(i % 3 AS INTEGER) AS day, 'k' || (i % 2) AS kind, 1::BIGINT AS n "
              "FROM range(12) r(i)")
    frame = totals(c, select(c, "t", col("day"), col("kind"), total("n"), order=["day", "kind"]), by="day")
    assert frame.attrs["totals"]["2026-10-01"] == {"n": 4} and key_text(dt.date(2026, 10, 1)) == "2026-10-01"
    page = h.pivot(frame, "day", "kind", "n", table_id="p", total_label="all")
    assert page.count('data-col="n" data-key="{&#34;day&#34;: &#34;2026-10-0') >= 3


def test_a_column_of_a_selection_carries_its_attrs_without_copying_them(con):
    """pandas deep-copies attrs into every column and frame it hands out: the selection, what it
    read and its totals are handed on as they are (a page reads thousands of columns), equal and
    the same objects."""
    frame = totals(con, select(con, "cases", col("owner_id"), count("cases"), total("heads"), key=["owner_id"]))
    column, head = frame["heads"], frame.head(3)
    for name in ("selection", "read", "totals"):
        assert column.attrs[name] is frame.attrs[name] and head.attrs[name] is frame.attrs[name], name
    assert column.attrs["totals"] == {None: {"cases": 399, "heads": int(frame["heads"].sum())}}
