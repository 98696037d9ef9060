"""pound month: the month in one command (load what is new, build as of its end, write its review)."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.cli.common import EXIT_OK, EXIT_REJECTED, add_wait, command, date, holds, month, wait_of


def add(sub) -> None:
    m = command(sub, "month", "the month in one command: load what is new in the bundle, build the accounts as of "
                "the month's last day, write the month's review (pages and review_MONTH.xlsx) and say what comes "
                "next (the decisions, then pound close)",
                "pound month mysuru/ --db pound.duckdb --month 2026-11")
    m.add_argument("bundle", type=Path, help="the bundle folder (reference/, registers/, ledgers/), or a .zip of it")
    m.add_argument("--db", type=Path, required=True, help="the database file (created if absent)")
    m.add_argument("--month", type=month, required=True, help="YYYY-MM")
    m.add_argument("--as-of", type=date, default=None, metavar="DATE",
                   help="the date the accounts are drawn up to (default: the month's last day)")
    m.add_argument("--out", type=Path, default=None,
                   help="folder for the review, with the exports in OUT/exports (default: month_MONTH/ beside "
                        "the database)")
    m.add_argument("--district", default=None, help="the review of one district (default: all)")
    m.add_argument("--params", type=Path, default=None,
                   help="a TOML or JSON file overriding statutory readings and grace periods")
    add_wait(m)
    m.set_defaults(func=cmd_month)


@holds()
def cmd_month(args) -> int:
    from pipeline.steps import month as the_month

    done = the_month(args.bundle, args.db, args.month, as_of=args.as_of, out=args.out, district=args.district,
                     params_file=args.params, wait=wait_of(args))
    for line in done.loaded.note_lines():
        print(line, file=sys.stderr)
    print(done.loaded.summary())
    if done.rejected:
        for line in done.loaded.rejection_lines():
            print(line, file=sys.stderr)
        for line in done.next:
            print(line, file=sys.stderr)
        return EXIT_REJECTED
    print(f"built as of {done.as_of.isoformat()}")
    for line in done.built.lines:
        print(line)
    for note in [*done.built.notes, *done.reviewed.notes]:
        print(note, file=sys.stderr)
    print(f"wrote the review of {args.month} into {done.reviewed.out} and the exports into {done.built.out}")
    for line in done.next:
        print(line)
    return EXIT_OK
