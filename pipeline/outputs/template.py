"""registers_<month>.xlsx: the workbook a pound-keeper or a clerk fills in, one sheet per register
the pound keeps, that loads as it is from a bundle's registers/ folder (`pound template`).

Each sheet is named as the loader reads it and has the register's header row, read from
core/registers.py when the workbook is made (a column added there is in the next workbook).
Cells refuse, as they are typed in Excel or LibreOffice, what the loader would refuse anyway:
a pound, class or listed value not on its list, a date that is not one, a negative or fractional
count, a negative amount; each refusal says in words what the cell takes (a taluk not on its list
is only warned of: a removal order may be of a taluk with no pound). The lists are the
bundle's and the registers' (bundle_lists.py). Each header cell carries a comment (what to write, the section of
the Act, an example, the Kannada title) and each cell below an input message with the same
help. The sheet "how to fill in" (which the loader passes over) says how corrections are made,
lists every column with its Kannada title, and holds the pick-lists the cells' lists point at.
The register sheets hold values only: no macro, no formula, no hidden sheet; a date's and an
amount's check is a name of the sheet (date_ok, amount_ok) holding a formula of the cell, which
takes what the loader's parser takes (day-first dates, 1,20,000; cell_checks.py). What a cell cannot check (a
blank required cell, a case that names no impoundment) the loader still rejects, naming the
sheet, row, column and value.

A pound's copy (`pound`) adds the sheet "what is due" (due_sheet.py), which the loader passes
over: each release's fines and feeding worked out by formulas, and, with the month and the accounts, the
cases still in the pound when the month began, offered in the cells' lists of cases. It is saved
as registers_<month>_<pound>.xlsx, one file a pound a month. A ledger's entry workbook
(`ledger`: local_fund, dm_deposit) has that ledger's sheet, with lists of the bundle's local
authorities and cases; the DM's office's register of claims to the surplus it holds (`ledger`:
surplus_claims, saved into registers/) is offered the same way. Every sheet prints one A4 page wide with its header row on every page.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from pipeline.core.registers import (
    BY_NAME,
    COUNT,
    DATE,
    DUE_SHEET,
    ENUM,
    FLAG,
    ID,
    MONEY,
    REVIEW_HELP_SHEET,
    TEXT,
    TIME,
    Column,
    Register,
)
from pipeline.core.whole import written_whole
from pipeline.outputs.bundle_lists import CASES, FROM_REFERENCE, SHEETS, pick_lists
from pipeline.outputs.cell_checks import AMOUNT_PARTS, amount_check, date_check, for_cell
from pipeline.outputs.due_sheet import carried_cases, counts_nights, due_sheet, pound_rates
from pipeline.outputs.sheet_layout import DATE_FORMAT, HEADER_FILL, HEADER_FONT, MONEY_FORMAT, TIME_FORMAT, print_setup
from pipeline.outputs.template_help import SHEET_KANNADA, column_help, takes
from pipeline.outputs.template_help_kn import what_kannada

CASE_ROWS = 200            # the impoundments sheet's rows the list of cases takes in
LAST_ROW = 1_048_576                          # a cell's checks hold for the whole column
HELP_WIDTHS = (16, 20, 26, 44, 14, 20, 40)      # the help sheet's columns A to G
HELP_LINE = sum(HELP_WIDTHS) - 10              # about the characters of an instruction a line holds
LIST_COLUMN = 10                               # the pick-lists start in column J of the help sheet


def write_template(bundle: Path, path: Path, pound: str | None = None, month: str | None = None,
                   db: Path | None = None, ledger: str | None = None, params: Path | None = None) -> Path:
    """Write the workbook (atomically: a killed command leaves no half workbook) and return its path.
    A pound-keeper's copy (`pound`) has the sheet "what is due"; with `month` and the accounts (`db`),
    the cases still in the pound when the month began are on it and in the cells' lists of cases.
    `ledger` (local_fund, dm_deposit, surplus_claims): that ledger's (or the DM's register of claims') workbook instead, its lists the bundle's
    local authorities and cases. The sheet counts feeding days as the accounts do: as the database's
    own readings say, else as `params` (the file pound run is given) or the defaults say."""
    sheets = (ledger,) if ledger else SHEETS
    lists = pick_lists(bundle, pound, sheets)
    month_start = dt.date(int(month[:4]), int(month[5:7]), 1) if month else None
    carried, nights = (carried_cases(db, pound, month_start) if (db is not None and pound and month_start)
                       else ([], counts_nights(params)))
    if not ledger:
        lists[CASES] = [c["case_id"] for c in carried]
    wb = Workbook()
    wb.remove(wb.active)
    for name in sheets:
        _register_sheet(wb.create_sheet(name), BY_NAME[name])
    where = _help_sheet(wb.create_sheet(REVIEW_HELP_SHEET), lists, pound, month, sheets)
    for name in sheets:
        _checks(wb[name], BY_NAME[name], where)
    if pound and not ledger:
        taluk = lists["taluk"][0] if lists["taluk"] else "*"
        due_sheet(wb.create_sheet(DUE_SHEET), carried, pound_rates(bundle, taluk), month_start, taluk, nights)
    path = Path(path)
    with written_whole(path) as partial:
        wb.save(partial)
    return path


def _ledger_lines(ledger: str, month: str | None) -> list[str]:
    """The instructions of a ledger's entry workbook."""
    whose = {"local_fund": "the local fund's ledger: what each local authority's fund recorded as credited "
                           "(fines under s.18(2), unclaimed surplus from the District Magistrate under s.18(5))",
             "dm_deposit": "the District Magistrate's deposit account: unclaimed sale surplus received, credited "
                           "to a local fund, or refunded to a claimant (s.18(5))",
             "surplus_claims": "the claims made to the District Magistrate for the unclaimed surplus of a sale he "
                               "holds, and the day each was established (s.18(5)): a refund to a claimant is in "
                               "order only on a claim made within his six months and established by the refund's "
                               "day"}[ledger]
    if ledger == "surplus_claims":     # a register of the DM's office, kept beside his deposit account
        how = ("Choose the case from the cell's list (the bundle's cases); write the claimant's name, the day the "
               "claim was made, and the day it was established (blank while it is not). A date is shown day first: "
               "type it as 05-11-2026 or 05/11/2026 (or year first, 2026-11-05). Amounts in rupees, as 600, 1200.50 "
               "or 1,20,000.")
        save = (f"Save the workbook (as .xlsx) into the bundle's registers/ folder as {ledger_file_name(ledger, month)}; "
                "the next pound run or pound ingest loads it and sets each refund of the deposit account against it.")
    else:
        how = ("Choose the local authority and the head or kind from the cell's list; write in reference the case the "
               "entry is for (chosen from the list of the bundle's cases) or the receipt's number. A date is shown day "
               "first: type it as 05-11-2026 or 05/11/2026 (or year first, 2026-11-05). Amounts in rupees, as 600, "
               "1200.50 or 1,20,000.")
        save = (f"Save the workbook (as .xlsx) into the bundle's ledgers/ folder as {ledger_file_name(ledger, month)}; "
                "the next pound run or pound ingest loads it and reconciles it with what the accounts say was due.")
    kind, a = ("claim", "a") if ledger == "surplus_claims" else ("entry", "an")
    shown = "the register" if kind == "claim" else "the ledger or the bank's statement"
    return [
        f"How to fill in this workbook ({ledger})",
        f"One row for each {kind} of {whose}, as {shown} shows it.",
        how,
        "Each column's name has a note saying what to write there, and an example. A cell that is not right is "
        "refused as you type it, saying why.",
        save,
        f"Corrections. Once a workbook has been sent, do not change it: {a} {kind} sent in error is corrected in the "
        "next month's workbook.",
        f"  To correct {a} {kind}: write it again, with the same {kind}_id and the right values, and say why in "
        "correction_note. The latest version is used; both are kept.",
        f"  To strike out {a} {kind} written in error: write it again with void = yes and a correction_note. "
        "Leave correction_note and void blank on every other row.",
        "",
    ]


def ledger_file_name(ledger: str, month: str | None) -> str:
    """The name a ledger's entry workbook is saved under: one file a ledger a month."""
    return f"{ledger}_{month or '2026-11'}.xlsx"


def file_name(month: str | None, pound: str | None) -> str:
    """The name a keeper's workbook is saved under: one file a pound a month."""
    return f"registers_{month or '2026-11'}_{pound or 'P01'}.xlsx"


def list_of(col: Column) -> str | None:
    """The name of the pick-list a column's cells offer, if any."""
    if col.name in FROM_REFERENCE:
        return col.name
    if col.refers_to == "impoundments.case_id" or col.name == "reference":      # a ledger entry's case
        return CASES
    if col.refers_to == "local_authorities.local_authority_id":
        return "local_authority_id"
    if col.kind == FLAG:
        return "yes_no"
    return col.name if col.kind == ENUM else None


def _register_sheet(ws, reg: Register) -> None:
    ws.append(reg.names)
    for i, col in enumerate(reg.columns, 1):
        cell = ws.cell(1, i)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        h = column_help(reg, col)
        kn = what_kannada(reg.name, col.name)
        text = (f"{col.name}" + (f" ({h.kannada})" if h.kannada else "") + f"\n{h.what}."
                + (f"\n{kn}." if kn else "") + f"\n{takes(col)}.")
        if h.section:
            text += f"\nThe Act: {h.section}."
        if h.example:
            text += f"\nExample: {h.example}"
        cell.comment = Comment(text, "pound template", width=320, height=160)
        letter = get_column_letter(i)
        ws.column_dimensions[letter].width = max(16 if col.kind == TEXT else 11, min(len(col.name) + 2, 22))
        fmt = {DATE: DATE_FORMAT, MONEY: MONEY_FORMAT, TIME: TIME_FORMAT, ID: "@", TEXT: "@"}.get(col.kind)
        if fmt:        # the column's style: a cell typed into it takes the format (text stays text)
            ws.column_dimensions[letter].number_format = fmt
    ws.freeze_panes = "A2"
    print_setup(ws)


def _checks(ws, reg: Register, where: dict[str, str]) -> None:
    """One data validation a column, holding its check, its error in words and its input message."""
    for i, col in enumerate(reg.columns, 1):
        h = column_help(reg, col)
        listed = list_of(col)
        if listed:
            dv = DataValidation(type="list", formula1=where[listed], allow_blank=True)
            why = "Choose one from the list" + (f", such as {h.example}" if h.example else "")
        elif col.kind == DATE:
            dv = DataValidation(type="custom", formula1=_named(ws, "date_ok", date_check()), allow_blank=True)
            why = ("Write a date of 1966 to 2099, day first, such as 05-11-2026 or 05/11/2026 (or year first, "
                   "2026-11-05)")
        elif col.kind == MONEY:
            low = col.minimum or 0
            for part, formula in AMOUNT_PARTS.items():
                _named(ws, part, formula)
            dv = DataValidation(type="custom", formula1=_named(ws, f"amount_ok{'_' + str(low) if low else ''}",
                                                               amount_check(low)), allow_blank=True)
            why = ("Write an amount in rupees, such as 600, 1200.50 or 1,20,000 (at most two decimals)"
                   + (f", never below {low}" if low else ", never below 0"))
        elif col.kind == COUNT:
            low = col.minimum or 0
            dv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1=str(low), allow_blank=True)
            why = f"Write a whole number of {low} or more, such as {h.example or low + 1}"
        elif col.kind == TIME:
            dv = DataValidation(type="time", operator="between", formula1="0", formula2="0.999305556",
                                allow_blank=True)
            why = "Write a time of day, such as 09:30"
        else:
            dv = DataValidation(allow_blank=True)           # any text: the cell carries its input message
            why = ""
        dv.errorStyle = "stop"
        if listed == CASES and reg.folder == "ledgers":
            dv.errorStyle = "warning"           # a reference may be a receipt's or an order's number
            why = "This is not a case of the bundle; choose Yes to keep it (another reference), No to choose again"
        elif listed == CASES and reg.name == "surplus_claims":
            why = "Choose a case of the bundle from the list: a claim is to the surplus of one of its cases"
        elif listed == CASES:
            # a case of an earlier month (a correction, a late sale) is not on the list: warned, not refused
            dv.errorStyle = "warning"
            why = ("This case is not in the impoundments sheet nor in the pound when the month began; choose Yes "
                   "to keep it (a case of an earlier month), No to choose again")
        if col.name == "taluk":
            # a removal order is the Tahsildar's, and may be of a taluk where no pound of the bundle is: the
            # list warns and lets it stand, rather than refuse it
            dv.errorStyle = "warning"
            why = "This taluk is not one of the bundle's pounds' taluks; choose Yes to keep it, No to choose again"
        if why:
            dv.showErrorMessage = True
            dv.errorTitle = f"Not a {col.name}"[:32]
            dv.error = f"{why}. {col.name}: {h.what}."[:255]
        dv.showInputMessage = True
        dv.promptTitle = col.name[:32]
        dv.prompt = (f"{h.what}." + (f" Example: {h.example}." if h.example else "")
                     + (f" ({h.section})" if h.section else ""))[:255]
        letter = get_column_letter(i)
        dv.add(f"{letter}2:{letter}{LAST_ROW}")
        ws.add_data_validation(dv)


def _named(ws, name: str, check: str) -> str:
    """The name of the sheet that holds `check` for the cell it is used in (made once a sheet)."""
    if name not in ws.defined_names:
        ws.defined_names[name] = DefinedName(name, attr_text=for_cell(check, f"{quote_sheetname(ws.title)}!A1"))
    return name


def _help_sheet(ws, lists: dict[str, list[str]], pound: str | None, month: str | None = None,
                sheets: tuple[str, ...] = SHEETS) -> dict[str, str]:
    """The instructions, every column with its Kannada title, and the pick-lists; returns where
    each list is, as a data validation names it."""
    lines = _ledger_lines(sheets[0], month) if sheets != SHEETS else [
        "How to fill in this workbook" + (f" (pound {pound})" if pound else ""),
        "One sheet for each register the pound keeps. Write one row for each case, release, report, sale, "
        "complaint, deposit or order; keep the first row (the column names) and the sheets' names as they are.",
        "Choose a pound, a class of animal and the other listed values from the cell's list. A date is shown day "
        "first: type it as 05-11-2026 or 05/11/2026 (or year first, 2026-11-05). Amounts in rupees, as 600, "
        "1200.50 or 1,20,000; yes or no where asked.",
        "Each column's name has a note saying what to write there, the section of the Act, and an example. "
        "A cell that is not right is refused as you type it, saying why.",
        f"Save the workbook (as .xlsx) into the bundle's registers/ folder named for its month and its pound, "
        f"{file_name(month, pound)}, so that no two pounds' or months' workbooks overwrite each other; "
        "the next pound run or pound ingest loads it.",
        "Corrections. Once a workbook has been sent, do not change it: a row sent in error is corrected in "
        "the next month's workbook.",
        "  To correct a row: write it again, with the same number (case_id, release_id ...) and the right "
        "values, and say why in correction_note. The latest version is used; both are kept.",
        "  To strike out a row written in error: write it again with void = yes and a correction_note. "
        "To bring it back: write it again with void = no and a note.",
        "  Leave correction_note and void blank on every other row.",
        "",
    ]
    for line in lines:
        ws.append([line])
        if line:       # printed, an instruction wraps across the width of the table below it
            r = ws.max_row
            ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=7)
            ws.cell(r, 1).alignment = Alignment(wrap_text=True, vertical="top")
            ws.row_dimensions[r].height = 15 * (1 + len(line) // HELP_LINE)
    ws["A1"].font = Font(bold=True)
    ws.append(["sheet", "column", "ಕನ್ನಡ", "what to write", "the Act", "example", "takes"])
    for cell in ws[ws.max_row][:7]:
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
    for name in sheets:
        reg = BY_NAME[name]
        ws.append([name, "", SHEET_KANNADA.get(name, ""), reg.what, reg.section])
        ws[ws.max_row][0].font = Font(bold=True)
        for col in reg.columns:
            h = column_help(reg, col)
            kn = what_kannada(reg.name, col.name)      # the Kannada title, and what to write in Kannada under it
            ws.append(["", col.name, "\n".join(t for t in (h.kannada, kn) if t), h.what, h.section, h.example,
                       takes(col)])
    table = ws.max_row
    for row in ws.iter_rows(min_row=len(lines) + 1, max_row=table, max_col=7):
        for cell in row:        # long words wrap within their column, on screen and on paper
            cell.alignment = Alignment(wrap_text=True, vertical="top")
        # the row as tall as its longest cell's lines (a spreadsheet does not always work it out)
        tall = max(-(-len(str(c.value or "")) // max(1, HELP_WIDTHS[c.column - 1] - 2)) for c in row)
        ws.row_dimensions[row[0].row].height = 15 * max(1, tall)
    for letter, width in zip("ABCDEFG", HELP_WIDTHS, strict=True):
        ws.column_dimensions[letter].width = width
    where = {}
    for j, (name, values) in enumerate(lists.items()):
        c = LIST_COLUMN + j
        letter = get_column_letter(c)
        head = ws.cell(1, c, name)
        head.font, head.fill = HEADER_FONT, HEADER_FILL
        for r, v in enumerate(values, 2):
            cell = ws.cell(r, c, v)
            cell.data_type, cell.number_format = "s", "@"     # a value is never run as a formula
        last = max(2, len(values) + 1)
        if name == CASES and sheets == SHEETS:   # after the cases still in the pound, those of the impoundments sheet
            for k in range(2, CASE_ROWS + 2):
                ws.cell(len(values) + k, c, f'=IF(impoundments!$A{k}="","",impoundments!$A{k})')
            last = len(values) + CASE_ROWS + 1
        ws.column_dimensions[letter].width = max(10, len(name) + 2)
        where[name] = f"{quote_sheetname(REVIEW_HELP_SHEET)}!${letter}$2:${letter}${last}"
    # printed: the instructions and the table of columns; the pick-lists beside them are the cells' own
    print_setup(ws, title_rows=f"{len(lines) + 1}:{len(lines) + 1}", area=f"A1:G{table}")
    return where
