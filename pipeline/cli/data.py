"""pound run, ingest and build: load a bundle, compute every model, write the exports."""

from __future__ import annotations

import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

from pipeline.cli.common import EXIT_OK, EXIT_REJECTED, add_wait, as_of_note, command, date, load_params, wait_of
from pipeline.core.errors import PoundError


def add(sub) -> None:
    r = command(sub, "run", "load a bundle into a fresh database, compute everything, write the exports",
                "pound run data/sample --out out/ --as-of 2026-10-31")
    r.add_argument("bundle", type=Path, help="the bundle folder (reference/, registers/, ledgers/), or a .zip of it")
    r.add_argument("--out", type=Path, required=True, help="folder for the CSV exports and the workbook")
    r.add_argument("--as-of", type=date, default=None, metavar="DATE",
                   help="the date the accounts are drawn up to, YYYY-MM-DD or DD/MM/YYYY (default: the bundle's "
                        "bundle.toml as_of, else today)")
    r.add_argument("--db", type=Path, default=None, help="database file to create (default: OUT/pound.duckdb)")
    r.add_argument("--params", type=Path, default=None,
                   help="a TOML or JSON file overriding statutory readings and grace periods")
    r.set_defaults(func=cmd_run)

    i = command(sub, "ingest", "add a bundle to a persistent database (each file loads whole or not at all)",
                "pound ingest registers_2026-11/ --db pound.duckdb")
    i.add_argument("bundle", type=Path, help="the bundle folder, or a .zip of it")
    i.add_argument("--db", type=Path, required=True, help="the database file (created if absent)")
    i.add_argument("--as-of", type=date, default=None,
                   help="the date the accounts will be drawn up to (default: the bundle's bundle.toml as_of, "
                        "else today); a decision on a finding may be dated after it, not after the day it is loaded")
    add_wait(i)
    i.set_defaults(func=cmd_ingest)

    b = command(sub, "build", "recompute every output from what the database holds and write the exports",
                "pound build --db pound.duckdb --out out/ --as-of 2026-11-30")
    b.add_argument("--db", type=Path, required=True, help="the database pound ingest loaded")
    b.add_argument("--out", type=Path, required=True, help="folder for the CSV exports and the workbook")
    b.add_argument("--as-of", type=date, default=None, metavar="DATE",
                   help="the date the accounts are drawn up to, YYYY-MM-DD or DD/MM/YYYY (default: today)")
    b.add_argument("--params", type=Path, default=None,
                   help="a TOML or JSON file overriding statutory readings and grace periods")
    add_wait(b)
    b.set_defaults(func=cmd_build)


def _print_rejections(result) -> None:
    for f in result.rejected:
        n = len(f.problems) + f.more
        if n == 1 and f.problems[0].row is None and f.problems[0].message.startswith("not loaded:"):
            # a file held back because it names rows of a rejected file: one line
            print(f"REJECTED {f.label}: {f.problems[0].message}", file=sys.stderr)
            continue
        print(f"REJECTED {f.label}: {n} problem(s); nothing from this file was loaded", file=sys.stderr)
        for prob in f.problems:
            print(f"  {prob.render()}", file=sys.stderr)
        if f.more:
            print(f"  ... and {f.more:,} more problem(s) in {f.label}, not listed", file=sys.stderr)


def _print_summary(result, kept: bool = True) -> None:
    """The load in one line; `kept` False when nothing loaded is kept (pound run with a rejected file)."""
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    loaded = [f for f in result.files if f.status in ("loaded", "no_new_rows")]
    skipped = [f for f in result.files if f.status == "skipped"]
    rows = sum(f.new_rows for f in loaded)
    if not kept:
        print(f"checked {len(loaded) + len(result.rejected)} file(s): {len(loaded)} passed, "
              f"{len(result.rejected)} rejected; nothing was loaded or written")
        return
    print(f"loaded {len(loaded)} file(s), {rows:,} new row(s); skipped {len(skipped)} already loaded; "
          f"rejected {len(result.rejected)}")


def _check_bundle(bundle: Path) -> None:
    from pipeline.load.zipped import is_zip

    if not bundle.exists():
        raise PoundError(f"bundle folder {bundle} does not exist")
    if not bundle.is_dir() and not is_zip(bundle):
        raise PoundError(f"{bundle} is not a folder or a .zip file; give the bundle folder (reference/, "
                         "registers/, ledgers/) or a zip of it")


@contextmanager
def _named(bundle: Path):
    """A zip's unpacked copy that is not a bundle is named as the zip the user gave."""
    from pipeline.load.folder import NotABundle

    try:
        yield
    except NotABundle:
        raise NotABundle(bundle) from None


def _bundle_as_of(args, folder: Path) -> None:
    """--as-of, or else the as_of of the bundle's bundle.toml (said on stderr)."""
    from pipeline.load.bundle_toml import read_bundle_info

    info = read_bundle_info(folder)
    if args.as_of is None and info is not None and info.as_of is not None:
        args.as_of = info.as_of
        print(f"as of {info.as_of.isoformat()}, the date in the bundle's bundle.toml "
              "(give --as-of to draw the accounts up to another date)", file=sys.stderr)


def cmd_ingest(args) -> int:
    from pipeline.core.progress import Progress
    from pipeline.load import db
    from pipeline.load.ingest import ingest
    from pipeline.load.zipped import unpacked

    if args.db.parent and not args.db.parent.exists():
        raise PoundError(f"the folder of --db, {args.db.parent}, does not exist")
    _check_bundle(args.bundle)
    with unpacked(args.bundle) as folder:
        _bundle_as_of(args, folder)
        con = db.connect(args.db, wait=wait_of(args))
        try:
            progress = Progress()
            with _named(args.bundle):
                result = ingest(con, folder, progress, require_reference=False, as_of=args.as_of,
                                origin=args.bundle)
            progress.close()
        finally:
            con.close()
    _print_summary(result)
    if result.rejected:
        _print_rejections(result)
        return EXIT_REJECTED
    return EXIT_OK


def cmd_run(args) -> int:
    from pipeline.core.progress import Progress
    from pipeline.core.staged import Staged
    from pipeline.load import db
    from pipeline.load.ingest import ingest
    from pipeline.load.zipped import unpacked

    out: Path = args.out
    target = args.db or out / "pound.duckdb"
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    _check_bundle(args.bundle)
    with unpacked(args.bundle) as folder:
        _bundle_as_of(args, folder)
        params = load_params(args)
        # Everything is made in a staging folder inside OUT and moved into place, as one set,
        # only when all of it succeeded: a rejected bundle, a failure or a kill leaves OUT as it was.
        with Staged(out) as stage:
            tmp_db = stage.folder / "pound.duckdb"
            con = db.connect(tmp_db)
            try:
                progress = Progress()
                with _named(args.bundle):
                    result = ingest(con, folder, progress, require_reference=True, as_of=params.as_of,
                                    origin=args.bundle)
                progress.close()
                _print_summary(result, kept=not result.rejected)
                if result.rejected:
                    _print_rejections(result)
                    print("nothing was written: correct the file(s) above and run again", file=sys.stderr)
                    return EXIT_REJECTED
                _build_and_export(con, stage.folder, params, progress, target, out)
            finally:
                con.close()
            if target.resolve() != (out / "pound.duckdb").resolve():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(tmp_db), str(target))
            written = stage.commit()
    _drop_unwritten_workbook(out, written)
    print(f"database: {target}")
    for path in written:
        if path.name != "pound.duckdb":
            print(f"wrote {path}")
    _say_as_of(args)
    return EXIT_OK


def cmd_build(args) -> int:
    from pipeline.core.progress import Progress
    from pipeline.core.staged import Staged
    from pipeline.load import db

    if not args.db.exists():
        raise PoundError(f"database {args.db} does not exist; create it with 'pound ingest' or 'pound run'")
    params = load_params(args)
    con = db.connect(args.db, wait=wait_of(args))
    try:
        # The exports replace an earlier set in OUT whole, or not at all (see core/staged.py).
        with Staged(args.out) as stage:
            _build_and_export(con, stage.folder, params, Progress(), args.db, args.out)
            written = stage.commit()
        _drop_unwritten_workbook(args.out, written)
    finally:
        con.close()
    for path in written:
        print(f"wrote {path}")
    _say_as_of(args)
    return EXIT_OK


def _say_as_of(args) -> None:
    note = as_of_note(args)
    if note:
        print(note, file=sys.stderr)


def _drop_unwritten_workbook(out: Path, written: list[Path]) -> None:
    """An earlier run's audit workbook is not left beside exports it does not match."""
    if not any(p.name == "audit_workbook.xlsx" for p in written):
        (out / "audit_workbook.xlsx").unlink(missing_ok=True)


def _build_and_export(con, out: Path, params, progress, db_path: Path, final_out: Path) -> list[Path]:
    """Compute every model, then write the CSV exports, the audit workbook (when its largest
    sheet holds at most WHOLE_WORKBOOK_MAX_ROWS rows) and the parameters used."""
    from pipeline.build import build
    from pipeline.load.closes import load_closes
    from pipeline.outputs.exports import write_csvs
    from pipeline.outputs.workbook import WHOLE_WORKBOOK_MAX_ROWS, largest_sheet, write_workbook
    from pipeline.read.database import decisions_applied, rows_left_out

    # the closes of the bundles loaded (adjustments compares with them), read in the build's transaction
    build(con, params, progress, first=load_closes)
    print(f"rows dated after {params.as_of.isoformat()}, left out of the accounts: {rows_left_out(con)}")
    print(decisions_applied(con))
    out.mkdir(parents=True, exist_ok=True)
    written = write_csvs(con, out, progress)
    table, rows = largest_sheet(con)
    if rows <= WHOLE_WORKBOOK_MAX_ROWS:
        progress.step("writing audit_workbook.xlsx")
        written.append(write_workbook(con, out / "audit_workbook.xlsx"))
    if rows > WHOLE_WORKBOOK_MAX_ROWS:
        (out / "audit_workbook.xlsx").unlink(missing_ok=True)
        print(f"audit_workbook.xlsx not written: its largest sheet, {table}, would hold {rows:,} rows "
              f"(more than {WHOLE_WORKBOOK_MAX_ROWS:,}). Write one local authority's year instead:\n"
              f"  pound workbook --db {db_path} --local-authority ID --financial-year 2026-27 "
              f"--out audit_ID_2026-27.xlsx\n(the CSV files in {final_out} hold every row)")
    params_path = out / "parameters.toml"
    params_path.write_text(params.to_toml(), encoding="utf-8")
    written.append(params_path)
    progress.done(f"wrote {len(written)} files to {out}")
    return written
