"""The audit workbook: every table as a sheet, money exact, formulas kept as text."""

import datetime as dt

import pytest
from helpers import built
from openpyxl import load_workbook

from pipeline.outputs.workbook import write_workbook

AS_OF = dt.date(2026, 12, 31)


def test_audit_workbook(tmp_path, golden_bundle):
    bundle = tmp_path / "b"
    import shutil
    shutil.copytree(golden_bundle, bundle)
    # a register text cell that a spreadsheet would run as a formula
    path = bundle / "ledgers" / "local_fund.csv"
    path.write_text(path.read_text() + 'E13,LA1,2026-09-10,1,"=HYPERLINK(""http://x"",""y"")",other\n'
                    + "E14,LA1,2026-09-11,2,+91 98450 00000,other\n", encoding="utf-8")
    con = built(bundle, as_of=AS_OF)
    out = write_workbook(con, tmp_path / "audit_workbook.xlsx")
    wb = load_workbook(out)
    assert wb.sheetnames == ["summary", "reconciliation", "findings", "fund_movements", "case_accounts",
                             "security_status", "owner_accounts", "monthly_accounts"]
    assert [c.value for c in wb["security_status"][2]][:8] == ["D1", "C", dt.datetime(2026, 7, 2), 3000,
                                                              dt.datetime(2027, 1, 2), "G04", "forfeitable", "held"]
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:")
        # a column as wide as its name, or the name wrapped in its header cell (printed one page wide, readably)
        assert all(ws.column_dimensions[c].width >= len(str(ws[f"{c}1"].value)) or ws[f"{c}1"].alignment.wrap_text
                   for c in "ABC")
    rec = wb["reconciliation"]
    header = [c.value for c in rec[1]]
    assert header[:10] == ["ledger", "local_authority_id", "reference", "head", "expected_amount", "due_on",
                           "ledger_amount", "entry_on", "difference", "status"]
    cells = {rec.cell(r, 3).value: r for r in range(2, rec.max_row + 1)}
    formula_row = cells['=HYPERLINK("http://x","y")']
    cell = rec.cell(formula_row, 3)
    assert cell.data_type == "s" and cell.value == '=HYPERLINK("http://x","y")'
    assert rec.cell(cells["+91 98450 00000"], 3).data_type == "s"
    g09 = cells["G09"]
    money = rec.cell(g09, 9)
    assert money.number_format == "#,##0.00" and money.value == -50
    assert rec.cell(g09, 6).number_format == "dd-mm-yyyy"
    summary = wb["summary"]
    sh = [c.value for c in summary[1]]
    assert sh[:6] == ["local_authority_id", "local_authority_name", "district", "ledger", "head", "expected"]
    assert "breaks" in sh
    # the statuses are rupees here (the page counts rows under the same names): named as amounts,
    # beside the part of the difference on credits already due
    assert {"difference_due", "matched_amount", "missing_amount", "unexpected_amount"} <= set(sh)
    assert not {"matched", "missing", "unexpected"} & set(sh)
    ma = wb["monthly_accounts"]
    assert "heads_end" in [c.value for c in ma[1]] and "fines_received" in [c.value for c in ma[1]]
    ca = wb["case_accounts"]
    assert ca.max_row == 17 and [c.value for c in ca[1]][:3] == ["case_id", "pound_id", "local_authority_id"]


def test_workbook_money_is_exact_decimal_text(tmp_path, golden_bundle):
    import re
    import zipfile
    con = built(golden_bundle, as_of=AS_OF)
    con.execute("UPDATE case_accounts SET fine_due = 7 WHERE case_id = 'G01'")      # Rs 0.07: 0.07000000000000001 as a float
    con.execute("UPDATE case_accounts SET fine_due = 123456789012345 WHERE case_id = 'G02'")
    path = write_workbook(con, tmp_path / "w.xlsx")
    xml = zipfile.ZipFile(path).read("xl/worksheets/sheet5.xml").decode()
    values = re.findall(r'<c r="J\d+"[^>]*><v>([^<]*)</v>', xml)
    assert "0.07" in values and "1234567890123.45" in values and "800.00" in values


def test_a_sheet_past_excels_limit_is_refused_not_cut(monkeypatch, golden_bundle, tmp_path):
    import pipeline.outputs.workbook as wbmod
    from pipeline.core.errors import PoundError

    con = built(golden_bundle, as_of=AS_OF)
    # as if the golden bundle were a state's: its longest table, fund_movements, has 43 rows
    monkeypatch.setattr(wbmod, "EXCEL_MAX_ROWS", 43)
    with pytest.raises(PoundError, match="fund_movements has 43 rows, more than a sheet holds"):
        write_workbook(con, tmp_path / "w.xlsx")
    monkeypatch.setattr(wbmod, "EXCEL_MAX_ROWS", 44)      # the header and 43 rows fit
    assert load_workbook(write_workbook(con, tmp_path / "w2.xlsx"))["fund_movements"].max_row == 44
