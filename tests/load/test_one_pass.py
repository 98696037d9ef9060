"""One pass of errors (issue 39, item 6): a load reports every file's own problems at once. A sheet
naming rows of a rejected sheet is still checked for everything else, so its own mistakes are
listed the first time, not on a second try."""

from __future__ import annotations

from helpers import case, make_bundle
from openpyxl import Workbook

from pipeline.core.registers import BY_NAME

RELEASE = {"release_id": "R1", "case_id": "C1", "released_on": "2026-10-02", "head_count": 1, "basis": "s12_payment",
           "fines_paid": "600", "charges_paid": "400", "receipt_signed": "yes"}


def _book(path, sheets: dict[str, list[dict]]) -> None:
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        names = BY_NAME[name].names
        ws.append(list(names))
        for r in rows:
            ws.append([r.get(n, "") for n in names])
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def test_a_workbook_with_mistakes_on_three_sheets_reports_them_all_in_one_go(tmp_path, run_cli):
    """impoundments: C2 with 0 heads (rejected). releases: R1 names C1, a case of that rejected
    sheet (one line says so), and R2 is released on a day that is not a date. police_reports: a
    report of C1 on a day that is not a date. All three sheets' own mistakes in one load."""
    bundle = make_bundle(tmp_path / "b")
    _book(bundle / "registers" / "registers_2026-10_P1.xlsx", {
        "impoundments": [case("C1"), case("C2", head_count=0)],
        "releases": [RELEASE, dict(RELEASE, release_id="R2", released_on="32/10/2026")],
        "police_reports": [{"case_id": "C1", "reported_on": "not a day"}],
    })
    code, _, err = run_cli("ingest", bundle, "--db", tmp_path / "p.duckdb")
    assert code == 2
    assert "'0' is below 1" in err                                          # impoundments' own
    releases = [ln for ln in err.splitlines() if "[sheet releases]" in ln]
    assert any("not loaded: it refers to rows of" in ln and "(case_id C1)" in ln for ln in releases), err
    assert any("'32/10/2026'" in ln for ln in releases), err                 # releases' own, at once
    assert not any("'C1' is not a case_id" in ln for ln in releases)       # said once, not per row
    police = [ln for ln in err.splitlines() if "[sheet police_reports]" in ln]
    assert any("'not a day'" in ln for ln in police), err


def test_a_sheet_naming_rows_of_a_rejected_sheet_and_nothing_else_wrong_says_so_in_one_line(tmp_path, run_cli):
    bundle = make_bundle(tmp_path / "b")
    _book(bundle / "registers" / "registers_2026-10_P1.xlsx", {
        "impoundments": [case("C1"), case("C2", head_count=0)], "releases": [RELEASE]})
    code, _, err = run_cli("ingest", bundle, "--db", tmp_path / "p.duckdb")
    assert code == 2
    assert len([ln for ln in err.splitlines() if "[sheet releases]" in ln]) == 1
