"""The register workbook's cells refuse what the loader refuses and take what it takes: dates and
amounts drawn by hypothesis (the loader's shapes, their near misses and any text of their
characters) are written into a blank workbook in LibreOffice Calc, Calc marks the invalid ones with
its own validity check (calc_invalid.py, served by the test process's one Calc: conftest.py), and
each mark is held to the loader's parser (pipeline/load/values.py) and its minimum.

Two bounds are the sheet's own and drawn inside: a date cell takes days of 1966 (the Act's year)
to 2099, which the loader would take outside them too, and an amount is drawn with at most 15
digits (the loader's plain amounts hold 15)."""

import datetime as dt
from pathlib import Path

import duckdb
import pytest
from calc_served import calc_ready
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.registers import BY_NAME
from pipeline.load.sheets import cell_text
from pipeline.load.values import typed_expr

EPOCH = dt.date(1899, 12, 30)              # a spreadsheet's day 0
FIRST, LAST = dt.date(1966, 1, 1), dt.date(2099, 12, 31)
RELEASES = BY_NAME["releases"]
DATE_COL = next(c for c in RELEASES.columns if c.name == "released_on")      # column C
MONEY_COL = next(c for c in RELEASES.columns if c.name == "fines_paid")      # column G
assert [c.name for c in RELEASES.columns].index("released_on") == 2
assert [c.name for c in RELEASES.columns].index("fines_paid") == 6


pytestmark = [pytest.mark.calc,
              pytest.mark.skipif(not calc_ready(), reason="needs LibreOffice Calc and python3-uno")]

_con = duckdb.connect()


def _loader_takes(col, value) -> bool:
    """Whether the loader takes the cell: its text (cell_text, as a sheet is read) parsed by the
    loader's SQL, at least the column's minimum, and for a date within the sheet's years."""
    text = cell_text(value)
    got = _con.execute(f"SELECT {typed_expr(col, 'trim(v)')} FROM (SELECT ?::VARCHAR AS v)", [text]).fetchone()[0]
    if got is None:
        return False
    if col.kind == "date":
        return FIRST <= got <= LAST
    return got >= (col.minimum or 0) * 100


def _as_cell(col, drawn):
    """(kind, value) as calc_invalid.py writes it, and the value openpyxl would read back."""
    kind, v = drawn
    if kind == "text":
        return ["text", v], v
    if col.kind == "date":         # a day number in a cell formatted dd-mm-yyyy reads back as a date
        whole = int(v)
        read = dt.datetime.combine(EPOCH + dt.timedelta(days=whole), dt.time()) + dt.timedelta(days=v - whole)
        return ["value", v], read
    return ["value", v], v


_days = st.one_of(st.dates(dt.date(1950, 1, 1), dt.date(2120, 12, 31)),      # any, and near the sheet's bounds
                  st.dates(dt.date(1965, 12, 1), dt.date(1966, 1, 31)), st.dates(dt.date(2099, 12, 1), dt.date(2100, 1, 31)))


@st.composite
def _date_texts(draw):
    d = draw(_days)
    day, month = draw(st.sampled_from([str(d.day), f"{d.day:02}"])), draw(st.sampled_from([str(d.month), f"{d.month:02}"]))
    sep, sep2 = draw(st.sampled_from("-/")), draw(st.sampled_from(["same", "same", "same", "-", "/", ".", ","]))
    sep2 = sep if sep2 == "same" else sep2
    shape = draw(st.sampled_from(["dmy", "iso", "iso/", "bad_day", "three"]))
    if shape == "dmy":
        return f"{day}{sep}{month}{sep2}{d.year}"
    if shape == "iso":
        return f"{d.year}-{month}-{day}"
    if shape == "iso/":
        return f"{d.year}/{month}/{day}"
    if shape == "bad_day":          # a day the month does not have, or a month 0 or 13
        return f"{draw(st.integers(0, 33))}{sep}{draw(st.integers(0, 13))}{sep2}{d.year}"
    return f"0{d.day:02}{sep}{month}{sep2}{d.year}"


DATES = st.one_of(
    _date_texts().map(lambda t: ("text", t)),
    st.text("0123456789-/. ", min_size=1, max_size=11).map(lambda t: ("text", t)),
    st.builds(lambda d: ("value", float((d - EPOCH).days)), _days),
    st.floats(20000, 80000, allow_nan=False).map(lambda f: ("value", round(f, 3))),
)


def _indian(digits: str) -> str:
    head, tail = digits[:-3], digits[-3:]
    groups = []
    while head:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(groups + [tail])


@st.composite
def _amount_texts(draw):
    n = str(draw(st.integers(0, 10 ** draw(st.integers(1, 15)) - 1)))
    shape = draw(st.sampled_from(["plain", "western", "indian", "misplaced", "negative"]))
    if shape == "western":
        n = f"{int(n):,}"
    elif shape == "indian":
        n = _indian(n)
    elif shape == "misplaced" and len(n) > 1:
        i = draw(st.integers(1, len(n) - 1))
        n = n[:i] + "," + n[i:]
    elif shape == "negative":
        n = "-" + n
    return n + draw(st.sampled_from(["", "", ".5", ".50", ".05", ".125", ".", ".5.5", ",", " "]))


AMOUNTS = st.one_of(
    _amount_texts().map(lambda t: ("text", t)),
    st.text("0123456789,.- ", min_size=1, max_size=12).map(lambda t: ("text", t)),
    st.decimals(-100, 10 ** 7, places=3, allow_nan=False, allow_infinity=False).map(lambda d: ("value", float(d))),
)


@pytest.fixture(scope="module")
def blank(tmp_path_factory):
    from pipeline.outputs.template import write_template

    sample = Path(__file__).parents[2] / "data" / "sample"
    return write_template(sample, tmp_path_factory.mktemp("checks") / "registers_2026-11_P01.xlsx", "P01")


@settings(max_examples=examples(6), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(dates=st.lists(DATES, min_size=30, max_size=60), amounts=st.lists(AMOUNTS, min_size=30, max_size=60))
def test_calc_refuses_a_date_or_an_amount_exactly_when_the_loader_does(calc, blank, dates, amounts):
    cells, expected = [], {}
    for letter, column, col, drawn in (("C", 2, DATE_COL, dates), ("G", 6, MONEY_COL, amounts)):
        for row, d in enumerate(drawn, 2):
            written, read = _as_cell(col, d)
            cells.append([f"{letter}{row}", *written])
            expected[(column, row - 1)] = (d, _loader_takes(col, read))
    marked = calc.marked(blank, cells)
    wrong = [(d, "loader takes it" if takes else "loader refuses it", "Calc marks it" if at in marked else "Calc takes it")
             for at, (d, takes) in expected.items() if takes == (at in marked)]
    assert not wrong, wrong


def test_twin_the_keepers_examples_and_their_near_misses(calc, blank):
    """The issue's own values: day-first text and Indian grouping are taken, their near misses marked."""
    good = [("text", "04-11-2026"), ("text", "4/11/2026"), ("text", "2026-11-04"), ("value", 46330.0),
            ("text", "01-01-1966"), ("text", "31/12/2099")]
    bad = [("text", "31-11-2026"), ("text", "04-11/2026"), ("text", "04.11.2026"), ("value", 46330.5),
           ("text", "31-12-1965"), ("text", "01/01/2100")]
    money_good = [("text", "1,20,000"), ("text", "1,200,000.50"), ("text", "600"), ("value", 1200.5),
                  ("text", "12,34,56,789.05"), ("value", 0.0)]
    money_bad = [("text", "1,2,000"), ("text", "600.125"), ("text", "-600"), ("value", 600.125),
                 ("text", "12,3456,789"), ("value", -1.0), ("text", "-0.50")]
    money_good += [("text", "-0")]          # the loader reads -0 as 0, which its minimum takes
    cells = []
    for letter, col, values in (("C", DATE_COL, good + bad), ("G", MONEY_COL, money_good + money_bad)):
        for row, d in enumerate(values, 2):
            cells.append([f"{letter}{row}", *_as_cell(col, d)[0]])
    marked = calc.marked(blank, cells)
    # marked (counted from 0): the bad dates, C8:C13, and the bad amounts, G9:G15 (after seven good ones)
    assert marked == {(2, r) for r in range(7, 13)} | {(6, r) for r in range(8, 15)}
