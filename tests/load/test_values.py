"""Every value format of the bundle contract, typed exactly (values.py)."""

import datetime as dt

import duckdb
import pandas as pd
import pytest
from examples import examples
from helpers import empty_cursor
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.registers import COUNT, DATE, FLAG, MONEY, TIME, Column, Register
from pipeline.load.values import general_expr, parse_problems, typed_expr


def typed(kind: str, text: str):
    col = Column("v", kind)
    con = empty_cursor()
    con.register("raw", pd.DataFrame({"_row": [2], "v": [text]}, dtype=str))
    value = con.execute(f"SELECT {typed_expr(col)} FROM raw").fetchone()[0]
    problems, _ = parse_problems(con, Register("t", "reference", (col,), key=("v",)), "raw", "t.csv", 10)
    return value, problems


@pytest.mark.parametrize("text, paise", [
    ("600", 60000), ("600.5", 60050), ("600.50", 60050), ("1,200.00", 120000), ("0.01", 1),
    ("1,20,000.05", 12000005), ("12,00,000", 120000000), ("1,200,000", 120000000), (" 75 ", 7500),
    ("0", 0), ("-3", -300), ("99999999999.99", 9999999999999),
])
def test_money_is_exact_paise(text, paise):
    value, problems = typed(MONEY, text)
    assert value == paise and isinstance(value, int)
    assert problems == []


@pytest.mark.parametrize("text, says", [
    ("600.123", "more than two decimals"), ("0.001", "more than two decimals"), ("1,200.505", "more than two decimals"),
    ("Rs 600", "is not an amount"), ("600.", "is not an amount"), (".5", "is not an amount"),
    ("12,34", "is not an amount"), ("6 00", "is not an amount"), ("1e3", "is not an amount"),
])
def test_money_rejects_with_a_reason(text, says):
    value, problems = typed(MONEY, text)
    assert value is None
    assert len(problems) == 1 and says in problems[0].message
    assert problems[0].row == 2 and problems[0].column == "v" and problems[0].value == text.strip()


@pytest.mark.parametrize("text, day", [
    ("2026-10-05", dt.date(2026, 10, 5)), ("05/10/2026", dt.date(2026, 10, 5)), ("5/10/2026", dt.date(2026, 10, 5)),
    ("05-10-2026", dt.date(2026, 10, 5)), ("2026-1-5", dt.date(2026, 1, 5)), ("29/02/2028", dt.date(2028, 2, 29)),
    ("31/12/2026", dt.date(2026, 12, 31)),
])
def test_dates_are_day_first(text, day):
    value, problems = typed(DATE, text)
    assert value == day and problems == []


@pytest.mark.parametrize("text, says", [
    ("31/02/2026", "not a real calendar date"), ("29/02/2026", "not a real calendar date"),
    ("13/13/2026", "not a real calendar date"), ("2026/10/05", "is not a date"), ("10/05/26", "is not a date"),
    ("5 Oct 2026", "is not a date"), ("05/10-2026", "is not a date"), ("2026-10-05 10:00", "is not a date"),
])
def test_bad_dates_are_named(text, says):
    value, problems = typed(DATE, text)
    assert value is None and says in problems[0].message


@pytest.mark.parametrize("text, flag", [
    ("yes", True), ("Y", True), ("TRUE", True), ("1", True), ("no", False), ("n", False), ("False", False),
    ("0", False), ("", False),
])
def test_flags(text, flag):
    value, problems = typed(FLAG, text)
    assert value is flag and problems == []


def test_bad_flag():
    value, problems = typed(FLAG, "maybe")
    assert value is None and "yes/no" in problems[0].message


@pytest.mark.parametrize("text, n", [("0", 0), ("12", 12), (" 3 ", 3)])
def test_counts(text, n):
    assert typed(COUNT, text) == (n, [])


@pytest.mark.parametrize("text", ["3.0", "3.5", "three", "1,000"])
def test_bad_counts(text):
    value, problems = typed(COUNT, text)
    assert value is None and "whole number" in problems[0].message


@pytest.mark.parametrize("text, hhmm", [("9:05", "09:05"), ("23:59", "23:59"), ("07:30:00", "07:30")])
def test_times(text, hhmm):
    assert typed(TIME, text) == (hhmm, [])


@pytest.mark.parametrize("text", ["24:00", "12:60", "12:5", "noon"])
def test_bad_times(text):
    value, problems = typed(TIME, text)
    assert value is None and "time of day" in problems[0].message


def test_blank_is_not_recorded_not_an_error():
    for kind in (MONEY, DATE, COUNT, TIME):
        assert typed(kind, "") == (None, [])
        assert typed(kind, "   ") == (None, [])


# The short cuts typed_expr takes for plain shapes give what the general expression gives, for
# cells of those shapes and for cells that only nearly have them.
NEAR = st.text(alphabet="0123456789-/.,: +e١a", max_size=20)
SHAPED = st.one_of(
    st.dates().map(lambda d: d.isoformat()), st.dates().map(lambda d: d.strftime("%d/%m/%Y")),
    st.dates().map(lambda d: d.strftime("%d-%m-%Y")), st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"),
    st.from_regex(r"\A[0-9]{2}[/-][0-9]{2}[/-][0-9]{4}\Z"), st.from_regex(r"\A[0-9]{1,17}(\.[0-9]{1,3})?\Z"),
    st.from_regex(r"\A[0-9]{2}:[0-9]{2}\Z"), NEAR)


# one statement per example, whatever its length: 100 examples of up to 120 cells
@settings(max_examples=examples(100), deadline=None)
@given(cells=st.lists(SHAPED, min_size=1, max_size=120))
def test_the_short_cuts_for_plain_shapes_agree_with_the_general_expression(cells):
    # one connection for every example; the cells arrive as a list, in their order
    con = _sharedempty_cursor()
    kinds = (MONEY, DATE, COUNT, TIME)
    lists = ", ".join(f"list({typed_expr(Column('v', k))} ORDER BY i), list({general_expr(Column('v', k))} ORDER BY i)"
                      for k in kinds)
    got = con.execute(f"SELECT {lists} FROM (SELECT unnest(?) AS v, unnest(range(len(?))) AS i)",
                      [cells, cells]).fetchone()
    for n, kind in enumerate(kinds):
        fast, general = got[2 * n], got[2 * n + 1]
        assert fast == general, (kind, cells)


_CONNECTION: list = []


def _sharedempty_cursor():
    if not _CONNECTION:
        _CONNECTION.append(duckdb.connect())
    return _CONNECTION[0]


# The general expressions against Python's own reading, over every layout the contract takes:
# yyyy-m-d, d/m/yyyy and d-m-yyyy with one- and two-digit days and months (00 to 99, so that the
# days and months no calendar has are among them), and amounts in every grouping, with and
# without decimals and a sign.
def _python_day(text: str):
    import re

    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text, re.ASCII)
    dmy = re.fullmatch(r"(\d{1,2})([/-])(\d{1,2})\2(\d{4})", text, re.ASCII)
    if not iso and not dmy:
        return None
    y, m, d = (iso.group(1), iso.group(2), iso.group(3)) if iso else (dmy.group(4), dmy.group(3), dmy.group(1))
    try:
        return dt.date(int(y), int(m), int(d))
    except ValueError:
        return None


def test_the_general_date_expression_reads_every_day_as_python_does():
    parts = [str(i) for i in range(10)] + [f"{i:02d}" for i in range(100)]
    texts = [f"{y}-{m}-{d}" for y in ("2024", "2026", "2100") for m in parts for d in parts]
    texts += [f"{d}{a}{m}{b}{y}" for y in ("2028", "1900") for d in parts for m in parts
              for a, b in (("/", "/"), ("-", "-"), ("/", "-"), ("-", "/"))]
    texts += ["2026/10/05", "10/05/26", "2026-10-05 ", "5.10.2026", "12026-01-01", "2026-001-01", ""]
    got = duckdb.connect().execute(f"SELECT list({general_expr(Column('v', DATE), 'x')} ORDER BY i) "
                                   "FROM (SELECT unnest(?) AS x, unnest(range(len(?))) AS i)", [texts, texts]).fetchone()[0]
    wrong = [(t, g, _python_day(t)) for t, g in zip(texts, got, strict=True) if g != _python_day(t)]
    assert not wrong, wrong[:5]


def _python_paise(text: str):
    import re
    from decimal import Decimal

    # at most 15 digits, plain or grouped
    if not re.fullmatch(r"-?(\d{1,15}|\d{1,3}(,\d{3})+|\d{1,2}(,\d{2})+,\d{3})(\.\d{1,2})?", text, re.ASCII):
        return None
    if len(re.sub(r"\D", "", text.split(".")[0])) > 15:
        return None
    return int(Decimal(text.replace(",", "")) * 100)


@pytest.mark.parametrize("text, paise", [
    ("99,99,99,99,99,99,999", 99999999999999900), ("999,999,999,999,999.99", 99999999999999999),
    # the near misses: 16 and 17 digits in groups (the 17 overflowed a BIGINT of paise)
    ("9,99,99,99,99,99,99,999", None), ("93,00,00,00,00,00,00,000", None), ("9,999,999,999,999,999", None),
])
def test_an_amount_of_more_than_15_digits_in_groups_is_no_amount(text, paise):
    got = _sharedempty_cursor().execute(f"SELECT {general_expr(Column('v', MONEY), 'x')} FROM (SELECT ? AS x)",
                                       [text]).fetchone()[0]
    assert got == paise == _python_paise(text)


@settings(max_examples=examples(100), deadline=None)
@given(texts=st.lists(st.one_of(
    st.integers(0, 10**15 - 1).map(str), st.integers(0, 10**15 - 1).map("{:,}".format),
    st.from_regex(r"\A-?[0-9]{1,2}(,[0-9]{2}){1,6},[0-9]{3}(\.[0-9]{1,3})?\Z"),
    st.from_regex(r"\A-?[0-9]{1,16}(\.[0-9]{0,3})?\Z"), NEAR), min_size=1, max_size=60))
def test_the_general_money_expression_reads_amounts_as_python_does(texts):
    got = _sharedempty_cursor().execute(
        f"SELECT list({general_expr(Column('v', MONEY), 'x')} ORDER BY i) "
        "FROM (SELECT unnest(?) AS x, unnest(range(len(?))) AS i)", [texts, texts]).fetchone()[0]
    assert got == [_python_paise(t) for t in texts], texts
