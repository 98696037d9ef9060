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
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline.core.errors import InputRejected, Problem
from pipeline.core.progress import QUIET, Progress
from pipeline.core.registers import Register
from pipeline.load import cells, checks, db, decisions, versions
from pipeline.load.bundle import Read, Source, find_sources, missing_reference, read_source
from pipeline.load.values import TRUE_WORDS, parse_problems

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
    warnings: list[str] = field(default_factory=list)

    @property
    def rejected(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "rejected"]

    @property
    def problems(self) -> list[Problem]:
        return [p for f in self.rejected for p in f.problems]


def ingest(con: duckdb.DuckDBPyConnection, bundle: Path, progress: Progress = QUIET,
           require_reference: bool = True, as_of: dt.date | None = None, origin: Path | None = None) -> IngestResult:
    """Load every file of a bundle. `as_of`: the date the accounts will be drawn up to (kept for the
    callers; a decision is checked against the day it is loaded, not against it). `origin`: what
    the loads table names as the bundle when `bundle` is a zip's unpacked copy."""
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
    reads, voids = _plan_voids(con, sources)
    sources = _voids_last(sources, voids)
    _load_all(con, sources, reads, voids, result, progress, origin or bundle, as_of, bundle_as_of)
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


def _load_all(con, sources, reads, voids, result, progress, origin, as_of, bundle_as_of) -> None:
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
                              as_of or dt.date.today(), bundle_as_of, run_from, hold_back=blocked is not None)
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


@dataclass
class Refused:
    """The keys of the rows of this load's rejected files, by register, so that a file referring to
    them is not loaded either and says so once, instead of once per row ("unknown case_id")."""

    by_register: dict[str, tuple[list[str], set[str]]] = field(default_factory=dict)
    # registers with a rejected file whose rows could not be read at all (not UTF-8, a heading
    # misspelt): which keys it held is not known, so any key not already held may have been its
    unread: set[str] = field(default_factory=set)

    def add(self, con: duckdb.DuckDBPyConnection, src: Source, read: Read) -> None:
        reg = src.register
        if len(reg.key) != 1:
            return
        labels, keys = self.by_register.setdefault(reg.name, ([], set()))
        labels.append(src.label)
        if not read.problems:
            cells.load(con, read)
        if read.problems:
            self.unread.add(reg.name)
            return
        keys.update(v for v in (str(x).strip() for x in cells.values(con, reg.key[0])) if v)

    def explains(self, src: Source, problem: Problem) -> bool:
        """Whether a problem of a held-back file is its naming a row of a rejected file (the line
        that says so stands for all of them)."""
        for col in src.register.columns:
            if not col.refers_to or col.name != problem.column:
                continue
            target = col.refers_to.split(".")[0]
            if target in self.by_register:
                value = str(problem.value or "").strip()
                return target in self.unread or value in self.by_register[target][1]
        return False

    def blocks(self, con: duckdb.DuckDBPyConnection, src: Source, read: Read) -> FileResult | None:
        """A rejection in one line when the file names rows only a rejected file of this load holds."""
        if read.problems:
            return None
        if con.execute("SELECT 1 FROM loads WHERE sha256 = ?", [read.sha256]).fetchone():
            return None                                  # already held: skipped as usual
        for col in src.register.columns:
            if not col.refers_to:
                continue
            target, tcol = col.refers_to.split(".")
            if target not in self.by_register:
                continue
            cells.load(con, read)
            if read.problems:
                return None
            labels, keys = self.by_register[target]
            named = {v for v in (str(x).strip() for x in cells.values(con, col.name)) if v}
            if target not in self.unread:
                named &= keys
            held = {r[0] for r in con.execute(
                f'SELECT DISTINCT CAST("{tcol}" AS VARCHAR) FROM {target} WHERE CAST("{tcol}" AS VARCHAR) IN '
                f'(SELECT unnest(?::VARCHAR[]))', [sorted(named)]).fetchall()} if named else set()
            missing = sorted(named - held)
            if not missing:
                continue
            shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
            were = "was" if len(labels) == 1 else "were"
            why = (f"rows ({col.name} {shown}) that may be in {' and '.join(labels)}, which {were} rejected "
                   "before its rows could be read" if target in self.unread else
                   f"rows of {' and '.join(labels)} ({col.name} {shown}), which {were} rejected")
            return FileResult(src.label, src.register.name, "rejected", problems=[Problem(
                src.label, None, None, None, f"not loaded: it refers to {why}; send this file again with the corrected one")])
        return None


def corrections_last(sources: list[Source]) -> list[Source]:
    """The load order with, within each register, the files that correct rows (a correction_note
    written on any row) after those that do not, whatever the files are called: a correction then
    always finds the row it corrects held, and supersedes it. Two corrections of one row in one
    load are refused (versions.twice_corrected)."""
    by_register: dict[str, list[Source]] = {}
    for s in sources:
        by_register.setdefault(s.register.name, []).append(s)
    late = {s.label for mine in by_register.values() if len(mine) > 1 and mine[0].register.correctable
            for s in mine if _corrects(s)}
    order = {name: i for i, name in enumerate(by_register)}
    return sorted(sources, key=lambda s: (order[s.register.name], s.label in late))


def _corrects(src: Source) -> bool:
    """Whether any row of the file has a correction_note (a quick look at the cells as text)."""
    import csv

    try:
        if src.sheet is None:
            with src.path.open(newline="", encoding="utf-8-sig", errors="replace") as fh:
                rows = csv.reader(fh)
                return _noted(next(rows, []), rows)
        from openpyxl import load_workbook

        wb = load_workbook(src.path, read_only=True, data_only=True)
        try:
            rows = wb[src.sheet].iter_rows(values_only=True)
            return _noted(next(rows, ()), rows)
        finally:
            wb.close()
    except (OSError, KeyError, ValueError, csv.Error):
        return False                     # the read proper says what is wrong with the file


def _noted(header, rows) -> bool:
    names = [str(h or "").strip().lower() for h in header]
    if "correction_note" not in names:
        return False
    at = names.index("correction_note")
    return any(len(r) > at and str(r[at] or "").strip() for r in rows)


def _plan_voids(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> tuple[dict[str, Read], versions.Voids]:
    """The keys that the files of this load strike out (void = yes), read before any is loaded,
    so that a row and the rows that refer to it may be struck out by two files of one load.
    The keys of a register that no other register refers to matter only when a file strikes out
    rows that others refer to; they are read only then."""
    voids = versions.Voids()
    reads: dict[str, Read] = {}
    may = [s for s in sources if s.register.correctable and _may_void(s)]
    referred = [s for s in may if versions.dependents(s.register)]
    for src in referred:
        _plan(con, src, reads, voids)
    if voids.planned:
        for src in may:
            if src not in referred:
                _plan(con, src, reads, voids)
    return reads, voids


def _plan(con: duckdb.DuckDBPyConnection, src: Source, reads: dict[str, Read], voids: versions.Voids) -> None:
    read = reads[src.label] = read_source(src)
    if read.problems:
        return
    key = list(src.register.key)
    rows = cells.struck_rows(con, read, key) if read.plain is not None else None
    if rows is None:
        if read.plain is not None:            # DuckDB cannot read it as it is: read in Python
            read = reads[src.label] = read_source(src, in_python=True)
            if read.problems:
                return
        rows = read.frame[[*key, "void"]].itertuples(index=False, name=None)
    # (key cells..., void cell): the keys of the rows whose void cell says yes
    keys = [tuple(str(v).strip() for v in row[:-1]) for row in rows if str(row[-1]).strip().lower() in TRUE_WORDS]
    voids.plan(src.register.name, src.label, keys)


def _voids_last(sources: list[Source], voids: versions.Voids) -> list[Source]:
    """The load order, with the files that strike out rows other registers refer to (cases,
    deposits) moved after every other file, so that the rows referring to them are held, and may
    be struck out too, before they are. The files of one register keep their order: from the first
    of a register's files that strikes a row out, that file and those after it move together."""
    late: list[Source] = []
    for reg_name, struck in voids.planned.items():
        reg = next(s.register for s in sources if s.register.name == reg_name)
        if not versions.dependents(reg):
            continue
        mine = [s for s in sources if s.register.name == reg_name]
        first = next((i for i, s in enumerate(mine) if any(lbl == s.label for lbl, _ in struck)), None)
        if first is not None:
            late += mine[first:]
    return [s for s in sources if s not in late] + late


def _may_void(src: Source) -> bool:
    """Whether a file has a void column (a CSV file's header is read; a workbook sheet is read whole)."""
    if src.sheet is not None:
        return True
    with src.path.open("rb") as fh:
        head = fh.readline().decode("utf-8", errors="replace").lower()
    return "void" in head


def load_source(con: duckdb.DuckDBPyConnection, src: Source, bundle: Path,
                progress: Progress = QUIET, tag: str = "", voids: versions.Voids | None = None,
                read: Read | None = None, as_of: dt.date | None = None,
                bundle_as_of: dt.date | None = None, run_from: int | None = None,
                hold_back: bool = False) -> FileResult:
    """Check a file and load it whole, or reject it with every problem; `hold_back`: check only
    (a file of the load it refers to was rejected), returned as rejected with its own problems."""
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
        conflicting = versions.conflicts(con, reg, src.label, held, run_from)
        problems += conflicting
        problems += versions.void_orphans(con, reg, src.label, voids)
        problems += _overlaps(con, reg, src.label)
        problems += decisions.after_load_day(con, reg, src.label, bundle_as_of, _now().date())
        if problems:
            # rows that conflict with the file's own earlier content: most likely it was edited in place
            edited, untouched = versions.edited_in_place(con, reg, src.label, bundle) if conflicting else ([], set())
            if edited:        # only the rows the clerk changed: not one another file has corrected since
                problems = [p for p in problems if not (p in conflicting and p.row in untouched)]
            return _rejected(src, edited + problems, unlisted)
        if hold_back:
            return _rejected(src, [], unlisted)
        progress.step(f"{tag} writing {src.label}")
        res = _insert(con, src, read, rows, bundle, bundle_as_of, held, load_id)
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
            held: bool, load_id: int) -> FileResult:
    reg = src.register
    con.execute("BEGIN TRANSACTION")
    try:
        new_rows = con.execute(versions.insert_sql(reg, held), [src.label, load_id]).fetchone()[0]
        status = "loaded" if new_rows or rows == 0 else "no_new_rows"
        con.execute("INSERT INTO loads VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [load_id, src.label, reg.name, read.sha256, rows, new_rows,
                     _now(), status, db.bundle_text(bundle),
                     bundle_as_of])
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
