"""Deposits under protest (s.16): resolved by the complaint's outcome, whenever it was filed."""

import datetime as dt

import pytest
from build_together import Together, contents
from helpers import built, case, make_bundle

# The parametrized tests' cases differ only in their rows: they are built together, once a module, in
# one database, each case's ids marked as its own, and each test reads its own rows (build_together.py;
# test_cases_built_together_find_what_each_finds_alone checks that nothing goes astray). They read
# SHARED_TABLES alone: the database is built up to those tables and the models they read.
pytestmark = [pytest.mark.xdist_group("fund_movements")]
SHARED_TABLES = ("fund_movements", "expected_credits", "case_accounts")
CASES: dict[str, dict] = {}       # "test:case" -> the case's rows, filled as the parameters are declared


def protest_rows(complaint, deposit="1000"):
    rel = {"release_id": "R1", "case_id": "C1", "released_on": "2026-09-02", "head_count": 1, "basis": "s16_protest",
           "protest_deposit": deposit, "receipt_signed": "yes"}        # fine 600 + feeding 200 x 2 days = 1000
    tables = {"impoundments": [case(impounded_on="2026-09-01")], "releases": [rel]}
    if complaint:
        tables["complaints"] = [dict(case_id="C1", **complaint)]
    return tables


def declared(test: str, params: list, rows) -> list:
    """The parameters of a test, each case's rows (rows(*param)) declared for the shared build."""
    for i, p in enumerate(params):
        values = p.values if hasattr(p, "values") else p
        CASES[f"{test}:{i}"] = rows(*values)
    return params


@pytest.fixture(scope="module")
def together():
    shared = Together(CASES, SHARED_TABLES, upto=SHARED_TABLES)
    yield shared
    shared.close()


def own(together, test: str, request):
    """The connection that sees the rows of this test's case (its parameter's index) alone."""
    return together.of(f"{test}:{request.node.callspec.indices[next(iter(request.node.callspec.indices))]}")


PROTEST = declared("protest", [

    (None, [("local_fund", "18(2)", 60000, "2026-10-01"), ("pound_keeper", "18(3)", 40000, "2026-10-01")]),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "illegal"}, [("owner", "16, 20", 100000, "2026-10-15")]),
    # filed after the four weeks, yet held illegal: the money is still the owner's
    ({"filed_on": "2026-10-05", "decided_on": "2026-11-10", "outcome": "illegal"}, [("owner", "16, 20", 100000, "2026-11-10")]),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "lawful"},
     [("local_fund", "18(2)", 60000, "2026-10-15"), ("pound_keeper", "18(3)", 40000, "2026-10-15")]),
    ({"filed_on": "2026-09-20", "decided_on": "", "outcome": "pending"}, []),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "withdrawn"}, []),
], lambda complaint, expected: protest_rows(complaint))


@pytest.mark.parametrize("complaint, expected", PROTEST)
def test_protest_deposit_resolution(together, request, complaint, expected):
    con = own(together, "protest", request)
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
EXCESS = declared("excess", [
    (None, "2026-10-01"),
    ({"filed_on": "2026-09-20", "decided_on": "2026-10-15", "outcome": "lawful"}, "2026-10-15"),
], lambda complaint, day: protest_rows(complaint, deposit="1500"))


@pytest.mark.parametrize("complaint, day", EXCESS)
def test_the_excess_of_a_protest_deposit_goes_to_the_owner(together, request, complaint, day):
    con = own(together, "excess", request)
    got = con.execute("SELECT account, section, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                      "WHERE hop = 2 ORDER BY account").fetchall()
    assert got == [("local_fund", "18(2)", 60000, day), ("owner", "16(1)", 50000, day),
                   ("pound_keeper", "18(3)", 40000, day)]
    # money in = money out: what was deposited leaves the holder to its three ends, to the paisa
    assert con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1").fetchone()[0] == 150000


# R3 of the second reading (s.14(1)): a fine paid under an order made where s.14 is not notified is owed
# back to the owner; under a notified order it goes to the State (s.14(3))
def order_rows(taluk, *_):
    return {"removal_orders": [
        {"order_id": "T1", "taluk": taluk, "owner_id": "O9", "owner_name": "Owner O9", "clause": "i",
         "owner_head_count": 5, "head_count": 5, "issued_on": "2026-06-01", "comply_by": "2026-07-01",
         "fine_imposed": "500", "fine_paid_on": "2026-07-15"}]}


ORDER = declared("order", [
    ("Notified", "state_government", "14(3)", "state"),
    ("Plain", "owner", "14(1)", "O9"),
], order_rows)


@pytest.mark.parametrize("taluk, account, section, account_id", ORDER)
def test_a_fine_under_an_order_where_s14_is_not_notified_is_the_owners(together, request, taluk, account, section,
                                                                       account_id):
    con = own(together, "order", request)
    assert con.execute("SELECT account, section, account_id, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                       "WHERE ref_kind = 'order'").fetchall() == [(account, section, account_id, 50000, "2026-07-15")]


# R29 (s.12(1)): a release on payment owes its fines and charges and no more. C1, 1 head of cattle
# impounded 09-01 and released 09-02: fine 600, feeding 200 x 2 days = 400.
def paid_rows(fines, charges, *_):
    rel = {"release_id": "R1", "case_id": "C1", "released_on": "2026-09-02", "head_count": 1, "basis": "s12_payment",
           "fines_paid": fines, "charges_paid": charges, "receipt_signed": "yes"}
    return {"impoundments": [case(impounded_on="2026-09-01")], "releases": [rel]}


PAID = declared("paid", [
    pytest.param("600", "400", (60000, 40000), [], id="paid-exactly"),
    # Rs 100 over the fine and Rs 50.50 over the charges: each excess back to the owner, on the release day
    pytest.param("700", "450.50", (60000, 40000), [(10000, "fines"), (5050, "feeding charges")], id="paid-over"),
    # short: all of it stays where it was paid (REL-UNPAID), nothing goes back
    pytest.param("500", "300", (50000, 30000), [], id="paid-short"),
], paid_rows)


@pytest.mark.parametrize("fines, charges, kept, back", PAID)
def test_what_a_release_collects_over_its_dues_goes_back_to_the_owner(together, request, fines, charges, kept, back):
    con = own(together, "paid", request)
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


# R19 (s.17(3), s.17(4), s.18(5)): C1, 1 head of cattle impounded 09-01 (w = 7), sold under s.17 on 09-05 for
# Rs 5,000: feeding 200 x 5 = 1,000 and the fine 600 leave a balance of Rs 3,400 for the owner to take by
# 09-05 + 7 = 09-12. What the register records paid by then goes to him (17(3)) on the sale day; the rest
# is surplus unclaimed proceeds, sent to the DM (18(5)) on 09-12.
def balance_rows(paid, paid_on, *_):
    s = {"sale_id": "S1", "case_id": "C1", "path": "s17_refusal", "sale_on": "2026-09-05", "head_offered": 1,
         "head_sold": 1, "bid_amount": "5000", "accepted": "yes", "conducted_by": "SO1", "balance_paid": paid,
         "balance_paid_on": paid_on, "balance_receipt_signed": "yes" if paid else ""}
    return {"impoundments": [case(impounded_on="2026-09-01")], "sales": [s]}


BALANCE = declared("balance", [
    pytest.param("3400", "2026-09-11", 340000, None, id="taken-the-day-before"),
    pytest.param("3400", "2026-09-12", 340000, None, id="taken-on-the-last-day"),
    pytest.param("3400", "2026-09-13", None, 340000, id="taken-the-day-after"),
    pytest.param("3400", "", 340000, None, id="paid-with-no-day-read-as-the-sale-day"),
    pytest.param("", "", None, 340000, id="not-taken"),
    pytest.param("1000", "2026-09-12", 100000, 240000, id="part-taken"),
    # paid over the balance (S17-BALANCE-MISMATCH): the owner is owed the balance, no more
    pytest.param("3500", "2026-09-12", 340000, None, id="recorded-over-the-balance"),
], balance_rows)


@pytest.mark.parametrize("paid, paid_on, owner, dm", BALANCE)
def test_the_balance_the_owner_does_not_take_goes_to_the_dm(together, request, paid, paid_on, owner, dm):
    con = own(together, "balance", request)
    got = con.execute("SELECT account, section, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                      "WHERE account IN ('owner', 'dm_deposit') ORDER BY account DESC").fetchall()
    assert got == ([("owner", "17(3)", owner, "2026-09-05")] if owner else []) + \
        ([("dm_deposit", "18(5)", dm, "2026-09-12")] if dm else [])
    # the DM is to receive it (R17), and holds it six months from his receipt before the local fund may (R12)
    assert con.execute("SELECT expected_amount, strftime(due_on, '%Y-%m-%d') FROM expected_credits "
                       "WHERE ledger = 'dm_deposit'").fetchall() == ([(dm, "2026-09-12")] if dm else [])
    assert con.execute("SELECT sum(amount) FROM fund_movements WHERE account = 'local_fund' AND section = '18(5)' "
                       "AND due_on IS NULL").fetchone()[0] == dm
    assert con.execute("SELECT balance_to_owner, balance_paid_to_owner, balance_unclaimed, surplus_to_dm "
                       "FROM case_accounts").fetchone() == (340000, owner or 0, dm or 0, dm or 0)
    # every paisa received moves somewhere (hop 1)
    assert con.execute("SELECT sum(amount) FROM fund_movements WHERE hop = 1").fetchone()[0] == 500000


def test_a_balance_not_yet_due_to_the_dm_is_held_for_the_owner(tmp_path):
    # as of 09-10 the owner still has two days: the movement to the DM is due on 09-12, none is due yet, and a
    # payment dated after the as-of date is not made yet
    s = {"sale_id": "S1", "case_id": "C1", "path": "s17_refusal", "sale_on": "2026-09-05", "head_offered": 1,
         "head_sold": 1, "bid_amount": "5000", "accepted": "yes", "conducted_by": "SO1", "balance_paid": "3400",
         "balance_paid_on": "2026-09-11"}
    con = built(make_bundle(tmp_path, impoundments=[case(impounded_on="2026-09-01")], sales=[s]),
                as_of=dt.date(2026, 9, 10), upto=("fund_movements",))      # the one table read
    assert con.execute("SELECT account, amount, strftime(due_on, '%Y-%m-%d') FROM fund_movements "
                       "WHERE account IN ('owner', 'dm_deposit')").fetchall() == [("dm_deposit", 340000, "2026-09-12")]


def test_cases_built_together_find_what_each_finds_alone(together):
    """The cases of the tests above are built together: no row of the tables they read belongs to no
    case or to two (Together refuses it), and a case of each test built alone has, table by table and
    row by row, what it has together (the ids unmarked)."""
    for name in ("protest:1", "excess:0", "order:1", "paid:1", "balance:5"):
        alone = together.alone(name)
        try:
            assert contents(together.of(name), SHARED_TABLES) == contents(alone, SHARED_TABLES), name
        finally:
            alone.close()
