"""review_<month>.xlsx: the findings up to the month still open (the month's own first), ready for the
District Magistrate's decisions.

The sheet is named `finding_reviews` and has the register's columns, filled in except the
decision and the note: rule_id, subject_id, reviewed_on (the date the accounts are drawn up
to), reviewed_by. The office fills in a decision for each finding it has decided (the cell
offers the five), changes the date or the name if need be, and drops the file into the
bundle's registers/ folder: the next `pound run` or `pound ingest` loads it like any register.
Rows left without a decision are blank and must be deleted first (a decision is required).
Columns after the register's (what the finding is) are kept by the loader but not read.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from pipeline.core.months import day_text
from pipeline.core.registers import BY_NAME, DECISIONS, REVIEW_HELP_SHEET
from pipeline.outputs.xlsx import safe_text
from pipeline.read.database import as_of
from pipeline.read.select import Cond, col, select_records

REGISTER = BY_NAME["finding_reviews"]
CONTEXT = ("severity", "section", "event_on", "pound_id", "days_open", "detail")
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")
TO_FILL = PatternFill("solid", fgColor="FFF2CC")


def open_findings(con, month: str, district: str | None = None):
    """The findings of the month, then those of earlier months, still waiting for a decision (one
    dict per finding): a finding left undecided comes back in every month's workbook until decided."""
    where = [Cond("month", "<=", month), Cond("review_status", "=", "open")]
    if district:
        where.append(Cond("district", "=", district))
    return select_records(con, "findings", col("rule_id"), col("subject_id"), col("district"),
                          *(col(c) for c in CONTEXT), where=where,
                          order=["month DESC", "severity_rank", "event_on", "rule_id", "subject_id"],
                          key=["rule_id", "subject_id"])


def write_review_workbook(con, month: str, district: str | None, path: Path) -> Path:
    """Write the workbook (atomically) and return its path."""
    rows = open_findings(con, month, district)
    day = as_of(con) or dt.date.today()
    wb = Workbook()
    ws = wb.active
    ws.title = REGISTER.name
    names = list(REGISTER.required_names) + list(CONTEXT)
    ws.append(names)
    for cell in ws[1]:
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
    for r in rows:
        by = "District Magistrate" + (f", {r['district']}" if r.get("district") else "")
        context = [r[c] for c in CONTEXT]
        ws.append([r["rule_id"], r["subject_id"], day, by, None, None, *context])
        for cell in ws[ws.max_row]:
            if isinstance(cell.value, str) and not safe_text(cell.value):
                cell.data_type, cell.quotePrefix = "s", True   # register text is never run as a formula
    last = ws.max_row
    decision_col = names.index("decision") + 1
    note_col = names.index("note") + 1
    check = DataValidation(type="list", formula1='"' + ",".join(DECISIONS) + '"', allow_blank=True,
                           errorTitle="Not a decision", error="Choose one of: " + ", ".join(DECISIONS))
    ws.add_data_validation(check)
    for i in range(2, last + 1):
        for day_col in ("reviewed_on", "event_on"):          # dates, as dates, written as the pages write them
            ws.cell(i, names.index(day_col) + 1).number_format = "dd-mm-yyyy"
        for c in (decision_col, note_col):
            ws.cell(i, c).fill = TO_FILL
        check.add(ws.cell(i, decision_col))
        ws.cell(i, names.index("detail") + 1).alignment = Alignment(wrap_text=True, vertical="top")
    widths = {"rule_id": 26, "subject_id": 14, "reviewed_on": 13, "reviewed_by": 30, "decision": 16, "note": 40,
              "detail": 80}
    for i, n in enumerate(names, 1):
        ws.column_dimensions[ws.cell(1, i).column_letter].width = widths.get(n, 12)
    ws.freeze_panes = "A2"
    help_ = wb.create_sheet(REVIEW_HELP_SHEET)
    for line in (
        f"The findings of {month} at the pounds{' of ' + district if district else ''} that no decision has been recorded for,",
        "then those of earlier months still waiting (the day of each finding's event is in event_on).",
        "For each finding decided, choose the decision (explained, action_ordered, accepted, referred, reopened)",
        "and write a short note. Delete the rows not decided. Keep the sheet's name, finding_reviews.",
        "Save the workbook into the bundle's registers/ folder; the next pound run or pound ingest loads it.",
        f"reviewed_on is filled in with {day_text(day)}, the date the accounts are drawn up to; a decision may not be",
        "dated after that date.",
    ):
        help_.append([line])
    help_.column_dimensions["A"].width = 110
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    wb.save(tmp)
    tmp.replace(path)
    return path
