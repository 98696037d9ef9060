"""Each workbook printed to PDF by LibreOffice: every sheet is one A4 page wide, its header row on
each of its pages, and its help readable. The keeper's (a pound's copy, with what is due), the
District Magistrate's review, the auditor's (pound workbook) and the whole bundle's audit workbook.

A page is told to its sheet by the footer every sheet prints ("releases, page 2 of 16"). A sheet
printed more than one page wide would put its first column and its last on different pages: every
page must show both (its header row is repeated on each page)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from calc_served import PDF
from openpyxl import load_workbook

from pipeline.core.registers import REVIEW_HELP_SHEET
from pipeline.outputs.workbook import HEADER_WIDTH

pytestmark = pytest.mark.calc
SAMPLE = Path(__file__).parents[2] / "data" / "sample"


def _pdfs(calc, xlsxs: list[Path], out: Path) -> dict[str, Path]:
    """Each workbook printed to PDF by LibreOffice (the test process's Calc, conftest.py: each file is
    opened and printed on its own; their names differ): {workbook's name: its PDF}."""
    assert shutil.which("pdftotext"), "pdftotext (poppler-utils) is needed"
    assert len({x.stem for x in xlsxs}) == len(xlsxs), xlsxs
    calc.convert(xlsxs, out, PDF)
    pdfs = {x.name: out / (x.stem + ".pdf") for x in xlsxs}
    assert all(p.is_file() for p in pdfs.values()), pdfs
    return pdfs


def _pages(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    return text.split("\f")[:-1]


# printed at full size, a line of Calibri 11 is about 14 pt tall in pdftotext's boxes; a sheet squeezed
# to one page wide below about half of that (3 pt letters) is not read, however whole its columns
SMALLEST_LINE = 6.5


def _line_heights(pdf: Path) -> list[float]:
    """Each page's median word height, in points (pdftotext -bbox)."""
    text = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    out = []
    for page in text.split("<page ")[1:]:
        heights = sorted(float(b) - float(a) for a, b in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', page))
        out.append(heights[len(heights) // 2] if heights else 99.0)
    return out


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _header_ends(ws) -> tuple[str, str]:
    """The first and the last column's names in the row that is repeated on each printed page."""
    rows = ws.print_title_rows
    row = int(rows.split(":")[0].lstrip("$")) if rows else 1
    last_col = ws.max_column
    area = ws.print_area.split("!")[-1].replace("$", "") if ws.print_area else None
    if area:
        from openpyxl.utils import range_boundaries

        _, _, last_col, _ = range_boundaries(area)
    names = [str(ws.cell(row, c).value) for c in range(1, last_col + 1) if ws.cell(row, c).value not in (None, "")]
    return names[0], names[-1]


def _check(xlsx: Path, pdf: Path, smallest: float = SMALLEST_LINE) -> dict[str, int]:
    """Each sheet's pages (of xlsx printed, pdf), every one of them showing its header row's first and last names."""
    wb = load_workbook(xlsx)
    pages = _pages(pdf)
    heights = _line_heights(pdf)
    assert min(heights) >= smallest, (xlsx.name, heights)
    by_sheet: dict[str, list[str]] = {}
    for page in pages:
        found = re.findall(r"(\S[^\n]*?), page (\d+) of (\d+)", page)
        assert found, page[-300:]
        sheet = found[-1][0].strip()
        by_sheet.setdefault(sheet, []).append(page)
    assert list(by_sheet) == wb.sheetnames, (list(by_sheet), wb.sheetnames)
    for sheet, its in by_sheet.items():
        ws = wb[sheet]
        assert ws.page_setup.fitToWidth in (1, "1") and ws.page_setup.paperSize in (9, "9"), sheet
        if sheet == "cover" or ws.max_row < 2 and not ws.print_title_rows:
            continue
        # a long name wraps in its header cell (pound workbook): its first line is read whole
        first, last = (_squeezed(x)[:HEADER_WIDTH - 2] for x in _header_ends(ws))
        for n, page in enumerate(its, 1):
            flat = _squeezed(page)
            assert first in flat and last in flat, (xlsx.name, sheet, n, first, last)
    return {s: len(p) for s, p in by_sheet.items()}


def _tiny(path: Path) -> Path:
    """A sheet of six columns of 200 characters, set up to print one page wide: it prints tiny."""
    from openpyxl import Workbook

    from pipeline.outputs.sheet_layout import print_setup

    wb = Workbook()
    ws = wb.active
    for r in range(1, 6):
        ws.append([f"value {r}-{c}" for c in range(1, 7)])
    for letter in "ABCDEF":                       # six columns of 200 characters on one page's width
        ws.column_dimensions[letter].width = 200
    print_setup(ws)
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def printed(tmp_path_factory, shared, calc):
    """Every workbook these tests print, each made in a folder of its own (the accounts' folder a copy
    of the shared run each time), all printed to PDF by the test process's LibreOffice (each file is
    opened and printed on its own): {name: (workbook, its PDF)} (read only)."""
    from shared import quietly

    from pipeline.cli import main

    def cli(*args) -> None:
        code, said = quietly(main, [str(a) for a in args])
        assert code == 0, said

    made = tmp_path_factory.mktemp("workbooks")
    books = {"tiny": _tiny(made / "tiny.xlsx")}
    books["keepers"] = made / "registers_2026-11_P01.xlsx"
    cli("template", "--bundle", SAMPLE, "--pound", "P01", "--month", "2026-11", "--out", books["keepers"])
    whole = shared.run(SAMPLE, "2026-11-30", made / "whole")
    books["whole"] = whole / "audit_workbook.xlsx"
    scoped = shared.run(SAMPLE, "2026-11-30", made / "scoped")
    books["scoped"] = made / "audit_LA01_2026-27.xlsx"
    cli("workbook", "--db", scoped / "pound.duckdb", "--local-authority", "LA01", "--financial-year", "2026-27",
        "--out", books["scoped"])
    review = shared.run(SAMPLE, "2026-11-30", made / "review")
    cli("report", "--db", review / "pound.duckdb", "--month", "2026-11", "--out", made / "r")
    books["review"] = made / "r" / "review_2026-11.xlsx"
    pdfs = _pdfs(calc, list(books.values()), tmp_path_factory.mktemp("pdf"))
    return {name: (xlsx, pdfs[xlsx.name]) for name, xlsx in books.items()}


def test_the_size_check_sees_a_sheet_printed_tiny(printed):
    assert min(_line_heights(printed["tiny"][1])) < SMALLEST_LINE


def test_the_keepers_workbook_prints_one_page_wide_with_its_help_readable(printed):
    out, pdf = printed["keepers"]
    # the sales sheet has 20 columns since R18 and R19 (who appeared and when, the balance paid on and its
    # receipt): one landscape page wide it prints at about 6.1 pt, the others at 6.5 or more
    pages = _check(out, pdf, smallest=6.0)
    # a blank register prints on one page; the help is whole: its last column's words are not cut at the edge
    assert all(pages[s] == 1 for s in ("impoundments", "releases", "sales"))
    text = _squeezed("".join(_pages(pdf)))
    assert _squeezed("DD-MM-YYYY (day first); required") in text
    assert _squeezed("registers_2026-11_P01.xlsx") in text and REVIEW_HELP_SHEET in pages


def test_the_auditors_workbooks_print_one_page_wide(printed):
    # the whole bundle's workbook holds the models as they are, 30 columns a sheet and more (reconciliation
    # has 31 with R21's early finding, monthly_accounts, case_accounts with R20 and R22's overdue feeding): one
    # page wide it prints smaller than the auditor's own (pound workbook), though no longer at 3 pt
    _check(*printed["whole"], smallest=4.0)
    out, pdf = printed["scoped"]          # pound workbook --local-authority LA01 --financial-year 2026-27
    _check(out, pdf)
    # every amount keeps its rupee format, in the cells and on paper (1,200.00)
    money = re.compile(r"amount|_due|credited|received|proceeds|expenses|refunded|forfeited|deposits|surplus|"
                       r"unrecovered|balance_to|ledger$|^held|missing_at|unexpected_at|difference")
    seen = 0
    for ws in load_workbook(out).worksheets:
        heads = {c.column: str(c.value) for c in ws[1]}
        for row in ws.iter_rows(min_row=2):
            for c in row:
                head = heads[c.column]
                if isinstance(c.value, (int, float)) and money.search(head) and not head.startswith("days"):
                    assert c.number_format == "#,##0.00", (ws.title, heads[c.column], c.number_format)
                    seen += 1
    assert seen > 50
    assert re.search(r"\d,\d{3}\.\d\d", "".join(_pages(pdf)))


def test_the_review_workbook_prints_one_page_wide(printed):
    _check(*printed["review"])       # pound report --month 2026-11
