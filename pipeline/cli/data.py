"""pound run, ingest and build: load a bundle, compute every model, write the exports."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.cli.common import EXIT_OK, EXIT_REJECTED, add_wait, command, date, holds, wait_of


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
    _exports_option(r)
    add_wait(r)
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
    b.add_argument("--bundle", type=Path, default=None,
                   help="the bundle the database was loaded from, whose closes the build compares with (default: "
                        "the bundle where the database finds it, beside it when it was loaded from beside it)")
    _exports_option(b)
    add_wait(b)
    b.set_defaults(func=cmd_build)


def _exports_option(c) -> None:
    from pipeline.outputs.exports import EXPORT_CHOICES, LARGE_EXPORT_MAX_ROWS, LARGE_EXPORTS

    c.add_argument("--exports", choices=EXPORT_CHOICES, default="auto",
                   help=f"auto (default): {', '.join(LARGE_EXPORTS)} only while each holds at most "
                        f"{LARGE_EXPORT_MAX_ROWS:,} rows (pound export writes them at any size); all: every export")


def _say(lines, err: bool = False) -> None:
    for line in lines:
        print(line, file=sys.stderr if err else sys.stdout)


@holds()
def cmd_ingest(args) -> int:
    from pipeline.steps import load

    done = load(args.bundle, args.db, as_of=args.as_of, wait=wait_of(args))
    _say(done.note_lines(), err=True)
    print(done.summary())
    if done.rejected:
        _say(done.rejection_lines(), err=True)
        return EXIT_REJECTED
    return EXIT_OK


@holds(lambda args: args.db or args.out / "pound.duckdb", make_folder=True)
def cmd_run(args) -> int:
    from pipeline.steps import run

    return said_run(run(args.bundle, args.out, db=args.db, as_of=args.as_of, params_file=args.params,
                        exports=args.exports))


def said_run(done) -> int:
    """What `pound run` says of a run (steps.run's Built), and its exit status."""
    _say(done.loaded.note_lines(), err=True)
    print(done.loaded.summary(kept=not done.rejected))
    if done.rejected:
        _say(done.loaded.rejection_lines(), err=True)
        print("nothing was written: correct the file(s) above and run again", file=sys.stderr)
        return EXIT_REJECTED
    _say(done.lines)
    print(f"database: {done.db}")
    _say(f"wrote {path}" for path in done.written)
    _say(done.notes, err=True)
    return EXIT_OK


@holds()
def cmd_build(args) -> int:
    from pipeline.steps import build

    done = build(args.db, args.out, as_of=args.as_of, params_file=args.params, wait=wait_of(args), bundle=args.bundle,
                 exports=args.exports)
    _say(done.lines)
    _say(f"wrote {path}" for path in done.written)
    _say(done.notes, err=True)
    return EXIT_OK
