"""The sheet "what is due" of a pound-keeper's workbook, which the loader passes over: each
release typed into the releases sheet with its fines and feeding worked out by formulas, from its
case (this workbook's impoundments, or a case still in the pound when the month began, from the
accounts) and the rates of the pound's taluk (reference/rates.csv, typed by the loader's parser).
The SQL stays the definition of what is due: tests/outputs/test_template_due.py works the sheet
out in LibreOffice and compares it with the accounts.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from openpyxl.styles import Alignment, Font
from openpyxl.utils import column_index_from_string, get_column_letter

from pipeline.core.registers import BY_NAME
from pipeline.outputs.bundle_lists import reference_rows
from pipeline.outputs.cell_checks import day_number
from pipeline.outputs.sheet_layout import DATE_FORMAT, HEADER_FILL, HEADER_FONT, MONEY_FORMAT, print_setup

DUE_ROWS = 60                  # release rows worked out: rows 2 to 61 of the releases sheet
DUE_FIRST = 5                  # the first row of figures on the due sheet
# The due sheet's columns: what each shows, and its formula for the release in row {r} of the
# releases sheet, {d} being the due sheet's own row ({imp}: the impoundments sheet).
_IMP = "impoundments"
_NEW = f"ISNUMBER(MATCH($B{{d}},{_IMP}!$A:$A,0))"                       # the case is in this workbook
_ROW_OF = f"MATCH($B{{d}},{_IMP}!$A:$A,0)"
_OLD = "MATCH($B{d},$O:$O,0)"                                             # a case still in the pound
# a re-seizure (s.16(2)): its dues stand on what the first case's protest deposit left unpaid (third
# reading R11), which this workbook does not hold, so the sheet names the office instead of a sum
_RESEIZED = (f"IF({_NEW},TRIM(INDEX({_IMP}!$N:$N,{_ROW_OF}))<>\"\",INDEX($U:$U,{_OLD})&\"\"<>\"\")")
FROM_OFFICE = "from the office"
_RATE = ("LOOKUP(2,1/(($V$6:$V$200=$F{d})*($W$6:$W$200<=$E{d})*((($X$6:$X$200=\"\")+($X$6:$X$200>=$E{d}))>0)),"
         "{col}$6:{col}$200)")


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
        ("fines due", blank_or(f'IF({_RESEIZED},"{FROM_OFFICE}",$D{{d}}*$H{{d}})'), MONEY_FORMAT),
        ("feeding due", blank_or(f'IF({_RESEIZED},"{FROM_OFFICE}",$D{{d}}*$I{{d}}*$G{{d}})'), MONEY_FORMAT),
        ("total due", blank_or(f'IF({_RESEIZED},"{FROM_OFFICE}",$J{{d}}+$K{{d}})'), MONEY_FORMAT),
    ]


def due_sheet(ws, carried: list[dict], rates: list[dict], month_start, taluk: str, nights: bool) -> None:
    """The fines and feeding due on each release typed into the releases sheet, worked out by
    formulas from its case (this workbook's impoundments, or a case still in the pound when the
    month began) and the rates of the pound's taluk; the loader never reads the sheet."""
    rule = ("the day of impounding and the day of release both count (impounded 04-11, released 06-11: 3 days)"
            if not nights else "the nights in the pound are counted: the day of release does not count "
            "(impounded 04-11, released 06-11: 2 days)")
    lines = [
        "What is due on each release, worked out from the releases sheet as you type (this sheet is not loaded)",
        f"Fines (s.10(1)): head_count x the fine per head. Feeding (s.12(1)): head_count x the feeding per head per day "
        f"x the days in the pound, where {rule}. A re-seizure (reseizure_of, s.16(2)) owes what the protest deposit "
        "left unpaid of the first case's fines and feeding, with its own feeding: the sheet cannot know that deposit, "
        f"so it shows '{FROM_OFFICE}': the office works these dues out (the owner's account).",
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
               ("case_id", "impounded_on", "animal_class", "heads in", "fine per head", "feeding per head per day",
                "reseizure_of"),
               [(x["case_id"], x["impounded_on"], x["animal_class"], x["heads"], x["fine"], x["feeding"],
                 x.get("reseizure_of")) for x in carried]),
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
    accounts took them; and whether the accounts counted feeding by nights (their parameter
    feeding_days, read from the parameters table whether or not a case is still held)."""
    from pipeline.read.database import connect, parameter

    con = connect(db)
    try:
        rows = con.execute(
            "SELECT case_id, impounded_on, animal_class, heads, fine_per_head, feeding_per_head_per_day, reseizure_of "
            "FROM case_heads_held WHERE pound_id = ? AND impounded_on < ? AND from_day <= ? "
            "QUALIFY row_number() OVER (PARTITION BY case_id ORDER BY from_day DESC) = 1 "
            "ORDER BY impounded_on, case_id", [pound, month_start, month_start]).fetchall()
        nights = parameter(con, "feeding_days") == "nights"
    finally:
        con.close()
    cases = [{"case_id": r[0], "impounded_on": r[1], "animal_class": r[2], "heads": r[3],
              "fine": None if r[4] is None else Decimal(r[4]) / 100,
              "feeding": None if r[5] is None else Decimal(r[5]) / 100, "reseizure_of": r[6]}
             for r in rows if r[3] > 0]
    return cases, nights


def counts_nights(params: Path | None) -> bool:
    """Without the accounts: whether feeding is counted by nights under the readings the accounts
    will be built with (the parameters file given to pound run, else the defaults)."""
    from pipeline.core.params import Parameters

    return Parameters.load(params)["feeding_days"] == "nights"


def pound_rates(bundle: Path, taluk: str) -> list[dict]:
    """The rows of reference/rates.csv for the taluk or every taluk (*), typed by the loader's own
    parser, ordered so that the last row in force on a day is the one the accounts take (a row of the
    taluk over *, then the latest effective_from)."""
    import duckdb

    from pipeline.load.values import typed_expr
    from pipeline.load.zipped import unpacked

    with unpacked(bundle) as folder:
        rows = reference_rows(folder, "rates")
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
