"""The text cells of one file as a DuckDB table, the start of everything ingest.py checks.

`load` puts the cells of a read (bundle.py) into the temporary table CELLS: `_row` (the
spreadsheet row), the register's columns (blank where the file leaves an optional one out),
then the file's extra columns, all text. A plain CSV file is read by DuckDB's own CSV reader,
straight from the file, strictly: a row of another width, a stray quote or a cell longer than
Python's csv module reads makes it fail, and the file is then read in Python as before
(bundle.py), which names the row at fault in the words it always has. A sheet, or a CSV file
that is not plain, arrives as a pandas frame and is copied in.
"""

from __future__ import annotations

import csv

import duckdb

from pipeline.load.bundle import ROW, Read, read_source

CELLS = "_raw_cells"
_TEXT = "_raw_text"


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def load(con: duckdb.DuckDBPyConnection, read: Read) -> None:
    """CELLS for `read` (unless it holds them already); when DuckDB cannot read a plain CSV file as
    it is, `read` takes the frame, or the problems, of reading it in Python (and CELLS is not made
    when there are problems)."""
    if read.in_db or read.problems:
        return
    drop(con)
    if read.header is not None:
        try:
            _from_csv(con, read)
            read.in_db = True
            return
        except (duckdb.InvalidInputException, _TooLong):
            drop(con)
            again = read_source(read.source, in_python=True)
            read.frame, read.problems, read.extra_columns, read.header = again.frame, again.problems, again.extra_columns, None
            if read.problems:
                return
    _from_frame(con, read)
    read.in_db = True


def drop(con: duckdb.DuckDBPyConnection, read: Read | None = None) -> None:
    con.execute(f"DROP VIEW IF EXISTS {CELLS}")
    con.execute(f"DROP TABLE IF EXISTS {_TEXT}")
    if read is not None:
        read.in_db = False


def count(con: duckdb.DuckDBPyConnection) -> int:
    return con.execute(f"SELECT count(*) FROM {CELLS}").fetchone()[0]


def values(con: duckdb.DuckDBPyConnection, column: str) -> list[str]:
    """The text of one column of CELLS, in row order."""
    return [v for (v,) in con.execute(f"SELECT {_q(column)} FROM {CELLS} ORDER BY {ROW}").fetchall()]


class _TooLong(Exception):
    """A cell longer than Python's csv module reads: the Python read words it."""


def _from_csv(con: duckdb.DuckDBPyConnection, read: Read) -> None:
    names = read.header
    assert names is not None
    # A fresh table keeps the file's order (preserve_insertion_order), so rowid 0 is row 2.
    con.execute(f"CREATE TEMP TABLE {_TEXT} AS SELECT * FROM {_read_csv(read)}")
    limit = csv.field_size_limit()
    longest = " OR ".join(f"strlen(c{i}) > {limit}" for i in range(len(names)))
    if con.execute(f"SELECT bool_or({longest}) FROM {_TEXT}").fetchone()[0]:
        raise _TooLong()
    at = {n: i for i, n in enumerate(names)}
    cols = [f"CAST(rowid + 2 AS BIGINT) AS {_q(ROW)}"]
    for name in read.source.register.names + read.extra_columns:
        cols.append(f"coalesce(c{at[name]}, '') AS {_q(name)}" if name in at else f"'' AS {_q(name)}")
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
    DuckDB cannot read the file as it is (it is then read in Python)."""
    names = read.header
    assert names is not None
    if "void" not in names:
        return []
    at = {n: i for i, n in enumerate(names)}
    limit = csv.field_size_limit()
    longest = " OR ".join(f"strlen(c{i}) > {limit}" for i in range(len(names)))
    wanted = ", ".join(f"coalesce(c{at[k]}, '')" if k in at else "''" for k in [*key, "void"])
    try:
        rows = con.execute(f"SELECT {longest}, {wanted} FROM {_read_csv(read)} "
                           f"WHERE regexp_matches(c{at['void']}, '[yYtT1]') OR {longest}").fetchall()
    except duckdb.InvalidInputException:
        return None
    if any(r[0] for r in rows):
        return None
    return [tuple(r[1:]) for r in rows]


def _read_csv(read: Read) -> str:
    names = read.header
    assert names is not None
    columns = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(names))) + "}"
    return (f"read_csv({_literal(str(read.source.path))}, columns = {columns}, header = true, auto_detect = false, "
            f"delim = ',', quote = '\"', escape = '\"', strict_mode = true, null_padding = false, "
            f"ignore_errors = false, encoding = 'utf-8', parallel = true)")
