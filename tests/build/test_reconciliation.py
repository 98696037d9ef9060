"""Reconciliation of the local funds' and the DM's ledgers (every status), totals that tie,
(the audit workbook's tests are in tests/outputs)."""

import datetime as dt

import pytest
from helpers import built, case, make_bundle

AS_OF = dt.date(2026, 12, 31)


def release(rid, cid, day, fines="600", charges="400", heads=1):
    return {"release_id": rid, "case_id": cid, "released_on": day, "head_count": heads, "basis": "s12_payment",
            "fines_paid": fines, "charges_paid": charges, "receipt_signed": "yes"}


def lf(eid, day, amount, ref, head="fines", la="LA1"):
    return {"entry_id": eid, "local_authority_id": la, "entry_on": day, "amount": amount, "reference": ref, "head": head}


# The module's tests run in one test process, which makes the module's fixture once (spread
# over two processes, each made it).
pytestmark = [pytest.mark.xdist_group("reconciliation")]


@pytest.fixture(scope="module")
def recon(tmp_path_factory):
    """P1 (LA1, taluk Plain): fines of 600 fall due for C1..C7 on release; C8's s.15 sale leaves a surplus.
    Built up to the two tables its tests read, reconciliation and fund_movements."""
    cases = [case(f"C{i}", impounded_on="2026-09-01") for i in range(1, 8)]
    cases.append(case("C8", impounded_on="2026-09-01", owner_id=""))
    releases = [release("R1", "C1", "2026-09-02"), release("R2", "C2", "2026-09-02"), release("R3", "C3", "2026-09-02"),
                release("R4", "C4", "2026-09-02"), release("R5", "C5", "2026-09-02"), release("R6", "C6", "2026-09-02"),
                release("R7", "C7", "2026-12-20")]
    sales = [{"sale_id": "S8", "case_id": "C8", "path": "s15_unclaimed", "sale_on": "2026-09-20", "head_offered": 1,
              "head_sold": 1, "bid_amount": "10000", "accepted": "yes", "conducted_by": "SO1", "sale_expenses": "0"}]
    reports = [{"case_id": "C8", "reported_on": "2026-09-09", "notice_on": "2026-09-09", "proclamation_on": "2026-09-09"}]
    local_fund = [
        lf("E1", "2026-09-20", "600", "C1"),                      # matched
        lf("E2", "2026-10-20", "600", "c2 "),                     # late (due 09-02 + 30 = 10-02); reference in other case
        lf("E3a", "2026-09-10", "300", "C3"), lf("E3b", "2026-09-25", "300", "C3"),   # two entries, one key: matched
        lf("E4a", "2026-09-28", "200", "C4"), lf("E4b", "2026-10-15", "400", "C4"),   # split over two months: late
        lf("E5", "2026-09-10", "550", "C5"),                      # amount_mismatch -50
        # C6: nothing -> missing; C7 released 12-20 -> pending
        lf("E9", "2026-10-01", "75", "stationery", head="other"), # unexpected
        # C8: s.15 surplus 10000 - feeding 200x20 (4000) - fine 600 = 5400, due 2026-09-20 + 6 months + 1 day
        lf("E8f", "2026-09-25", "600", "C8"),
        lf("E8s", "2026-11-05", "5400", "C8", head="surplus"),    # before the six months end on 2027-03-20: early
    ]
    dm = [{"entry_id": "M1", "entry_on": "2026-09-22", "kind": "receipt", "amount": "5400", "reference": "C8",
           "local_authority_id": "LA1"},
          {"entry_id": "M2", "entry_on": "2026-12-01", "kind": "credit_to_local_fund", "amount": "5400", "reference": "C8",
           "local_authority_id": "LA1"},
          {"entry_id": "M3", "entry_on": "2026-10-01", "kind": "receipt", "amount": "999", "reference": "C99",
           "local_authority_id": ""}]
    bundle = make_bundle(tmp_path_factory.mktemp("recon"), impoundments=cases, releases=releases, sales=sales,
                         police_reports=reports, local_fund=local_fund, dm_deposit=dm)
    return built(bundle, as_of=AS_OF, upto=("reconciliation", "fund_movements"))


def statuses(con):
    return {(r[0], r[1], r[2]): r[3:] for r in con.execute(
        "SELECT ledger, lower(trim(reference)), head, status, expected_amount, ledger_amount, difference, entry_on "
        "FROM reconciliation").fetchall()}


def test_every_status(recon):
    s = statuses(recon)
    lf = lambda ref, head="fines": s[("local_fund", ref, head)]  # noqa: E731
    assert lf("c1")[:4] == ("matched", 60000, 60000, 0)
    assert lf("c2")[0] == "late"
    assert lf("c3")[:4] == ("matched", 60000, 60000, 0) and lf("c3")[4] == dt.date(2026, 9, 25)
    assert lf("c4")[:4] == ("late", 60000, 60000, 0) and lf("c4")[4] == dt.date(2026, 10, 15)
    assert lf("c5")[:4] == ("amount_mismatch", 60000, 55000, -5000)
    assert lf("c6")[:4] == ("missing", 60000, None, -60000)
    assert lf("c7")[:4] == ("pending", 60000, None, -60000)
    assert lf("stationery", "other")[:4] == ("unexpected", None, 7500, 7500)
    assert lf("c8")[0] == "matched"
    assert lf("c8", "surplus")[:3] == ("early", 540000, 540000)
    assert s[("dm_deposit", "c8", "receipt")][:3] == ("matched", 540000, 540000)
    assert s[("dm_deposit", "c8", "credit_to_local_fund")][0] == "early"
    assert s[("dm_deposit", "c99", "receipt")][:2] == ("unexpected", None)


@pytest.mark.parametrize("received_on, booked_on, status, due_on", [
    # R2 (s.18(5)): the six months run from the DM's receipt on 01-22: they end on 07-22, the
    # surplus is due on 2026-01-22 + 6 months + 1 day = 2026-07-23
    pytest.param("2026-01-22", "2026-07-25", "matched", dt.date(2026, 7, 23), id="after-six-months-from-receipt"),
    # 07-22 was after the six months counted from the sale (they ended 07-20), not from the receipt
    pytest.param("2026-01-22", "2026-07-22", "early", dt.date(2026, 7, 23), id="on-the-last-day-from-receipt"),
    # no receipt: the six months have not begun, the credit has no due day and a booking is early
    pytest.param(None, "2026-07-25", "early", None, id="no-receipt-no-due-day"),
])
def test_a_surplus_is_due_six_months_after_the_dm_received_it(tmp_path, received_on, booked_on, status, due_on):
    dm = [{"entry_id": "M1", "entry_on": received_on, "kind": "receipt", "amount": "5400", "reference": "C8",
           "local_authority_id": "LA1"}] if received_on else []
    bundle = make_bundle(
        tmp_path, impoundments=[case("C8", impounded_on="2026-01-01", owner_id="")],
        police_reports=[{"case_id": "C8", "reported_on": "2026-01-09", "notice_on": "2026-01-09", "proclamation_on": "2026-01-09"}],
        sales=[{"sale_id": "S8", "case_id": "C8", "path": "s15_unclaimed", "sale_on": "2026-01-20", "head_offered": 1,
                "head_sold": 1, "bid_amount": "10000", "accepted": "yes", "conducted_by": "SO1"}],
        local_fund=[lf("E8s", booked_on, "5400", "C8", head="surplus")], dm_deposit=dm)
    con = built(bundle, as_of=AS_OF, upto=("reconciliation", "fund_movements"))      # the two tables read
    assert statuses(con)[("local_fund", "c8", "surplus")][:3] == (status, 540000, 540000)
    assert con.execute("SELECT due_on FROM fund_movements WHERE ref_id = 'C8' AND account = 'local_fund' "
                       "AND section = '18(5)'").fetchall() == [(due_on,)]


def test_a_surplus_with_no_receipt_is_pending_with_no_due_day(tmp_path):
    # R2: nothing booked and no receipt: the local fund's surplus line waits, with no due day, however
    # long ago the sale was; the DM's receipt itself is missing (due on the sale day + the lag)
    bundle = make_bundle(
        tmp_path, impoundments=[case("C8", impounded_on="2026-01-01", owner_id="")],
        police_reports=[{"case_id": "C8", "reported_on": "2026-01-09", "notice_on": "2026-01-09", "proclamation_on": "2026-01-09"}],
        sales=[{"sale_id": "S8", "case_id": "C8", "path": "s15_unclaimed", "sale_on": "2026-01-20", "head_offered": 1,
                "head_sold": 1, "bid_amount": "10000", "accepted": "yes", "conducted_by": "SO1"}])
    con = built(bundle, as_of=AS_OF, upto=("reconciliation",))      # the one table read
    assert statuses(con)[("local_fund", "c8", "surplus")][:5] == ("pending", 540000, None, -540000, None)
    assert statuses(con)[("dm_deposit", "c8", "receipt")][0] == "missing"


TIE = """
SELECT ledger, local_authority_id,
       coalesce(sum(expected_amount), 0) AS expected,
       coalesce(sum(expected_amount) FILTER (WHERE status IN ('matched', 'late', 'early', 'amount_mismatch', 'missing', 'pending')), 0) AS expected_parts,
       coalesce(sum(ledger_amount), 0) AS ledger,
       coalesce(sum(ledger_amount) FILTER (WHERE status IN ('matched', 'late', 'early', 'amount_mismatch', 'unexpected')), 0) AS ledger_parts,
       coalesce(sum(difference), 0) AS difference
FROM reconciliation GROUP BY ALL
"""


def assert_totals_tie(con):
    rows = con.execute(TIE).fetchall()
    assert rows
    for ledger, la, expected, expected_parts, ledger_total, ledger_parts, difference in rows:
        assert expected == expected_parts, (ledger, la)
        assert ledger_total == ledger_parts, (ledger, la)
        assert ledger_total - expected == difference, (ledger, la)
    # every expected credit is a local-fund (or DM deposit) movement of fund_movements
    assert con.execute("""SELECT coalesce(sum(expected_amount), 0) FROM reconciliation
                          WHERE ledger = 'local_fund'""").fetchone()[0] == \
        con.execute("SELECT coalesce(sum(amount), 0) FROM fund_movements WHERE account = 'local_fund'").fetchone()[0]


def test_totals_tie_on_the_hand_made_ledgers(recon):
    assert_totals_tie(recon)


def test_totals_tie_on_the_sample(sample_bundle):
    assert_totals_tie(built(sample_bundle))


def test_totals_tie_on_the_golden_bundle(golden_bundle):
    assert_totals_tie(built(golden_bundle, as_of=AS_OF))


def test_lag_is_a_parameter(tmp_path, golden_bundle):
    con = built(golden_bundle, as_of=AS_OF, params={"reconciliation_lag": 45})
    # G06 fines due 08-20 were booked 10-01: late with 30 days, matched with 45
    assert con.execute("SELECT status FROM reconciliation WHERE reference = 'G06'").fetchone()[0] == "matched"


@pytest.mark.parametrize("receipts, booked_on, status, rule", [
    # one receipt on 01-22: his six months end on 07-22; a booking on that day is early and the row names
    # the finding; three days later it is matched and names none
    pytest.param([("M1", "2026-01-22", "5400")], "2026-07-22", "early", "DM-SURPLUS-CREDITED-EARLY", id="one-receipt-last-day"),
    pytest.param([("M1", "2026-01-22", "5400")], "2026-07-25", "matched", None, id="one-receipt-after"),
    # R21, R12: half received on 01-22 and half on 02-10 (six months to 08-10): a booking of the whole on
    # 07-25 draws on both, and the second's six months have not run out (counted from the first receipt
    # alone it was matched)
    pytest.param([("M1", "2026-01-22", "2700"), ("M2", "2026-02-10", "2700")], "2026-07-25", "early",
                 "DM-SURPLUS-CREDITED-EARLY", id="two-receipts-before-the-second-ends"),
    pytest.param([("M1", "2026-01-22", "2700"), ("M2", "2026-02-10", "2700")], "2026-08-11", "matched", None,
                 id="two-receipts-after-both"),
])
def test_an_early_surplus_row_names_its_finding(tmp_path, receipts, booked_on, status, rule):
    dm = [{"entry_id": e, "entry_on": on, "kind": "receipt", "amount": a, "reference": "C8", "local_authority_id": "LA1"}
          for e, on, a in receipts]
    bundle = make_bundle(
        tmp_path, impoundments=[case("C8", impounded_on="2026-01-01", owner_id="")],
        police_reports=[{"case_id": "C8", "reported_on": "2026-01-09", "notice_on": "2026-01-09", "proclamation_on": "2026-01-09"}],
        sales=[{"sale_id": "S8", "case_id": "C8", "path": "s15_unclaimed", "sale_on": "2026-01-20", "head_offered": 1,
                "head_sold": 1, "bid_amount": "10000", "accepted": "yes", "conducted_by": "SO1"}],
        local_fund=[lf("E8f", "2026-01-25", "600", "C8"), lf("E8s", booked_on, "5400", "C8", head="surplus")],
        dm_deposit=dm)
    con = built(bundle, as_of=AS_OF, upto=("reconciliation", "findings"))      # the two tables read
    got = con.execute("SELECT status, early_rule FROM reconciliation WHERE ledger = 'local_fund' AND head = 'surplus'").fetchall()
    assert got == [(status, rule)]
    found = con.execute("SELECT subject_id FROM findings WHERE rule_id = 'DM-SURPLUS-CREDITED-EARLY'").fetchall()
    assert found == ([("C8:surplus",)] if rule else [])


@pytest.mark.parametrize("preferred_on, in_time", [
    # R23: the DM received C8's surplus, Rs 5,400, on 22-01-2026: his six months end on 22-07-2026. He refunds
    # Rs 2,000 on 05-08-2026 on claim K1, established 01-08-2026. Preferred on the last day, the refund takes
    # Rs 2,000 from the local fund's credit, and the refund's row is matched to K1
    pytest.param("2026-07-22", True, id="preferred-on-the-last-day"),
    # the twin: preferred the day after, the local fund's credit of Rs 5,400 stays due and the refund is unexpected
    pytest.param("2026-07-23", False, id="preferred-the-day-after"),
])
def test_a_refund_on_a_claim_in_time_is_matched_and_takes_from_the_local_fund(tmp_path, preferred_on, in_time):
    bundle = make_bundle(
        tmp_path, impoundments=[case("C8", impounded_on="2026-01-01", owner_id="")],
        police_reports=[{"case_id": "C8", "reported_on": "2026-01-09", "notice_on": "2026-01-09", "proclamation_on": "2026-01-09"}],
        sales=[{"sale_id": "S8", "case_id": "C8", "path": "s15_unclaimed", "sale_on": "2026-01-20", "head_offered": 1,
                "head_sold": 1, "bid_amount": "10000", "accepted": "yes", "conducted_by": "SO1"}],
        local_fund=[lf("E8f", "2026-01-25", "600", "C8"), lf("E8s", "2026-07-25", "3400", "C8", head="surplus")],
        dm_deposit=[{"entry_id": "M1", "entry_on": "2026-01-22", "kind": "receipt", "amount": "5400", "reference": "C8",
                     "local_authority_id": "LA1"},
                    {"entry_id": "M2", "entry_on": "2026-08-05", "kind": "refund_to_claimant", "amount": "2000",
                     "reference": "C8", "local_authority_id": "LA1"}],
        surplus_claims=[{"claim_id": "K1", "case_id": "C8", "claimant": "Owner H", "preferred_on": preferred_on,
                         "established_on": "2026-08-01", "amount": "2000"}])
    con = built(bundle, as_of=AS_OF)
    rows = dict(((r[0], r[1]), r[2:]) for r in con.execute(
        "SELECT ledger, head, expected_amount, status, expected_from FROM reconciliation "
        "WHERE (ledger = 'local_fund' AND head = 'surplus') OR head = 'refund_to_claimant'").fetchall())
    claimant = con.execute("SELECT account_id, sum(amount) FROM fund_movements WHERE account = 'claimant' "
                           "GROUP BY ALL").fetchall()
    found = con.execute("SELECT subject_id FROM findings WHERE rule_id = 'DM-CLAIM-OUT-OF-TIME'").fetchall()
    # every paisa of the surplus goes somewhere once: the local fund's and the claimant's parts make Rs 5,400
    parts = con.execute("SELECT sum(amount) FROM fund_movements WHERE case_id = 'C8' AND hop = 2 "
                        "AND from_account = 'dm_deposit'").fetchone()[0]
    assert parts == 540000
    # what the DM should still hold at the year's end: nothing, his six months over and the refund (in time) or the
    # local fund's credit (out of time) taking the rest
    held = con.execute("SELECT arg_max(held_due_end, month) FROM fund_balances WHERE ledger = 'dm_deposit'").fetchone()[0]
    assert held == 0
    if in_time:
        assert rows[("local_fund", "surplus")] == (340000, "matched", None)
        assert rows[("dm_deposit", "refund_to_claimant")] == (200000, "matched", "K1")
        assert claimant == [("Owner H", 200000)] and found == []
    else:
        assert rows[("local_fund", "surplus")] == (540000, "amount_mismatch", None)
        assert rows[("dm_deposit", "refund_to_claimant")] == (None, "unexpected", None)
        assert claimant == [] and found == [("C8:surplus",)]
