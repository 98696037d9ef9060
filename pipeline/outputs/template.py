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
The register sheets hold values only: no macro, no formula, no hidden sheet; a date's and an
amount's check is a name of the sheet (date_ok, amount_ok) holding a formula of the cell, which
takes what the loader's parser takes (day-first dates, 1,20,000). What a cell cannot check (a
blank required cell, a case that names no impoundment) the loader still rejects, naming the
sheet, row, column and value.

A pound's copy (`pound`) adds the sheet "what is due", which the loader passes over: each
release's fines and feeding worked out by formulas, and, with the month and the accounts, the
cases still in the pound when the month began, offered in the cells' lists of cases. It is saved
as registers_<month>_<pound>.xlsx, one file a pound a month. A ledger's entry workbook
(`ledger`: local_fund, dm_deposit) has that ledger's sheet, with lists of the bundle's local
authorities and cases. Every sheet prints one A4 page wide with its header row on every page.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import column_index_from_string, get_column_letter, quote_sheetname
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
CASES = "cases"            # the list of cases a case_id of a release, sale ... is chosen from
CASE_ROWS = 200            # the impoundments sheet's rows the list of cases takes in
LAST_ROW = 1_048_576                          # a cell's checks hold for the whole column
# Excel's day numbers: 1 January 1966 (the Act's year) and 31 December 2099 bound a date cell.
FIRST_DAY, LAST_DAY = 24108, 73050
DATE_FORMAT, MONEY_FORMAT, TIME_FORMAT = "dd-mm-yyyy", "#,##0.00", "hh:mm"
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")
HELP_WIDTHS = (16, 20, 26, 44, 14, 20, 40)      # the help sheet's columns A to G
HELP_LINE = sum(HELP_WIDTHS) - 10              # about the characters of an instruction a line holds
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


# The parts of an amount's text the check reads, each a name of the sheet (relative, as the checks
# are), so that the check holds each once: Excel keeps at most 8,192 characters in a formula.
AMOUNT_PARTS = {
    "amount_text": 'MID(TRIM(X),1+(LEFT(TRIM(X),1)="-"),99)',          # the text, trimmed, without its sign
    "amount_whole": 'LEFT(amount_text,FIND(".",amount_text&".")-1)',   # before the decimal point
    "amount_digits": 'SUBSTITUTE(amount_whole,",","")',                 # those digits without commas
}


def amount_check(minimum: int) -> str:
    """A number of rupees with at most two decimals, at least `minimum`, or text the loader reads as
    one: digits plain (1200), grouped by thousands (1,200,000) or the Indian way (12,00,000), with
    at most two decimals (and a sign, which the loader's minimum refuses but on -0). It reads the
    names of AMOUNT_PARTS."""
    t, whole, n = "amount_text", "amount_whole", "amount_digits"
    decimals = f"MID({t},LEN({whole})+2,9)"
    length = f"LEN({n})"
    western = _grouped(n, length, (3, 6, 9, 12))
    indian = _grouped(n, length, (3, 5, 7, 9, 11, 13))
    text = (f"AND({length}>=1,{length}<=15,{_digits(f'LEFT({n},8)')},{_digits(f'MID({n},9,9)')},"
            f"OR(LEN({t})=LEN({whole}),AND(LEN({decimals})>=1,LEN({decimals})<=2,ISERR(FIND(\".\",{decimals})),"
            f"{_digits(decimals)})),OR({whole}={n},{whole}={western},{whole}={indian}),"
            f'OR(LEFT(TRIM(X),1)<>"-",--SUBSTITUTE({t},",","")=0))')
    return f"IF(ISNUMBER(X),AND(X>={minimum},ROUND(X,2)=X,X<1E+15),{text})"


def date_check() -> str:
    mid, half = (FIRST_DAY + LAST_DAY) / 2, (LAST_DAY - FIRST_DAY) / 2
    text = _DATE_TEXT.format(p=_SEP_AT, mid=f"{mid:g}", half=f"{half:g}")
    return f"IF(ISNUMBER(X),AND(INT(X)=X,X>={FIRST_DAY},X<={LAST_DAY}),{for_cell(text, 'TRIM(X)')})"


def for_cell(check: str, ref: str) -> str:
    """A check written for the cell `ref` (X is never part of a function's name here)."""
    import re

    return re.sub(r"\bX\b", ref, check)


def pick_lists(bundle: Path, pound: str | None = None, sheets: tuple[str, ...] = SHEETS) -> dict[str, list[str]]:
    """Each list a cell offers, by its name (a column name, or yes_no): pounds and classes from the
    bundle's reference files in their order there, listed values from the registers' declarations.
    `pound` narrows pound_id and taluk to that pound (a pound-keeper's copy)."""
    from pipeline.load.zipped import check_bundle, unpacked

    check_bundle(bundle)
    with unpacked(bundle) as folder:
        pounds = _reference(folder, "pounds")
        rates = _reference(folder, "rates")
        if sheets != SHEETS:      # a ledger's: its local authorities, and the cases its entries are for
            authorities = _reference(folder, "local_authorities")
            cases = _reference(folder, "impoundments", required=False)
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
    if sheets != SHEETS:
        lists["local_authority_id"] = _distinct(r["local_authority_id"] for r in authorities)
        lists[CASES] = _distinct(r["case_id"] for r in cases)
    for name in sheets:
        for col in BY_NAME[name].columns:
            if col.kind == ENUM and col.name not in lists:
                lists[col.name] = list(col.values)
    return lists


def _reference(folder: Path, name: str, required: bool = True) -> list[dict[str, str]]:
    """The rows of a reference table as text (its CSV file, or sheets of that name), refused as the
    loader refuses them when its header is wrong."""
    from pipeline.load.bundle import find_sources, read_source

    sources, _, broken = find_sources(folder)
    if broken:
        raise InputRejected(broken)
    rows: list[dict[str, str]] = []
    found = [s for s in sources if s.register.name == name]
    if not found and not required:
        return rows
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


def write_template(bundle: Path, path: Path, pound: str | None = None, month: str | None = None,
                   db: Path | None = None, ledger: str | None = None) -> Path:
    """Write the workbook (atomically: a killed command leaves no half workbook) and return its path.
    A pound-keeper's copy (`pound`) has the sheet "what is due"; with `month` and the accounts (`db`),
    the cases still in the pound when the month began are on it and in the cells' lists of cases.
    `ledger` (local_fund, dm_deposit): that ledger's entry workbook instead, its lists the bundle's
    local authorities and cases."""
    sheets = (ledger,) if ledger else SHEETS
    lists = pick_lists(bundle, pound, sheets)
    month_start = dt.date(int(month[:4]), int(month[5:7]), 1) if month else None
    carried, nights = carried_cases(db, pound, month_start) if (db is not None and pound and month_start) else ([], False)
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
        _due_sheet(wb.create_sheet(DUE_SHEET), carried, pound_rates(bundle, taluk), month_start, taluk, nights)
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    try:
        wb.save(tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


# --- what is due on each release (the sheet "what is due", which the loader passes over) ---
DUE_SHEET = "what is due"
DUE_ROWS = 60                  # release rows worked out: rows 2 to 61 of the releases sheet
DUE_FIRST = 5                  # the first row of figures on the due sheet
# The due sheet's columns: what each shows, and its formula for the release in row {r} of the
# releases sheet, {d} being the due sheet's own row ({imp}: the impoundments sheet).
_IMP = "impoundments"
_NEW = f"ISNUMBER(MATCH($B{{d}},{_IMP}!$A:$A,0))"                       # the case is in this workbook
_ROW_OF = f"MATCH($B{{d}},{_IMP}!$A:$A,0)"
_OLD = "MATCH($B{d},$O:$O,0)"                                             # a case still in the pound
_RATE = ("LOOKUP(2,1/(($V$6:$V$200=$F{d})*($W$6:$W$200<=$E{d})*((($X$6:$X$200=\"\")+($X$6:$X$200>=$E{d}))>0)),"
         "{col}$6:{col}$200)")


def day_number(x: str) -> str:
    """A formula: the day the cell `x` holds, a real date or day-first text (as its check takes it)."""
    t = "TRIM(" + x + ")"
    p = f"(3-ISERR(-MID({t},2,1)))"
    text = (f'--IF(FIND("-",{t}&"-")=5,{t},RIGHT({t},4)&"-"&MID({t},{p}+1,LEN({t})-{p}-5)&"-"&LEFT({t},{p}-1))')
    return f"IF(ISNUMBER({x}),{x},{text})"


def due_columns(nights: bool) -> list[tuple[str, str, str | None]]:
    """(header, formula, number format) of each column of the due sheet, A to L."""
    def blank_or(f: str) -> str:
        return f'=IF($A{{d}}="","",{f})'

    imp_day = day_number(f"INDEX({_IMP}!$D:$D,{_ROW_OF})")
    return [
        ("release_id", '=IF(releases!$A{r}="","",releases!$A{r})', "@"),
        ("case_id", blank_or("releases!$B{r}&\"\""), "@"),
        ("released_on", blank_or(day_number("releases!$C{r}")), DATE_FORMAT),
        ("head_count", blank_or("--releases!$D{r}"), "0"),
        ("impounded_on", blank_or(f"IF({_NEW},{imp_day},INDEX($P:$P,{_OLD}))"), DATE_FORMAT),
        ("animal_class", blank_or(f"IF({_NEW},LOWER(TRIM(INDEX({_IMP}!$H:$H,{_ROW_OF}))),INDEX($Q:$Q,{_OLD}))"), "@"),
        ("days", blank_or(f"MAX($C{{d}}-$E{{d}}{'' if nights else '+1'},0)"), "0"),
        ("fine per head", blank_or(f"IF({_NEW},IF(TRIM(INDEX({_IMP}!$N:$N,{_ROW_OF}))<>\"\",0,"
                                   f"{_RATE.format(col='$Y', d='{d}')}),INDEX($S:$S,{_OLD}))"), MONEY_FORMAT),
        ("feeding per head per day", blank_or(f"IF({_NEW},{_RATE.format(col='$Z', d='{d}')},INDEX($T:$T,{_OLD}))"),
         MONEY_FORMAT),
        ("fines due", blank_or("$D{d}*$H{d}"), MONEY_FORMAT),
        ("feeding due", blank_or("$D{d}*$I{d}*$G{d}"), MONEY_FORMAT),
        ("total due", blank_or("$J{d}+$K{d}"), MONEY_FORMAT),
    ]


def _due_sheet(ws, carried: list[dict], rates: list[dict], month_start, taluk: str, nights: bool) -> None:
    """The fines and feeding due on each release typed into the releases sheet, worked out by
    formulas from its case (this workbook's impoundments, or a case still in the pound when the
    month began) and the rates of the pound's taluk; the loader never reads the sheet."""
    from openpyxl.styles import Alignment

    rule = ("the day of impounding and the day of release both count (impounded 04-11, released 06-11: 3 days)"
            if not nights else "the nights in the pound are counted: the day of release does not count "
            "(impounded 04-11, released 06-11: 2 days)")
    lines = [
        "What is due on each release, worked out from the releases sheet as you type (this sheet is not loaded)",
        f"Fines (s.10(1)): head_count x the fine per head. Feeding (s.12(1)): head_count x the feeding per head per day "
        f"x the days in the pound, where {rule}. A re-seizure (reseizure_of) pays no fine.",
        f"Rates: reference/rates.csv for the taluk {taluk} (else *), in force on the day of impounding. On a release "
        "on payment (s12_payment), fines_paid and charges_paid should be at least the fines due and the feeding due.",
    ]
    for r, line in enumerate(lines, 1):
        ws.cell(r, 1, line).alignment = Alignment(wrap_text=True, vertical="top")
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=12)
        ws.row_dimensions[r].height = 15 * (1 + len(line) // 120)
    ws["A1"].font = Font(bold=True)
    columns = due_columns(nights)
    for c, (head, _, _) in enumerate(columns, 1):
        cell = ws.cell(DUE_FIRST - 1, c, head)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.row_dimensions[DUE_FIRST - 1].height = 30
    for i in range(DUE_ROWS):
        d, r = DUE_FIRST + i, 2 + i
        for c, (_, formula, fmt) in enumerate(columns, 1):
            cell = ws.cell(d, c, formula.format(r=r, d=d))
            if fmt:
                cell.number_format = fmt
    for letter, width in zip("ABCDEFGHIJKL", (11, 13, 12, 11, 14, 13, 7, 11, 13, 12, 12, 12), strict=True):
        ws.column_dimensions[letter].width = width
    # the cases still in the pound when the month began (from the accounts), and the rates
    tables = (("O", f"cases in the pound on {month_start:%d-%m-%Y}" if month_start else "cases in the pound",
               ("case_id", "impounded_on", "animal_class", "heads in", "fine per head", "feeding per head per day"),
               [(x["case_id"], x["impounded_on"], x["animal_class"], x["heads"], x["fine"], x["feeding"]) for x in carried]),
              ("V", f"rates for {taluk}", ("animal_class", "effective_from", "effective_to", "fine_per_head",
                                           "feeding_per_head_per_day"),
               [(x["animal_class"], x["effective_from"], x["effective_to"], x["fine"], x["feeding"]) for x in rates]))
    for start, title, heads, rows in tables:
        c0 = column_index_from_string(start)
        ws.cell(DUE_FIRST - 1, c0, title).font = Font(bold=True)
        for j, head in enumerate(heads):
            cell = ws.cell(DUE_FIRST, c0 + j, head)
            cell.font, cell.fill = HEADER_FONT, HEADER_FILL
            ws.column_dimensions[get_column_letter(c0 + j)].width = 13
        for k, row in enumerate(rows, DUE_FIRST + 1):
            for j, v in enumerate(row):
                cell = ws.cell(k, c0 + j, v)
                if isinstance(v, dt.date):
                    cell.number_format = DATE_FORMAT
                elif isinstance(v, Decimal):
                    cell.number_format = MONEY_FORMAT
                elif isinstance(v, str):
                    cell.data_type = "s"
    ws.freeze_panes = f"A{DUE_FIRST}"
    print_setup(ws, title_rows=f"{DUE_FIRST - 1}:{DUE_FIRST - 1}", area=f"A1:L{DUE_FIRST + DUE_ROWS - 1}")


def carried_cases(db: Path, pound: str, month_start) -> tuple[list[dict], bool]:
    """The cases of `pound` still in the pound when the month began, from the accounts (the mart case_heads_held:
    heads impounded before it, less those that left before it), with their rates as the
    accounts took them; and whether feeding counts nights (parameter feeding_days)."""
    from pipeline.read.database import connect

    con = connect(db)
    try:
        rows = con.execute(
            "SELECT case_id, impounded_on, animal_class, heads, fine_per_head, feeding_per_head_per_day, feeding_days "
            "FROM case_heads_held WHERE pound_id = ? AND impounded_on < ? AND from_day <= ? "
            "QUALIFY row_number() OVER (PARTITION BY case_id ORDER BY from_day DESC) = 1 "
            "ORDER BY impounded_on, case_id", [pound, month_start, month_start]).fetchall()
        rows = [r for r in rows if r[3] > 0]
        nights = (rows[0][6],) if rows else con.execute(
            "SELECT CAST(getvariable('feeding_days') AS VARCHAR)").fetchone()
    finally:
        con.close()
    cases = [{"case_id": r[0], "impounded_on": r[1], "animal_class": r[2], "heads": r[3],
              "fine": None if r[4] is None else Decimal(r[4]) / 100,
              "feeding": None if r[5] is None else Decimal(r[5]) / 100} for r in rows]
    return cases, bool(nights) and "nights" in str(nights[0])


def pound_rates(bundle: Path, taluk: str) -> list[dict]:
    """The rows of reference/rates.csv for the taluk or every taluk (*), typed by the loader's own
    parser, ordered so that the last row in force on a day is the one the accounts take (a row of the
    taluk over *, then the latest effective_from)."""
    import duckdb

    from pipeline.load.values import typed_expr
    from pipeline.load.zipped import unpacked

    with unpacked(bundle) as folder:
        rows = _reference(folder, "rates")
    cols = {c.name: c for c in BY_NAME["rates"].columns}
    con = duckdb.connect()

    def typed(name: str, text: str):
        return con.execute(f"SELECT {typed_expr(cols[name], 'trim(v)')} FROM (SELECT ?::VARCHAR AS v)", [text]).fetchone()[0]

    out = []
    for r in rows:
        if r["taluk"].strip().lower() not in ("*", taluk.lower()):
            continue
        fine, feeding = typed("fine_per_head", r["fine_per_head"]), typed("feeding_per_head_per_day", r["feeding_per_head_per_day"])
        out.append({"animal_class": r["animal_class"].strip().lower(), "taluk": r["taluk"].strip(),
                    "effective_from": typed("effective_from", r["effective_from"]),
                    "effective_to": typed("effective_to", r["effective_to"]) if r.get("effective_to") else None,
                    "fine": None if fine is None else Decimal(fine) / 100,
                    "feeding": None if feeding is None else Decimal(feeding) / 100})
    con.close()
    return sorted(out, key=lambda x: (x["taluk"] != "*", x["effective_from"]))


def _ledger_lines(ledger: str, month: str | None) -> list[str]:
    """The instructions of a ledger's entry workbook."""
    whose = {"local_fund": "the local fund's ledger: what each local authority's fund recorded as credited "
                           "(fines under s.18(2), unclaimed surplus from the District Magistrate under s.18(5))",
             "dm_deposit": "the District Magistrate's deposit account: unclaimed sale surplus received, credited "
                           "to a local fund, or refunded to a claimant (s.18(5))"}[ledger]
    return [
        f"How to fill in this workbook ({ledger})",
        f"One row for each entry of {whose}, as the ledger or the bank's statement shows it.",
        "Choose the local authority and the head or kind from the cell's list; write in reference the case the "
        "entry is for (chosen from the list of the bundle's cases) or the receipt's number. A date is shown day "
        "first: type it as 05-11-2026 or 05/11/2026 (or year first, 2026-11-05). Amounts in rupees, as 600, "
        "1200.50 or 1,20,000.",
        "Each column's name has a note saying what to write there, and an example. A cell that is not right is "
        "refused as you type it, saying why.",
        f"Save the workbook (as .xlsx) into the bundle's ledgers/ folder as {ledger_file_name(ledger, month)}; the "
        "next pound run or pound ingest loads it and reconciles it with what the accounts say was due.",
        "Corrections. Once a workbook has been sent, do not change it: an entry sent in error is corrected in the "
        "next month's workbook.",
        "  To correct an entry: write it again, with the same entry_id and the right values, and say why in "
        "correction_note. The latest version is used; both are kept.",
        "  To strike out an entry written in error: write it again with void = yes and a correction_note. "
        "Leave correction_note and void blank on every other row.",
        "",
    ]


def ledger_file_name(ledger: str, month: str | None) -> str:
    """The name a ledger's entry workbook is saved under: one file a ledger a month."""
    return f"{ledger}_{month or '2026-11'}.xlsx"


def file_name(month: str | None, pound: str | None) -> str:
    """The name a keeper's workbook is saved under: one file a pound a month."""
    return f"registers_{month or '2026-11'}_{pound or 'P01'}.xlsx"


def print_setup(ws, title_rows: str | None = "1:1", area: str | None = None) -> None:
    """Printed, the sheet is one A4 page wide (landscape when its columns are wider than the upright
    page holds, xlsx.PORTRAIT_WIDTH), as many pages down as its rows need, with `title_rows` (the
    header row) at the top of each page and the sheet's name and page in the footer."""
    from pipeline.outputs.xlsx import PORTRAIT_WIDTH

    letters = {get_column_letter(c) for c in range(1, ws.max_column + 1)}
    if area:
        first, last = area.split(":")
        lo, hi = (column_index_from_string(first.rstrip("0123456789")), column_index_from_string(last.rstrip("0123456789")))
        letters = {get_column_letter(c) for c in range(lo, hi + 1)}
        ws.print_area = area
    width = sum(ws.column_dimensions[x].width or 9 for x in letters)
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape" if width > PORTRAIT_WIDTH else "portrait"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.oddFooter.center.text = "&A, page &P of &N"
    if title_rows:
        ws.print_title_rows = title_rows


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
        text = f"{col.name}" + (f" ({h.kannada})" if h.kannada else "") + f"\n{h.what}.\n{takes(col)}."
        if h.section:
            text += f"\nThe Act: {h.section}."
        if h.example:
            text += f"\nExample: {h.example}"
        cell.comment = Comment(text, "pound template", width=320, height=160)
        letter = get_column_letter(i)
        ws.column_dimensions[letter].width = max(20 if col.kind == TEXT else 12, min(len(col.name) + 4, 28))
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
            ws.append(["", col.name, h.kannada, h.what, h.section, h.example, takes(col)])
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
