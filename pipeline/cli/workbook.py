"""pound workbook: the workbook an auditor files, for one scope (district, local authority, period)."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_scope_arguments, add_wait, command, holds, wait_of


def scope_of(args, con):
    """The scope the options name, its district and local authority checked against the database."""
    from pipeline.read.scope import scope_of as scope

    return scope(con, args.district, args.local_authority, args.financial_year, args.month, args.start, args.end)


def add(sub) -> None:
    w = command(sub, "workbook", "write the workbook an auditor files for one scope: a cover (scope, as-of date, "
                "readings, input files with sha256), balances, reconciliation, ledger entries, findings, case "
                "accounts, fund movements, monthly accounts, corrections",
                "pound workbook --db out/pound.duckdb --local-authority LA01 --financial-year 2026-27 "
                "--out audit_LA01_2026-27.xlsx")
    w.add_argument("--db", type=Path, required=True, help="the database of pound run, or of pound ingest and pound build")
    w.add_argument("--out", type=Path, required=True, help="the .xlsx file to write")
    add_scope_arguments(w)
    add_wait(w)
    w.set_defaults(func=cmd_workbook)


@holds()
def cmd_workbook(args) -> int:
    import sys

    from pipeline.core.errors import PoundError
    from pipeline.outputs.audit_file import write_audit_file
    from pipeline.read.database import as_of, connect

    out: Path = args.out
    if out.is_dir():
        raise PoundError(f"--out {out} is a folder; name the .xlsx file to write")
    if out.suffix.lower() != ".xlsx":
        raise PoundError(f"--out {out} must end in .xlsx")
    if not out.parent.exists():
        raise PoundError(f"the folder of --out, {out.parent}, does not exist")
    con = connect(args.db, wait=wait_of(args))
    try:
        scope = scope_of(args, con)
        cut = scope.runs_past(as_of(con))
        path, counts = write_audit_file(con, scope, out)
    finally:
        con.close()
    from pipeline.read.database import stale_warning

    stale = stale_warning(args.db, wait_of(args))
    if stale:
        print(stale, file=sys.stderr)
    if cut:
        print(f"note: {cut}", file=sys.stderr)
    elif not any(counts.values()):
        print(f"note: nothing in the accounts falls in {scope.period_label} for this scope: every sheet is empty",
              file=sys.stderr)
    print(f"wrote {path}: " + ", ".join(f"{sheet} {n:,}" for sheet, n in counts.items()))
    return EXIT_OK
