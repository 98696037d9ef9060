"""A case with no rate: amounts blank, a RATE-MISSING finding, and every rupee still accounted for."""

import datetime as dt

from helpers import REFERENCE, built, case, make_bundle


def sale(**more):
    row = {"sale_id": "S1", "case_id": "C1", "path": "s15_unclaimed", "sale_on": "2026-10-20", "head_offered": 1,
           "head_sold": 1, "bid_amount": "10000", "accepted": "yes", "conducted_by": "SO1", "sale_expenses": "500"}
    row.update(more)
    return row


def movements(con):
    return sorted(con.execute("SELECT account, section, amount FROM fund_movements WHERE ref_id = 'C1'").fetchall())


def test_a_sale_with_no_rate_goes_to_unallocated_after_expenses(tmp_path):
    rates = [r for r in REFERENCE["rates"] if r["animal_class"] != "camel"]
    con = built(make_bundle(tmp_path, rates=rates, impoundments=[case(animal_class="camel", owner_id="")],
                            police_reports=[{"case_id": "C1", "reported_on": "2026-10-09", "notice_on": "2026-10-09",
                                             "proclamation_on": "2026-10-09"}],
                            sales=[sale()]))
    assert movements(con) == [("sale_officer", "17(2)", 50000), ("unallocated", "10(1)", 950000)]
    got = con.execute("SELECT fine_due, feeding_due, security_due, surplus_unclaimed, unrecovered, sale_paid_feeding "
                      "FROM case_accounts").fetchone()
    assert got == (None, None, None, None, None, None)
    assert con.execute("SELECT rule_id, event_on FROM findings").fetchall() == [("RATE-MISSING", dt.date(2026, 10, 1))]


def test_no_security_rate_on_the_s17_sale_day(tmp_path):
    # the cattle rate ends on 2026-10-05: it prices the case (impounded 10-01) but not the security due on 10-09
    # for the one head of two returned to the owner (R1: the security is that of the heads returned)
    rates = [dict(r, effective_to="2026-10-05") if r["animal_class"] == "cattle" else r for r in REFERENCE["rates"]]
    con = built(make_bundle(tmp_path, rates=rates, impoundments=[case(pound_id="P2", head_count=2)],
                            sales=[sale(path="s17_refusal", sale_on="2026-10-09", bid_amount="12000", balance_paid="")],
                            releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-09", "head_count": 1,
                                       "basis": "s17_remainder", "receipt_signed": "yes", "declaration_made": "yes"}]))
    got = con.execute("SELECT fine_due, feeding_due, security_due, balance_to_owner, amounts_known FROM case_accounts").fetchone()
    assert got == (2 * 60000, 2 * 200 * 100 * 9, None, None, False)
    assert movements(con) == [("sale_officer", "17(2)", 50000), ("unallocated", "10(1)", 1150000)]
    rows = con.execute("SELECT rule_id, event_on, detail FROM findings").fetchall()
    assert [r[:2] for r in rows] == [("RATE-MISSING", dt.date(2026, 10, 9))]
    assert "No security rate for cattle in Notified taluk" in rows[0][2] and "09-10-2026" in rows[0][2]


def test_an_s17_sale_of_every_head_needs_no_security_rate(tmp_path):
    # the near-miss twin: every head sold, none returned, so no security falls due (R1) and the missing
    # rate on the sale day does not matter: 12000 - expenses 500 - feeding 200 x 9 = 1800 - fine 600 = 9100
    rates = [dict(r, effective_to="2026-10-05") if r["animal_class"] == "cattle" else r for r in REFERENCE["rates"]]
    con = built(make_bundle(tmp_path, rates=rates, impoundments=[case(pound_id="P2")],
                            sales=[sale(path="s17_refusal", sale_on="2026-10-09", bid_amount="12000", balance_paid="9100")],
                            local_fund=[{"entry_id": "E1", "local_authority_id": "LA2", "entry_on": "2026-10-12",
                                         "amount": "600", "reference": "C1", "head": "fines"}]))
    got = con.execute("SELECT fine_due, feeding_due, security_due, balance_to_owner, amounts_known FROM case_accounts").fetchone()
    assert got == (60000, 200 * 100 * 9, 0, 910000, True)
    assert con.execute("SELECT rule_id FROM findings").fetchall() == []
