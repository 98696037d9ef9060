"""pound report: the HTML reports of a month."""

from __future__ import annotations

from pathlib import Path

from pipeline.cli.common import EXIT_OK, command, month


def add(sub) -> None:
    rp = command(sub, "report", "render the HTML reports of one month (monthly review, reconciliation, trends)",
                 "pound report --db out/pound.duckdb --month 2026-10 --district Mysuru --out reports/")
    rp.add_argument("--db", type=Path, required=True)
    rp.add_argument("--month", type=month, required=True, help="YYYY-MM")
    rp.add_argument("--district", default=None, help="limit the reports to one district")
    rp.add_argument("--out", type=Path, required=True)
    rp.set_defaults(func=cmd_report)


def cmd_report(args) -> int:
    from pipeline.reports.render import render_reports

    paths = render_reports(args.db, args.month, args.district, args.out)
    for p in paths:
        print(p)
    return EXIT_OK
