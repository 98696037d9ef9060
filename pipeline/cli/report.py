"""pound report: the HTML reports of a month."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_scope_arguments, add_wait, command, holds, wait_of


def add(sub) -> None:
    rp = command(sub, "report", "render the HTML reports of one month (monthly review, reconciliation, trends) and "
                 "review_MONTH.xlsx, the findings up to the month still waiting for the District Magistrate's decisions",
                 "pound report --db out/pound.duckdb --month 2026-10 --district Mysuru --out reports/")
    rp.add_argument("--db", type=Path, required=True, help="the database of pound run, or of pound ingest and pound build")
    rp.add_argument("--out", type=Path, required=True, help="folder for the three pages and review_MONTH.xlsx")
    add_wait(rp)
    add_scope_arguments(rp)
    rp.epilog = ("The monthly pages are for --month, or for the last month of --financial-year or --from/--to "
                 "(no later than the month the accounts are drawn up to); the reconciliation's balances "
                 "(section 2b) cover the whole period and --local-authority.")
    rp.add_argument("--pdf", action="store_true", help="also print each report to PDF beside its HTML "
                    "(needs Debian's chromium); the PDF is the form to send by e-mail")
    rp.add_argument("--self-contained", action="store_true", help="each page holds its own copy of plotly.js "
                    "(about 5 MB a page), to be sent alone; by default the pages share one plotly.min.js "
                    "written beside them")
    rp.set_defaults(func=cmd_report)


@holds()
def cmd_report(args) -> int:
    from pipeline.steps import review

    done = review(args.db, args.out, month=args.month, district=args.district, local_authority=args.local_authority,
                  financial_year=args.financial_year, start=args.start, end=args.end,
                  self_contained=args.self_contained, pdf=getattr(args, "pdf", False), wait=wait_of(args))
    for note in done.notes:
        print(note, file=sys.stderr)
    for p in [*done.written, *done.pdfs]:
        print(p)
    return EXIT_OK

