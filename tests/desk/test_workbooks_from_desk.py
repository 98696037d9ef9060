"""The workbooks from the desk (workbooks.py): "Make the keeper's workbook" (pound and month) and
"Make the ledger workbooks", handed out as `pound template` writes them (the same sheets and cells);
a pound not of the bundle refused; an auditor may not make them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MONTH = "2026-11"


def cells(path: Path) -> dict:
    import openpyxl

    wb = openpyxl.load_workbook(path)
    try:
        return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in wb.worksheets}
    finally:
        wb.close()


def test_the_keepers_and_ledger_workbooks_are_pound_templates(desk_of, run_cli, tmp_path):
    d = desk_of()
    r = d.post("/workbooks", data={"token": d.token(), "month": MONTH, "kind": "keeper", "pound": "P01"})
    assert r.status_code == 303
    page = d.get(f"/?month={MONTH}").text
    link = re.search(r'href="(/files/2026-11/workbooks/registers_2026-11_P01.xlsx)"', page).group(1)
    got = d.get(link)
    assert got.status_code == 200
    (tmp_path / "desk.xlsx").write_bytes(got.data)
    bundle = tmp_path / "cli_bundle"
    shutil.copytree(ROOT / "data" / "sample", bundle)
    code, _, err = run_cli("template", "--bundle", bundle, "--pound", "P01", "--month", MONTH, "--out", tmp_path / "cli.xlsx")
    assert code == 0, err
    assert cells(tmp_path / "desk.xlsx") == cells(tmp_path / "cli.xlsx")

    assert d.post("/workbooks", data={"token": d.token(), "month": MONTH, "kind": "ledgers"}).status_code == 303
    page = d.get(f"/?month={MONTH}").text
    for ledger in ("local_fund", "dm_deposit"):
        link = re.search(rf'href="(/files/2026-11/workbooks/{ledger}_2026-11.xlsx)"', page).group(1)
        (tmp_path / f"desk_{ledger}.xlsx").write_bytes(d.get(link).data)
        code, _, err = run_cli("template", "--bundle", bundle, "--ledger", ledger, "--month", MONTH,
                               "--out", tmp_path / f"cli_{ledger}.xlsx")
        assert code == 0, err
        assert cells(tmp_path / f"desk_{ledger}.xlsx") == cells(tmp_path / f"cli_{ledger}.xlsx")
    assert "made local_fund_2026-11.xlsx, dm_deposit_2026-11.xlsx" in page

    r = d.post("/workbooks", data={"token": d.token(), "month": MONTH, "kind": "keeper", "pound": "../P01"})
    assert r.status_code == 303 and "is not a pound of the bundle" in d.get(r.headers["Location"]).text
    assert d.post("/workbooks", data={"token": d.token(), "month": MONTH, "kind": "other"}).status_code == 400
    assert d.post("/workbooks", data={"token": "forged", "month": MONTH, "kind": "ledgers"}).status_code == 403
