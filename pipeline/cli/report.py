"""pound report: the HTML reports of a month."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, add_wait, command, month, wait_of


def add(sub) -> None:
    rp = command(sub, "report", "render the HTML reports of one month (monthly review, reconciliation, trends) and "
                 "review_MONTH.xlsx, the month's open findings for the District Magistrate's decisions",
                 "pound report --db out/pound.duckdb --month 2026-10 --district Mysuru --out reports/")
    rp.add_argument("--db", type=Path, required=True)
    rp.add_argument("--month", type=month, required=True, help="YYYY-MM")
    rp.add_argument("--district", default=None, help="limit the reports to one district")
    rp.add_argument("--out", type=Path, required=True)
    add_wait(rp)
    rp.set_defaults(func=cmd_report)


def cmd_report(args) -> int:
    from pipeline.read.database import connect

    # Reading commands open the database read-only (any number at once); while a writer holds
    # it they wait for it, as writers do.
    connect(args.db, wait=wait_of(args)).close()
    for p in month_papers(args.db, args.month, args.district, args.out):
        print(p)
    return EXIT_OK


def month_papers(db: Path, month: str, district: str | None, out: Path) -> list[Path]:
    """The three reports of a month, and review_<month>.xlsx with its open findings for decisions."""
    from pipeline.outputs.review_sheet import write_review_workbook
    from pipeline.read.database import check_district, connect
    from pipeline.reports.render import render_reports, report_suffix

    paths = render_reports(db, month, district, out)
    con = connect(db)
    try:
        district = check_district(con, district)
        paths.append(write_review_workbook(con, month, district, Path(out) / f"review_{month}{report_suffix(district)}.xlsx"))
    finally:
        con.close()
    return paths
