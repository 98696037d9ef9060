"""Build every figure from what a database holds and write the exports; and `run`, load and build at once."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.errors import PoundError
from pipeline.core.faults import point
from pipeline.core.locks import DEFAULT_WAIT
from pipeline.core.progress import Progress
from pipeline.load.zipped import check_bundle
from pipeline.steps.load import Loaded, bundle_as_of, named


@dataclass
class Built:
    """What a build did: the files written into `out`, and what it says of the figures."""
    db: Path
    out: Path
    as_of: dt.date
    written: list[Path] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)     # what it says of the figures (stdout)
    notes: list[str] = field(default_factory=list)     # notes (stderr): the as-of date not given, or ahead
    loaded: Loaded | None = None                        # `run` only: the load before the build

    @property
    def rejected(self) -> bool:
        return bool(self.loaded and self.loaded.rejected)


def params_of(as_of: dt.date | None, params_file: Path | None):
    """The readings in force: the defaults, overridden by `params_file`, as of `as_of` (default today)."""
    from pipeline.core.params import Parameters

    return Parameters.load(params_file, as_of=as_of or dt.date.today())


def as_of_note(as_of: dt.date | None) -> str | None:
    """What a run or a build says about its as-of date when it was not given, or lies ahead."""
    today = dt.date.today()
    if as_of is None:
        return f"note: the accounts are drawn up to today, {today:%d-%m-%Y} (no --as-of given)"
    if as_of > today:
        return (f"note: the accounts are drawn up to {as_of:%d-%m-%Y}, after today ({today:%d-%m-%Y}): a "
                "deadline falling in the days between counts as passed")
    return None


def build(db: Path, out: Path, as_of: dt.date | None = None, params_file: Path | None = None,
          wait: float = DEFAULT_WAIT, progress: Progress | None = None, bundle: Path | None = None,
          exports: str = "auto") -> Built:
    """Recompute every model of `db` as of `as_of` (default today) and write the exports into `out`
    (replacing an earlier set whole, or not at all); the large exports only up to
    LARGE_EXPORT_MAX_ROWS rows each, unless `exports` is "all" (outputs/exports.py). `bundle`: the bundle the database was loaded
    from, whose closes are compared (default: where the database finds the bundles it was loaded
    from, load/closes.py bundles_bound). PoundError, nothing built, when a register's rows are not
    as they were loaded (load/digests.py)."""
    from pipeline.core.staged import Staged, finish_pending
    from pipeline.load import connection

    db, out = Path(db), Path(out)
    if not db.exists():
        raise PoundError(f"database {db} does not exist; create it with 'pound ingest' or 'pound run'")
    con = connection.connect(db, wait=wait)
    try:
        # what a build killed between its commit and its exports left, settled first
        finish_pending(out, lambda build_id: _last_build_id(con) == build_id)
        params = params_of(as_of, params_file)
        built = Built(db, out, params.as_of)
        with Staged(out) as stage:
            build_and_export(con, stage, params, progress or Progress(), db, out, built, bundle=bundle,
                             exports=exports)
            point("build:committed")
            built.written = stage.commit()
        drop_unwritten_workbook(out, built.written)
    finally:
        con.close()
    note = as_of_note(as_of)
    built.notes += [note] if note else []
    return built


def run(bundle: Path, out: Path, db: Path | None = None, as_of: dt.date | None = None,
        params_file: Path | None = None, progress: Progress | None = None, exports: str = "auto") -> Built:
    """Load a bundle into a fresh database and build it: the database and the exports are made in
    a staging folder inside `out` and moved in as one set only when all of it succeeded (a rejected
    file, a failure or a kill leaves `out` as it was). `Built.rejected` when a file was refused:
    then nothing is written."""
    from pipeline.core.staged import Staged
    from pipeline.load import connection
    from pipeline.load.ingest import ingest
    from pipeline.load.zipped import unpacked

    bundle, out = Path(bundle), Path(out)
    target = Path(db) if db else out / "pound.duckdb"
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    if out.is_dir():
        _finish(out, target)
    check_bundle(bundle)
    progress = progress or Progress()
    with unpacked(bundle) as folder:
        as_of, notes = bundle_as_of(as_of, folder)
        params = params_of(as_of, params_file)
        built = Built(target, out, params.as_of)
        with Staged(out) as stage:
            tmp_db = stage.folder / "pound.duckdb"
            rows = connection.bundle_rows(folder)
            con = connection.connect(tmp_db, rows=rows)
            connection.threads_for(con, rows)
            try:
                with named(bundle):
                    result = ingest(con, folder, progress, require_reference=True, as_of=params.as_of,
                                    origin=bundle, home=target.resolve().parent)
                progress.close()
                built.loaded = Loaded(bundle, target, result, as_of, notes)
                if result.rejected:
                    return built
                build_and_export(con, stage, params, progress, target, out, built, pend=False, bundle=bundle,
                                 exports=exports)
            finally:
                con.close()
            if target.resolve() != (out / "pound.duckdb").resolve():
                # moved with the set, over the --db file, in one rename (or copied beside it and renamed)
                stage.place("pound.duckdb", target)
            built.written = [p for p in stage.commit() if p.name != "pound.duckdb" and p != target.resolve()]
    drop_unwritten_workbook(out, built.written)
    note = as_of_note(as_of)
    built.notes += [note] if note else []
    return built


def _last_build_id(con) -> int | None:
    from pipeline.build import record

    b = record.last(con)
    return b.build_id if b else None


def _finish(out: Path, db: Path) -> None:
    """The exports a build left waiting for its commit (killed between the two), settled against
    the database they were made from."""
    from pipeline.core.staged import finish_pending
    from pipeline.read.database import connect

    def committed(build_id: int) -> bool:
        if not db.exists():
            return False
        try:
            con = connect(db)
        except PoundError:
            return False
        try:
            return _last_build_id(con) == build_id
        finally:
            con.close()

    finish_pending(out, committed)


def drop_unwritten_workbook(out: Path, written: list[Path]) -> None:
    """An earlier run's audit workbook, or large export, is not left beside exports it does not match."""
    from pipeline.outputs.exports import BY_TABLE, LARGE_EXPORTS

    names = {p.name for p in written}
    for name in ["audit_workbook.xlsx", *(f"{BY_TABLE[t].name}.csv" for t in LARGE_EXPORTS)]:
        if name not in names:
            (out / name).unlink(missing_ok=True)


def build_and_export(con, stage, params, progress, db_path: Path, final_out: Path, built: Built,
                     pend: bool = True, bundle: Path | None = None, exports: str = "auto") -> None:
    """Compute every model and, in the build's own transaction before it commits, write the CSV
    exports, the audit workbook (when its largest sheet holds at most WHOLE_WORKBOOK_MAX_ROWS rows)
    and the parameters used into the staging folder, marked as waiting for this build's commit: a
    kill before the commit leaves the database and the exports as before; after it, the next build
    moves the exports in (core/staged.py, finish_pending). First, in the same transaction, the rows
    loaded are checked against their digests and the closes of the bundles bound to the build are
    read (bind)."""
    def write_exports(con) -> None:
        _export(con, stage.folder, params, progress, db_path, final_out, built, exports)
        point("build:exports-written")
        if pend:              # a run's database is in the set itself: it moves in with the exports
            stage.pend(_last_build_id(con))

    from pipeline.build import build as compute

    compute(con, params, progress, first=lambda con: bind(con, db_path, bundle, built, progress),
            last=write_exports)


def bind(con, db: Path, bundle: Path | None, built: Built, progress) -> None:
    """What a build stands on, in its transaction, before any model: the register rows as they were
    loaded (load/digests.py: PoundError when one differs), and the closes of the bundles bound to it
    (`bundle`, or where the database finds the bundles it was loaded from: load/closes.py), read
    afresh for adjustments to compare with."""
    from pipeline.load import digests
    from pipeline.load.closes import bundles_bound, load_closes

    progress.step("checking the rows loaded against their digests")
    bound = bundles_bound(con, db, bundle)
    built.notes += digests.check(con, db, bound[0] if bound else None)
    built.notes += [f"note: {b}, a bundle the database was loaded from, is not there: the closes kept in it are not "
                    f"compared (pound build --bundle names where it is now)" for b in bound if not b.exists()]
    load_closes(con, bound)


def _export(con, out: Path, params, progress, db_path: Path, final_out: Path, built: Built,
            exports: str = "auto") -> None:
    from pipeline.outputs.exports import BY_TABLE, LARGE_EXPORT_MAX_ROWS, large_left_out, write_csvs
    from pipeline.outputs.workbook import WHOLE_WORKBOOK_MAX_ROWS, largest_sheet, write_workbook
    from pipeline.read.database import decisions_applied, rows_left_out

    built.lines.append(f"rows dated after {params.as_of.isoformat()}, left out of the accounts: {rows_left_out(con)}")
    built.lines.append(decisions_applied(con))
    out.mkdir(parents=True, exist_ok=True)
    left_out = large_left_out(con, exports)
    written = write_csvs(con, out, progress, left_out)
    if left_out:
        files = ", ".join(f"{BY_TABLE[t].name}.csv ({n:,} rows)" for t, n in left_out.items())
        built.lines.append(
            f"not written, each more than {LARGE_EXPORT_MAX_ROWS:,} rows: {files}; they are in the database, "
            f"and pound export --db {db_path} --out FOLDER writes them (Parquet, or --format csv), "
            "or give --exports all")
    table, rows = largest_sheet(con)
    if rows <= WHOLE_WORKBOOK_MAX_ROWS:
        progress.step("writing audit_workbook.xlsx")
        written.append(write_workbook(con, out / "audit_workbook.xlsx"))
    else:               # (the earlier one in the final folder is dropped after the commit: drop_unwritten_workbook)
        built.lines.append(
            f"audit_workbook.xlsx not written: its largest sheet, {table}, would hold {rows:,} rows "
            f"(more than {WHOLE_WORKBOOK_MAX_ROWS:,}). Write one local authority's year instead:\n"
            f"  pound workbook --db {db_path} --local-authority ID --financial-year 2026-27 "
            f"--out audit_ID_2026-27.xlsx\n(the CSV files in {final_out} hold every row)")
    params_path = out / "parameters.toml"
    params_path.write_text(params.to_toml(), encoding="utf-8")
    written.append(params_path)
    progress.done(f"wrote {len(written)} files to {out}")
