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
