"""review_<month>.xlsx: the findings up to the month still open (the month's own first, then those
reopened or waiting from earlier months), ready for the District Magistrate's decisions.

The sheet is named `finding_reviews` and has the register's columns: rule_id, subject_id,
reviewed_on (left blank: the day the decision is made, which is after the month; never the accounts'
date, which would date it back), reviewed_by, decision and note (blank, for the office), and
finding_detail, the finding as it stands: loaded with the decision, it ties the decision to these
figures, and a correction that moves them opens the finding again. The office fills in the date, a
decision for each finding decided (the cell offers the five) and a note, and drops the file into the
bundle's registers/ folder: the next `pound run` or `pound ingest` loads it like any register. A row
left without a decision is a finding not decided yet: the loader passes it over and counts it.
Columns after the register's (what the finding is) are kept by the loader but not read.
When files were loaded after the figures, the help sheet comes first, the workbook opens on it,
and its first line says so (the loader reads sheets by name, and passes the help sheet over).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from pipeline.build.record import stale_notice
from pipeline.core.months import day_text
from pipeline.core.registers import BY_NAME, DECISIONS, REVIEW_HELP_SHEET
from pipeline.outputs import xlsx
from pipeline.outputs.xlsx import Cell
from pipeline.read.database import as_of
from pipeline.read.select import Cond, col, select_records

REGISTER = BY_NAME["finding_reviews"]
CONTEXT = ("severity", "section", "event_on", "pound_id", "days_open", "review_status")
# subject_id as wide as an overdue credit's "H-2610-018:surplus", which spilled into reviewed_on
# (printed one A4 page wide, landscape, at about two thirds of full size: the detail and the note wrap)
WIDTHS = {"rule_id": 22, "subject_id": 20, "reviewed_on": 13, "reviewed_by": 28, "decision": 16, "note": 30,
          "severity": 9, "section": 10, "event_on": 11, "pound_id": 9, "days_open": 10, "review_status": 13,
          "finding_detail": 50}
# a cell of each column as written, every one reading from its row's top line: the three the office
# fills in shaded, dates as the pages write them, the detail and the note wrapped
STYLE = {"reviewed_on": xlsx.TO_FILL_DATE, "decision": xlsx.TO_FILL, "note": xlsx.TO_FILL_WRAPPED,
         "event_on": xlsx.TOP_DATE, "finding_detail": xlsx.WRAPPED}


def open_findings(con, month: str, district: str | None = None):
    """The findings of the month, then those of earlier months, still waiting for a decision (one
    dict per finding): a finding left undecided comes back in every month's workbook until decided."""
    where = [Cond("month", "<=", month), Cond("review_status", "in", ["open", "reopened"])]
    if district:
        where.append(Cond("district", "=", district))
    return select_records(con, "findings", col("rule_id"), col("subject_id"), col("district"),
                          *(col(c) for c in CONTEXT), col("detail"), where=where,
                          order=["month DESC", "severity_rank", "event_on", "rule_id", "subject_id"],
                          key=["rule_id", "subject_id"])


def write_review_workbook(con, month: str, district: str | None, path: Path) -> Path:
    """Write the workbook (whole: xlsx.Workbook puts it in place only once it is written) and return
    its path."""
    rows = open_findings(con, month, district)
    day = as_of(con) or dt.date.today()         # named in the help, never written as a decision's date
    names = list(REGISTER.required_names) + list(CONTEXT) + ["finding_detail"]
    styles = [STYLE.get(n, xlsx.TOP) for n in names]
    with xlsx.Workbook(Path(path)) as wb:
        ws = wb.sheet(REGISTER.name, widths=[WIDTHS.get(n, 12) for n in names])
        ws.append([Cell(n, xlsx.HEADER) for n in names])
        for r in rows:
            by = "District Magistrate" + (f", {r['district']}" if r.get("district") else "")
            values = [r["rule_id"], r["subject_id"], None, by, None, None, *(r[c] for c in CONTEXT), r["detail"]]
            # printed, the finding is whole: its row as tall as its wrapped lines (about 52 characters each)
            ws.append([Cell(v, style) for v, style in zip(values, styles, strict=True)],
                      height=15 * max(1, -(-len(str(r["detail"] or "")) // 52)))
        if rows:
            letter = xlsx.column_letter(names.index("decision") + 1)
            ws.choose_from(f"{letter}2:{letter}{len(rows) + 1}", DECISIONS, "Not a decision",
                           "Choose one of: " + ", ".join(DECISIONS))
        # the help: when files were loaded after the figures, it comes first, and the workbook opens on
        # it, its first line saying so (the loader reads sheets by name, and passes the help sheet over)
        stale = stale_notice(con)
        help_ = wb.sheet(REVIEW_HELP_SHEET, widths=[110], frozen=False, first=bool(stale))
        if stale:
            help_.append([Cell(stale, xlsx.WARNING)])
            help_.append([])
        for line in (
            f"The findings of {month} at the pounds{' of ' + district if district else ''} that no decision has been recorded for,",
            "then those of earlier months still waiting (the day of each finding's event is in event_on).",
            "reopened in review_status: a decision was recorded on it, but a correction has since moved its figures; decide it again.",
            "For each finding decided, write in reviewed_on the day the decision is made (it is after the month; the accounts",
            f"are drawn up to {day_text(day)}), choose the decision (explained, action_ordered, accepted, referred, reopened)",
            "and write a short note. A row left without a decision is passed over as not decided yet (and counted).",
            "Leave finding_detail as it is: it records the finding the decision is made on. Keep the sheet's name, finding_reviews.",
            "Save the workbook into the bundle's registers/ folder; the next pound run or pound ingest loads it.",
            "A decision may not be dated after the day it is loaded.",
        ):
            help_.append([line])
        wb.save()
    return Path(path)
