"""The cells of one file in DuckDB, as text and typed: the start of everything ingest.py checks.

`type_rows` makes the view TYPED: the file's rows typed (values.py), with `_row`, the spreadsheet
row, and `_unparsed`, whether a cell of the row did not parse; wholly blank rows are left out.
A plain CSV file (bundle.py) is read by DuckDB's own CSV reader, strictly, and typed as it is
read, straight from the file. It is read in Python as before instead (bundle.py), which names the
row at fault in the words it always has, when DuckDB's read fails (a row short of cells, a quote
never closed), when a cell is longer than Python's csv module reads, or when a row has more cells
than the header names (DuckDB's strict read fails on that too, but for empty cells beyond the last
column, which it drops without a word: `_whole_rows` finds those).

`load` puts the text of the cells into the view CELLS: `_row`, the register's columns (blank
where the file leaves an optional one out), then the file's extra columns. The loader needs it
only to word the cells that did not parse and for the keys of a rejected file; a sheet, or a CSV
file that is not plain, arrives as a pandas frame and is typed from CELLS.
"""

from __future__ import annotations

import csv
from typing import NamedTuple

import duckdb

from pipeline.load.bundle import ROW, Read, read_source
from pipeline.load.values import typed_select

CELLS = "_raw_cells"
_TEXT = "_raw_text"
TYPED = "_typed"
_ALL = "_typed_all"          # every record typed, blank ones too; TYPED reads it
TYPED_ALL = _ALL             # a row marked _blank here is passed over (ingest: a blank decision)


class Typed(NamedTuple):
    """What TYPED holds: `records` of the file (blank ones too), `rows` (not blank), whether a
    cell of a row did not parse, and whether a row strikes out its key (void)."""
    records: int
    rows: int
    unparsed: bool
    voids: bool = False


def _counts(read: Read) -> str:
    """SQL of what type_rows counts as it types (Typed)."""
    void = "bool_or(void AND NOT _blank)" if "void" in read.source.register.names else "false"
    return (f"count(*), count(*) FILTER (WHERE NOT _blank), coalesce(bool_or(_unparsed AND NOT _blank), false), "
            f"coalesce({void}, false)")


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class _NotAsIs(Exception):
    """DuckDB's read of a plain CSV file is not the Python read: the Python read is taken."""


def _in_duckdb(con: duckdb.DuckDBPyConnection, read: Read, attempt, undo) -> bool:
    """`attempt(con, read)` with DuckDB's reader; True when it read the file as it is. When it
    cannot, `undo(con)` removes what it made and `read` takes the frame, or the problems, of
    reading the file in Python."""
    try:
        attempt(con, read)
        return True
    except (duckdb.Error, _NotAsIs) as exc:
        if isinstance(exc, duckdb.InterruptException):
            raise
        undo(con)
        _in_python(read)
        return False


def load(con: duckdb.DuckDBPyConnection, read: Read) -> None:
    """CELLS for `read` (unless it holds them already); when DuckDB cannot read a plain CSV file as
    it is, `read` takes the frame, or the problems, of reading it in Python (and CELLS is not made
    when there are problems)."""
    if read.in_db or read.problems:
        return
    drop(con)
    if read.plain is not None:
        if _in_duckdb(con, read, _from_csv, drop):
            read.in_db = True
            return
        if read.problems:
            return
    _from_frame(con, read)
    read.in_db = True


def type_rows(con: duckdb.DuckDBPyConnection, read: Read) -> Typed | None:
    """TYPED for `read`, and what it holds; when DuckDB cannot read a plain CSV file as it is, `read`
    takes the frame, or the problems, of reading it in Python (and TYPED is not made, and None
    returned, when there are problems)."""
    drop_typed(con)
    if read.problems:
        return None
    reg = read.source.register
    if read.plain is not None and not read.in_db:
        counts: list[Typed] = []
        if _in_duckdb(con, read, lambda c, r: counts.append(_typed_from_csv(c, r)), drop_typed):
            return counts[0]
        if read.problems:
            return None
    load(con, read)
    if read.problems:
        return None
    con.execute(f"CREATE TEMP TABLE {_ALL} AS "
                f"{typed_select(reg, CELLS, read.extra_columns, unparsed=True, blank_rows=True)}")
    con.execute(f"CREATE TEMP VIEW {TYPED} AS SELECT * EXCLUDE (_blank) FROM {_ALL} WHERE NOT _blank")
    return Typed(*con.execute(f"SELECT {_counts(read)} FROM {_ALL}").fetchone())


def _typed_from_csv(con: duckdb.DuckDBPyConnection, read: Read) -> Typed:
    """The file typed in DuckDB, in one pass (values.typed_expr takes short cuts for cells of
    plain shapes, 2026-10-01, 600.50, and the general expressions for the rest)."""
    assert read.plain is not None
    cols = [f"NULL AS {_q(ROW)}", f"{_too_long(read)} AS _long"]
    cols += [f"{cell} AS {_q(name)}" for name, cell in _cells_of(read, read.source.register.names + read.extra_columns)]
    raw = f"(SELECT {', '.join(cols)} FROM {_read_csv(read)})"
    sql = typed_select(read.source.register, raw, read.extra_columns, unparsed=True, blank_rows=True, passed=("_long",))
    # A fresh table keeps the file's order (preserve_insertion_order), so rowid 0 is row 2.
    con.execute(f"CREATE OR REPLACE TEMP TABLE {_ALL} AS {sql}")
    too_long, *counts = con.execute(f"SELECT bool_or(_long), {_counts(read)} FROM {_ALL}").fetchone()
    typed = Typed(*counts)
    if too_long or not _whole_rows(con, read, typed.records):
        raise _NotAsIs()
    _typed_view(con)
    return typed


def _typed_view(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"CREATE TEMP VIEW {TYPED} AS SELECT CAST(rowid + 2 AS BIGINT) AS {_q(ROW)}, "
                f"* EXCLUDE ({_q(ROW)}, _long, _blank) FROM {_ALL} WHERE NOT _blank")


def drop_typed(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"DROP VIEW IF EXISTS {TYPED}")
    con.execute(f"DROP TABLE IF EXISTS {_ALL}")


def _in_python(read: Read) -> None:
    again = read_source(read.source, in_python=True)
    read.frame, read.problems, read.extra_columns, read.plain = again.frame, again.problems, again.extra_columns, None


def drop(con: duckdb.DuckDBPyConnection, read: Read | None = None) -> None:
    """Drop CELLS; given a read whose cells were never loaded, there is nothing to drop (whatever
    makes CELLS drops it first)."""
    if read is not None and not read.in_db:
        return
    con.execute(f"DROP VIEW IF EXISTS {CELLS}")
    con.execute(f"DROP TABLE IF EXISTS {_TEXT}")
    if read is not None:
        read.in_db = False


def values(con: duckdb.DuckDBPyConnection, column: str) -> list[str]:
    """The text of one column of CELLS, in row order."""
    return [v for (v,) in con.execute(f"SELECT {_q(column)} FROM {CELLS} ORDER BY {ROW}").fetchall()]


def _from_csv(con: duckdb.DuckDBPyConnection, read: Read) -> None:
    assert read.plain is not None
    # A fresh table keeps the file's order (preserve_insertion_order), so rowid 0 is row 2.
    con.execute(f"CREATE TEMP TABLE {_TEXT} AS SELECT * FROM {_read_csv(read)}")
    rows, too_long = con.execute(f"SELECT count(*), bool_or({_too_long(read)}) FROM {_TEXT}").fetchone()
    if too_long or not _whole_rows(con, read, rows):
        raise _NotAsIs()
    cols = [f"CAST(rowid + 2 AS BIGINT) AS {_q(ROW)}"]
    cols += [f"{cell} AS {_q(name)}" for name, cell in _cells_of(read, read.source.register.names + read.extra_columns)]
    con.execute(f"CREATE TEMP VIEW {CELLS} AS SELECT {', '.join(cols)} FROM {_TEXT}")


def _from_frame(con: duckdb.DuckDBPyConnection, read: Read) -> None:
    view = "_raw_frame"
    con.register(view, read.frame)
    try:
        con.execute(f"CREATE TEMP TABLE {_TEXT} AS SELECT * FROM {view}")
    finally:
        con.unregister(view)
    con.execute(f"CREATE TEMP VIEW {CELLS} AS SELECT * FROM {_TEXT}")


def struck_rows(con: duckdb.DuckDBPyConnection, read: Read, key: list[str]) -> list[tuple[str, ...]] | None:
    """(key cells..., void cell) of the rows of a plain CSV file whose void cell may say yes, read
    straight from the file before anything is loaded (the caller decides which do); None when
    DuckDB's read of the file is not the Python read (it is then read in Python)."""
    assert read.plain is not None
    names = read.plain.names
    if "void" not in names:
        return []
    wanted = ", ".join(cell for _, cell in _cells_of(read, [*key, "void"]))
    maybe = f"regexp_matches(c{names.index('void')}, '[yYtT1]')"
    try:
        rows, too_long, found = con.execute(
            f"SELECT count(*), bool_or({_too_long(read)}), list([{wanted}]) FILTER (WHERE {maybe}) "
            f"FROM {_read_csv(read)}").fetchone()
        if too_long or not _whole_rows(con, read, rows):
            return None
    except duckdb.Error as exc:
        if isinstance(exc, duckdb.InterruptException):
            raise
        return None
    return [tuple(r) for r in found or []]


def _cells_of(read: Read, wanted: list[str]) -> list[tuple[str, str]]:
    """(name, SQL for its text) of each wanted column of a plain CSV file read by _read_csv: the
    cell, blank where it is empty or the file has no such column."""
    assert read.plain is not None
    at = {n: i for i, n in enumerate(read.plain.names)}
    stand_in = {c.name: c.absent_as for c in read.source.register.columns if c.absent_as}
    # a column left out is blank, or the cell of the column it stands in for (Column.absent_as)
    return [(name, f"coalesce(c{at[name]}, '')" if name in at
             else f"coalesce(c{at[stand_in[name]]}, '')" if stand_in.get(name) in at else "''") for name in wanted]


def _too_long(read: Read) -> str:
    """SQL: a cell of the row may be longer than Python's csv module reads (bytes, not letters);
    false when no line of the file is that long (plaincsv.py)."""
    assert read.plain is not None
    if read.plain.longest <= csv.field_size_limit():
        return "false"
    return " OR ".join(f"strlen(c{i}) > {csv.field_size_limit()}" for i in range(len(read.plain.names)))


def _whole_rows(con: duckdb.DuckDBPyConnection, read: Read, rows: int) -> bool:
    """Whether no record of the file has cells beyond the header's last column (DuckDB's strict read
    fails on any such record but one whose extra cells are empty, which it reads without them)."""
    assert read.plain is not None
    width = len(read.plain.names)
    if not read.plain.quoted:
        # every record is one line (and every line a record, none blank but at the end: DuckDB
        # skips a blank line), none has fewer commas than width - 1 (the read would have failed),
        # so none has more when the file's commas add up to that for each
        return read.plain.lines == rows + 1 and read.plain.commas == (width - 1) * (rows + 1)
    # a quote may hide commas and line ends: read again with one column more, padded with NULL
    # (which no cell can be: a plain file holds no NUL), so that a row reaching it fills it
    return not con.execute(f"SELECT bool_or(c{width} IS NOT NULL) FROM {_read_csv(read, one_more=True)}").fetchone()[0]


def _read_csv(read: Read, one_more: bool = False) -> str:
    assert read.plain is not None
    width = len(read.plain.names) + one_more
    columns = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(width)) + "}"
    # DuckDB reads padded rows in parallel only without quoted line ends; the padded read is of a file with quotes
    padded = "null_padding = true, nullstr = chr(0), parallel = false" if one_more else "null_padding = false, parallel = true"
    return (f"read_csv({_literal(str(read.source.path))}, columns = {columns}, header = true, auto_detect = false, "
            f"delim = ',', quote = '\"', escape = '\"', strict_mode = true, {padded}, ignore_errors = false, "
            f"encoding = 'utf-8')")
