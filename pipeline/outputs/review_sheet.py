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

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from pipeline.build.record import stale_notice
from pipeline.core.months import day_text
from pipeline.core.registers import BY_NAME, DECISIONS, REVIEW_HELP_SHEET
from pipeline.core.whole import written_whole
from pipeline.outputs.sheet_layout import print_setup
from pipeline.outputs.xlsx import safe_text
from pipeline.read.database import as_of
from pipeline.read.select import Cond, col, select_records

REGISTER = BY_NAME["finding_reviews"]
CONTEXT = ("severity", "section", "event_on", "pound_id", "days_open", "review_status")
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")
TO_FILL = PatternFill("solid", fgColor="FFF2CC")


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
    """Write the workbook (atomically) and return its path."""
    rows = open_findings(con, month, district)
    day = as_of(con) or dt.date.today()         # named in the help, never written as a decision's date
    wb = Workbook()
    ws = wb.active
    ws.title = REGISTER.name
    names = list(REGISTER.required_names) + list(CONTEXT) + ["finding_detail"]
    ws.append(names)
    for cell in ws[1]:
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
    width = len(names)

    def cells(i: int):          # a row's cells (ws[i] and ws.max_row walk every cell of the sheet)
        return [ws.cell(i, c) for c in range(1, width + 1)]

    for n, r in enumerate(rows, 2):
        by = "District Magistrate" + (f", {r['district']}" if r.get("district") else "")
        context = [r[c] for c in CONTEXT]
        ws.append([r["rule_id"], r["subject_id"], None, by, None, None, *context, r["detail"]])
        for cell in cells(n):
            if isinstance(cell.value, str) and not safe_text(cell.value):
                cell.data_type, cell.quotePrefix = "s", True   # register text is never run as a formula
    last = len(rows) + 1
    decision_col = names.index("decision") + 1
    note_col = names.index("note") + 1
    check = DataValidation(type="list", formula1='"' + ",".join(DECISIONS) + '"', allow_blank=True,
                           errorTitle="Not a decision", error="Choose one of: " + ", ".join(DECISIONS))
    ws.add_data_validation(check)
    top, wrapped = Alignment(vertical="top"), Alignment(wrap_text=True, vertical="top")   # made once, set on many
    detail_col = names.index("finding_detail") + 1
    if last > 1:                # one range, not a cell at a time (each add walks the ranges held)
        letter = ws.cell(1, decision_col).column_letter
        check.add(f"{letter}2:{letter}{last}")
    for i in range(2, last + 1):
        for day_col in ("reviewed_on", "event_on"):          # dates, as dates, written as the pages write them
            ws.cell(i, names.index(day_col) + 1).number_format = "dd-mm-yyyy"
        for c in (names.index("reviewed_on") + 1, decision_col, note_col):
            ws.cell(i, c).fill = TO_FILL
        for cell in cells(i):                                # a row reads from its top line, beside its detail
            cell.alignment = top
        detail = ws.cell(i, detail_col)
        detail.alignment = ws.cell(i, note_col).alignment = wrapped
        # printed, the finding is whole: its row as tall as its wrapped lines (about 52 characters each)
        ws.row_dimensions[i].height = 15 * max(1, -(-len(str(detail.value or "")) // 52))
    # subject_id as wide as an overdue credit's "H-2610-018:surplus", which spilled into reviewed_on
    # (printed one A4 page wide, landscape, at about two thirds of full size: the detail and the note wrap)
    widths = {"rule_id": 22, "subject_id": 20, "reviewed_on": 13, "reviewed_by": 28, "decision": 16, "note": 30,
              "severity": 9, "section": 10, "event_on": 11, "pound_id": 9, "days_open": 10, "review_status": 13,
              "finding_detail": 50}
    for i, n in enumerate(names, 1):
        ws.column_dimensions[ws.cell(1, i).column_letter].width = widths.get(n, 12)
    ws.freeze_panes = "A2"
    help_ = wb.create_sheet(REVIEW_HELP_SHEET)
    stale = stale_notice(con)
    if stale:      # files loaded after the figures: said first, on the sheet the workbook opens on
        help_.append([stale])
        help_["A1"].font = Font(bold=True, color="C00000")
        help_.append([])
        wb.move_sheet(help_, offset=-wb.index(help_))
        wb.active = 0
        ws.sheet_view.tabSelected = False
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
    help_.column_dimensions["A"].width = 110
    print_setup(ws)
    print_setup(help_, title_rows=None)
    path = Path(path)
    with written_whole(path) as partial:
        wb.save(partial)
    return path
