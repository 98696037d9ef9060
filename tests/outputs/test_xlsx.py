"""xlsx.py, the workbook writer: every kind of cell read back by openpyxl as it was written
(LibreOffice Calc reads the auditor's workbook back in test_audit_file.py)."""

import datetime as dt
import zipfile

import pytest
from openpyxl import load_workbook

from pipeline.outputs import xlsx

TEXTS = ["plain", "ಮೈಸೂರು ತಾಲ್ಲೂಕು", "  spaced  ", "two\nlines", "a < b & c > d", 'quote " and apostrophe \'',
         "bell\x07 and nul\x00", "=SUM(A1:A2)", "+91 98450 00000", "-5", "@home"]


def test_every_kind_of_cell_reads_back_as_written(tmp_path):
    with xlsx.Workbook(tmp_path / "w.xlsx") as wb:
        ws = wb.sheet("cells", [12, 30])
        ws.append([xlsx.Cell("text", xlsx.HEADER), xlsx.Cell("value", xlsx.HEADER)])
        for t in TEXTS:
            ws.append(["text", t])
        ws.append(["whole", 123456789012345678])
        ws.append(["money", xlsx.money(7)])
        ws.append(["negative money", xlsx.money(-5000)])
        ws.append(["date", dt.date(2026, 10, 31)])
        ws.append(["time", dt.datetime(2026, 10, 31, 14, 5, 9)])
        ws.append(["empty", None])
        ws.filter(2, ws.rows)
        other = wb.sheet("it's first", frozen=False, first=True)
        other.append([xlsx.Cell("bold", xlsx.BOLD)])
        path = wb.save()
    assert not list(tmp_path.glob(".*.part*"))
    book = load_workbook(path)
    assert book.sheetnames == ["it's first", "cells"]
    ws = book["cells"]
    got = {}
    for r in range(2, ws.max_row + 1):
        got.setdefault(ws.cell(r, 1).value, []).append(ws.cell(r, 2))
    # a character XML cannot hold is written as Excel's escape of it (Excel and Calc show the
    # character; openpyxl gives the escape), and the sheet stays well-formed
    escaped = "bell_x0007_ and nul_x0000_"
    assert [c.value for c in got["text"]] == [escaped if "bell" in t else t for t in TEXTS]
    assert all(c.data_type == "s" for c in got["text"])
    assert [c.quotePrefix for c in got["text"]] == [not xlsx.safe_text(t) for t in TEXTS]
    assert got["whole"][0].value == 123456789012345678
    assert (got["money"][0].value, got["money"][0].number_format) == (0.07, "#,##0.00")
    assert got["negative money"][0].value == -50
    assert (got["date"][0].value, got["date"][0].number_format) == (dt.datetime(2026, 10, 31), "dd-mm-yyyy")
    assert got["time"][0].value == dt.datetime(2026, 10, 31, 14, 5, 9)
    assert got["empty"][0].value is None
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == f"A1:B{ws.max_row}"
    assert ws["A1"].font.b and ws["A1"].fill.fgColor.rgb == "FF305496" and ws.column_dimensions["B"].width == 30
    first = book["it's first"]
    assert first.freeze_panes is None and first["A1"].font.b
    xml = zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()
    assert "<v>0.07</v>" in xml and "<v>-50.00</v>" in xml          # exact decimal text, never a float's


def test_a_failed_write_leaves_nothing_at_the_path(tmp_path):
    path = tmp_path / "w.xlsx"
    with pytest.raises(RuntimeError), xlsx.Workbook(path) as wb:
        wb.sheet("s").append(["a row"])
        raise RuntimeError("the query failed")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("n, letters", [(1, "A"), (26, "Z"), (27, "AA"), (52, "AZ"), (703, "AAA")])
def test_column_letters(n, letters):
    assert xlsx.column_letter(n) == letters
