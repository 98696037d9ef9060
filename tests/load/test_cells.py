"""DuckDB reads a plain CSV file (cells.py) exactly as Python's csv module and pandas read it
(bundle.py, the reader of every other file): the same cells on the same spreadsheet rows, or, when
DuckDB cannot read a file as it is, the same problems, worded by the Python read."""

from __future__ import annotations

import datetime as dt

import duckdb
import pandas as pd
import pytest
from examples import examples
from helpers import empty_cursor
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.core.registers import BY_NAME
from pipeline.load import cells
from pipeline.load.bundle import Source, read_source
from pipeline.load.order import plan_voids
from pipeline.load.values import TRUE_WORDS

REG = BY_NAME["security_deposits"]          # a register others refer to, with a void column
CELL = st.one_of(st.sampled_from(["", "D1", "D2", "C1", "yes", " Yes ", "no", "1", "2026-10-01", "600.50", " ", '""',
                                  "1/10/2026", "2026-1-5", "1,200.50", "31-02-2026",
                                  '"a,b"', '"x\ny"', '"x\r\ny"', '"say ""hi"""', 'a"b', '"a" ', ' "a"', '"a"b', '"open',
                                  "é", "\t", "x" * 131073, "\x00", "\r", "\u00a0x", "x\u3000", "a\u2003b"]),
                 st.text(alphabet='ab ,"\n\r1é', max_size=6))
ROW = st.lists(CELL, min_size=0, max_size=len(REG.names) + 2)
END = st.sampled_from(["\n", "\r\n"])


@st.composite
def csv_files(draw) -> bytes:
    names = list(REG.names)
    if draw(st.booleans()):
        names.append("ward_no")                      # an extra column
    head = ",".join(names)
    end = draw(END)
    rows = []
    for _ in range(draw(st.integers(0, 9))):
        kind = draw(st.sampled_from(["full", "full", "full", "ragged", "blank"]))
        if kind == "blank":
            rows.append("")
        else:
            cells_ = draw(ROW)
            if kind == "full":
                cells_ = (cells_ + [""] * len(names))[:len(names)]
            rows.append(",".join(cells_))
    text = head + end + end.join(rows) + (end if draw(st.booleans()) else "")
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8")


def _kept(rows) -> list[tuple]:
    """The rows with a cell that is not blank (values.py drops the others: blank lines at the end
    of a file are rows to pandas, and nothing to DuckDB)."""
    return [tuple(r) for r in rows if any(c.strip(" ") for c in r[1:])]


def _cells_of(read, con) -> list:
    cells.load(con, read)
    if read.problems:
        return [p.render() for p in read.problems]
    return _kept(con.execute(f"SELECT * FROM {cells.CELLS} ORDER BY _row").fetchall())


def _frame_of(read) -> list:
    if read.problems:
        return [p.render() for p in read.problems]
    return _kept(read.frame.itertuples(index=False))


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=csv_files())
# DuckDB's strict read drops empty cells beyond the last column (quoted or not) without a word,
# and its padded read drops a last row whose quote is never closed
@example(data=b"deposit_id,case_id,owner_id,deposited_on,amount,refund_applied_on,refunded_on,refunded_amount,forfeited_on,forfeited_amount,correction_note,void\n,,,,,,,,,,,\n,,,,,,,,,,,,")
@example(data=b'deposit_id,case_id,owner_id,deposited_on,amount,refund_applied_on,refunded_on,refunded_amount,forfeited_on,forfeited_amount,correction_note,void\nD1,,,,,,,,,,,no,""\n')
@example(data=b'deposit_id,case_id,owner_id,deposited_on,amount,refund_applied_on,refunded_on,refunded_amount,forfeited_on,forfeited_amount,correction_note,void\nD1,,,,,,,,,,"a\nb",no,\n')
@example(data=b'deposit_id,case_id,owner_id,deposited_on,amount,refund_applied_on,refunded_on,refunded_amount,forfeited_on,forfeited_amount,correction_note,void\nD1,,,,,,,,,,,"no\n')
def test_duckdb_reads_a_file_as_python_does_or_leaves_it_to_python(tmp_path, data):
    path = tmp_path / "registers" / "security_deposits.csv"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    src = Source(REG, path, "registers/security_deposits.csv")
    python = read_source(src, in_python=True)
    read = read_source(src)
    con = empty_cursor()
    assert _cells_of(read, con) == _frame_of(python)
    assert read.sha256 == python.sha256 and read.extra_columns == python.extra_columns

    # typed straight from the file, the rows are those typed from the Python read's frame
    fast, slow = read_source(src), read_source(src, in_python=True)
    cells.type_rows(con, fast)
    other = empty_cursor()
    cells.type_rows(other, slow)
    assert [p.render() for p in fast.problems] == [p.render() for p in slow.problems]
    if not fast.problems:
        typed = f"SELECT * FROM {cells.TYPED} ORDER BY _row"
        assert con.execute(typed).fetchall() == other.execute(typed).fetchall()
    cells.drop_typed(con)

    # the keys the file strikes out, planned before anything is loaded, are those of the Python read
    _, voids = plan_voids(con, [src])
    want = set()
    if not python.problems:
        f = python.frame
        struck = f[f["void"].astype(str).str.strip().str.lower().isin(TRUE_WORDS)]
        want = {(src.label, (str(k).strip(),)) for k in struck["deposit_id"]}
    assert voids.planned.get(REG.name, set()) == want


@pytest.mark.parametrize("day", ["2026-10-01", "01/10/2026", "1/10/2026", "2026-10-1"])
def test_a_date_of_a_plain_shape_or_not_is_typed_alike(tmp_path, day):
    """A date of a plain shape is typed by a short cut, one of no plain shape (1/10/2026) by the
    general expression, which types it as the short cut types 2026-10-01."""
    path = tmp_path / "security_deposits.csv"
    blank = "," * (len(REG.names) - 5)
    empty = "," * (len(REG.names) - 1)
    path.write_text(",".join(REG.names) + f"\nD1,C1,O1,2026-10-01,600{blank}\n{empty}\nD2,C2,O1,{day},600{blank}\n",
                    encoding="utf-8")
    read = read_source(Source(REG, path, "security_deposits.csv"))
    con = duckdb.connect()
    assert cells.type_rows(con, read) == cells.Typed(records=3, rows=2, unparsed=False, voids=False)
    assert read.in_db is False and read.problems == []
    got = con.execute(f"SELECT deposit_id, deposited_on, _unparsed FROM {cells.TYPED} ORDER BY _row").fetchall()
    assert got == [("D1", dt.date(2026, 10, 1), False), ("D2", dt.date(2026, 10, 1), False)]
    # a date that is no date at all is unparsed either way
    path.write_text(path.read_text(encoding="utf-8").replace(day, "1/13/2026"), encoding="utf-8")
    assert cells.type_rows(con, read_source(Source(REG, path, "security_deposits.csv"))).unparsed


def test_a_plain_file_is_read_by_duckdb_and_keeps_its_spreadsheet_rows(tmp_path):
    path = tmp_path / "security_deposits.csv"
    blank = "," * (len(REG.names) - 5)
    body = "".join(f"D{i},C{i},O1,2026-10-01,600{blank}\n" for i in range(30000))
    path.write_text(",".join(REG.names) + "\n" + body, encoding="utf-8")
    read = read_source(Source(REG, path, "security_deposits.csv"))
    assert read.plain is not None and read.frame is None            # left for DuckDB
    con = duckdb.connect()
    cells.load(con, read)
    got = con.execute(f"SELECT _row, deposit_id FROM {cells.CELLS} ORDER BY _row").df()
    assert got.equals(pd.DataFrame({"_row": range(2, 30002), "deposit_id": [f"D{i}" for i in range(30000)]}).astype(got.dtypes))


_BYTES = st.sampled_from([b"a", b"1", b",", b"\n", b"\r\n", b"\r", b" ", b'"', b"\xc2\xa0", b"\xe2\x80\x89", b"\xe2",
                          b"\xc3\xa9", b"\xe0\xb2\x95", b"\x00", b"\n\n"])


@settings(max_examples=examples(400), deadline=None, derandomize=True)
@given(parts=st.lists(_BYTES, max_size=40))
@example(parts=[b" ", b"a"]).via("a space at the start of the file")
@example(parts=[b"a", b",", b"\xc2\xa0", b"b", b"\n"]).via("a no-break space beside a comma")
@example(parts=[b"a", b" ", b"\r\n", b"b"]).via("a space before CRLF")
def test_small_and_large_files_are_scanned_alike(parts):
    """plaincsv.py reads a small file with Python's bytes methods and a large one with numpy: the
    two tell the same of every file (plain or not, its commas, lines, longest line and spaces)."""
    from pipeline.load.plaincsv import plain_csv

    data = b"".join(parts)
    small, large = plain_csv(data, ["x"], numpy_from=len(data) + 1), plain_csv(data, ["x"], numpy_from=0)
    assert small == large, data
