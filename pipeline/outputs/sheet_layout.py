"""The look and the print set-up the workbooks made with openpyxl share (the keeper's and the
ledgers' entry workbooks, the sheet "what is due"; the review workbook is xlsx.py's): the cells' formats, the
header row's style, and a sheet that prints one A4 page wide with its header row on every page.
"""

from __future__ import annotations

from openpyxl.styles import Font, PatternFill
from openpyxl.utils import column_index_from_string, get_column_letter

DATE_FORMAT, MONEY_FORMAT, TIME_FORMAT = "dd-mm-yyyy", "#,##0.00", "hh:mm"
HEADER_FONT = Font(bold=True, color="FFFFFF")
HEADER_FILL = PatternFill("solid", fgColor="305496")


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
