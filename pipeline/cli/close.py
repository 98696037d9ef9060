"""pound close and pound verify: seal a month the District Magistrate signed off, and check a seal."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.cli.common import EXIT_OK, EXIT_REJECTED, add_wait, command, holds, month


def add(sub) -> None:
    c = command(sub, "close", "close a month: seal its figures, reports and decisions into BUNDLE/closes/ "
                "(every later change to the month then shows in adjustments.csv)",
                'pound close --db out/pound.duckdb --month 2026-10 --by "District Magistrate, Mysuru" '
                "--bundle mysuru/")
    c.add_argument("--db", type=Path, required=True, help="the built database (pound run or pound build)")
    c.add_argument("--month", type=month, required=True, help="YYYY-MM")
    c.add_argument("--by", required=True, help="who closes the month")
    c.add_argument("--bundle", type=Path, required=True, help="the bundle the database was loaded from")
    c.add_argument("--district", default=None, help="close the month of one district (default: all)")
    c.add_argument("--note", default=None, help="a note kept in close.json (for example, the meeting it was reviewed at)")
    c.add_argument("--signed", type=Path, default=None, metavar="SCAN.pdf",
                   help="the scan of the signed page, sealed with the close by its hash; for a month already "
                        "closed, it is added to the close in force (verify checks it)")
    c.add_argument("--reopen", default=None, metavar="WHY",
                   help="close a closed month again, saying why (both closes are kept; the later is in force)")
    add_wait(c)
    c.set_defaults(func=cmd_close)

    v = command(sub, "verify", "check a close folder against its close.json (exit 0 intact, 2 altered); it checks "
                "the sealed pack only: with --bundle also check the registers as they stand against the sealed "
                "hashes and rebuild the month from the input files it names",
                "pound verify mysuru/closes/2026-10 --bundle mysuru/")
    v.add_argument("folder", type=Path, help="BUNDLE/closes/<month>")
    v.add_argument("--bundle", type=Path, default=None,
                   help="the bundle the month was closed from: its input files are checked against the sealed "
                        "hashes and the month rebuilt from them (without it, only the sealed pack is checked)")
    v.set_defaults(func=cmd_verify)


@holds()
def cmd_close(args) -> int:
    from pipeline.steps import close

    done = close(args.db, args.bundle, args.month, args.by, args.district, args.note, args.reopen, args.signed)
    print(done.added or done.folder)
    # the figures sealed are those of the month at a glance, the page the District Magistrate signs;
    # said on stderr, as the other notes are, so that the output stays the folder alone
    for line in done.lines:
        print(line, file=sys.stderr)
    return EXIT_OK


def cmd_verify(args) -> int:
    from pipeline.steps import verify

    done = verify(args.folder, args.bundle)
    if done.signed:
        print(f"{args.folder}: {done.signed}")          # whether a signed page is kept, said first
    for line in done.verdict():
        print(f"{args.folder}: {line}", file=sys.stdout if done.intact else sys.stderr)
    return EXIT_OK if done.intact else EXIT_REJECTED
