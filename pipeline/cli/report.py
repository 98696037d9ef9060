"""pound report: the HTML reports of a month."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_scope_arguments, add_wait, command, wait_of


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


def cmd_report(args) -> int:
    from pipeline.cli.workbook import scope_of
    from pipeline.core.errors import PoundError
    from pipeline.read.database import as_of, connect

    # Reading commands open the database read-only (any number at once); while a writer holds
    # it they wait for it, as writers do.
    con = connect(args.db, wait=wait_of(args))
    try:
        scope = scope_of(args, con)
        drawn_up_to = as_of(con)
    finally:
        con.close()
    if scope.end is None and (scope.start is None or drawn_up_to is None):
        raise PoundError("name a period: --month YYYY-MM, --financial-year 2026-27 or --from DATE --to DATE")
    # A year or a range is drawn for its last month, or for the month the accounts are drawn up
    # to when the period runs past it (a year still running); --from alone runs to that day too.
    last = min(d for d in (scope.end, drawn_up_to) if d is not None)
    month = args.month or f"{last:%Y-%m}"
    period = None if args.month else (scope.start, scope.end)
    written = month_papers(args.db, month, scope.district, args.out, scope.local_authority, period,
                           self_contained=args.self_contained)
    if scope.local_authority:
        print(f"note: --local-authority {scope.local_authority} limits the reconciliation page; the monthly review "
              f"and the trends are by pound, for {scope.district or 'every district'}", file=sys.stderr)
    for p in written:
        print(p)
    if getattr(args, "pdf", False):
        from pipeline.documents.pdf import print_reports

        for p in print_reports([p for p in written if p.suffix == ".html"]):
            print(p)
    return EXIT_OK


def month_papers(db: Path, month: str, district: str | None, out: Path, local_authority: str | None = None,
                 period: tuple | None = None, self_contained: bool = False) -> list[Path]:
    """The reports of a month (and the plotly.js they share, unless `self_contained`), and
    review_<month>.xlsx with its open findings for decisions:
    written as a set (core/staged.py), so a report that fails, or a run that is stopped, leaves OUT
    as it was."""
    from pipeline.core.errors import PoundError
    from pipeline.core.staged import Staged
    from pipeline.outputs.review_sheet import write_review_workbook
    from pipeline.read.database import check_district, connect
    from pipeline.reports.render import render_reports, report_suffix

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    with Staged(out) as st:
        written = render_reports(db, month, district, st.folder, local_authority, period,
                                 self_contained=self_contained)
        con = connect(db)
        try:
            district = check_district(con, district)
            written.append(write_review_workbook(con, month, district,
                                                 st.folder / f"review_{month}{report_suffix(district)}.xlsx"))
        finally:
            con.close()
        st.commit()
    return [out / p.name for p in written]         # in the order written: the pages, then the workbook
