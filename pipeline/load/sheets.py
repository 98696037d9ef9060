"""A register workbook's sheets, read safely: the text a clerk would have typed in each cell
(cell_text), formulas never worked out, and the bounds a workbook must keep before a row of it is
read (workbook_problem, sheets_problem, rows_of), so that a small file cannot fill the memory of
the command or the desk reading it. bundle.py reads the sheets through these; a `source` here is
bundle.Source (its label, path and sheet)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from pipeline.core.errors import Problem


def sheet_names(path: Path) -> list[str]:
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        return list(wb.sheetnames)
    finally:
        wb.close()


def cell_text(value) -> str:
    """An Excel cell as the text a clerk would have typed into a CSV file.

    Numbers come from openpyxl as int or float; a float is written with the
    shortest text that reads back to the same number (repr), which is the
    decimal the clerk typed, so 600.1 stays '600.1' and is then parsed exactly.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        if value.date() == dt.date(1899, 12, 30):    # a time-only cell
            return value.strftime("%H:%M")
        return value.date().isoformat() + " " + value.strftime("%H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, str) and "_x" in value:
        # a character a workbook cannot hold as it is (a control character, a carriage return) is
        # written _xHHHH_, as Excel writes it and outputs/xlsx.py too; openpyxl leaves it so
        from openpyxl.utils.escape import unescape

        return unescape(value)
    return str(value)


def formulas_without_values(source, rows: list[list[str]]) -> list[Problem]:
    """Formula cells whose result was never saved (a workbook written by a program).

    openpyxl reads the saved result of a formula; without one the cell would read as
    blank, "not recorded", and a figure would be lost without a word.
    """
    import openpyxl
    from openpyxl.utils import get_column_letter

    wb = openpyxl.load_workbook(source.path, read_only=True, data_only=False)
    try:
        problems = []
        for r, row in enumerate(wb[source.sheet].iter_rows(values_only=True), 1):
            for c, v in enumerate(row, 1):
                if isinstance(v, str) and v.startswith("=") and r <= len(rows) and c <= len(rows[r - 1]) \
                        and rows[r - 1][c - 1] == "":
                    problems.append(Problem(source.label, r, f"{get_column_letter(c)}", v,
                                            "is a formula whose result was never saved; open the workbook in a "
                                            "spreadsheet, save it, and try again (or type the value)"))
                    if len(problems) >= 50:
                        return problems
        return problems
    finally:
        wb.close()


# What a register's sheet may hold. A workbook of a few kilobytes can declare a sheet of a million
# rows by sixteen thousand columns (its <dimension>), and openpyxl fills each row out to it: a sheet
# past these bounds is refused before a row is read, not read until the desk runs out of memory. A
# keeper's month is some hundreds of rows of about twenty columns; a district's years go as CSV.
MAX_SHEET_COLUMNS = 200
MAX_SHEET_ROWS = 250_000
MAX_SHEET_CELLS = 5_000_000
MAX_SHEETS = 64
# The parts openpyxl reads whole, not row by row: the workbook's own, its styles, its shared strings
# (each text cell's words, held once). A keeper's workbook holds some kilobytes of them.
MAX_STRINGS_PART = 16 * 1024**2
MAX_SHARED_STRINGS = 1_000_000
MAX_OTHER_PART = 4 * 1024**2
MAX_WORKBOOK_UNPACKED = 512 * 1024**2     # the parts of a workbook, unpacked, as its zip declares them (Python's
                                          # zipfile reads no more of a part than declared: a part that lies fails its CRC)


def _too_large(source, rows: int, columns: int, declared: bool = True) -> Problem:
    from openpyxl.utils import get_column_letter

    size = (f"is {rows:,} rows by {columns:,} columns as the workbook declares it" if declared
            else f"reaches {rows:,} rows by {columns:,} columns as read so far")
    return Problem(source.label, None, None, f"A1:{get_column_letter(max(columns, 1))}{rows}",
                   f"{size}, more than a register's sheet "
                   f"holds (at most {MAX_SHEET_COLUMNS} columns, {MAX_SHEET_ROWS:,} rows, {MAX_SHEET_CELLS:,} cells); "
                   "delete the empty rows "
                   "and columns past the register's (or copy its rows into a new sheet), save, and add it again")


def workbook_problem(path: Path, label: str) -> Problem | None:
    """Why the workbook at `path` is not opened at all: a part shrunk as a zip bomb's (load/zipped.py),
    the whole past MAX_WORKBOOK_UNPACKED, a part openpyxl reads whole past its bound, or too many
    shared strings; else None."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            return _parts_problem(z, label)
    except (zipfile.BadZipFile, OSError):
        return None                       # not a zip: openpyxl says so in its own words


def _parts_problem(z, label: str) -> Problem | None:
    from pipeline.load.zipped import MAX_RATIO, shrunk_too_far

    members = z.infolist()
    total = sum(m.file_size for m in members)
    bomb = next((m for m in members if shrunk_too_far(m)), None)
    if bomb is not None:
        return Problem(label, None, None, bomb.filename,
                       f"unpacks to {bomb.file_size // max(bomb.compress_size, 1):,} times its packed size, as no "
                       f"spreadsheet's part does (at most {MAX_RATIO}: a zip bomb); save the workbook again from the "
                       "spreadsheet, or send its registers as CSV files")
    if total > MAX_WORKBOOK_UNPACKED:
        return Problem(label, None, None, None,
                       f"would unpack to {total / 1024**2:,.0f} MB, more than a register workbook holds (at most "
                       f"{MAX_WORKBOOK_UNPACKED // 1024**2} MB); send its registers as CSV files")
    for m in members:
        if m.filename.lower().startswith("xl/worksheets/"):
            continue                      # read row by row, and bounded as read (rows_of)
        strings = m.filename.lower().endswith("sharedstrings.xml")
        most = MAX_STRINGS_PART if strings else MAX_OTHER_PART
        if m.file_size > most:
            return Problem(label, None, None, m.filename,
                           f"unpacks to {m.file_size / 1024**2:,.1f} MB, more than a register workbook's "
                           f"{'shared strings' if strings else 'part'} take (at most {most // 1024**2} MB); save the "
                           "workbook again from the spreadsheet, or send its registers as CSV files")
        if strings and _strings_in(z, m) > MAX_SHARED_STRINGS:
            return Problem(label, None, None, m.filename,
                           f"holds more than {MAX_SHARED_STRINGS:,} strings, more than a register workbook does; save "
                           "it again from the spreadsheet, or send its registers as CSV files")
    return None


_STRING = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si[\s/>]")


def _strings_in(z, member) -> int:
    """The strings a shared-strings part of the open workbook `z` holds (its <si> elements), counted
    as it unpacks, up to one past MAX_SHARED_STRINGS."""
    count, carry = 0, b""
    with z.open(member) as f:
        while chunk := f.read(1 << 20):
            data = carry + chunk
            edge = len(data) - 64          # a tag across the chunk's end is counted with the next
            count += sum(1 for m in _STRING.finditer(data) if m.start() < edge)
            carry = data[max(edge, 0):]
            if count > MAX_SHARED_STRINGS:
                return count
    return count + sum(1 for _ in _STRING.finditer(carry))


def sheets_problem(sheets: list[str], label: str) -> Problem | None:
    """Why a workbook's sheets are not read: more than MAX_SHEETS, or two named alike (the loader
    reads a sheet by its name, case and spaces aside); else None."""
    if len(sheets) > MAX_SHEETS:
        return Problem(label, None, None, None, f"has {len(sheets):,} sheets, more than a register workbook holds "
                                                f"(at most {MAX_SHEETS}); send its registers in fewer sheets")
    seen: set[str] = set()
    for s in sheets:
        key = s.strip().lower()
        if key in seen:
            return Problem(label, None, None, s, "names two sheets alike; give each sheet a name of its own")
        seen.add(key)
    return None


def rows_of(source, ws) -> list[list[str]] | Problem:
    """The sheet's cells as text, row by row as openpyxl gives them (each row filled out to the width
    the workbook declares), or the Problem of a sheet past the bounds above."""
    declared_rows, declared_columns = ws.max_row or 0, ws.max_column or 0
    if (declared_columns > MAX_SHEET_COLUMNS or declared_rows > MAX_SHEET_ROWS
            or declared_rows * declared_columns > MAX_SHEET_CELLS):
        return _too_large(source, declared_rows, declared_columns)
    rows, cells = [], 0
    for row in ws.iter_rows(values_only=True):     # a sheet declaring no size: each row as long as its cells
        cells += len(row)
        if len(row) > MAX_SHEET_COLUMNS or cells > MAX_SHEET_CELLS or len(rows) >= MAX_SHEET_ROWS:
            return _too_large(source, len(rows) + 1, max(len(row), declared_columns), declared=False)
        rows.append([cell_text(v) for v in row])
    return rows
