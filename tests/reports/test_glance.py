"""The month at a glance (pipeline/reports/glance.py): its figures are their models', `pound close`
seals and says exactly them; and the balances stand the missing and the unexpected beside the net."""

from __future__ import annotations

import json

import pytest

from pipeline.read.balances import period_balances
from pipeline.read.scope import make_scope
from pipeline.reports import glance


def test_the_glance_figures_of_october(con):
    got = {f.label: f.text for f in glance.figures(con, "2026-10")}
    # by hand from the sample's October: heads impounded P01 4 + 1 (M-2610-022) + P02 10 + 1 (N-2610-021, the
    # re-seizure, a case of its own: R4) + P03 3 = 19; released 2 + 2 + 0 = 4; sold 5 + 8 + 1 + 1 (S-007,
    # the re-seized cow) = 15, and M-2610-022's bullock disposed of (S-009, R5), not sold; at the end
    # 2 + 0 + 2 = 4 (the roll-forward). Received Rs 54,900.00 + S-007's 9,000.00 (S-009 brought nothing)
    # = 63,900.00, of which feeding charges under s.18(3) 17,000.00 + S-007's 7 days x 200 = 1,400.00 from
    # buyers + 1,500.00 at a pound = 19,900.00
    assert got["heads impounded"] == "19" and got["heads released"] == "4" and got["heads sold"] == "15"
    assert got["heads in the pounds at month end"] == "4"
    assert got["money received (Rs)"] == "63,900.00" and got["of which under s.18(3) (Rs)"] == "19,900.00"
    # the sections add up to the whole (each is read from fund_movements on its own)
    parts = [f.value for f in glance.figures(con, "2026-10") if f.label.startswith("of which under")]
    assert sum(parts) == 6390000
    # R14, as of 30-11-2026. Waiting (open or reopened) of October and before: September's REL-NO-SECURITY R-0007
    # (high; REL-UNPAID, REL-UNSIGNED and REL-NO-DECLARATION are decided) and October's S15-SALE-UNPROCLAIMED
    # S-006 (high, R7): 2 high; October's LF-CREDIT-OVERDUE N-2609-012 and H-2609-017 (R16), S14-NOT-NOTIFIED RO-03,
    # S15-NOTICE-MISSING H-2610-018 and SALE-OFFICIAL-BUYER S-006 (a match on the name alone, R8): 5 medium.
    # The oldest, R-0007 of 09-09-2026, has waited 21 + 31 + 30 = 82 days. Of October itself: 1 high, 5 medium.
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == ["2", "5", "0"]
    assert got["days the oldest has waited"] == "82"
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == ["1", "5", "0"]
    # money overdue by the end of October: N-2609-012's fines Rs 100.00 short (overdue from 09-10) and
    # H-2609-017's Rs 1,200.00 never credited (from 12-10): 2, Rs 1,300.00. H-2610-018's surplus is
    # overdue at the DM only from 18-11: November's
    assert got["credits and receipts overdue"] == "2"
    assert got["money overdue, not credited (Rs)"] == "1,300.00"
    assert got["deadlines in the 7 days after the month"] == "3"


def test_the_glance_figures_of_november_count_the_months_before(con):
    got = {f.label: f.text for f in glance.figures(con, "2026-11")}
    # November adds DM-RECEIPT-OVERDUE H-2610-018 (medium, R17) and S15-REPORT-MISSING H-2610-019 (medium):
    # waiting 2 high and 7 medium, of November itself 0 high and 2 medium; the oldest is still R-0007 (82 days)
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == ["2", "7", "0"]
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == ["0", "2", "0"]
    assert got["days the oldest has waited"] == "82"
    # and the DM's Rs 4,850.00: 3 overdue, Rs 1,300.00 + 4,850.00 = Rs 6,150.00
    assert (got["credits and receipts overdue"], got["money overdue, not credited (Rs)"]) == ("3", "6,150.00")


def test_a_quiet_month_has_its_figures_at_nought(con):
    got = {f.label: f.text for f in glance.figures(con, "2026-05", "Mysuru")}
    assert got["heads impounded"] == "0" and got["money received (Rs)"] == "0.00"
    assert not any(label.startswith("of which under") for label in got)


def test_the_page_holds_the_figures_decisions_close_and_signature(con):
    page = glance.page(con, "2026-10", "October 2026", None, "no: the month has not been closed")
    for f in glance.figures(con, "2026-10"):
        assert f">{f.label}</th>" in page and f">{f.text}</td>" in page
    assert 'id="glance-decided"' in page and "no: the month has not been closed" in page
    assert "District Magistrate: signature" in page and "Name" in page and "Date and seal" in page


@pytest.mark.notebook
def test_pound_close_seals_and_says_the_figures_of_the_page_it_signs(sample_bundle, tmp_path, run_cli):
    import shutil

    bundle = tmp_path / "bundle"
    shutil.copytree(sample_bundle, bundle, ignore=shutil.ignore_patterns("closes"))
    code, _, err = run_cli("run", bundle, "--out", tmp_path / "out", "--as-of", "2026-11-30")
    assert code == 0, err
    code, out, err = run_cli("close", "--db", tmp_path / "out" / "pound.duckdb", "--month", "2026-10", "--by",
                             "District Magistrate, Mysuru", "--bundle", bundle)
    assert code == 0, err
    record = json.loads((bundle / "closes" / "2026-10" / "close.json").read_text(encoding="utf-8"))
    assert out.strip() == str(bundle / "closes" / "2026-10")        # the output is the folder alone
    said = [line for line in err.splitlines() if line.startswith("sealed: ")]
    assert said == [f"sealed: {f['label']}: {f['text']}" for f in record["signed"]]
    assert "sealed: heads impounded: 19" in said and "sealed: money received (Rs): 63,900.00" in said   # as above
    # the sealed copy of the review shows the same figures on its first page
    page = (bundle / "closes" / "2026-10" / "monthly_review_2026-10.html").read_text(encoding="utf-8")
    assert all(f">{f['text']}</td>" in page for f in record["signed"])


def test_balances_show_the_missing_and_the_unexpected_beside_the_net(con):
    rows = {(r["ledger"], r["local_authority_id"]): r for r in period_balances(con, make_scope(None, None,
                                                                                             month="2026-10"))}
    la03 = rows[("local_fund", "LA03")]
    # LA03 by hand: Rs 1,200.00 of fines due (H-2609-017) never credited, and Rs 2,500.00 of lease rent
    # credited for nothing due: the net closing is 1,200.00 - 2,500.00 = -1,300.00
    assert (la03["closing_due_not_credited"], la03["missing_at_end"], la03["unexpected_at_end"]) == \
        (-130000, 120000, 250000)
    assert la03["ties"]
    # its near-miss twin: LA01 has nothing unexpected, and its closing is all missing
    la01 = rows[("local_fund", "LA01")]
    assert la01["unexpected_at_end"] == 0 and la01["missing_at_end"] == la01["closing_due_not_credited"]


@pytest.mark.parametrize("moved", [True, False], ids=["reopened", "decided"])
def test_a_reopened_finding_waits_on_the_page_to_sign(moved):
    """R14: a finding whose decision was made on other figures (reopened by a correction) waits for a
    decision like an open one. Release R1 of C1 (03-10-2026) paid Rs 599.99 of Rs 600.00 charges: REL-UNPAID,
    high, 58 days before 30-11-2026. Decided on a detail short by Rs 200.00, it is reopened and counted; its
    twin, decided on the detail as it reads now, is not."""
    from helpers import built_rows, case

    rows = {"impoundments": [case()],
            "releases": [{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-03", "head_count": 1,
                          "basis": "s12_payment", "fines_paid": "600", "charges_paid": "599.99", "receipt_signed": "yes"}],
            "local_fund": [{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": "2026-10-05", "amount": "600",
                            "reference": "C1", "head": "fines"}]}
    con = built_rows(**rows)
    (detail,) = con.execute("SELECT detail FROM findings WHERE rule_id = 'REL-UNPAID'").fetchone()
    con.close()
    decided = detail.replace("short by Rs 0.01", "short by Rs 200.00") if moved else detail
    assert decided != detail or not moved
    con = built_rows(**rows, finding_reviews=[{"rule_id": "REL-UNPAID", "subject_id": "R1", "reviewed_on": "2026-10-20",
                                               "reviewed_by": "DM", "decision": "accepted", "finding_detail": decided}])
    assert con.execute("SELECT review_status FROM findings").fetchall() == [("reopened" if moved else "accepted",)]
    got = {f.label: f.text for f in glance.figures(con, "2026-10")}
    waiting = ["1", "0", "0"] if moved else ["0", "0", "0"]
    assert [got[f"findings waiting up to the month, {s}"] for s in glance.SEVERITIES] == waiting
    assert [got[f"of them of the month itself, {s}"] for s in glance.SEVERITIES] == waiting
    assert got["days the oldest has waited"] == ("58" if moved else "0")
    assert got["credits and receipts overdue"] == "0"
