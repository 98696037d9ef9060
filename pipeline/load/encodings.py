"""Why a CSV file is not UTF-8 text, in words a clerk can act on.

Files are read as UTF-8 (with or without Excel's byte-order mark) and nothing else: a file
saved as "ANSI" (Windows-1252) or as "Unicode Text" (UTF-16) is rejected rather than guessed
at, for a wrong guess would load names with the wrong letters without a word. The message
names the file and the first row that is not UTF-8, and how to save the file again.
"""

from __future__ import annotations

import csv
import io

HOW_TO_SAVE = ("save it again as 'CSV UTF-8': in Excel, File > Save As, type 'CSV UTF-8 (Comma delimited) (*.csv)'; "
               "in LibreOffice Calc, File > Save As, type 'Text CSV (.csv)', tick 'Edit filter settings', "
               "character set 'Unicode (UTF-8)', field delimiter ','")

UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def utf16_problem(data: bytes) -> str | None:
    """The message for a file saved as UTF-16 ("Unicode Text"), or None."""
    if data.startswith(UTF16_MARKS) or (len(data) >= 4 and data[1:4:2] == b"\x00\x00" and data[0:1] != b"\x00"):
        return ("is saved as UTF-16 ('Unicode Text', often with tabs between the cells), not as CSV UTF-8; "
                + HOW_TO_SAVE)
    return None


def row_of(data: bytes, offset: int) -> int:
    """The spreadsheet row (the header is row 1) holding the byte at `offset`."""
    before = data[:offset].decode("utf-8", errors="replace")
    rows = sum(1 for _ in csv.reader(io.StringIO(before + "x")))
    return max(rows, 1)


def not_utf8_problem(data: bytes, exc: UnicodeDecodeError) -> tuple[int, str]:
    """(row, message) for a file that is not UTF-8 at exc.start."""
    bad = data[exc.start: exc.start + 1].hex().upper()
    guess = ""
    try:
        data.decode("cp1252")
        guess = "; it was probably saved as 'ANSI' or 'CSV (Comma delimited)' (Windows-1252)"
    except UnicodeDecodeError:
        pass
    return row_of(data, exc.start), f"is not valid UTF-8 text (byte 0x{bad}){guess}; {HOW_TO_SAVE}"
