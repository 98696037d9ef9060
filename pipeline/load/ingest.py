"""Load a bundle into DuckDB: each file whole, in one transaction, or not at all.

For each file, in the load order of registers.py:
  1. skip it if a file with the same sha256 was loaded before;
  2. read its cells as text (bundle.py) and type them (values.py);
  3. validate the typed rows with the register's GX suite (expectations.py),
     with the ids already in the database as the sets that references must hit;
  4. compare its keys with rows already loaded: an identical row is not added
     twice, a key with different values rejects the file, naming both files;
  5. insert the new rows and a `loads` row in one transaction.
A file with any problem is rejected with every problem listed, and nothing
from it is written.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline.core.errors import Problem
from pipeline.core.progress import QUIET, Progress
from pipeline.core.registers import Register
from pipeline.load.bundle import ROW, Read, Source, find_sources, missing_reference, read_source
from pipeline.load.expectations import known_flag, validator
from pipeline.load.values import parse_problems, typed_select

MAX_LISTED = 200       # problems listed per file; the rest are counted


@dataclass
class FileResult:
    label: str
    register: str
    status: str                      # loaded | no_new_rows | skipped | rejected
    rows: int = 0
    new_rows: int = 0
    problems: list[Problem] = field(default_factory=list)
    more: int = 0                    # problems beyond those listed
    note: str = ""


@dataclass
class IngestResult:
    files: list[FileResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def rejected(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "rejected"]

    @property
    def problems(self) -> list[Problem]:
        return [p for f in self.rejected for p in f.problems]


def ingest(con: duckdb.DuckDBPyConnection, bundle: Path, progress: Progress = QUIET,
           require_reference: bool = True) -> IngestResult:
    sources, notes, broken = find_sources(bundle)
    result = IngestResult(notes=notes)
    for problem in broken:
        result.files.append(FileResult(problem.file, "", "rejected", problems=[problem]))
    for name in missing_reference(sources):
        held = con.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
        if require_reference or held == 0:
            label = f"reference/{name}.csv"
            result.files.append(FileResult(label, name, "rejected", problems=[Problem(
                label, None, None, None,
                "is missing; reference/ must hold local_authorities.csv, officials.csv, pounds.csv, "
                "rates.csv and notifications.csv (or sheets with those names in a workbook)")]))
    for i, src in enumerate(sources, 1):
        progress.step(f"[{i}/{len(sources)}] reading {src.label}")
        res = load_source(con, src, bundle, progress, f"[{i}/{len(sources)}]")
        result.files.append(res)
        if res.status in ("loaded", "no_new_rows"):
            progress.done(f"[{i}/{len(sources)}] {src.label}: {res.new_rows:,} new row(s) of {res.rows:,}")
        elif res.status == "skipped":
            progress.done(f"[{i}/{len(sources)}] {src.label}: skipped, {res.note}")
        else:
            progress.done(f"[{i}/{len(sources)}] {src.label}: REJECTED")
    return result


def load_source(con: duckdb.DuckDBPyConnection, src: Source, bundle: Path,
                progress: Progress = QUIET, tag: str = "") -> FileResult:
    reg = src.register
    read = read_source(src)
    seen = con.execute("SELECT file, loaded_at FROM loads WHERE sha256 = ? ORDER BY load_id LIMIT 1",
                       [read.sha256]).fetchone()
    if seen:
        return FileResult(src.label, reg.name, "skipped",
                          note=f"the same content was loaded from {seen[0]} on {seen[1]:%Y-%m-%d %H:%M}")
    if read.problems:
        return _rejected(src, read.problems, 0)
    raw = "_raw_cells"
    con.register(raw, read.frame)
    try:
        progress.step(f"{tag} checking values in {src.label} ({len(read.frame):,} rows)")
        problems, parse_total = parse_problems(con, reg, raw, src.label, MAX_LISTED)
        unlisted = parse_total - len(problems)
        con.execute(f"CREATE OR REPLACE TEMP TABLE _typed AS {typed_select(reg, raw, read.extra_columns)}")
    finally:
        con.unregister(raw)
    try:
        rows = con.execute("SELECT count(*) FROM _typed").fetchone()[0]
        progress.step(f"{tag} validating {src.label} with its expectation suite ({rows:,} rows)")
        problems += _suite_problems(con, reg, src.label, {(p.row, p.column) for p in problems})
        problems += _conflicts(con, reg, src.label)
        problems += _overlaps(con, reg, src.label)
        if problems:
            return _rejected(src, problems, unlisted)
        progress.step(f"{tag} writing {src.label}")
        return _insert(con, src, read, rows, bundle)
    finally:
        con.execute("DROP TABLE IF EXISTS _typed")


def _rejected(src: Source, problems: list[Problem], unlisted: int) -> FileResult:
    """A rejection listing the first MAX_LISTED problems in row order and counting the rest."""
    listed = sorted(problems, key=lambda p: (p.row or 0, p.column or ""))
    more = max(0, len(listed) - MAX_LISTED) + unlisted
    return FileResult(src.label, src.register.name, "rejected", problems=listed[:MAX_LISTED], more=more)


def _suite_problems(con, reg: Register, label: str, already: set) -> list[Problem]:
    cols = [f't."{c}"' for c in [ROW] + reg.names]
    joins = []
    for i, col in enumerate(c for c in reg.columns if c.refers_to):
        table, tcol = col.refers_to.split(".")
        joins.append(f'LEFT JOIN (SELECT DISTINCT "{tcol}" AS id FROM {table}) k{i} ON k{i}.id = t."{col.name}"')
        cols.append(f'CASE WHEN t."{col.name}" IS NULL THEN NULL ELSE k{i}.id IS NOT NULL END AS "{known_flag(col.name)}"')
    frame = con.execute(f"SELECT {', '.join(cols)} FROM _typed t {' '.join(joins)} ORDER BY t.{ROW}").df()
    found = validator().validate(reg, frame, label)
    # A cell that did not parse is already reported; its NULL would only repeat it.
    return [p for p in found if (p.row, p.column) not in already]


def _conflicts(con, reg: Register, label: str) -> list[Problem]:
    """Keys already loaded (from another file) with different values."""
    on = " AND ".join(f'n."{k}" = o."{k}"' for k in reg.key)
    same = " AND ".join(f'n."{c}" IS NOT DISTINCT FROM o."{c}"' for c in reg.names)
    diffs = ", ".join(
        f"""CASE WHEN n."{c}" IS DISTINCT FROM o."{c}" THEN '{c}' END""" for c in reg.names)
    rows = con.execute(f"""
        SELECT n._row, o._file, o._row, list_filter([{diffs}], lambda x: x IS NOT NULL),
               {", ".join(f'CAST(n."{k}" AS VARCHAR)' for k in reg.key)}
        FROM _typed n JOIN {reg.table} o ON {on}
        WHERE NOT ({same})
        ORDER BY n._row LIMIT {MAX_LISTED}""").fetchall()
    out = []
    keyname = " + ".join(reg.key)
    for r in rows:
        row, ofile, orow, cols = r[0], r[1], r[2], r[3]
        key = " / ".join(str(v) for v in r[4:])
        out.append(Problem(label, row, keyname, key,
                           f"was already loaded from {ofile} (row {orow}) with different values in "
                           f"{', '.join(cols)}; a {keyname} must mean one thing. Correct one of the two files"))
    return out


def _overlaps(con, reg: Register, label: str) -> list[Problem]:
    """Rate and notification rows whose periods overlap: a day would have two answers."""
    if "no_overlap" not in reg.extra_checks:
        return []
    group = [k for k in reg.key if k != "effective_from"]
    cols = ", ".join(f'"{c}"' for c in reg.names)
    # taluks are matched ignoring case when rates are looked up, so they are compared so here
    same_group = " AND ".join(f'lower(a."{k}") = lower(b."{k}")' for k in group)
    identical = " AND ".join(f'a."{c}" IS NOT DISTINCT FROM b."{c}"' for c in reg.names)
    overlap = ("a.effective_from <= coalesce(b.effective_to, DATE '9999-12-31') "
               "AND b.effective_from <= coalesce(a.effective_to, DATE '9999-12-31')")
    rows = con.execute(f"""
        WITH others AS (
            SELECT {cols}, _file, _row, false AS in_file FROM {reg.table}
            UNION ALL SELECT {cols}, NULL, _row, true FROM _typed)
        SELECT a._row, b._file, b._row, a.effective_from, a.effective_to, b.effective_from, b.effective_to,
               {", ".join(f'a."{k}"' for k in group)}
        FROM _typed a JOIN others b ON {same_group} AND {overlap}
        WHERE NOT ({identical}) AND (NOT b.in_file OR b._row < a._row)
        ORDER BY a._row, b._row LIMIT {MAX_LISTED}""").fetchall()
    out = []
    for row, ofile, orow, af, at, bf, bt, *grp in rows:
        where = f"row {orow}" if ofile is None else f"{ofile} row {orow}"
        out.append(Problem(label, row, "effective_from", str(af),
                           f"(in force {af} to {at or 'open'}) overlaps {where} (in force {bf} to {bt or 'open'}) for "
                           + " / ".join(str(g) for g in grp)
                           + "; a day would have two rows in force. End the earlier row the day before the later one starts"))
    return out


def _insert(con, src: Source, read: Read, rows: int, bundle: Path) -> FileResult:
    reg = src.register
    cols = ", ".join(f'"{c}"' for c in reg.names)
    on = " AND ".join(f'n."{k}" = o."{k}"' for k in reg.key)
    con.execute("BEGIN TRANSACTION")
    try:
        load_id = con.execute("SELECT coalesce(max(load_id), 0) + 1 FROM loads").fetchone()[0]
        new_rows = con.execute(f"""
            INSERT INTO {reg.table} ({cols}, _extra, _file, _row, _load_id)
            SELECT {cols}, _extra, ?, _row, ? FROM _typed n
            WHERE NOT EXISTS (SELECT 1 FROM {reg.table} o WHERE {on})""",
                               [src.label, load_id]).fetchone()[0]
        status = "loaded" if new_rows or rows == 0 else "no_new_rows"
        con.execute("INSERT INTO loads VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [load_id, src.label, reg.name, read.sha256, rows, new_rows,
                     dt.datetime.now().replace(microsecond=0), status, str(bundle)])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return FileResult(src.label, reg.name, status, rows, new_rows)

