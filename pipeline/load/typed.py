"""Insert rows that are already typed into a register table, as a loaded file would leave them.

For code that makes register rows itself (pound synth, tests) rather than reading them
from a file: there is no text to parse and no suite is run (the caller vouches for the
rows), but the table ends up as ingest.py would leave it. Ids and text are trimmed and a
blank one is NULL, listed values are in lower case, a blank flag is false, every row
has `_file` (the label given), `_row` (the frame's own `_row` column when it has one, else
numbered as a spreadsheet would: the first row is 2), `_load_id` and `_extra` (NULL), and
the rows get one `loads` row.

What a frame may hold in a column of each kind:
  date                   a date or datetime, or an integer number of days since 1970-01-01
  money, count           integers (money in paise); a float column is refused, never rounded
  flag                   booleans
  id, text, enum, time   text
Missing values (None, NaN, NA) are blank, and so is the integer `blank` (synth uses -1) in
date, money and count columns. A declared column the frame lacks is blank in every row. A
frame column the register does not declare is an error, unless its name starts with '_'
(the caller's own working columns, which are left out).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:
    import pandas as pd

from pipeline.core.registers import BY_NAME, COUNT, DATE, ENUM, FLAG, MONEY, Column
from pipeline.load.digests import of_load
from pipeline.load.schema import LOADS_COLUMNS

_ORDER = "__order"
_INTEGER = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _expr(col: Column, kind: str | None, blank: int | None) -> str:
    """SQL turning the frame's column (of DuckDB type `kind`; None when absent) into the stored value."""
    if kind is None:
        return "false" if col.kind == FLAG else "NULL"
    x = _q(col.name)
    if col.kind in (DATE, MONEY, COUNT) and (kind.startswith(("DOUBLE", "FLOAT", "DECIMAL")) or kind == "REAL"):
        raise ValueError(f"column {col.name} holds {kind} values; dates, money and counts must be integers or dates")
    is_blank = f"{x} IS NULL" + (f" OR {x} = {int(blank)}" if blank is not None and kind in _INTEGER else "")
    if col.kind == DATE:
        if kind in _INTEGER:
            return f"CASE WHEN {is_blank} THEN NULL ELSE DATE '1970-01-01' + CAST({x} AS INTEGER) END"
        if kind == "VARCHAR":
            return f"TRY_CAST(NULLIF(trim({x}), '') AS DATE)"
        return f"CAST({x} AS DATE)"
    if col.kind in (MONEY, COUNT):
        return f"CASE WHEN {is_blank} THEN NULL ELSE CAST({x} AS BIGINT) END"
    if col.kind == FLAG:
        return f"coalesce(CAST({x} AS BOOLEAN), false)"
    text = f"NULLIF(trim(CAST({x} AS VARCHAR)), '')"
    if col.kind == ENUM:
        return f"{'upper' if col.values and all(v == v.upper() for v in col.values) else 'lower'}({text})"
    return text


def insert_typed(con: duckdb.DuckDBPyConnection, register: str, frame: pd.DataFrame, label: str,
                 blank: int | None = None) -> int:
    """Append the rows of `frame` to the register's table under the file label `label`, with
    their `loads` row, in one transaction. Returns the number of rows inserted."""
    reg = BY_NAME[register]
    unknown = [str(c) for c in frame.columns if c not in reg.names and not str(c).startswith("_")]
    if unknown:
        raise ValueError(f"register {register} has no column {', '.join(unknown)}")
    data = frame[[c for c in reg.names if c in frame.columns]].reset_index(drop=True)
    data.insert(0, _ORDER, frame["_row"].to_numpy() if "_row" in frame.columns else range(2, len(data) + 2))
    view = f"_typed_rows_{register}"
    con.register(view, data)
    try:
        kinds = {name: kind for name, kind, *_ in con.execute(f"DESCRIBE SELECT * FROM {view}").fetchall()}
        # a column the frame leaves out is blank, or the column it stands in for (Column.absent_as)
        values = ", ".join(f"{_expr(c, kinds.get(c.name), blank)} AS {_q(c.name)}"
                           if c.name in kinds or c.absent_as not in kinds
                           else f"{_expr(reg.column(c.absent_as), kinds[c.absent_as], blank)} AS {_q(c.name)}"
                           for c in reg.columns)
        cols = ", ".join(_q(c) for c in reg.names)
        # a digest of the rows (each row's hash, with its place, summed), as `loads` keeps one per file
        every = ", ".join(_q(c) for c in data.columns)
        digest = con.execute(f"SELECT sha256(CAST(coalesce(sum(hash({every})), 0) AS VARCHAR)) FROM {view}").fetchone()[0]
        con.execute("BEGIN TRANSACTION")
        try:
            load_id = con.execute("SELECT coalesce(max(load_id), 0) + 1 FROM loads").fetchone()[0]
            # a key already held gets the next version (the rows are taken as corrections of it);
            # into an empty table (most of synth's and the tests' inserts) every row is version 1
            held = " AND ".join(f'o.{_q(k)} = n.{_q(k)}' for k in reg.key)
            empty = not con.execute(f"SELECT EXISTS (SELECT 1 FROM {reg.table})").fetchone()[0]
            version = "1" if empty else (f"1 + coalesce((SELECT max(o._version) FROM {reg.table} o "
                                         f"WHERE {held}), 0)")
            con.execute(f"INSERT INTO {reg.table} ({cols}, _extra, _file, _row, _load_id, _version) "
                        f"SELECT {cols}, NULL, ?, {_ORDER}, ?, {version} FROM (SELECT {values}, {_ORDER} "
                        f"FROM {view}) n ORDER BY {_ORDER}", [label, load_id])
            con.execute(f"INSERT INTO loads ({LOADS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?)",
                        [load_id, label, reg.name, digest, len(data), len(data),
                         dt.datetime.now().replace(microsecond=0), "loaded", of_load(con, reg, load_id)])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    finally:
        con.unregister(view)
    return len(data)
