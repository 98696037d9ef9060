"""The ledgers' entry workbooks (pound template --ledger): lists of the bundle's local authorities
and cases, typed cells and help; filled in with the sample's ledger entries as an accounts officer
would type them (day-first dates, Indian grouping) in place of the CSV files, they load as they are
and the reconciliation comes out as it does from the CSV files."""

import csv
import datetime as dt
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from pipeline.core.registers import BY_NAME, REVIEW_HELP_SHEET

SAMPLE = Path(__file__).parents[2] / "data" / "sample"


def _csv(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _lists(wb) -> dict[str, list]:
    ws = wb[REVIEW_HELP_SHEET]
    return {ws.cell(1, c).value: [ws.cell(r, c).value for r in range(2, ws.max_row + 1) if ws.cell(r, c).value]
            for c in range(10, ws.max_column + 1) if ws.cell(1, c).value}


@pytest.mark.parametrize("ledger", ["local_fund", "dm_deposit"])
def test_a_ledgers_workbook_has_its_lists_checks_and_help(tmp_path, run_cli, ledger):
    code, printed, err = run_cli("template", "--bundle", SAMPLE, "--ledger", ledger, "--month", "2026-11",
                                 "--out", tmp_path / f"{ledger}_2026-11.xlsx")
    assert code == 0, err
    wb = load_workbook(tmp_path / f"{ledger}_2026-11.xlsx")
    assert wb.sheetnames == [ledger, REVIEW_HELP_SHEET]
    ws = wb[ledger]
    assert [c.value for c in ws[1]] == BY_NAME[ledger].names
    lists = _lists(wb)
    assert lists["local_authority_id"] == [r["local_authority_id"] for r in _csv(SAMPLE / "reference" / "local_authorities.csv")]
    assert lists["cases"] == [r["case_id"] for r in _csv(SAMPLE / "registers" / "impoundments.csv")]
    checks = {next(iter(dv.sqref.ranges)).coord.split(":")[0].rstrip("0123456789"): dv
              for dv in ws.data_validations.dataValidation}
    names = BY_NAME[ledger].names
    letter = {n: ws.cell(1, i + 1).column_letter for i, n in enumerate(names)}
    assert (checks[letter["entry_on"]].type, checks[letter["entry_on"]].formula1) == ("custom", "date_ok")
    assert (checks[letter["amount"]].type, checks[letter["amount"]].formula1) == ("custom", "amount_ok")
    assert checks[letter["local_authority_id"]].type == "list" and checks[letter["local_authority_id"]].errorStyle == "stop"
    assert checks[letter["reference"]].type == "list" and checks[letter["reference"]].errorStyle == "warning"
    help_text = " ".join(str(r[0]) for r in wb[REVIEW_HELP_SHEET].iter_rows(max_col=1, values_only=True) if r[0])
    assert f"ledgers/ folder as {ledger}_2026-11.xlsx" in help_text
    assert ws.page_setup.fitToWidth == 1 and ws.print_title_rows in ("1:1", "$1:$1")


def _indian(text: str) -> str:
    whole, _, paise = text.replace(",", "").partition(".")
    head, tail = whole[:-3], whole[-3:]
    groups = []
    while head:
        groups.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(groups + [tail]) + (f".{paise}" if paise else "")


def test_the_ledgers_filled_in_load_and_reconcile_as_their_csv_files_do(tmp_path, run_cli, shared):
    bundle = tmp_path / "mysuru"
    shutil.copytree(SAMPLE, bundle)
    for ledger in ("local_fund", "dm_deposit"):
        out = tmp_path / f"{ledger}_2026-11.xlsx"
        code, _, err = run_cli("template", "--bundle", bundle, "--ledger", ledger, "--out", out)
        assert code == 0, err
        rows = _csv(bundle / "ledgers" / f"{ledger}.csv")
        (bundle / "ledgers" / f"{ledger}.csv").unlink()
        wb = load_workbook(out)
        ws = wb[ledger]
        names = [c.value for c in ws[1]]
        for r, row in enumerate(rows, 2):
            for c, name in enumerate(names, 1):
                v = row.get(name, "")
                if not v:
                    continue
                if name == "entry_on":          # every other entry's day typed as a date, the rest as text
                    d, m, y = v.split("/")
                    v = dt.datetime(int(y), int(m), int(d)) if r % 2 else f"{d}-{m}-{y}"
                elif name == "amount":
                    v = _indian(v)
                cell = ws.cell(r, c, v)
                if isinstance(v, str):
                    cell.data_type = "s"
        wb.save(bundle / "ledgers" / out.name)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "o", "--as-of", "2026-11-30")
    assert code == 0, err
    ours = _csv(tmp_path / "o" / "reconciliation.csv")
    theirs = _csv(shared.run(SAMPLE, "2026-11-30") / "reconciliation.csv")
    drop = ("source", "ledger_source", "credit_source")
    strip = [{k: v for k, v in r.items() if not any(k.endswith(d) for d in drop)} for r in ours]
    assert strip == [{k: v for k, v in r.items() if not any(k.endswith(d) for d in drop)} for r in theirs]
    assert len(ours) > 5


def test_the_dm_s_register_of_claims_is_offered_beside_his_deposit_account(tmp_path, run_cli):
    """R23: `--ledger surplus_claims` writes the DM's office's register of claims to the surplus it holds, with the
    bundle's cases to choose from (refused, not warned, when not one: a claim is to a case's surplus), typed days
    and amounts and help; filled in and saved into registers/, it loads as it is and the claim reaches the accounts."""
    out = tmp_path / "surplus_claims_2026-11.xlsx"
    code, _, err = run_cli("template", "--bundle", SAMPLE, "--ledger", "surplus_claims", "--month", "2026-11", "--out", out)
    assert code == 0, err
    wb = load_workbook(out)
    assert wb.sheetnames == ["surplus_claims", REVIEW_HELP_SHEET]
    ws = wb["surplus_claims"]
    names = BY_NAME["surplus_claims"].names
    assert [c.value for c in ws[1]] == names
    assert _lists(wb)["cases"] == [r["case_id"] for r in _csv(SAMPLE / "registers" / "impoundments.csv")]
    checks = {next(iter(dv.sqref.ranges)).coord.split(":")[0].rstrip("0123456789"): dv
              for dv in ws.data_validations.dataValidation}
    letter = {n: ws.cell(1, i + 1).column_letter for i, n in enumerate(names)}
    assert checks[letter["case_id"]].type == "list" and checks[letter["case_id"]].errorStyle == "stop"
    assert all(checks[letter[c]].formula1 == "date_ok" for c in ("preferred_on", "established_on"))
    assert checks[letter["amount"]].formula1 == "amount_ok"
    help_text = " ".join(str(r[0]) for r in wb[REVIEW_HELP_SHEET].iter_rows(max_col=1, values_only=True) if r[0])
    assert "registers/ folder as surplus_claims_2026-11.xlsx" in help_text and "a claim sent in error" in help_text
    assert "within six months" in ws.cell(1, names.index("preferred_on") + 1).comment.text
    bundle = tmp_path / "mysuru"
    shutil.copytree(SAMPLE, bundle)
    for c, v in enumerate(("CL-1", "M-2608-003", "Mahadevappa (owner)", "10-11-2026", "", "1,000.00"), 1):
        ws.cell(2, c, v).data_type = "s"
    wb.save(bundle / "registers" / out.name)
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "o", "--as-of", "2026-11-30")
    assert code == 0, err
    from pipeline.read.database import connect
    con = connect(tmp_path / "o" / "pound.duckdb")
    try:
        assert con.execute("SELECT claim_id, case_id, preferred_on, amount FROM surplus_claims").fetchall() == [
            ("CL-1", "M-2608-003", dt.date(2026, 11, 10), 100000)]
    finally:
        con.close()
