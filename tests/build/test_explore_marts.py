"""The marts added for the explore notebook, against figures worked out by hand from the golden
bundle (tests/golden/bundle) and the sample."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import built, rows


@pytest.fixture(scope="module")
def golden():
    con = built(Path(__file__).resolve().parents[1] / "golden" / "bundle", as_of=dt.date(2026, 12, 31))
    yield con
    con.close()


def test_sale_prices_per_head_by_class_and_year(golden):
    # cattle: SA2 Rs 12,000 for 2 head (G06) and SA4 Rs 3,000 for 2 head (G07; SA3's bid was
    # rejected and sold nothing) = Rs 15,000 / 4 = Rs 3,750.00; sheep: SA1 Rs 9,000 / 10 = Rs 900.00
    assert rows(golden, "SELECT * FROM sale_prices") == [(2026, "Dist", "cattle", 2, 4, 1500000, 375000),
                                                         (2026, "Dist", "sheep", 1, 10, 900000, 90000)]


@pytest.mark.parametrize("head, bid, paise, per_head", [
    pytest.param(3, "100.00", 10000, 3333, id="Rs-100-for-3-head"),     # 10000 / 3 = 3333.33.. paise: down
    pytest.param(3, "100.01", 10001, 3334, id="Rs-100.01-for-3-head"),  # 10001 / 3 = 3333.67.. paise: up
    pytest.param(2, "0.03", 3, 2, id="3-paise-for-2-head"),             # 3 / 2 = 1.5 paise: half, up
])
def test_sale_price_per_head_rounds_half_up_to_the_paisa(head, bid, paise, per_head):
    from helpers import built_rows, case

    # one s.15 sale of every head of an unclaimed case, reported to the police in time
    sale = {"sale_id": "S1", "case_id": "C1", "path": "s15_unclaimed", "sale_on": "2026-10-18",
            "head_offered": head, "head_sold": head, "bid_amount": bid, "accepted": "yes",
            "buyer_name": "Farmer B", "conducted_by": "SO1"}
    report = {"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "SHO Town", "notice_on": "2026-10-10",
              "proclamation_on": "2026-10-10"}
    # built up to sale_prices, the one table read (and the models it reads)
    con = built_rows(as_of=dt.date(2026, 11, 30), upto=("sale_prices",), impoundments=[case(head_count=head)],
                     sales=[sale], police_reports=[report])
    assert rows(con, "SELECT heads_sold, proceeds, proceeds_per_head FROM sale_prices") == [
        (head, paise, per_head)]
    con.close()


def test_charges_due_and_collected_by_month_of_impounding(golden):
    # October 2026: G11 (1 head, feeding due Rs 750, paid at court release R11) and G13 (goat, no rate:
    # feeding due not known, yet Rs 300 paid at R13) -> due Rs 750, collected Rs 1,050
    assert rows(golden, "SELECT sum(charges_due), sum(charges_collected) FROM impoundment_cohorts "
                        "WHERE month = '2026-10'") == [(75000, 105000)]
    total_paid = rows(golden, "SELECT sum(amount) FROM fund_movements WHERE account = 'pound_keeper' "
                              "AND section = '18(3)' AND ref_kind = 'case'")
    assert rows(golden, "SELECT sum(charges_collected) FROM impoundment_cohorts") == total_paid


def test_deadlines_missed_counts_the_time_limit_findings_only(sample_bundle):
    con = built(sample_bundle, as_of=dt.date(2026, 11, 30))
    try:
        missed = rows(con, "SELECT rule_id, subject_id, deadline FROM deadlines_missed")
        findings = {r[0] for r in rows(con, "SELECT rule_id FROM findings")}
    finally:
        con.close()
    assert [(r, d) for r, _, d in missed] == [("S15-REPORT-MISSING", "report to the police never made")]
    assert {"REL-UNPAID", "S15-NOTICE-MISSING"} <= findings      # found, but no time limit ran out: not counted


@pytest.mark.parametrize("as_of, reported_on, report_then", [
    pytest.param("2026-11-30", "2026-11-05", "done on 05-11-2026", id="reported-on-the-day"),
    pytest.param("2026-11-30", "2026-11-07", "done late, on 07-11-2026", id="reported-two-days-late"),
    pytest.param("2026-11-30", None, "not done by 30-11-2026", id="never-reported"),
    pytest.param("2026-11-06", "2026-11-07", "not done by 06-11-2026", id="reported-after-the-accounts-date"),
    pytest.param("2026-11-03", None, "still to come", id="accounts-drawn-up-before-it"),
])
def test_a_deadline_of_the_month_says_what_became_of_it_by_the_accounts_date(as_of, reported_on, report_then):
    from helpers import built_rows, case

    # impounded 28-10 (cattle, w = 7): the claim window ends 04-11, the report is due 05-11, both
    # within the 7 days after October; the list is October's whatever happened after
    reports = [{"case_id": "C1", "reported_on": reported_on, "reported_to": "SHO Town", "notice_on": "",
                "proclamation_on": ""}] if reported_on else []
    # built up to deadlines, the one table read (and the models it reads)
    con = built_rows(as_of=dt.date.fromisoformat(as_of), upto=("deadlines",),
                     impoundments=[case(impounded_on="2026-10-28")], police_reports=reports)
    got = dict(rows(con, "SELECT deadline, by_accounts_date FROM deadlines WHERE month = '2026-10' AND case_id = 'C1'"))
    assert got["report to the police due"] == report_then
    assert got["claim window ends"] == ("window still open" if as_of == "2026-11-03" else "window closed on 04-11-2026")
