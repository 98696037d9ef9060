"""The s.17 rules of the sale account and the s.14 rules of removal orders.

A firing bundle and its near miss each; the reference set, the readings and the assertion are
described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import expect, order, page_day, rejected, rel, report, sale
from scenarios import Given

from pipeline.core.money import rs

# ==============================================================================================
# S17: the owner appeared and refused; 2 head of cattle sold on 2026-10-05 (D + 4).
# Dues: feeding 2 x 200 x 5 = 2000, fines 2 x 600 = 1200 -> 3200; no security, as every head was sold
# (R1: s.13(1) secures heads released). At P2 (s.13 notified) one head fewer sold would have been one
# head returned, with its security of 1000: the test is proceeds x 1 >= (3200 + 1000) x 2 = 8400.

def _oversale(name, pound, bid, fires, dues) -> Given:
    paise = round(float(bid) * 100) - 320000
    balance = f"{paise // 100}.{paise % 100:02d}"
    return Given(name, dict(impoundments=[case(pound_id=pound, head_count=2)],
                            sales=[sale(path="s17_refusal", sale_on="2026-10-05", head_sold=2, bid_amount=bid,
                                        balance_paid=balance)]),
                 dict(rule_id="S17-OVERSALE", fires=fires, kind="case", subject="C1", on="2026-10-05",
                      says=("C1", "2 of 2 cattle", "05-10-2026", rs(int(bid) * 100) if fires else "", f"Rs {dues}",
                            "Rs 1,000.00 of security on one more head" if fires and pound == "P2" else "")))


S17_OVERSALE = [_oversale(*c) for c in (
    ("proceeds-less-a-head-cover-the-dues", "P1", "6400", True, "3,200.00"),
    ("a-paisa-less", "P1", "6399.99", False, ""),
    ("with-one-more-heads-security-covered", "P2", "8400", True, "3,200.00"),
    ("with-one-more-heads-security-a-paisa-less", "P2", "8399.99", False, ""),
)]

S17_SHORTFALL_RETURNED = [
    Given(name, dict(impoundments=[case(head_count=2)],
                     sales=[sale(path="s17_refusal", sale_on="2026-10-05", bid_amount=bid)],
                     **({"releases": [rel(released_on="2026-10-05", basis="s17_remainder", fines_paid="",
                                          charges_paid="")]} if remainder else {})),
          dict(rule_id="S17-SHORTFALL-RETURNED", fires=fires, kind="case", subject="C1", on="2026-10-05",
               says=("C1", "05-10-2026", "Rs 0.01", "1 head")))
    for name, bid, remainder, fires in (("dues-met-remainder-returned", "3200", True, False),
                                        ("a-paisa-short-remainder-returned", "3199.99", True, True),
                                        ("a-paisa-short-remainder-kept", "3199.99", False, False))
]

# with Rs 100 of expenses: 4000 - 100 - 2000 - 1200 = 700 due to the owner
S17_BALANCE_MISMATCH = [
    Given(name, dict(impoundments=[case(head_count=2)],
                     sales=[sale(path="s17_refusal", sale_on="2026-10-05", head_sold=2, bid_amount="4000",
                                 sale_expenses="100", balance_paid=paid)]),
          dict(rule_id="S17-BALANCE-MISMATCH", fires=fires, kind="sale", subject="S1", on="2026-10-05",
               says=("S1", "C1", "05-10-2026", f"records Rs {float(paid or 0):.2f}", "balance of Rs 700.00",
                     "proceeds Rs 4,000.00", "expenses Rs 100.00", "feeding Rs 2,000.00", "fines Rs 1,200.00",
                     "security Rs 0.00")))
    for name, paid, fires in (("balance-paid", "700", False), ("a-paisa-less", "699.99", True),
                              ("a-paisa-more", "700.01", True), ("blank-is-nothing-paid", "", True))
]


# R22: each s.17 attempt pays for the heads it charges for, and its balance is its own. 2 head impounded
# 01-10-2026; S1 sells 1 on 05-10 for 2000 (expenses 100): feeding 1 x 5 days x 200 = 1000, fine 600, balance
# 300; S2, the last, sells the other on 06-10 for 2000: feeding 1 x 6 x 200 = 1200, fine 600, balance 200
# (before R22 the case's one waterfall charged both heads to 06-10, 2,400, and read one balance of 300).
S17_BALANCE_MISMATCH_OF_EACH_ATTEMPT = [
    Given(f"each-accepted-attempt-{name}",
          dict(impoundments=[case(head_count=2)],
               sales=[sale(path="s17_refusal", sale_on="2026-10-05", bid_amount="2000", sale_expenses="100",
                           balance_paid=first_paid),
                      sale("S2", path="s17_refusal", sale_on="2026-10-06", bid_amount="2000", balance_paid=last_paid)]),
          dict(rule_id="S17-BALANCE-MISMATCH", fires=fires_on is not None, kind="sale", subject=fires_on,
               on={"S1": "2026-10-05", "S2": "2026-10-06"}.get(fires_on), says=says))
    for name, first_paid, last_paid, fires_on, says in (
        ("each-balance-paid", "300", "200", None, ()),
        ("the-first-attempts-balance-not-paid", "", "200", "S1",
         ("S1", "05-10-2026", "records Rs 0.00", "balance of Rs 300.00", "feeding Rs 1,000.00")),
        ("the-case-balance-on-the-last-attempt", "300", "500", "S2",
         ("S2", "06-10-2026", "records Rs 500.00", "balance of Rs 200.00", "feeding Rs 1,200.00")))
]


@pytest.mark.parametrize("given", S17_OVERSALE + S17_SHORTFALL_RETURNED + S17_BALANCE_MISMATCH
                         + S17_BALANCE_MISMATCH_OF_EACH_ATTEMPT, ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s17_sale_account(given, findings):
    expect(findings(given), **given.expected)


# ==============================================================================================
# S14 removal orders (default: Notified taluk, clause i, issued 2026-06-01, comply by 2026-07-01,
# complied 2026-06-30)

def _order(name, rule_id, fires, on="2026-06-01", says=(), severity=None, params=None, as_of=None, **row):
    """A removal order's bundle (rule_rows.order with `row`) and what `rule_id` is expected to find."""
    return Given(name, dict(removal_orders=[order(**row)]),
                 dict(rule_id=rule_id, fires=fires, kind="order", subject="T1", on=on, case_id=None, says=says,
                      severity=severity),
                 params=params, **({"as_of": as_of} if as_of else {}))


FINE_SAYS = ("T1", "Notified", "Owner O9", "Rs 1,000.01", "above the Rs 1,000.00 that s.14(3) allows")
S14_FINE_EXCESS = [
    _order(name, "S14-FINE-EXCESS", fires, says=FINE_SAYS, params=params, fine_imposed=fine,
           fine_paid_on="2026-07-15")
    for name, fine, params, fires in (("at-the-cap", "1000", {}, False), ("a-paisa-over", "1000.01", {}, True),
                                      ("cap-1500-parameter", "1200", {"s14_fine_cap": 1500}, False))
]
S14_NOT_ENFORCED = [
    _order(name, "S14-NOT-ENFORCED", fires, on="2026-07-01", as_of=as_of, complied_on=complied_on,
           police_removal_on=police_on, says=("T1", "Notified", "01-07-2026", what, "police"))
    for name, complied_on, police_on, as_of, fires, what in (
        ("on-the-comply-by-day", "", "", "2026-07-01", False, ""),
        ("a-day-after", "", "", "2026-07-02", True, "no compliance"),
        ("complied-on-the-day", "2026-07-01", "", "2026-11-30", False, ""),
        ("complied-a-day-late", "2026-07-02", "", "2026-11-30", True, "compliance only on 02-07-2026"),
        ("police-removal", "", "2026-07-10", "2026-11-30", False, ""))
]
S14_CLAUSE_II_SMALL_HERD = [
    _order(name, "S14-CLAUSE-II-SMALL-HERD", fires, params=params, clause=clause, owner_head_count=herd,
           says=("T1", "01-06-2026", "clause (ii)", "Owner O9", f"owns {herd} head",
                 f"more than {params.get('s14_herd_threshold', 20)}"))
    for name, clause, herd, params, fires in (
        ("exactly-20-head", "ii", 20, {}, True), ("21-head", "ii", 21, {}, False), ("clause-i", "i", 20, {}, False),
        ("herd-not-recorded", "ii", "", {}, False),
        ("threshold-25-parameter", "ii", 21, {"s14_herd_threshold": 25}, True))
]
S14_NOT_NOTIFIED = [
    _order(name, "S14-NOT-NOTIFIED", fires, on=issued_on, severity="medium", taluk=taluk, issued_on=issued_on,
           says=("T1", f"issued on {page_day(issued_on)}", f"{taluk} taluk", "not notified"))
    for name, taluk, issued_on, fires in (
        ("notified", "Notified", "2026-06-01", False), ("plain", "Plain", "2026-06-01", True),
        ("taluk-case-insensitive", "NOTIFIED", "2026-06-01", False),
        ("first-day-of-notification", "Notified", "2025-01-01", False),
        ("a-day-before-notification", "Notified", "2024-12-31", True))
]


@pytest.mark.parametrize("given", S14_FINE_EXCESS + S14_NOT_ENFORCED + S14_CLAUSE_II_SMALL_HERD + S14_NOT_NOTIFIED,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s14_removal_orders(given, findings):
    expect(findings(given), **given.expected)


# R3 of the second reading: where s.14 is not notified the order binds nobody; a removal or a fine
# that followed it makes the finding high; no S14-NOT-ENFORCED: an order made where s.14 does not apply has
# nothing to enforce
S14_NOT_NOTIFIED_ACTED_ON = [
    Given(name, dict(removal_orders=[order(taluk="Plain", complied_on="", **more)]),
          dict(rule_id="S14-NOT-NOTIFIED", fires=True, kind="order", subject="T1", on="2026-06-01", case_id=None,
               severity=grade, says=("T1", what)),
          as_of="2026-11-30")
    for name, more, grade, what in (
        ("order-alone", {}, "medium", "(s.14(1))"),
        ("police-removal", {"police_removal_on": "2026-07-10"}, "high", "police removed the cattle on 10-07-2026"),
        ("a-fine", {"fine_imposed": "500"}, "high", "a fine of Rs 500.00"))
]
S14_NOT_ENFORCED_ONLY_WHERE_S14_APPLIES = [
    Given(name, dict(removal_orders=[order(taluk=taluk, complied_on="")]),
          dict(rule_id="S14-NOT-ENFORCED", fires=fires, kind="order", subject="T1", on="2026-07-01", case_id=None,
               also=also, says=("T1", "no compliance")),
          as_of="2026-11-30")
    for name, taluk, fires, also in (
        ("notified-order-not-complied-with", "Notified", True, ()),
        ("order-where-s14-is-not-notified-binds-nobody", "Plain", False, ("S14-NOT-NOTIFIED",)))
]


@pytest.mark.parametrize("given", S14_NOT_NOTIFIED_ACTED_ON + S14_NOT_ENFORCED_ONLY_WHERE_S14_APPLIES,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s14_orders_acted_on_and_not(given, findings):
    expect(findings(given), **given.expected)


# ==============================================================================================
# S17-PATH-UNFOUNDED (R18 of the fourth reading): an accepted s.17 sale with nothing to show the owner
# appeared. C1 (1 head of cattle, owner O1, D = 10-01), sold under s.17 on 10-05 for Rs 5,000:
# feeding 200 x 5 = 1,000, fines 600, so a balance of Rs 3,400 paid to the owner. Read as unclaimed,
# the s.15 rules judge the sale (no report, notice or proclamation before it); its Rs 3,400 goes to
# the DM (tests/build/test_fund_movements.py; with no ledgers loaded no receipt is judged).
UNCLAIMED = ["S15-SALE-EARLY", "S15-SALE-UNPROCLAIMED"]


def s17(**more) -> dict:
    return sale(path="s17_refusal", sale_on="2026-10-05", **{"balance_paid": "3400", **more})


S17_PATH_UNFOUNDED = [
    *(Given(f"without-an-owner-{name}", dict(impoundments=[case(owner_id=owner_id)],
                                             sales=[s17(appeared_person=appeared_person)]),
            dict(rule_id="S17-PATH-UNFOUNDED", fires=fires, kind="sale", subject="S1", on="2026-10-05",
                 also=UNCLAIMED if fires else [],
                 says=("S1", "C1", "05-10-2026", "no owner and the sale no person who appeared", "read as unclaimed")))
      for name, owner_id, appeared_person, fires in (
          ("the-case-records-the-owner", "O1", "", False),
          ("no-owner-but-the-person-who-appeared", "", "Ravi, the owner's son", False),
          ("no-owner-and-no-person", "", "", True),
          ("a-blank-person-is-none", "", "  ", True))),
    *(Given(f"appearance-after-the-sale-{name}", dict(impoundments=[case()], sales=[s17(owner_appeared_on=appeared_on)]),
            dict(rule_id="S17-PATH-UNFOUNDED", fires=fires, kind="sale", subject="S1", on="2026-10-05",
                 also=UNCLAIMED if fires else [], says=("appeared on 06-10-2026, after the sale",)))
      for name, appeared_on, fires in (
          ("the-day-before-the-sale", "2026-10-04", False),
          ("the-sale-day", "2026-10-05", False),
          ("the-day-after-the-sale", "2026-10-06", True),
          ("not-recorded", "", False))),
    # reported to the police on 10-09 (S15: notice and proclamation 10-10); the s.17 sale on 10-18, the
    # first day an s.15 sale is allowed, so that read as unclaimed it is in order but for the money;
    # feeding 200 x 18 = 3,600 and the fine 600 leave Rs 800 of the Rs 5,000
    *(Given(f"after-a-report-{name}",
            dict(impoundments=[case()], police_reports=[report()],
                 sales=[sale(path="s17_refusal", sale_on="2026-10-18", balance_paid="800",
                             owner_appeared_on=appeared_on)]),
            dict(rule_id="S17-PATH-UNFOUNDED", fires=fires, kind="sale", subject="S1", on="2026-10-18", says=(says,)))
      for name, appeared_on, fires, says in (
          ("no-appearance-recorded", "", True,
           "reported unclaimed to the police on 09-10-2026 and no appearance of the owner is recorded"),
          ("the-day-before-the-report", "2026-10-08", True,
           "no appearance of the owner after it is recorded (only on 08-10-2026)"),
          ("the-report-day", "2026-10-09", False, ""),
          ("the-day-after-the-report", "2026-10-10", False, ""))),
    # a rejected s.17 bid on 10-04, then the sale on 10-05: read as unclaimed, the rejected bid is an
    # s.15 attempt too (S15-SALE-EARLY judges both)
    Given("names-each-reason-and-reads-every-s17-attempt-as-unclaimed",
          dict(impoundments=[case(owner_id="")],
               sales=[rejected("S0", path="s17_refusal", sale_on="2026-10-04"),
                      s17(sale_id="S1", owner_appeared_on="2026-10-06")]),
          dict(rule_id="S17-PATH-UNFOUNDED", fires=True, kind="sale", subject="S1", on="2026-10-05",
               also=UNCLAIMED + ["S15-SALE-EARLY"],
               says=("no owner and the sale no person who appeared; the owner is recorded to have appeared on "
                     "06-10-2026",))),
]

# REL-UNSIGNED and the s.17(4) receipt for the balance (R19): the Rs 3,400 of the s.17 sale above recorded
# as paid on 10-06; a blank balance_receipt_signed is not recorded and finds nothing
REL_UNSIGNED_BALANCE_RECEIPT = [
    Given(f"balance-receipt-{name}",
          dict(impoundments=[case()],
               sales=[s17(balance_paid=paid, balance_paid_on="2026-10-06", balance_receipt_signed=signed)]),
          dict(rule_id="REL-UNSIGNED", fires=fires, kind="sale", subject="S1", on="2026-10-06",
               also=["S17-BALANCE-MISMATCH"] if paid == "0" else [],
               says=("balance of Rs 3,400.00 of sale S1 (case C1) on 05-10-2026, recorded as paid to the owner on "
                     "06-10-2026", "no receipt signed by him (s.17(4))")))
    for name, paid, signed, fires in (
        ("paid-receipt-not-signed", "3400", "no", True),
        ("paid-receipt-signed", "3400", "yes", False),
        ("paid-receipt-not-recorded", "3400", "", False),
        ("nothing-paid", "0", "no", False))
]


@pytest.mark.parametrize("given", S17_PATH_UNFOUNDED + REL_UNSIGNED_BALANCE_RECEIPT,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s17_path_and_balance_receipt(given, findings):
    expect(findings(given), **given.expected)


# C1 delivered under protest on 10-03 and seized again as C2 on 11-01 (R4), with no owner recorded
# and a report to the police: the re-seizure founds the s.17 sale
S17_PATH_OF_A_RESEIZURE = [
    Given("of-a-reseizure-is-founded-by-it",
          dict(impoundments=[case(pound_id="P2"), case("C2", pound_id="P2", impounded_on="2026-11-01", owner_id="",
                                                       reseizure_of="C1")],
               releases=[rel(basis="s16_protest", fines_paid="", charges_paid="", protest_deposit="1200")],
               police_reports=[report("C2", reported_on="2026-11-09", notice_on="2026-11-10",
                                      proclamation_on="2026-11-10")],
               sales=[sale(case_id="C2", path="s17_refusal", sale_on="2026-11-12", bid_amount="5000", balance_paid="")]),
          dict(rule_id="S17-PATH-UNFOUNDED", fires=False),
          as_of="2026-11-30"),
]


@pytest.mark.parametrize("given", S17_PATH_OF_A_RESEIZURE, ids=str)
def test_s17_path_of_a_reseizure_is_founded_by_it(given, findings):
    assert given.expected["rule_id"] not in [f["rule_id"] for f in findings(given)]
