"""The accounts of the third reading of the Act, hand-computed (R10 to R15; R16 and R17 are rules:
tests/rules/test_ledger_rules.py). Reference set of tests/helpers.py: cattle fine Rs 600, feeding
Rs 200 a day, security Rs 1000; P1 in taluk Plain (nothing notified), P2 in taluk Notified (s.13 from
2025-01-01)."""

import datetime as dt

import pytest
from helpers import built_rows, case

SOLD = {"head_offered": 1, "head_sold": 1, "accepted": "yes", "conducted_by": "SO1", "buyer_name": "Farmer B"}
REPORT = {"case_id": "C1", "reported_on": "2026-10-09", "reported_to": "Town PS", "notice_on": "2026-10-10",
          "proclamation_on": "2026-10-10"}


# ----------------------------------------------------------------------------------------------
# R12: the DM holds each sum he receives for six months from its own day (s.18(5))
#
# C1 (P1, LA1): 1 head of cattle impounded 01-10-2026, sold unclaimed on 18-10 for Rs 5,000: feeding 18 days
# x 200 = 3,600, fine 600, surplus 5,000 - 3,600 - 600 = Rs 800.00. The DM enters DM1 Rs 500.00 on 20-10-2026
# and DM2 Rs 300.00 on 15-11-2026. Six months from 20-10-2026 end on 20-04-2027: the Rs 500 part is due to the
# local fund on 21-04-2027; from 15-11-2026 on 15-05-2027: the Rs 300 part on 16-05-2027.

def _parts(as_of, upto, receipts=(("DM1", "2026-10-20", "500"), ("DM2", "2026-11-15", "300"))):
    """The case above, built as of `as_of` up to the tables `upto` (the ones the test reads) and what they read."""
    return built_rows(
        as_of=dt.date.fromisoformat(as_of), upto=upto, impoundments=[case()], police_reports=[REPORT],
        sales=[dict(SOLD, sale_id="S1", case_id="C1", path="s15_unclaimed", sale_on="2026-10-18", bid_amount="5000")],
        local_fund=[{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": "2026-10-20", "amount": "600",
                     "reference": "C1", "head": "fines"}],
        dm_deposit=[{"entry_id": e, "entry_on": on, "kind": "receipt", "amount": a, "reference": "C1",
                     "local_authority_id": "LA1"} for e, on, a in receipts])


@pytest.fixture(scope="module")
def parts():
    """_parts as of 30-11-2026 with both receipts, built once for the tests that read it (read only), up to
    the two tables they read."""
    con = _parts("2026-11-30", ("fund_movements", "doc_owner_accounts"))
    yield con
    con.close()


# the two tests that read `parts` run in one test process, which builds it once
@pytest.mark.xdist_group("sale_parts")
def test_one_local_fund_movement_per_receipt_each_on_its_own_day(parts):
    con = parts
    got = con.execute("""SELECT amount, due_on FROM fund_movements
                         WHERE section = '18(5)' AND account = 'local_fund' ORDER BY due_on""").fetchall()
    assert got == [(50000, dt.date(2027, 4, 21)), (30000, dt.date(2027, 5, 16))]


def test_a_part_not_yet_received_stays_one_movement_with_no_day():
    # only DM1's Rs 500 received: Rs 500 on 21-04-2027, the Rs 300 not received with no due day (pending, R2)
    con = _parts("2026-11-30", ("fund_movements",), receipts=(("DM1", "2026-10-20", "500"),))
    got = con.execute("""SELECT amount, due_on FROM fund_movements
                         WHERE section = '18(5)' AND account = 'local_fund' ORDER BY due_on NULLS LAST""").fetchall()
    assert got == [(50000, dt.date(2027, 4, 21)), (30000, None)]


@pytest.mark.parametrize("as_of, expected, due", [
    ("2027-04-20", 80000, "2027-04-21"),     # the last day of DM1's six months: no part due, both pending
    ("2027-04-21", 50000, "2027-04-21"),     # DM1's part due
    ("2027-05-15", 50000, "2027-04-21"),     # the last day of DM2's six months
    ("2027-05-16", 80000, "2027-05-16"),     # both parts due, on the later day
])
def test_the_local_funds_surplus_row_expects_the_parts_due_by_the_as_of_date(as_of, expected, due):
    con = _parts(as_of, ("reconciliation",))
    got = con.execute("""SELECT expected_amount, due_on, status FROM reconciliation
                         WHERE ledger = 'local_fund' AND head = 'surplus'""").fetchone()
    assert got == (expected, dt.date.fromisoformat(due), "pending")


@pytest.mark.xdist_group("sale_parts")
def test_the_account_of_sale_names_each_part_and_its_day(parts):
    con = parts
    got = con.execute("SELECT surplus_part_count, surplus_parts, surplus_to_local_fund_on FROM doc_owner_accounts").fetchone()
    assert got == (2, "Rs 500.00 on 21-04-2027; Rs 300.00 on 16-05-2027", dt.date(2027, 4, 21))
    # the twin: one receipt of the whole, one day, no list of parts
    con = _parts("2026-11-30", ("doc_owner_accounts",), receipts=(("DM1", "2026-10-20", "800"),))
    got = con.execute("SELECT surplus_part_count, surplus_parts, surplus_to_local_fund_on FROM doc_owner_accounts").fetchone()
    assert got == (1, "Rs 800.00 on 21-04-2027", dt.date(2027, 4, 21))


# ----------------------------------------------------------------------------------------------
# R11: a re-seizure's sale deducts what the protest deposit left unpaid (s.17(1), s.17(2))
#
# C1 (P2, s.13 notified): 1 head of cattle impounded 01-10-2026, delivered under protest on 03-10 against
# fine 600 + feeding 3 days x 200 = Rs 1,200 due. No complaint by 31-10 (the trigger day u): the deposit
# falls to the funds on 01-11, fines first. C2 seizes the head again on 05-11 (after u) and sells it under
# s.17 on 10-11 for Rs 5,000; its own feeding is 6 days (05-11 .. 10-11) x 200 = Rs 1,200.
#   deposit 1,200.00: covers both: carried 0 / 0; C2 fine 0, feeding 1,200, balance 5,000 - 1,200 = 3,800.00
#   deposit 1,199.99: fines 600 covered, feeding short by 0.01: C2 fine 0, feeding 1,200.01, balance 3,799.99
#   deposit   500.00: fines short by 100, feeding short by 600: C2 fine 100, feeding 600 + 1,200 = 1,800,
#                     balance 5,000 - 1,800 - 100 = 3,100.00; the Rs 100 goes via the DM to LA2's local fund

@pytest.mark.parametrize("deposit, fine, feeding, balance", [
    ("1200", 0, 120000, 380000),
    ("1199.99", 0, 120001, 379999),
    ("500", 10000, 180000, 310000),
])
def test_a_reseizures_sale_deducts_what_the_deposit_left_unpaid(deposit, fine, feeding, balance):
    con = built_rows(
        impoundments=[case(pound_id="P2"), case("C2", pound_id="P2", impounded_on="2026-11-05", reseizure_of="C1")],
        releases=[{"release_id": "R1", "case_id": "C1", "released_on": "2026-10-03", "head_count": 1,
                   "basis": "s16_protest", "protest_deposit": deposit, "receipt_signed": "yes"}],
        sales=[dict(SOLD, sale_id="S1", case_id="C2", path="s17_refusal", sale_on="2026-11-10", bid_amount="5000",
                    balance_paid=f"{balance / 100:.2f}")])
    got = con.execute("""SELECT fine_due, feeding_due, balance_to_owner, unrecovered FROM case_accounts
                         WHERE case_id = 'C2'""").fetchone()
    assert got == (fine, feeding, balance, 0)
    moves = con.execute("""SELECT account, section, amount FROM fund_movements
                           WHERE ref_id = 'C2' AND section IN ('18(1)', '18(2)') ORDER BY section""").fetchall()
    assert moves == ([("dm_remittance", "18(1)", fine), ("local_fund", "18(2)", fine)] if fine else [])
    # the account of sale says what was carried from C1
    paper = con.execute("SELECT reseizure_of, carried_fines, carried_feeding FROM doc_owner_accounts").fetchone()
    assert paper == ("C1", fine, feeding - 120000)
    # REL-PROTEST-SHORT still fires on C1's release when the deposit fell short; nothing else is found
    rules = sorted(r for (r,) in con.execute("SELECT rule_id FROM findings").fetchall())
    assert rules == ([] if deposit == "1200" else ["REL-PROTEST-SHORT"])
