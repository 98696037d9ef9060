"""pound documents: the papers the Act asks officials to produce, from a built database."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_wait, command, date, holds, month, wait_of


def add(sub) -> None:
    dp = command(sub, "documents", "write the statutory papers as A4 pages: reports to the police and notices "
                 "(s.15), accounts of sale (s.17(3)), receipts for cattle delivered (s.12(2)) and for security (s.13), and the findings "
                 "memo for each pound-keeper; index.html links them",
                 "pound documents --db out/pound.duckdb --out papers/ --pound P01 --from 2026-10-01 "
                 "--to 2026-10-31 --pdf\n  pound documents --db pound.duckdb --out papers_2026-11/ --month 2026-11 --pdf")
    dp.add_argument("--db", type=Path, required=True, help="the database of pound run, or of pound ingest and pound build")
    dp.add_argument("--out", type=Path, required=True, help="folder for the papers and their index")
    dp.add_argument("--case", action="append", default=[], metavar="ID", help="only this case (may be repeated)")
    dp.add_argument("--pound", default=None, metavar="ID", help="only this pound")
    dp.add_argument("--from", dest="first", type=date, default=None, metavar="DATE",
                    help="only papers dated on or after DATE (YYYY-MM-DD, or DD/MM/YYYY)")
    dp.add_argument("--to", dest="last", type=date, default=None, metavar="DATE",
                    help="only papers dated on or before DATE (YYYY-MM-DD, or DD/MM/YYYY)")
    dp.add_argument("--month", type=month, default=None, metavar="YYYY-MM",
                    help="only papers dated in this month, from the month's own accounts: the database is built as "
                         "of its last day (or today, while it is not over) first when its last build is of another "
                         "day (in place of --from and --to)")
    dp.add_argument("--templates", type=Path, default=None, metavar="DIR",
                    help="a folder of templates to use instead of the package's (same file names)")
    dp.add_argument("--pdf", action="store_true", help="also print each page to PDF, and one PDF per kind")
    dp.add_argument("--lang", choices=("en", "kn", "both"), default=None,
                    help="the language of the papers the public reads: en, kn (Kannada) or both (Kannada first, "
                         "English below); default: the parameter papers_lang the database was built with (en)")
    add_wait(dp)
    dp.set_defaults(func=cmd_documents)


@holds()
def cmd_documents(args) -> int:
    from pipeline.core.errors import PoundError
    from pipeline.core.months import month_bounds
    from pipeline.steps import folder_of, papers
    from pipeline.steps.month_build import built_to, drawn_to, not_over

    if args.month:
        if args.first or args.last:
            raise PoundError("--month names the papers' dates: give --month, or --from and --to, not both")
        if not args.db.exists():
            raise PoundError(f"database {args.db} does not exist; create it with 'pound ingest' or 'pound run'")
        args.first, args.last = month_bounds(args.month)
        exports = folder_of(args.db.parent, args.month) / "exports"
        said = built_to(args.db, drawn_to(args.month), args.month, exports, wait=wait_of(args))
        for i, line in enumerate(said):
            print(f"{line} (its exports in {exports})" if i == 0 else line, file=sys.stderr)
        running = not_over(args.month)
        if running:
            print(f"note: {running}", file=sys.stderr)
    done = papers(args.db, args.out, tuple(args.case), args.pound, args.first, args.last, args.templates,
                  pdf=args.pdf, wait=wait_of(args), lang=args.lang)
    for note in done.notes:
        print(note, file=sys.stderr)
    print(done.summary())
    print(f"open {done.index} to see them")
    if args.pdf:
        print(f"printed {len(done.pdfs):,} PDF files into {args.out} (one per paper, and one per kind: <kind>_all.pdf)")
    return EXIT_OK
