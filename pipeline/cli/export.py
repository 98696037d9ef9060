"""pound export: every finished table, and the registers as loaded, as Parquet or CSV files."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_wait, command, holds, wait_of


def add(sub) -> None:
    ex = command(sub, "export", "write every finished table (case accounts, fund movements, findings, "
                 "reconciliation, the marts) and the registers as loaded, for pandas, R or another tool; "
                 "Parquet keeps the exact types (money in integer paise, dates as dates)",
                 "pound export --db out/pound.duckdb --out tables/ --format parquet")
    ex.add_argument("--db", type=Path, required=True, help="the database of pound run, or of pound ingest and pound build")
    ex.add_argument("--out", type=Path, required=True, help="folder for the tables, one file each")
    ex.add_argument("--format", choices=("parquet", "csv"), default="parquet",
                    help="parquet (default): exact types; csv: the same values as text, money in paise")
    add_wait(ex)
    ex.set_defaults(func=cmd_export)


@holds()
def cmd_export(args) -> int:
    import sys

    from pipeline.outputs.tables import export_tables
    from pipeline.read.database import connect, stale_warning

    stale = stale_warning(args.db, wait_of(args))
    if stale:
        print(stale, file=sys.stderr)
    con = connect(args.db, wait=wait_of(args))
    try:
        for path in export_tables(con, args.out, args.format):
            print(path)
    finally:
        con.close()
    return EXIT_OK
