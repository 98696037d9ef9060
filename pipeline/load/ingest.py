"""Load a bundle into DuckDB: each file whole, in one transaction, or not at all.

For each file, in the load order of registers.py:
  1. skip it if a file with the same sha256 was loaded before;
  2. read its cells as text (bundle.py) and type them (values.py);
  3. validate the typed rows with the register's GX suite (expectations.py),
     with the ids already in the database as the sets that references must hit;
  4. compare its keys with the rows already held (versions.py): an identical row
     is not added twice; a key with other values is a new version when the row
     has a correction note, else it rejects the file naming both files; a row
     struck out (void) may not leave rows of other registers referring to it;
  5. insert the new rows and versions and a `loads` row in one transaction.
A file with any problem is rejected with every problem listed, and nothing
from it is written.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import duckdb

from pipeline.core.errors import InputRejected, Problem
from pipeline.core.progress import QUIET, Progress
from pipeline.core.registers import Register
from pipeline.load import cells, checks, decisions, digests, schema, versions
from pipeline.load.bundle import Read, Source, find_sources, missing_reference, read_source
from pipeline.load.order import corrections_last, plan_voids, voids_last
from pipeline.load.refused import Refused
from pipeline.load.results import FileResult, IngestResult
from pipeline.load.values import parse_problems

MAX_LISTED = 200       # problems listed per file; the rest are counted


def ingest(con: duckdb.DuckDBPyConnection, bundle: Path, progress: Progress = QUIET,
           require_reference: bool = True, as_of: dt.date | None = None, origin: Path | None = None,
           home: Path | None = None) -> IngestResult:
    """Load every file of a bundle. `as_of`: the date the accounts will be drawn up to (kept for the
    callers; a decision is checked against the day it is loaded, not against it). `origin`: what
    the loads table names as the bundle when `bundle` is a zip's unpacked copy. `home`: the folder
    the database is kept in, which loads.bundle_at is written relative to (schema.bundle_place)."""
    sources, notes, broken = find_sources(bundle)
    bundle_as_of = _bundle_as_of(bundle)
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
    sources = corrections_last(sources)
    reads, voids = plan_voids(con, sources)
    sources = voids_last(sources, voids)
    _load_all(con, sources, reads, voids, result, progress, origin or bundle, as_of, bundle_as_of, home)
    result.warnings += sealed_and_changed(con, bundle, result)
    return result


def sealed_and_changed(con: duckdb.DuckDBPyConnection, bundle: Path, result: IngestResult) -> list[str]:
    """A line for each file loaded now that a close of the bundle sealed with other content: an
    input of a closed month edited since; its changes show as adjustments to that month."""
    from pipeline.load.closes import every_close

    loaded = {f.label for f in result.files if f.status in ("loaded", "no_new_rows")}
    if not loaded:
        return []
    try:
        closes = every_close([Path(bundle)])
    except Exception:                    # a close that cannot be read is the build's to say
        return []
    out = []
    for folder, c in closes:
        for f in c.get("inputs", []):
            if f["file"] in loaded:
                now = con.execute("SELECT sha256 FROM loads WHERE file = ? ORDER BY load_id DESC LIMIT 1",
                                  [f["file"]]).fetchone()
                if now and now[0] != f["sha256"]:
                    out.append(f"{f['file']} was sealed by the close of {c['month']} ({folder.parent.name}/"
                               f"{folder.name}) and has changed since: its changes count as adjustments to "
                               f"{c['month']} (adjustments.csv after the build)")
    return out


def _load_all(con, sources, reads, voids, result, progress, origin, as_of, bundle_as_of, home) -> None:
    refused = Refused()
    run_from = con.execute("SELECT coalesce(max(load_id), 0) + 1 FROM loads").fetchone()[0]   # this load's first id
    for i, src in enumerate(sources, 1):
        progress.step(f"[{i}/{len(sources)}] reading {src.label}")
        read = reads.pop(src.label, None) or read_source(src)
        try:
            blocked = refused.blocks(con, src, read) if refused.by_register else None
            # a file naming rows of a rejected file is still checked for everything else (one pass
            # of errors), and not loaded: its own problems are listed after the line that says why
            res = load_source(con, src, origin, progress, f"[{i}/{len(sources)}]", voids, read,
                              as_of or dt.date.today(), bundle_as_of, run_from, hold_back=blocked is not None,
                              home=home)
            if blocked is not None and res.status != "skipped":
                own = [p for p in res.problems if not refused.explains(src, p)]
                res = FileResult(src.label, src.register.name, "rejected", problems=blocked.problems + own,
                                 more=res.more)
            if res.status == "rejected":
                refused.add(con, src, read)
        finally:
            cells.drop(con, read)
        result.files.append(res)
        if res.note and res.status in ("loaded", "no_new_rows"):
            result.notes.append(f"{src.label}: {res.note}")
        if res.status in ("loaded", "no_new_rows"):
            progress.done(f"[{i}/{len(sources)}] {src.label}: {res.new_rows:,} new row(s) of {res.rows:,}")
        elif res.status == "skipped":
            progress.done(f"[{i}/{len(sources)}] {src.label}: skipped, {res.note}")
        else:
            progress.done(f"[{i}/{len(sources)}] {src.label}: REJECTED")
    result.warnings += versions.left_orphaned(con, voids)


def load_source(con: duckdb.DuckDBPyConnection, src: Source, bundle: Path,
                progress: Progress = QUIET, tag: str = "", voids: versions.Voids | None = None,
                read: Read | None = None, as_of: dt.date | None = None,
                bundle_as_of: dt.date | None = None, run_from: int | None = None,
                hold_back: bool = False, home: Path | None = None) -> FileResult:
    """Check a file and load it whole, or reject it with every problem; `hold_back`: check only
    (a file of the load it refers to was rejected), returned as rejected with its own problems.
    `home`: the database's folder (ingest)."""
    reg = src.register
    voids = voids or versions.Voids()
    read = read or read_source(src)
    # the load id the file would get, and where the same content was first loaded (if it was)
    load_id, seen_file, seen_at = con.execute(
        "SELECT coalesce(max(load_id), 0) + 1, arg_min(file, load_id) FILTER (WHERE sha256 = $1), "
        "arg_min(loaded_at, load_id) FILTER (WHERE sha256 = $1) FROM loads", [read.sha256]).fetchone()
    if seen_file is not None:
        return FileResult(src.label, reg.name, "skipped",
                          note=f"the same content was loaded from {seen_file} on {seen_at:%Y-%m-%d %H:%M}")
    if read.problems:
        return _rejected(src, read.problems, 0)
    own = not read.in_db              # the caller drops the text of cells it loaded itself
    try:
        typed = cells.type_rows(con, read)
        if typed is None:
            return _rejected(src, read.problems, 0)
        undecided = decisions.pass_over_undecided(con, reg)
        progress.step(f"{tag} checking values in {src.label} ({typed.records:,} rows)")
        problems, parse_total = [], 0
        if typed.unparsed:
            cells.load(con, read)     # the text of the cells, to word the ones that did not parse
            problems, parse_total = parse_problems(con, reg, cells.CELLS, src.label, MAX_LISTED,
                                                   rows=f"(SELECT _row FROM {cells.TYPED} WHERE _unparsed)")
        unlisted = parse_total - len(problems)
        if own:
            cells.drop(con, read)
        rows = typed.rows - undecided
        progress.step(f"{tag} validating {src.label} with its expectation suite ({rows:,} rows)")
        problems += _suite_problems(con, reg, src.label, {(p.row, p.column) for p in problems})
        held = versions.holds_keys(con, reg)
        conflicting = versions.conflicts(con, reg, src.label, held, run_from, typed.voids)
        problems += conflicting
        problems += versions.void_orphans(con, reg, src.label, voids, typed.voids)
        problems += _overlaps(con, reg, src.label)
        problems += decisions.after_load_day(con, reg, src.label, bundle_as_of, _now().date())
        if problems:
            # rows that conflict with the file's own earlier content: most likely it was edited in place
            edited, untouched = versions.edited_in_place(con, reg, src.label, bundle, home) if conflicting else ([], set())
            if edited:        # only the rows the clerk changed: not one another file has corrected since
                problems = [p for p in problems if not (p in conflicting and p.row in untouched)]
            return _rejected(src, edited + problems, unlisted)
        if hold_back:
            return _rejected(src, [], unlisted)
        progress.step(f"{tag} writing {src.label}")
        res = _insert(con, src, read, rows, bundle, bundle_as_of, held, load_id, home)
        if undecided:
            res.note = f"{undecided:,} finding(s) left undecided (no decision written): passed over"
        if typed.voids and versions.voided_keys(con, reg):
            voids.done.append((reg, src.label))
        return res
    finally:
        cells.drop_typed(con)
        if own:
            cells.drop(con, read)


def _rejected(src: Source, problems: list[Problem], unlisted: int) -> FileResult:
    """A rejection listing the first MAX_LISTED problems in row order and counting the rest."""
    listed = sorted(problems, key=lambda p: (p.row or 0, p.column or ""))
    more = max(0, len(listed) - MAX_LISTED) + unlisted
    return FileResult(src.label, src.register.name, "rejected", problems=listed[:MAX_LISTED], more=more)


def _suite_problems(con, reg: Register, label: str, already: set) -> list[Problem]:
    with_gx = os.environ.get("POUND_VALIDATE_WITH") == "gx"
    # GX reads one frame of everything; the compiled suite reads the flags beside the typed rows
    checks.make_checked(con, reg, "_typed", narrow=not with_gx)
    try:
        found = checks.judge(con, reg, label, with_gx=with_gx, rows=None if with_gx else "_typed")
    finally:
        con.execute("DROP TABLE IF EXISTS _checked")
    # A cell that did not parse is already reported; its NULL would only repeat it.
    return [p for p in found if (p.row, p.column) not in already]


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


def _insert(con, src: Source, read: Read, rows: int, bundle: Path, bundle_as_of: dt.date | None,
            held: bool, load_id: int, home: Path | None) -> FileResult:
    reg = src.register
    con.execute("BEGIN TRANSACTION")
    try:
        new_rows = con.execute(versions.insert_sql(reg, held), [src.label, load_id]).fetchone()[0]
        status = "loaded" if new_rows or rows == 0 else "no_new_rows"
        # the rows as loaded, summed up in one digest that every build checks (digests.py)
        con.execute(f"INSERT INTO loads ({schema.LOADS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [load_id, src.label, reg.name, read.sha256, rows, new_rows,
                     _now(), status, schema.bundle_text(bundle),
                     bundle_as_of, schema.bundle_place(bundle, home), digests.of_load(con, reg, load_id)])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return FileResult(src.label, reg.name, status, rows, new_rows)



def _bundle_as_of(bundle: Path) -> dt.date | None:
    """The as_of of the bundle's bundle.toml, kept with each load: a row dated after it could not
    have happened yet (DQ-FUTURE-DATE). A malformed bundle.toml is the command's to reject."""
    from pipeline.load.bundle_toml import read_bundle_info

    try:
        info = read_bundle_info(bundle) if Path(bundle).is_dir() else None
    except InputRejected:
        return None
    return info.as_of if info else None


def _now() -> dt.datetime:
    """When a file is loaded (loads.loaded_at). POUND_LOAD_TIME (YYYY-MM-DDTHH:MM:SS) fixes it, so
    that a bundle dated ahead of the clock (the tests' golden bundle) loads the same on any day."""
    from pipeline.core.clock import now

    return now("POUND_LOAD_TIME")
