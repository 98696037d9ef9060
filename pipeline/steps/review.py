"""The month's review: its reports (monthly review, reconciliation, trends) and review_<month>.xlsx."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.core.errors import PoundError
from pipeline.core.locks import DEFAULT_WAIT

if TYPE_CHECKING:
    from pipeline.reports.render import Pages


@dataclass
class Reviewed:
    """What `review` wrote: the pages, then the workbook (and their PDFs with `pdf`)."""
    month: str
    district: str | None
    out: Path
    written: list[Path] = field(default_factory=list)
    pdfs: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)     # stderr
    figures_id: str = ""                                # of page 1 as printed
    page_one: list[dict] = field(default_factory=list)  # page 1 as printed: measure id, label, value, text shown


def filled_in(path: Path) -> bool:
    """Whether a review workbook has a decision written in it (the office's work, never overwritten)."""
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True)
    except Exception:                      # not a workbook pound can read: the office's too
        return True
    try:
        ws = wb["finding_reviews"] if "finding_reviews" in wb.sheetnames else wb.worksheets[0]
        rows = ws.iter_rows(values_only=True)
        header = [str(c or "") for c in next(rows, ())]
        if "decision" not in header:
            return True
        at = header.index("decision")
        return any(len(r) > at and r[at] not in (None, "") for r in rows)
    finally:
        wb.close()


def _free_name(out: Path, stem: str) -> str:
    """stem.xlsx, or, when OUT holds a filled-in one, the first stem_N.xlsx free beside it."""
    if not (out / f"{stem}.xlsx").exists() or not filled_in(out / f"{stem}.xlsx"):
        return f"{stem}.xlsx"
    n = 2
    while (out / f"{stem}_{n}.xlsx").exists():
        n += 1
    return f"{stem}_{n}.xlsx"


def review(db: Path, out: Path, month: str | None = None, district: str | None = None,
           local_authority: str | None = None, financial_year: str | None = None, start: dt.date | None = None,
           end: dt.date | None = None, self_contained: bool = False, pdf: bool = False,
           wait: float = DEFAULT_WAIT) -> Reviewed:
    """Render the reports of one month (or of the last month of a year or a range) into `out`, and
    review_<month>.xlsx with the findings waiting for the District Magistrate's decisions."""
    from pipeline.read.database import as_of, connect, stale_warning
    from pipeline.read.scope import scope_of
    from pipeline.reports.render import report_suffix

    db = Path(db)
    # Reading commands open the database read-only (any number at once); while a writer holds
    # it they wait for it, as writers do.
    con = connect(db, wait=wait)
    try:
        scope = scope_of(con, district, local_authority, financial_year, month, start, end)
        drawn_up_to = as_of(con)
    finally:
        con.close()
    if scope.end is None and (scope.start is None or drawn_up_to is None):
        raise PoundError("name a period: --month YYYY-MM, --financial-year 2026-27 or --from DATE --to DATE")
    # A year or a range is drawn for its last month, or for the month the accounts are drawn up
    # to when the period runs past it (a year still running); --from alone runs to that day too.
    last = min(d for d in (scope.end, drawn_up_to) if d is not None)
    the_month = month or f"{last:%Y-%m}"
    period = None if month else (scope.start, scope.end)
    done = Reviewed(the_month, scope.district, Path(out))
    written = write_review(db, the_month, scope.district, out, scope.local_authority, period,
                           self_contained=self_contained, pdf=pdf)
    done.written = list(written)
    done.pdfs = list(written.pdfs)
    done.notes += written.notes
    sheet = done.written[-1] if done.written else None
    if sheet is not None and not sheet.name.startswith(f"review_{the_month}{report_suffix(scope.district)}.x"):
        done.notes.append(f"note: {sheet.with_name(sheet.name.rsplit('_', 1)[0] + '.xlsx')} has decisions written in "
                          f"it and is kept as it is; the new review workbook is {sheet}")
    from pipeline.close.printed import remember

    # page 1 as printed, remembered: a close later says which of its figures moved since
    done.figures_id, done.page_one = remember(db, the_month, scope.district, wait=wait, pages=written.hashes)
    stale = stale_warning(db, wait)
    if stale:
        done.notes.append(stale)
    if scope.local_authority:
        done.notes.append(f"note: --local-authority {scope.local_authority} limits the reconciliation page; the "
                          f"monthly review and the trends are by pound, for {scope.district or 'every district'}")
    return done


def write_review(db: Path, month: str, district: str | None, out: Path, local_authority: str | None = None,
                 period: tuple | None = None, self_contained: bool = False, pdf: bool = False) -> Pages:
    """The reports of a month (and the plotly.js they share, unless `self_contained`), and
    review_<month>.xlsx with its open findings for decisions, and with `pdf` each page printed to
    PDF beside it (Pages.pdfs): written as a set (core/staged.py), so a report that fails, or a run
    that is stopped, leaves OUT as it was."""
    from pipeline.core.faults import point
    from pipeline.core.staged import Staged
    from pipeline.outputs.review_sheet import write_review_workbook
    from pipeline.read.database import check_district, connect
    from pipeline.reports.render import Pages, render_reports, report_suffix

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PoundError(f"--out {out} exists and is not a folder")
    if pdf:
        from pipeline.documents.pdf import chromium

        chromium()                   # asked first: without it nothing is written
    with Staged(out) as st:
        written = render_reports(db, month, district, st.folder, local_authority, period,
                                 self_contained=self_contained)
        con = connect(db)
        try:
            district = check_district(con, district)
            name = _free_name(out, f"review_{month}{report_suffix(district)}")
            written.append(write_review_workbook(con, month, district, st.folder / name))
        finally:
            con.close()
        pdfs = []
        if pdf:
            from pipeline.documents.pdf import print_reports

            pdfs = print_reports([p for p in written if p.suffix == ".html"])
        point("review:written")
        st.commit()
    # in the order written: the pages, then the workbook
    done = Pages([out / p.name for p in written], written.notes, hashes=written.hashes)
    done.pdfs = [out / p.name for p in pdfs]
    return done
