"""The golden bundle (tests/golden/bundle): every export compared with hand-computed
expectations (tests/golden/expected/*.csv, whose '#' lines give each figure's derivation)."""

import csv
import io
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
AS_OF = "2026-12-31"
TABLES = ["case_accounts", "fund_movements", "security_status", "monthly_accounts", "owner_accounts", "findings",
          "reconciliation"]


@pytest.fixture(scope="module")
def golden_out(shared):
    # `pound run` of the bundle, made once for the session (tests/shared.py); its files are loaded
    # on 01-01-2027 whatever the clock says (shared.LOAD_TIME): the bundle's rows run to 2026-12-31
    # and a row dated after its load day would be a DQ-FUTURE-DATE finding
    return shared.run(GOLDEN / "bundle", AS_OF)


def _expected(name: str) -> tuple[list[str], list[list[str]]]:
    text = "".join(line for line in (GOLDEN / "expected" / f"{name}.csv").open(encoding="utf-8")
                   if not line.startswith("#"))
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


@pytest.mark.parametrize("name", TABLES)
def test_golden_export_is_exact(name, golden_out):
    header, expected = _expected(name)
    with (golden_out / f"{name}.csv").open(encoding="utf-8") as fh:
        got = list(csv.DictReader(fh))
    # the contract's columns come first, in order; the expected file names the columns it checks
    with (golden_out / f"{name}.csv").open(encoding="utf-8") as fh:
        actual_header = next(csv.reader(fh))
    assert actual_header[: len(header)] == header
    assert [[r[c] for c in header] for r in got] == expected


def test_golden_audit_workbook_matches_the_reconciliation(golden_out):
    from openpyxl import load_workbook
    header, expected = _expected("reconciliation")
    ws = load_workbook(golden_out / "audit_workbook.xlsx")["reconciliation"]
    rows = list(ws.iter_rows(values_only=True))
    assert list(rows[0][: len(header)]) == header

    def text(v, col):
        if v is None:
            return ""
        if col in ("expected_amount", "ledger_amount", "difference"):
            return f"{v:.2f}"          # the cell holds the exact decimal text; shown with two decimals
        return v.strftime("%Y-%m-%d") if hasattr(v, "strftime") else str(v)

    got = [[text(v, c) for v, c in zip(r, header, strict=False)] for r in rows[1:]]
    assert got == expected
    summary = load_workbook(golden_out / "audit_workbook.xlsx")["summary"]
    header = [c.value for c in next(summary.iter_rows(max_row=1))]
    la2 = [dict(zip(header, r, strict=True)) for r in summary.iter_rows(min_row=2, values_only=True)
           if r[0] == "LA2" and r[3] == "local_fund"]
    # LA2 local fund: expected 800 + 1600 + 1000 + 3000 + 800 + 450 = 7650; credited 800 + 1600 + 600 + 400 + 3000 + 750 + 450
    assert (sum(r["expected"] for r in la2), sum(r["credited"] for r in la2)) == (7650, 7600)
    # of which surplus (s.18(5)): G05's 3,000, booked on time
    assert [(r["expected"], r["credited"]) for r in la2 if r["head"] == "surplus"] == [(3000, 3000)]
