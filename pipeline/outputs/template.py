"""registers_<month>.xlsx: the workbook a pound-keeper or a clerk fills in, one sheet per register
the pound keeps, that loads as it is from a bundle's registers/ folder (`pound template`).

Each sheet is named as the loader reads it and has the register's header row, read from
core/registers.py when the workbook is made (a column added there is in the next workbook).
Cells refuse, as they are typed in Excel or LibreOffice, what the loader would refuse anyway:
a pound, class or listed value not on its list, a date that is not one, a negative or fractional
count, a negative amount; each refusal says in words what the cell takes (a taluk not on its list
is only warned of: a removal order may be of a taluk with no pound). The lists of pounds
and classes come from the bundle's reference files (pounds.csv, rates.csv), the other lists from
the registers' declarations. Each header cell carries a comment (what to write, the section of
the Act, an example, the Kannada title) and each cell below an input message with the same
help. The sheet "how to fill in" (which the loader passes over) says how corrections are made,
lists every column with its Kannada title, and holds the pick-lists the cells' lists point at.
The workbook holds values only: no macro, no formula, no hidden sheet. What a cell cannot check
(a blank required cell, a case that names no impoundment) the loader still rejects, naming the
sheet, row, column and value.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from pipeline.core.errors import InputRejected, PoundError
from pipeline.core.registers import BY_NAME, COUNT, DATE, ENUM, FLAG, ID, MONEY, REVIEW_HELP_SHEET, TEXT, TIME, Column, Register
from pipeline.outputs.template_help import SHEET_KANNADA, column_help, takes

# The registers a pound keeps, in the order a case meets them.
SHEETS = ("impoundments", "releases", "police_reports", "sales", "complaints", "security_deposits", "removal_orders")
# Columns whose list comes from a reference file: column -> (reference table, its column).
FROM_REFERENCE = {"pound_id": ("pounds", "pound_id"), "animal_class": ("rates", "animal_class"),
                  "taluk": ("pounds", "taluk")}
YES_NO = ("yes", "no")
LAST_ROW = 1_048_576                          # a cell's checks hold for the whole column
# Excel's day numbers: 1 January 1966 (the Act's year) and 31 December 2099 bound a date cell.
FIRST_DAY, LAST_DAY = 24108, 73050
DATE_FORMAT, MONEY_FORMAT, TIME_FORMAT = "dd-mm-yyyy", "#,##0.00", "hh:mm"
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")
LIST_COLUMN = 10                               # the pick-lists start in column J of the help sheet


# --- the cell checks of dates and amounts, as the loader reads them (pipeline/load/values.py) ---
# A check is a formula of the cell it checks, written with X for that cell. It is held in a name
# of the sheet (date_ok, amount_ok) whose reference is relative, so each cell of a column checks
# itself: a data validation's own formula may hold at most 255 characters, these need more.
# tests/outputs/test_template_checks.py holds them to the loader's parser in LibreOffice.

# A real date (a whole day number within the bounds), or text the loader reads as a date:
# YYYY-M-D, or D-M-YYYY or D/M/YYYY (one or two digits, one separator throughout). Text is turned
# into YYYY-M-D and read as a date by the spreadsheet, which refuses a day that is not in the
# calendar (31-11-2026) by an error; an error is a refusal.
_SEP_AT = "(3-ISERR(-MID(X,2,1)))"      # where the first separator of D-M-YYYY or DD-M-YYYY is
_DATE_TEXT = (
    "AND(ISERR(FIND(\".\",X)),ABS(IF(FIND(\"-\",X&\"-\")=5,X,FIND(MID(X,{p},1)&MID(X,LEN(X)-4,1),\"--,//\")*0"
    "+(RIGHT(X,4)&\"-\"&MID(X,{p}+1,LEN(X)-{p}-5)&\"-\"&LEFT(X,{p}-1)))-{mid})<={half})")


def _digits(text: str) -> str:
    """A formula: `text` is nothing but ASCII digits (or empty): 1 put before it, it reads back the same."""
    return f'("1"&{text})=(--("1"&{text}))&""'


def _grouped(n: str, length: str, places: tuple[int, ...]) -> str:
    """A formula: the digits `n` (of `length`) with a comma put in before each of the last
    `places` digits (the rightmost first, so the places to its left do not move)."""
    out = n
    for k in places:
        out = f'REPLACE({out},MAX(1,{length}-{k - 1}),0,REPT(",",({length}>{k})*1))'
    return out


def amount_check(minimum: int) -> str:
    """A number of rupees with at most two decimals, at least `minimum`, or text the loader reads as
    one: digits plain (1200), grouped by thousands (1,200,000) or the Indian way (12,00,000), with
    at most two decimals."""
    whole = 'LEFT(X,FIND(".",X&".")-1)'
    decimals = f"MID(X,LEN({whole})+2,9)"
    n = f'SUBSTITUTE({whole},",","")'
    length = f"LEN({n})"
    western = _grouped(n, length, (3, 6, 9, 12))
    indian = _grouped(n, length, (3, 5, 7, 9, 11, 13))
    text = (f"AND({length}>=1,{length}<=15,{_digits(f'LEFT({n},8)')},{_digits(f'MID({n},9,9)')},"
            f"OR(LEN(X)=LEN({whole}),AND(LEN({decimals})>=1,LEN({decimals})<=2,ISERR(FIND(\".\",{decimals})),"
            f"{_digits(decimals)})),OR({whole}={n},{whole}={western},{whole}={indian}))")
    return f"IF(ISNUMBER(X),AND(X>={minimum},ROUND(X,2)=X,X<1E+15),{for_cell(text, 'TRIM(X)')})"


def date_check() -> str:
    mid, half = (FIRST_DAY + LAST_DAY) / 2, (LAST_DAY - FIRST_DAY) / 2
    text = _DATE_TEXT.format(p=_SEP_AT, mid=f"{mid:g}", half=f"{half:g}")
    return f"IF(ISNUMBER(X),AND(INT(X)=X,X>={FIRST_DAY},X<={LAST_DAY}),{for_cell(text, 'TRIM(X)')})"


def for_cell(check: str, ref: str) -> str:
    """A check written for the cell `ref` (X is never part of a function's name here)."""
    import re

    return re.sub(r"\bX\b", ref, check)


def pick_lists(bundle: Path, pound: str | None = None) -> dict[str, list[str]]:
    """Each list a cell offers, by its name (a column name, or yes_no): pounds and classes from the
    bundle's reference files in their order there, listed values from the registers' declarations.
    `pound` narrows pound_id and taluk to that pound (a pound-keeper's copy)."""
    from pipeline.load.zipped import is_zip, unpacked

    if not bundle.exists():
        raise PoundError(f"bundle folder {bundle} does not exist")
    if not bundle.is_dir() and not is_zip(bundle):
        raise PoundError(f"{bundle} is not a folder or a .zip file; give the bundle whose reference/ the lists "
                         "are to come from")
    with unpacked(bundle) as folder:
        pounds = _reference(folder, "pounds")
        rates = _reference(folder, "rates")
    if pound is not None:
        chosen = [r for r in pounds if r["pound_id"] == pound]
        if not chosen:
            import difflib

            meant = difflib.get_close_matches(pound, [r["pound_id"] for r in pounds], 1)
            raise PoundError(f"--pound {pound} is not in the bundle's reference/pounds.csv"
                             + (f"; did you mean {meant[0]}?" if meant else ""))
        pounds = chosen
    lists = {"pound_id": _distinct(r["pound_id"] for r in pounds),
             "animal_class": _distinct(r["animal_class"].lower() for r in rates),
             "taluk": _distinct(r["taluk"] for r in pounds), "yes_no": list(YES_NO)}
    for name in SHEETS:
        for col in BY_NAME[name].columns:
            if col.kind == ENUM and col.name not in lists:
                lists[col.name] = list(col.values)
    return lists


def _reference(folder: Path, name: str) -> list[dict[str, str]]:
    """The rows of a reference table as text (its CSV file, or sheets of that name), refused as the
    loader refuses them when its header is wrong."""
    from pipeline.load.bundle import find_sources, read_source

    sources, _, broken = find_sources(folder)
    if broken:
        raise InputRejected(broken)
    rows: list[dict[str, str]] = []
    found = [s for s in sources if s.register.name == name]
    if not found:
        raise PoundError(f"the bundle has no reference/{name}.csv; the workbook's lists are taken from it")
    for src in found:
        read = read_source(src, in_python=True)
        if read.problems:
            raise InputRejected(read.problems)
        for rec in read.frame.to_dict("records"):
            rec = {k: str(v).strip() for k, v in rec.items()}
            if any(rec[c] for c in BY_NAME[name].names if c in rec):
                rows.append(rec)
    return rows


def _distinct(values) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))


def write_template(bundle: Path, path: Path, pound: str | None = None) -> Path:
    """Write the workbook (atomically: a killed command leaves no half workbook) and return its path."""
    lists = pick_lists(bundle, pound)
    wb = Workbook()
    wb.remove(wb.active)
    for name in SHEETS:
        _register_sheet(wb.create_sheet(name), BY_NAME[name])
    where = _help_sheet(wb.create_sheet(REVIEW_HELP_SHEET), lists, pound)
    for name in SHEETS:
        _checks(wb[name], BY_NAME[name], where)
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    try:
        wb.save(tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def list_of(col: Column) -> str | None:
    """The name of the pick-list a column's cells offer, if any."""
    if col.name in FROM_REFERENCE:
        return col.name
    if col.kind == FLAG:
        return "yes_no"
    return col.name if col.kind == ENUM else None


def _register_sheet(ws, reg: Register) -> None:
    ws.append(reg.names)
    for i, col in enumerate(reg.columns, 1):
        cell = ws.cell(1, i)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        h = column_help(reg, col)
        text = f"{col.name}" + (f" ({h.kannada})" if h.kannada else "") + f"\n{h.what}.\n{takes(col)}."
        if h.section:
            text += f"\nThe Act: {h.section}."
        if h.example:
            text += f"\nExample: {h.example}"
        cell.comment = Comment(text, "pound template", width=320, height=160)
        letter = get_column_letter(i)
        ws.column_dimensions[letter].width = max(12, min(len(col.name) + 4, 28))
        fmt = {DATE: DATE_FORMAT, MONEY: MONEY_FORMAT, TIME: TIME_FORMAT, ID: "@", TEXT: "@"}.get(col.kind)
        if fmt:        # the column's style: a cell typed into it takes the format (text stays text)
            ws.column_dimensions[letter].number_format = fmt
    ws.freeze_panes = "A2"


def _checks(ws, reg: Register, where: dict[str, str]) -> None:
    """One data validation a column, holding its check, its error in words and its input message."""
    for i, col in enumerate(reg.columns, 1):
        h = column_help(reg, col)
        listed = list_of(col)
        if listed:
            dv = DataValidation(type="list", formula1=where[listed], allow_blank=True)
            why = "Choose one from the list"
        elif col.kind == DATE:
            dv = DataValidation(type="custom", formula1=_named(ws, "date_ok", date_check()), allow_blank=True)
            why = ("Write a date of 1966 to 2099, day first, such as 05-11-2026 or 05/11/2026 (or year first, "
                   "2026-11-05)")
        elif col.kind == MONEY:
            low = col.minimum or 0
            dv = DataValidation(type="custom", formula1=_named(ws, f"amount_ok{'_' + str(low) if low else ''}",
                                                               amount_check(low)), allow_blank=True)
            why = (f"Write an amount in rupees, such as 600, 1200.50 or 1,20,000 (at most two decimals)"
                   + (f", never below {low}" if low else ", never below 0"))
        elif col.kind == COUNT:
            low = col.minimum or 0
            dv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1=str(low), allow_blank=True)
            why = f"Write a whole number of {low} or more"
        elif col.kind == TIME:
            dv = DataValidation(type="time", operator="between", formula1="0", formula2="0.999305556",
                                allow_blank=True)
            why = "Write a time of day, such as 09:30"
        else:
            dv = DataValidation(allow_blank=True)           # any text: the cell carries its input message
            why = ""
        dv.errorStyle = "stop"
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


def _help_sheet(ws, lists: dict[str, list[str]], pound: str | None) -> dict[str, str]:
    """The instructions, every column with its Kannada title, and the pick-lists; returns where
    each list is, as a data validation names it."""
    lines = [
        "How to fill in this workbook" + (f" (pound {pound})" if pound else ""),
        "One sheet for each register the pound keeps. Write one row for each case, release, report, sale, "
        "complaint, deposit or order; keep the first row (the column names) and the sheets' names as they are.",
        "Choose a pound, a class of animal and the other listed values from the cell's list. A date is shown day "
        "first (05-11-2026); typed year first (2026-11-05) it is read alike on every computer, where 05-11-2026 "
        "may be read as 11 May. Amounts in rupees (600 or 1200.50); yes or no where asked.",
        "Each column's name has a note saying what to write there, the section of the Act, and an example. "
        "A cell that is not right is refused as you type it, saying why.",
        "Save the workbook (as .xlsx) into the bundle's registers/ folder, named for its month "
        "(registers_2026-11.xlsx); the next pound run or pound ingest loads it.",
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
    ws["A1"].font = Font(bold=True)
    ws.append(["sheet", "column", "ಕನ್ನಡ", "what to write", "the Act", "example", "takes"])
    for cell in ws[ws.max_row][:7]:
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
    for name in SHEETS:
        reg = BY_NAME[name]
        ws.append([name, "", SHEET_KANNADA.get(name, ""), reg.what, reg.section])
        ws[ws.max_row][0].font = Font(bold=True)
        for col in reg.columns:
            h = column_help(reg, col)
            ws.append(["", col.name, h.kannada, h.what, h.section, h.example, takes(col)])
    for letter, width in zip("ABCDEFG", (18, 22, 30, 60, 16, 24, 50), strict=True):
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
        ws.column_dimensions[letter].width = max(10, len(name) + 2)
        last = max(2, len(values) + 1)
        where[name] = f"{quote_sheetname(REVIEW_HELP_SHEET)}!${letter}$2:${letter}${last}"
    return where
