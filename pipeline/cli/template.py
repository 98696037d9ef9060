"""pound template: the workbook of the registers a pound-keeper or a clerk fills in."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_wait, command, holds, month
from pipeline.core.errors import PoundError


def add(sub) -> None:
    t = command(sub, "template", "write the workbook of the registers to fill in (one sheet a register, lists "
                "from the bundle's reference files); saved into BUNDLE/registers/ it loads as it is. A pound's "
                "copy (--pound) works out what is due on each release; with --month and --db it lists the cases "
                "still in the pound when the month began",
                "pound template --bundle mysuru/ --pound P01 --month 2026-11 --db pound.duckdb   "
                "(writes registers_2026-11_P01.xlsx)\n"
                "  pound template --bundle mysuru/ --ledger local_fund --month 2026-11   (writes local_fund_2026-11.xlsx)")
    t.add_argument("--bundle", type=Path, required=True,
                   help="the bundle (folder or .zip) whose reference/ files give the lists of pounds and classes")
    t.add_argument("--out", type=Path, default=None,
                   help="the workbook to write (default: registers_YYYY-MM_POUND.xlsx, one file a pound a month)")
    t.add_argument("--pound", default=None, metavar="ID", help="a pound-keeper's copy: that pound only")
    t.add_argument("--month", type=month, default=None, metavar="YYYY-MM", help="the month the workbook is for")
    t.add_argument("--ledger", choices=("local_fund", "dm_deposit", "surplus_claims"), default=None,
                   help="a ledger's entry workbook instead: the local fund's or the DM deposit account's, or the "
                        "DM's register of claims to the surplus he holds (default name local_fund_YYYY-MM.xlsx)")
    t.add_argument("--db", type=Path, default=None,
                   help="the database of the accounts, for the cases still held when the month began")
    t.add_argument("--params", type=Path, default=None, metavar="FILE",
                   help="without --db: the parameters file pound run is given, so that the sheet counts feeding "
                        "days as the accounts will (with --db the database's own readings are used)")
    add_wait(t)
    t.set_defaults(func=cmd_template)


@holds()
def cmd_template(args) -> int:
    from pipeline.outputs.template import file_name, ledger_file_name, write_template

    month = args.month
    if args.db is not None and not (month and args.pound):
        raise PoundError("--db gives the cases still in a pound at a month's start: give --pound and --month too")
    if args.db is not None and not args.db.is_file():
        raise PoundError(f"--db {args.db} does not exist; give the database of pound run or pound ingest")
    if args.params is not None and args.db is not None:
        raise PoundError("--params and --db: the database's own readings are used; leave out --params")
    if args.ledger and (args.pound or args.db):
        raise PoundError(f"--ledger {args.ledger}: a ledger's workbook is the whole bundle's; leave out --pound and --db")
    if args.out is None and args.ledger and not month:
        raise PoundError("give --out, or --month to name the workbook local_fund_YYYY-MM.xlsx")
    if args.out is None and not args.ledger and not (month and args.pound):
        raise PoundError("give --out, or --pound and --month to name the workbook registers_YYYY-MM_POUND.xlsx")
    default = ledger_file_name(args.ledger, month) if args.ledger else file_name(month, args.pound)
    out: Path = args.out if args.out is not None else Path(default)
    if out.suffix.lower() != ".xlsx":
        raise PoundError(f"--out {out}: the workbook's name must end in .xlsx (registers_2026-11_P01.xlsx)")
    if out.exists():
        raise PoundError(f"--out {out} exists; a workbook that may be filled in is never written over: give "
                         "another name")
    if not out.parent.is_dir():
        raise PoundError(f"the folder of --out, {out.parent}, does not exist")
    print(write_template(args.bundle, out, args.pound, month, args.db, args.ledger, args.params))
    return EXIT_OK
