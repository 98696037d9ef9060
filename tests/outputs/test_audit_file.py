"""The workbook an auditor files: one scope's rows only, a cover, and Calc reads it back."""

import csv
import datetime as dt
import hashlib
import shutil
from pathlib import Path

import pytest
from calc_served import CSV
from helpers import load
from openpyxl import load_workbook

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.outputs.audit_file import write_audit_file
from pipeline.read.scope import make_scope

AS_OF = dt.date(2026, 12, 31)
START, END = dt.date(2026, 9, 1), dt.date(2026, 10, 31)
# sheet -> the column that puts its rows in the period (as the cover states)
BASIS = {"reconciliation": ("due_on", "entry_on"), "ledger_entries": ("entry_on",), "findings": ("event_on",),
         "case_accounts": ("impounded_on",), "fund_movements": ("due_on",)}


# The module's tests run in one test process, which makes the module's fixture once (spread
# over two processes, each made it).
pytestmark = [pytest.mark.xdist_group("calc")]     # with the Calc tests (conftest.py): its workbook made once, Calc started once


@pytest.fixture(scope="module")
def audit(tmp_path_factory, golden_bundle_path):
    tmp = tmp_path_factory.mktemp("audit")
    bundle = tmp / "b"
    shutil.copytree(golden_bundle_path, bundle)
    path = bundle / "ledgers" / "local_fund.csv"
    path.write_text(path.read_text() + 'E13,LA2,2026-09-10,1,"=HYPERLINK(""http://x"",""y"")",other\n',
                    encoding="utf-8")
    con, result = load(bundle)          # the whole load, so `loads` holds each file's sha256
    assert not result.rejected
    build(con, Parameters({}, as_of=AS_OF))
    out, counts = write_audit_file(con, make_scope(local_authority="LA2", start=START, end=END), tmp / "LA2.xlsx")
    return bundle, out, counts


@pytest.fixture(scope="module")
def golden_bundle_path():
    return Path(__file__).resolve().parent.parent / "golden" / "bundle"


def _rows(ws):
    header = [c.value for c in ws[1]]
    return [dict(zip(header, [c.value for c in r], strict=True)) for r in ws.iter_rows(min_row=2)]


def test_sheets_hold_only_the_scope(audit):
    _, out, counts = audit
    wb = load_workbook(out)
    assert wb.sheetnames == ["cover", "balances", "reconciliation", "ledger_entries", "findings", "case_accounts",
                             "fund_movements", "monthly_accounts"]
    for name in wb.sheetnames[1:]:
        rows = _rows(wb[name])
        assert len(rows) == counts[name]
        assert rows, name
        for r in rows:
            assert r["local_authority_id"] == "LA2", (name, r)
            if name in BASIS:
                day = next(r[c] for c in BASIS[name] if r[c] is not None).date()
                assert START <= day <= END, (name, r)
            if name == "monthly_accounts":
                assert r["month"] in ("2026-09", "2026-10")
    # the rows of the scope, named: G05's second credit, G13's and G09's, the DM's early credit,
    # and the formula-looking entry (kept as text)
    entries = _rows(wb["ledger_entries"])
    assert [e["entry_id"] for e in entries] == ["DM2", "E05", "E13", "E10", "E08"]
    e05 = entries[1]
    assert (e05["file"], e05["row"], e05["amount"]) == ("ledgers/local_fund.csv", 6, 400)
    ws = wb["ledger_entries"]
    assert ws.cell(4, 7).value == '=HYPERLINK("http://x","y")' and ws.cell(4, 7).data_type == "s"
    assert ws.cell(3, 8).number_format == "#,##0.00" and ws.cell(3, 3).number_format == "dd-mm-yyyy"
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == "A1:L6"
    bal = {r["ledger"]: r for r in _rows(wb["balances"])}
    assert (bal["local_fund"]["opening_due_not_credited"], bal["local_fund"]["closing_due_not_credited"]) == (400, 49)
    assert bal["local_fund"]["ties"] == "yes" and bal["dm_deposit"]["held_end"] == 0
    assert bal["local_fund"]["held_end"] is None          # what the DM holds is blank for a local fund
    rec_header = [c.value for c in wb["reconciliation"][1]]
    assert {"days_after_due", "days_outstanding"} <= set(rec_header)


def test_the_cover_states_scope_as_of_parameters_and_inputs(audit):
    bundle, out, _ = audit
    cover = {r[0].value: [c.value for c in r[1:]] for r in load_workbook(out)["cover"].iter_rows() if r[0].value}
    assert cover["local authority"][0] == "LA2" and cover["period"][0] == "2026-09-01 to 2026-10-31"
    assert cover["accounts drawn up to (as_of)"][0].date() == AS_OF
    assert isinstance(cover["workbook made"][0], dt.datetime)
    assert cover["surplus_hold_months"][:2] == [6, "18(5)"]
    assert cover["short_classes"][0] == "ass, sheep" and cover["feeding_days"][0] == "days_or_part"   # not JSON
    assert (cover["from"][0].date(), cover["to"][0].date()) == (START, END)           # dates, not text
    assert "note" not in cover                   # the period ends before the accounts' date
    # every balances column is explained, and the sign of the reconciliation's difference
    assert all(cover[c][0] for c in ("opening_due_not_credited", "closing_due_not_credited", "held_due_end", "ties"))
    assert "below zero, the ledger is short" in cover["reconciliation difference"][0]
    # why balances can hold a due that no month's row of monthly_accounts holds, and what unrecovered is
    assert "is in balances and in no month's row" in cover["monthly_accounts months"][0]
    assert cover["case_accounts unrecovered"][0].startswith("what the proceeds of a sale could not meet")
    assert cover["ledger_entries"][:2] == [5, "ledger entries by the day entered"]
    for f in sorted(bundle.rglob("*.csv")):
        rel = f.relative_to(bundle).as_posix()
        assert cover[rel][1] == hashlib.sha256(f.read_bytes()).hexdigest(), rel


def _calc_day(text: str) -> dt.date | None:
    """A date as Calc's CSV export writes it: ISO, or its locale's month/day/year (a time may follow)."""
    day = text.split(" ")[0]
    for form in ("%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y"):
        try:
            return dt.datetime.strptime(day, form).date()
        except ValueError:
            continue
    return None


@pytest.mark.calc
def test_libreoffice_calc_reads_every_sheet_back_with_the_same_figures(audit, tmp_path, calc):
    _, out, counts = audit
    # every sheet as CSV (the last field -1), values as held, not as shown, by the test process's Calc (conftest.py)
    calc.convert([out], tmp_path, CSV, "44,34,76,1,,0,false,true,false,false,false,-1")
    wb = load_workbook(out)
    for name in wb.sheetnames:
        with open(tmp_path / f"{out.stem}-{name}.csv", encoding="utf-8", newline="") as fh:
            calc = list(csv.reader(fh))
        ws = wb[name]
        mine = [["" if c.value is None else c.value for c in r] for r in ws.iter_rows()]
        if name != "cover":
            assert len(calc) == counts[name] + 1
        for r, (row_calc, row_mine) in enumerate(zip(calc, mine, strict=False)):
            for c, v in enumerate(row_mine):
                got = row_calc[c] if c < len(row_calc) else ""
                if isinstance(v, dt.datetime):      # the same day, in whichever form Calc's locale writes it
                    assert _calc_day(got) == v.date(), (name, r, c, got, v)
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    assert float(got) == pytest.approx(v, abs=0.001), (name, r, c, got, v)
                else:
                    assert got == str(v), (name, r, c, got, v)
