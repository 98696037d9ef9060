"""The sheets of our own workbooks that hold no register ("how to fill in", a keeper's "what is due")
are passed over quietly; any other sheet that names no register is passed over with a note."""

from pathlib import Path

import openpyxl
from helpers import make_bundle

from pipeline.core.registers import DUE_SHEET, OWN_SHEETS, REVIEW_HELP_SHEET
from pipeline.load.bundle import find_sources


def test_our_own_sheets_pass_quietly_and_a_stranger_is_noted(tmp_path: Path):
    bundle = make_bundle(tmp_path / "b")
    (bundle / "registers").mkdir(exist_ok=True)
    book = openpyxl.Workbook()
    book.active.title = "impoundments"
    book.active.append(["case_id"])
    for name in (*OWN_SHEETS, "notes"):
        book.create_sheet(name).append(["anything"])
    book.save(bundle / "registers" / "keeper_P01.xlsx")
    sources, notes, broken = find_sources(bundle)
    assert not broken
    mine = [n for n in notes if "keeper_P01.xlsx" in n]
    # the near miss: a sheet of another name is noted
    assert mine == ["registers/keeper_P01.xlsx: sheet 'notes' is not a register name; passed over"]
    assert {REVIEW_HELP_SHEET, DUE_SHEET} <= set(OWN_SHEETS)
    assert any(s.sheet == "impoundments" and s.path.name == "keeper_P01.xlsx" for s in sources)
