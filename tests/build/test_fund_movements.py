"""Deposits under protest (s.16): resolved by the complaint's outcome, whenever it was filed."""

import pytest
from helpers import built, case, make_bundle


def protest_bundle(tmp_path, complaint):
    rel = {"release_id": "R1", "case_id": "C1", "released_on": "2026-09-02", "head_count": 1, "basis": "s16_protest",
           "protest_deposit": "1000", "receipt_signed": "yes"}        # fine 600 + feeding 200 x 2 days = 1000
    tables = {"impoundments": [case(impounded_on="2026-09-01")], "releases": [rel]}
    if complaint:
        tables["complaints"] = [dict(case_id="C1", **complaint)]
    return make_bundle(tmp_path, **tables)


@pytest.mark.parametrize("complaint, expected", [
    (None, [("local_fund", "18(2)", 60000, "2026-10-01"), ("pound_keeper", "18(3)", 40000, "2026-10-01")]),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "illegal"}, [("owner", "16, 20", 100000, "2026-10-15")]),
    # filed after the four weeks, yet held illegal: the money is still the owner's
    ({"filed_on": "2026-10-05", "decided_on": "2026-11-10", "outcome": "illegal"}, [("owner", "16, 20", 100000, "2026-11-10")]),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "lawful"},
     [("local_fund", "18(2)", 60000, "2026-10-15"), ("pound_keeper", "18(3)", 40000, "2026-10-15")]),
    ({"filed_on": "2026-09-20", "decided_on": "", "outcome": "pending"}, []),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "withdrawn"}, []),
])
def test_protest_deposit_resolution(tmp_path, complaint, expected):
    con = built(protest_bundle(tmp_path, complaint))
    got = con.execute("SELECT account, section, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                      "WHERE hop = 2 ORDER BY account").fetchall()
    assert got == expected
    assert con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1").fetchone()[0] == 100000


def test_follow_up_detail_of_a_late_lawful_complaint_says_no_complaint_in_time(tmp_path):
    bundle = make_bundle(tmp_path, impoundments=[case(pound_id="P2", impounded_on="2026-09-01")],
                         releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-09-02", "head_count": 1,
                                    "basis": "s16_protest", "protest_deposit": "1000", "receipt_signed": "yes"}],
                         complaints=[{"case_id": "C1", "filed_on": "2026-10-05", "decided_on": "2026-10-20",
                                      "outcome": "lawful"}])
    con = built(bundle)
    (detail,) = con.execute("SELECT detail FROM findings WHERE rule_id = 'S16-FOLLOW-UP-MISSING'").fetchone()
    assert "no complaint was filed by 30-09-2026" in detail and "declared lawful" not in detail


# R6 of the second reading (s.16(1), s.18(3)): a deposit of 1500 against fine 600 + feeding 200 x 2 = 1000:
# 600 to the local fund, 400 to the pound-keeper, the 500 beyond them back to the owner, all on the day the
# deposit falls to the funds (no complaint: 09-02 + 28 + 1 = 10-01; lawful: the decision's day)
@pytest.mark.parametrize("complaint, day", [
    (None, "2026-10-01"),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "lawful"}, "2026-10-15"),
])
def test_the_excess_of_a_protest_deposit_goes_to_the_owner(tmp_path, complaint, day):
    bundle = protest_bundle(tmp_path, complaint)
    rel = (bundle / "registers" / "releases.csv")
    rel.write_text(rel.read_text(encoding="utf-8").replace(",1000,", ",1500,"), encoding="utf-8")
    con = built(bundle)
    got = con.execute("SELECT account, section, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                      "WHERE hop = 2 ORDER BY account").fetchall()
    assert got == [("local_fund", "18(2)", 60000, day), ("owner", "16(1)", 50000, day),
                   ("pound_keeper", "18(3)", 40000, day)]
    # money in = money out: what was deposited leaves the holder to its three ends, to the paisa
    assert con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1").fetchone()[0] == 150000


# R3 of the second reading (s.14(1)): a fine paid under an order made where s.14 is not notified is owed
# back to the owner; under a notified order it goes to the State (s.14(3))
@pytest.mark.parametrize("taluk, account, section, account_id", [
    ("Notified", "state_government", "14(3)", "state"),
    ("Plain", "owner", "14(1)", "O9"),
])
def test_a_fine_under_an_order_where_s14_is_not_notified_is_the_owners(tmp_path, taluk, account, section, account_id):
    order = {"order_id": "T1", "taluk": taluk, "owner_id": "O9", "owner_name": "Owner O9", "clause": "i",
             "owner_head_count": 5, "head_count": 5, "issued_on": "2026-06-01", "comply_by": "2026-07-01",
             "fine_imposed": "500", "fine_paid_on": "2026-07-15"}
    con = built(make_bundle(tmp_path, removal_orders=[order]))
    assert con.execute("SELECT account, section, account_id, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                       "WHERE ref_kind = 'order'").fetchall() == [(account, section, account_id, 50000, "2026-07-15")]


# R29 (s.12(1)): a release on payment owes its fines and charges and no more. C1, 1 head of cattle
# impounded 09-01 and released 09-02: fine 600, feeding 200 x 2 days = 400.
@pytest.mark.parametrize("fines, charges, kept, back", [
    pytest.param("600", "400", (60000, 40000), [], id="paid-exactly"),
    # Rs 100 over the fine and Rs 50.50 over the charges: each excess back to the owner, on the release day
    pytest.param("700", "450.50", (60000, 40000), [(10000, "fines"), (5050, "feeding charges")], id="paid-over"),
    # short: all of it stays where it was paid (REL-UNPAID), nothing goes back
    pytest.param("500", "300", (50000, 30000), [], id="paid-short"),
])
def test_what_a_release_collects_over_its_dues_goes_back_to_the_owner(tmp_path, fines, charges, kept, back):
    rel = {"release_id": "R1", "case_id": "C1", "released_on": "2026-09-02", "head_count": 1, "basis": "s12_payment",
           "fines_paid": fines, "charges_paid": charges, "receipt_signed": "yes"}
    con = built(make_bundle(tmp_path, impoundments=[case(impounded_on="2026-09-01")], releases=[rel]))
    got = dict(con.execute("SELECT account, sum(amount) FROM fund_movements WHERE account IN ('local_fund', 'pound_keeper') "
                           "GROUP BY ALL").fetchall())
    assert (got["local_fund"], got["pound_keeper"]) == kept
    owner = con.execute("SELECT amount, what, section, account_id, strftime(due_on, '%Y-%m-%d'), hop FROM fund_movements "
                        "WHERE account = 'owner' ORDER BY what DESC").fetchall()
    assert [(a, w.split(" paid")[0]) for a, w, *_ in owner] == back
    assert all(r[2:] == ("12(1)", "O1", "2026-09-02", 1) for r in owner)
    # the local fund expects the fines due, not what was paid (expected_credits, the reconciliation)
    assert con.execute("SELECT expected_amount FROM expected_credits WHERE head = 'fines'").fetchall() == [(kept[0],)]
    # every paisa received moves somewhere (hop 1)
    assert con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1").fetchone()[0] == \
        round(float(fines) * 100) + round(float(charges) * 100)
