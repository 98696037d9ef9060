"""A small streaming writer of .xlsx workbooks: the auditors' workbooks are tables of text,
whole numbers, exact rupees and dates, with a styled header, widths, a frozen header row and
a filter. Each sheet's XML goes straight into the zip file as its rows come, so a sheet of a
million rows needs no more memory than one of ten.

Written by hand rather than with openpyxl, which took about 0.25 s to import and as long again
to write a district's workbook (a quarter of `pound run data/sample`). The DM's review sheet is
written here too (review_sheet.py): its shaded cells, rows reading from their top line, and the list
of decisions the decision cells offer (Sheet.choose_from). openpyxl still reads the Excel registers,
writes the entry workbooks (template.py, due_sheet.py) and reads every workbook back in the tests,
and LibreOffice Calc reads them back too (tests/outputs).

A cell is None (left empty), str (text, never a formula: a text cell that a spreadsheet would
run as a formula is also marked quote-prefixed, so that editing it keeps it text), int, float,
dt.date or dt.datetime (with a date format), or Cell(value, style) with one of the styles
below. Number(text) is a number given as its exact decimal text ("0.07"), never through a float.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import zipfile
from pathlib import Path
from typing import NamedTuple

from pipeline.core.money import paise_text
from pipeline.core.whole import partial_of

# the cell styles (their order is the order of cellXfs in styles.xml); those after WRAPPED are the
# DM's review sheet's (outputs/review_sheet.py): a finding's row reads from its top line, the cells the
# office fills in are shaded, and a warning is bold red
PLAIN, HEADER, RUPEES, DATE, DATETIME, KEPT_TEXT, BOLD, WRAPPED = range(8)
TOP, TOP_KEPT, TOP_DATE, TO_FILL_DATE, TO_FILL, TO_FILL_WRAPPED, WRAPPED_KEPT, WARNING = range(8, 16)
# a style of a text cell, as it is written when the text looks like a formula (kept as text)
KEPT = {PLAIN: KEPT_TEXT, TOP: TOP_KEPT, WRAPPED: WRAPPED_KEPT}
RUPEE_FORMAT, DATE_FORMAT, DATETIME_FORMAT = "#,##0.00", "dd-mm-yyyy", "dd-mm-yyyy hh:mm:ss"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_EPOCH = dt.datetime(1899, 12, 30)
# A sheet whose columns are wider than this (in characters, about what A4 upright holds within its
# margins at full size) prints across the page, landscape; every sheet prints one page wide.
PORTRAIT_WIDTH = 100
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
# characters XML 1.0 cannot hold, and a carriage return (which XML reads as a line feed): written as
# Excel's escape of each (_x0007_); and the underscore of a text that reads as such an escape
# ("_x0041_" typed), as Excel writes it (_x005F_), so that a reader that undoes them (Excel, the
# loader) gets the text back
_ESCAPED = re.compile(r"[\x00-\x08\x0b\x0c\r\x0e-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")


class Number(str):
    """A number as its exact decimal text."""


class Cell(NamedTuple):
    value: object
    style: int


def money(paise) -> Cell | None:
    """Integer paise as a rupee cell, exact to the paisa."""
    return None if paise is None else Cell(Number(paise_text(paise)), RUPEES)


def safe_text(value: str) -> bool:
    """Whether a text cell can be written as it is (it does not look like a formula)."""
    return not value.startswith(FORMULA_STARTS)


def column_letter(n: int) -> str:
    """1 -> A, 27 -> AA."""
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _escape(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if _ESCAPED.search(text):
        text = _ESCAPED.sub(lambda m: f"_x{ord(m.group()):04X}_", text)
    return text


def _text_cell(ref: str, text: str, style: int) -> str:
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() or "\n" in text else ""
    s = f' s="{style}"' if style else ""
    return f'<c r="{ref}"{s} t="inlineStr"><is><t{space}>{_escape(text)}</t></is></c>'


def _cell(ref: str, value, style: int = PLAIN) -> str:
    if isinstance(value, Cell):
        return _cell(ref, value.value, value.style)
    if value is None:                       # a Cell with no value: an empty cell of that style
        return f'<c r="{ref}" s="{style}"/>'
    if isinstance(value, str) and not isinstance(value, Number):
        return _text_cell(ref, value, style if safe_text(value) else KEPT.get(style, style))
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, dt.datetime):
        days = (value - _EPOCH) / dt.timedelta(days=1)
        return f'<c r="{ref}" s="{style or DATETIME}"><v>{days!r}</v></c>'
    if isinstance(value, dt.date):
        return f'<c r="{ref}" s="{style or DATE}"><v>{(value - _EPOCH.date()).days}</v></c>'
    s = f' s="{style}"' if style else ""
    return f'<c r="{ref}"{s}><v>{value}</v></c>'


class Sheet:
    """One sheet being written: widths and the frozen header are given when it is made, then
    rows are appended in order; close() writes the filter over the rows written."""

    def __init__(self, stream, title: str, widths: list[float], frozen: bool):
        self.title, self._out, self.rows, self._filter = title, stream, 0, None
        self._lists: list[str] = []
        panes = ('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
                 '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>') if frozen else ""
        cols = "".join(f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>' for i, w in enumerate(widths, 1))
        self.frozen = frozen
        self._landscape = sum(widths) > PORTRAIT_WIDTH
        # printed: one A4 page wide (as many pages down as the rows need), the header row on each page
        self._write(f'{_HEAD}<worksheet xmlns="{_MAIN}" xmlns:r="{_REL}"><sheetPr><pageSetUpPr fitToPage="1"/>'
                    '</sheetPr><sheetViews><sheetView workbookViewId="0">'
                    f'{panes}</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>'
                    f'{f"<cols>{cols}</cols>" if cols else ""}<sheetData>')
        self._letters: list[str] = []

    def _write(self, text: str) -> None:
        self._out.write(text.encode("utf-8"))

    def append(self, row, height: float | None = None) -> None:
        """A row of cells; `height` in points for a row whose wrapped text needs more than one line."""
        self.rows += 1
        n = self.rows
        letters = self._letters
        while len(letters) < len(row):
            letters.append(column_letter(len(letters) + 1))
        cells = "".join(_cell(f"{letters[i]}{n}", v) for i, v in enumerate(row) if v is not None)
        ht = f' ht="{height}" customHeight="1"' if height else ""
        self._write(f'<row r="{n}"{ht}>{cells}</row>')

    def filter(self, columns: int, rows: int) -> None:
        """A filter on the header row over `columns` columns and `rows` rows (the header's included)."""
        self._filter = f"A1:{column_letter(columns)}{rows}"

    def choose_from(self, cells: str, choices: tuple[str, ...] | list[str], error_title: str, error: str) -> None:
        """The cells (a range, "E2:E40") take one of `choices` or nothing: a spreadsheet offers the
        list in each, and refuses anything else with `error`."""
        listed = _escape(",".join(choices)).replace('"', "&quot;")
        self._lists.append(f'<dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1" '
                           f'errorTitle="{_attr(error_title)}" error="{_attr(error)}" sqref="{cells}">'
                           f'<formula1>&quot;{listed}&quot;</formula1></dataValidation>')

    def close(self) -> None:
        tail = f'<autoFilter ref="{self._filter}"/>' if self._filter else ""
        if self._lists:
            tail += f'<dataValidations count="{len(self._lists)}">{"".join(self._lists)}</dataValidations>'
        orientation = "landscape" if self._landscape else "portrait"
        tail += ('<pageMargins left="0.4" right="0.4" top="0.5" bottom="0.5" header="0.3" footer="0.3"/>'
                 f'<pageSetup paperSize="9" orientation="{orientation}" fitToWidth="1" fitToHeight="0"/>'
                 '<headerFooter><oddFooter>&amp;C&amp;A, page &amp;P of &amp;N</oddFooter></headerFooter>')
        self._write(f"</sheetData>{tail}</worksheet>")
        self._out.close()


class Workbook:
    """A workbook written sheet by sheet (one open at a time) into a hidden file beside `path`;
    save() finishes it and puts it in place, so that a failed or killed write leaves no half
    workbook at `path`. Used as a context manager, a failure removes the hidden file."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._part = partial_of(self.path, own=True)
        self._zip = zipfile.ZipFile(self._part, "w", zipfile.ZIP_DEFLATED, compresslevel=1)
        self._sheets: list[tuple[int, Sheet]] = []       # (file number, sheet) in the workbook's order
        self._open: Sheet | None = None

    def sheet(self, title: str, widths: list[float] = (), frozen: bool = True, first: bool = False) -> Sheet:
        if self._open is not None:
            self._open.close()
        number = len(self._sheets) + 1
        stream = self._zip.open(f"xl/worksheets/sheet{number}.xml", "w", force_zip64=True)
        self._open = Sheet(stream, title, list(widths), frozen)
        self._sheets.insert(0 if first else len(self._sheets), (number, self._open))
        return self._open

    def save(self) -> Path:
        if self._open is not None:
            self._open.close()
            self._open = None
        sheets = "".join(f'<sheet name="{_escape(s.title)}" sheetId="{n}" r:id="rId{n}"/>' for n, s in self._sheets)
        names = "".join(f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
                        f"{_escape(_quoted(s.title))}!{_absolute(s._filter)}</definedName>"
                        for i, (_, s) in enumerate(self._sheets) if s._filter)
        names += "".join(f'<definedName name="_xlnm.Print_Titles" localSheetId="{i}">'
                         f"{_escape(_quoted(s.title))}!$1:$1</definedName>"
                         for i, (_, s) in enumerate(self._sheets) if s.frozen)
        z = self._zip
        z.writestr("[Content_Types].xml", _content_types(n for n, _ in self._sheets))
        z.writestr("_rels/.rels", f'{_HEAD}<Relationships xmlns="{_PKG}"><Relationship Id="rId1" '
                   f'Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'{_HEAD}<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><bookViews><workbookView/>'
                   f'</bookViews><sheets>{sheets}</sheets>{f"<definedNames>{names}</definedNames>" if names else ""}'
                   "</workbook>")
        rels = "".join(f'<Relationship Id="rId{n}" Type="{_REL}/worksheet" Target="worksheets/sheet{n}.xml"/>'
                       for n, _ in self._sheets)
        z.writestr("xl/_rels/workbook.xml.rels", f'{_HEAD}<Relationships xmlns="{_PKG}">{rels}<Relationship '
                   f'Id="rId{len(self._sheets) + 1}" Type="{_REL}/styles" Target="styles.xml"/></Relationships>')
        z.writestr("xl/styles.xml", STYLES)
        z.close()
        os.replace(self._part, self.path)
        return self.path

    def __enter__(self) -> Workbook:
        return self

    def __exit__(self, kind, *_) -> None:
        if kind is not None:
            if self._open is not None:
                self._open.close()
            self._zip.close()
            self._part.unlink(missing_ok=True)


def _attr(text: str) -> str:
    return _escape(text).replace('"', "&quot;")


def _quoted(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def _absolute(ref: str) -> str:
    start, end = ref.split(":")
    return ":".join("$" + re.sub(r"(\d+)$", r"$\1", part) for part in (start, end))


def _content_types(numbers) -> str:
    sheets = "".join(f'<Override PartName="/xl/worksheets/sheet{n}.xml" '
                     'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                     for n in numbers)
    return (f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            f"{sheets}</Types>")


_FONT = '<sz val="11"/><name val="Calibri"/><family val="2"/>'


def _top(number_format: int, font: int, fill: int, extra: str, wrap: bool = False) -> str:
    """A style whose cell reads from its top line (and wraps its text, with `wrap`)."""
    wrapped = ' wrapText="1"' if wrap else ""
    return _XF.format(number_format, font, fill, extra + ' applyAlignment="1"').replace(
        "/>", f'><alignment vertical="top"{wrapped}/></xf>')
_XF = '<xf numFmtId="{}" fontId="{}" fillId="{}" borderId="0" xfId="0"{}/>'
STYLES = (
    f'{_HEAD}<styleSheet xmlns="{_MAIN}">'
    f'<numFmts count="3"><numFmt numFmtId="164" formatCode="{RUPEE_FORMAT}"/>'
    f'<numFmt numFmtId="165" formatCode="{DATE_FORMAT}"/><numFmt numFmtId="166" formatCode="{DATETIME_FORMAT}"/></numFmts>'
    f'<fonts count="4"><font>{_FONT}</font><font><b/><color rgb="FFFFFFFF"/>{_FONT}</font><font><b/>{_FONT}</font>'
    f'<font><b/><color rgb="FFC00000"/>{_FONT}</font></fonts>'
    '<fills count="4"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>'
    '<fill><patternFill patternType="solid"><fgColor rgb="FF305496"/><bgColor indexed="64"/></patternFill></fill>'
    '<fill><patternFill patternType="solid"><fgColor rgb="FFFFF2CC"/><bgColor indexed="64"/></patternFill></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="16">'
    + _XF.format(0, 0, 0, "")                                                        # PLAIN
    + _XF.format(0, 1, 2, ' applyFont="1" applyFill="1" applyAlignment="1"').replace(
        "/>", '><alignment vertical="top" wrapText="1"/></xf>')                      # HEADER, wrapped
    + _XF.format(164, 0, 0, ' applyNumberFormat="1"')                                # RUPEES
    + _XF.format(165, 0, 0, ' applyNumberFormat="1"')                                # DATE
    + _XF.format(166, 0, 0, ' applyNumberFormat="1"')                                # DATETIME
    + _XF.format(0, 0, 0, ' quotePrefix="1"')                                        # KEPT_TEXT
    + _XF.format(0, 2, 0, ' applyFont="1"')                                          # BOLD
    + _XF.format(0, 0, 0, ' applyAlignment="1"').replace(
        "/>", '><alignment vertical="top" wrapText="1"/></xf>')                      # WRAPPED (a long text)
    + _top(0, 0, 0, "")                                                              # TOP
    + _top(0, 0, 0, ' quotePrefix="1"')                                              # TOP_KEPT
    + _top(165, 0, 0, ' applyNumberFormat="1"')                                      # TOP_DATE
    + _top(165, 0, 3, ' applyNumberFormat="1" applyFill="1"')                        # TO_FILL_DATE
    + _top(0, 0, 3, ' applyFill="1"')                                                # TO_FILL
    + _top(0, 0, 3, ' applyFill="1"', wrap=True)                                     # TO_FILL_WRAPPED
    + _top(0, 0, 0, ' quotePrefix="1"', wrap=True)                                   # WRAPPED_KEPT
    + _XF.format(0, 3, 0, ' applyFont="1"')                                          # WARNING
    + '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>')
