"""The release rules (REL-*: s.12, s.13, s.16, s.19(2)) and SALE-OFFICIAL-BUYER (s.19(1)).

A firing bundle and its near miss each; the reference set, the readings and the assertion are
described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import REFERENCE, case
from rule_rows import S15, day, dep, expect, notif, page_day, rejected, rel, sale
from scenarios import Given

# ==============================================================================================
# REL-UNPAID: s12 release with fines or charges short of h x fine, h x feeding x (R - D + 1)
# Declared as data (scenarios.Given): the rows given and the finding expected, no recording pass.

def _unpaid(name, released_on, fines, charges, fires, says=(), **run):
    return Given(name, dict(impoundments=[case()],
                            releases=[rel(released_on=released_on, fines_paid=fines, charges_paid=charges)]),
                 dict(rule_id="REL-UNPAID", fires=fires, kind="release", subject="R1", on=released_on,
                      says=("R1", "C1", page_day(released_on)) + says), **run)


REL_UNPAID = [
    _unpaid("paid-in-full", "2026-10-03", "600", "600", False),
    _unpaid("charges-1-paisa-short", "2026-10-03", "600", "599.99", True, ("Rs 599.99 of Rs 600.00", "Rs 0.01")),
    _unpaid("fine-1-paisa-short", "2026-10-03", "599.99", "600", True, ("Rs 599.99 of Rs 600.00", "Rs 0.01")),
    _unpaid("released-a-day-later-4-days-due", "2026-10-04", "600", "600", True,
            ("Rs 600.00 of Rs 800.00", "Rs 200.00")),
    # released on D+2 having paid 2 days of feeding: 3 days due (days or part), 2 nights
    _unpaid("days-or-part-3-days-due", "2026-10-03", "600", "400", True, ("Rs 400.00 of Rs 600.00", "Rs 200.00")),
    _unpaid("nights-2-nights-due", "2026-10-03", "600", "400", False, params={"feeding_days": "nights"}),
    # 1 of 2 head released on D+2: dues are 1 x 600 and 1 x 200 x 3; as_of before the report is due
    *(Given(name, dict(impoundments=[case(head_count=2)], releases=[rel(fines_paid="600", charges_paid=charges)]),
            dict(rule_id="REL-UNPAID", fires=fires, kind="release", subject="R1", on="2026-10-03",
                 says=("03-10-2026", "Rs 599.99 of Rs 600.00", "Rs 0.01")), as_of="2026-10-05")
      for name, charges, fires in (("heads-released-paid", "600", False), ("heads-released-1-paisa-short", "599.99",
                                                                            True))),
]


@pytest.mark.parametrize("given", REL_UNPAID, ids=str)
def test_rel_unpaid(given, findings):
    expect(findings(given), **given.expected)


# ==============================================================================================
# REL-OVERCHARGED (R29): s12 release with fines or charges paid over h x fine, h x feeding x (R - D + 1);
# high when the excess is Rs 5,000 or more

def _over(name, released_on, fines, charges, fires, severity=None, says=()):
    # paid four days' feeding and released on the fifth: one day short (REL-UNPAID), not over
    return Given(name, dict(impoundments=[case()],
                            releases=[rel(released_on=released_on, fines_paid=fines, charges_paid=charges)]),
                 dict(rule_id="REL-OVERCHARGED", fires=fires, kind="release", subject="R1", on=released_on,
                      severity=severity, also=["REL-UNPAID"] if released_on == "2026-10-05" else [],
                      says=("R1", "C1", page_day(released_on), "owed back to the owner") + says))


REL_OVERCHARGED = [
    _over("paid-exactly", "2026-10-03", "600", "600", False),
    _over("fine-1-paisa-over", "2026-10-03", "600.01", "600", True, "medium",
          ("Rs 600.01 fines against Rs 600.00", "Rs 0.01 more than due")),
    _over("charges-1-paisa-over", "2026-10-03", "600", "600.01", True, "medium",
          ("Rs 600.01 feeding charges against Rs 600.00", "Rs 0.01 more than due")),
    # four days' feeding (Rs 800) paid: over on the day before its fourth day, due in full on it, short after
    _over("four-days-paid-released-on-the-third", "2026-10-03", "600", "800", True, "medium",
          ("Rs 200.00 more than due",)),
    _over("four-days-paid-released-on-the-fourth", "2026-10-04", "600", "800", False),
    _over("four-days-paid-released-on-the-fifth", "2026-10-05", "600", "800", False),
    # the Rs 5,000 line: the excess, fines and charges together
    _over("rs-5000-over-high", "2026-10-03", "3100", "3100", True, "high", ("Rs 5,000.00 more than due",)),
    _over("rs-4999.99-over-medium", "2026-10-03", "3100", "3099.99", True, "medium", ("Rs 4,999.99 more than due",)),
    _over("rs-5000.01-over-high", "2026-10-03", "5600.01", "600", True, "high", ("Rs 5,000.01 more than due",)),
]


@pytest.mark.parametrize("given", REL_OVERCHARGED, ids=str)
def test_rel_overcharged(given, findings):
    expect(findings(given), **given.expected)


REL_OVERCHARGED_NOT = [
    *(Given(f"judges-releases-on-payment-only-{name}",
            dict(impoundments=[case()], releases=[rel(basis=basis, fines_paid="700", charges_paid="700", **more)]),
            dict(rule_id="REL-OVERCHARGED", fires=False))
      for name, basis, more in (("court-order", "court_order", {"court_order_ref": "OS 12/2026"}),
                                ("under-protest", "s16_protest", {"protest_deposit": "1200"}))),
    # impounded before the reference set's rates begin (01-05-2014): the dues are unknown (RATE-MISSING)
    Given("not-without-a-rate", dict(impoundments=[case(impounded_on="2014-04-30")],
                                     releases=[rel(released_on="2014-04-30", fines_paid="9000", charges_paid="9000")]),
          dict(rule_id="REL-OVERCHARGED", fires=False, also=["RATE-MISSING"])),
]


def _unsigned(name, basis, signed, more, fires) -> Given:
    if basis != "s12_payment":
        more = {"fines_paid": "", "charges_paid": "", **more}
    return Given(name, dict(impoundments=[case()], releases=[rel(basis=basis, receipt_signed=signed, **more)]),
                 dict(rule_id="REL-UNSIGNED", fires=fires, kind="release", subject="R1", on="2026-10-03",
                      says=("R1", "C1", basis, "03-10-2026", "receipt")))


# ==============================================================================================
# REL-UNSIGNED: every release except a court's needs the owner's receipt

REL_UNSIGNED = [_unsigned(*c) for c in (
    ("s12-signed", "s12_payment", "yes", {}, False),
    ("s12-no", "s12_payment", "no", {}, True),
    ("s12-blank-counts-as-no", "s12_payment", "", {}, True),
    ("s16-no", "s16_protest", "no", {"protest_deposit": "1200"}, True),
    ("court-order-needs-none", "court_order", "", {"court_order_ref": "OS 12/2026"}, False),
)]


# ==============================================================================================
# REL-NO-DECLARATION: s12 release where s.13 is notified on the release day, no declaration

S13_UNTIL_OCT3 = [notif("13", effective_to="2026-10-03"), notif("14")]


def _no_declaration(name, pound, released_on, charges, declared, notifications, fires) -> Given:
    rows = {"impoundments": [case(pound_id=pound)]}
    r = rel(released_on=released_on, charges_paid=charges, declaration_made=declared)
    if pound == "P2":          # s.13 security, so that only the declaration is missing
        rows["security_deposits"] = [dep()]
        r["security_deposit_id"] = "D1"
    rows["releases"] = [r]
    if notifications:
        rows["notifications"] = notifications
    return Given(name, rows, dict(rule_id="REL-NO-DECLARATION", fires=fires, kind="release", subject="R1",
                                  on=released_on, says=("R1", "C1", "03-10-2026", "Notified", "declaration")))


REL_NO_DECLARATION = [_no_declaration(*c) for c in (
    ("notified-declared", "P2", "2026-10-03", "600", "yes", None, False),
    ("notified-undeclared", "P2", "2026-10-03", "600", "no", None, True),
    ("not-notified", "P1", "2026-10-03", "600", "no", None, False),
    ("last-day-of-notification", "P2", "2026-10-03", "600", "no", S13_UNTIL_OCT3, True),
    ("day-after-notification-ends", "P2", "2026-10-04", "800", "no", S13_UNTIL_OCT3, False),
)]


# R28 of the fourth reading: every release in a notified taluk owes the declaration (s.13(1) "before
# releasing any impounded cattle"), the s.17 remainder too; not a court's order, nor a delivery under
# protest (s.16(2) defers it). C1: 2 head at P2 (s.13 notified until 10-05), the owner refused and 1
# head was sold for 6000 on 10-04 (dues 2 x 200 x 4 + 2 x 600 = 2800; security on the head returned
# 1000; balance 2200); the other head is returned on 10-04, 10-05 or 10-06.

S13_UNTIL_OCT5 = [notif("13", effective_to="2026-10-05"), notif("14")]

REL_NO_DECLARATION_OF_THE_S17_REMAINDER = [
    Given(name, dict(impoundments=[case(pound_id="P2", head_count=2)], notifications=S13_UNTIL_OCT5,
                     sales=[sale(path="s17_refusal", sale_on="2026-10-04", bid_amount="6000", balance_paid="2200")],
                     releases=[rel(released_on=released_on, basis="s17_remainder", fines_paid="", charges_paid="",
                                   declaration_made=declared)]),
          dict(rule_id="REL-NO-DECLARATION", fires=fires, subject="R1", on=released_on,
               says=("R1", "C1", page_day(released_on), "declaration")))
    for name, released_on, declared, fires in (
        ("remainder-a-day-before-the-notification-ends", "2026-10-04", "no", True),
        ("remainder-on-the-last-day-of-the-notification", "2026-10-05", "no", True),
        ("remainder-the-day-after-it-ends", "2026-10-06", "no", False),
        ("remainder-declared", "2026-10-05", "yes", False))
]


@pytest.mark.parametrize("given", REL_NO_DECLARATION_OF_THE_S17_REMAINDER, ids=str)
def test_rel_no_declaration_covers_the_s17_remainder(given, findings):
    """REL-NO-DECLARATION found once (or not), on its day with its words, whatever else is found."""
    fs, e = findings(given), given.expected
    found = [f for f in fs if f["rule_id"] == e["rule_id"]]
    assert len(found) == int(e["fires"]), [(f["rule_id"], f["detail"]) for f in fs]
    if e["fires"]:
        assert found[0]["subject_id"] == e["subject"] and found[0]["event_on"] == day(e["on"])
        assert all(w in found[0]["detail"] for w in e["says"])


REL_NO_DECLARATION_NOT = [
    Given(name, dict(impoundments=[case(pound_id="P2")],
                     releases=[rel(basis=basis, fines_paid="", charges_paid="", declaration_made="no", **more)]),
          dict(rule_id="REL-NO-DECLARATION", fires=False))
    for name, basis, more in (("court-order", "court_order", {"court_order_ref": "OS 12/2026"}),
                              ("delivery-under-protest", "s16_protest", {"protest_deposit": "1200"}))
]


@pytest.mark.parametrize("given", REL_NO_DECLARATION_NOT, ids=str)
def test_rel_no_declaration_not_for_a_court_order_or_a_protest(given, findings):
    assert given.expected["rule_id"] not in [f["rule_id"] for f in findings(given)]


# ==============================================================================================
# REL-NO-SECURITY: s12 release in a s.13 area without a fresh deposit of h x security

OTHER_CASE = case("C2", pound_id="P2", impounded_on="2026-09-01", owner_id="O2")
OTHER_RELEASE = rel("R2", "C2", released_on="2026-09-03", declaration_made="yes", security_deposit_id="D1")


def _no_security(name, heads, deposits, named, fires, says) -> Given:
    imps = [case(pound_id="P2", head_count=heads)]
    rels = [rel(head_count=heads, fines_paid=str(600 * heads), charges_paid=str(600 * heads),
                declaration_made="yes", security_deposit_id=named)]
    if deposits and deposits[0]["case_id"] == "C2":
        imps.append(OTHER_CASE)
        rels.append(OTHER_RELEASE)
    rows = {"impoundments": imps, "releases": rels}
    if deposits:
        rows["security_deposits"] = deposits
    return Given(name, rows, dict(rule_id="REL-NO-SECURITY", fires=fires, kind="release", subject="R1",
                                  on="2026-10-03", says=("R1", "C1", "03-10-2026") + says))


REL_NO_SECURITY = [_no_security(*c) for c in (
    ("deposit-equal-to-due", 1, [dep()], "D1", False, ()),
    ("deposit-1-paisa-short", 1, [dep(amount="999.99")], "D1", True, ("Rs 1,000.00", "D1", "Rs 999.99")),
    ("2-head-deposit-equal", 2, [dep(amount="2000")], "D1", False, ()),
    ("2-head-deposit-short", 2, [dep(amount="1999.99")], "D1", True, ("Rs 2,000.00", "D1", "Rs 1,999.99")),
    ("deposit-a-day-after-release", 1, [dep(deposited_on="2026-10-04")], "D1", True,
     ("Rs 1,000.00", "D1", "04-10-2026")),
    ("no-deposit", 1, [], "", True, ("Rs 1,000.00", "no deposit")),
    ("deposit-of-another-case", 1, [dep(case_id="C2", owner_id="O2", deposited_on="2026-09-03")], "D1", True,
     ("Rs 1,000.00", "D1", "C2")),
)]


def _rates_security_rises_on(day_from: str) -> list[dict]:
    out = [r for r in REFERENCE["rates"] if r["animal_class"] != "cattle"]
    before = (day(day_from) - dt.timedelta(days=1)).isoformat()
    base = {"animal_class": "cattle", "taluk": "*", "fine_per_head": "600", "feeding_per_head_per_day": "200"}
    out.append({**base, "effective_from": "2014-05-01", "effective_to": before, "security_per_head": "1000"})
    out.append({**base, "effective_from": day_from, "effective_to": "", "security_per_head": "1200"})
    return out


# security per head rises from Rs 1000 to Rs 1200 on 2026-10-03; D (2026-10-01) is under the old row
REL_NO_SECURITY_AT_THE_RATE_OF_THE_RELEASE_DAY = [
    Given(name, dict(rates=_rates_security_rises_on("2026-10-03"), impoundments=[case(pound_id="P2")],
                     security_deposits=[dep(deposited_on="2026-10-02")],
                     releases=[rel(released_on=released_on, charges_paid=charges, declaration_made="yes",
                                   security_deposit_id="D1")]),
          dict(rule_id="REL-NO-SECURITY", fires=fires, kind="release", subject="R1", on=released_on,
               says=("R1", page_day(released_on), "Rs 1,200.00", "D1", "Rs 1,000.00")))
    for name, released_on, charges, fires in (("released-before-the-new-rate", "2026-10-02", "400", False),
                                              ("released-on-the-first-day-of-the-new-rate", "2026-10-03", "600", True))
]


# ==============================================================================================
# REL-PROTEST-SHORT: s16 deposit below fines + feeding due on the delivery day

REL_PROTEST_SHORT = [
    Given(name, dict(impoundments=[case()], releases=[rel(released_on=released_on, basis="s16_protest", fines_paid="",
                                                          charges_paid="", protest_deposit=deposit)]),
          dict(rule_id="REL-PROTEST-SHORT", fires=fires, kind="release", subject="R1", on=released_on,
               says=("R1", "C1", page_day(released_on)) + says))
    for name, released_on, deposit, fires, says in (
        ("deposit-equal", "2026-10-03", "1200", False, ()),
        ("deposit-1-paisa-short", "2026-10-03", "1199.99", True, ("Rs 1,199.99", "Rs 1,200.00", "Rs 0.01")),
        ("a-day-later", "2026-10-04", "1200", True, ("Rs 1,200.00", "Rs 1,400.00", "Rs 200.00")))
]


# ==============================================================================================
# REL-UNAUTHORISED (s.19(2))

REL_UNAUTHORISED = [
    *(Given(f"court-order-{name}",
            dict(impoundments=[case()], releases=[rel(basis="court_order", fines_paid="", charges_paid="",
                                                      receipt_signed="", court_order_ref=ref)]),
            dict(rule_id="REL-UNAUTHORISED", fires=fires, kind="release", subject="R1", on="2026-10-03",
                 says=("R1", "C1", "03-10-2026", "court", "no order")))
      for name, ref, fires in (("with-its-reference", "OS 12/2026", False), ("without-a-reference", "", True))),
    *(Given(f"{second_heads}-head-released-second",
            dict(impoundments=[case(head_count=2)],
                 releases=[rel(), rel("R2", released_on="2026-10-04", head_count=second_heads,
                                      fines_paid=str(600 * second_heads), charges_paid=str(800 * second_heads))]),
            # each head released pays its own dues (Rs 600 fine, four days' feeding): none paid over (REL-OVERCHARGED)
            dict(rule_id="REL-UNAUTHORISED", fires=fires, kind="release", subject="R2", on="2026-10-04",
                 says=("R2", "04-10-2026", "3 head", "2 impounded"), also=["DQ-HEADS-MISMATCH"] if fires else []))
      for second_heads, fires in ((1, False), (2, True))),
    # 2 head; 1 sold at the s.15 auction on 2026-10-18, and a release the same day
    *(Given(f"release-of-{released_heads}-head-when-1-was-sold",
            dict(impoundments=[case(head_count=2)], sales=[sale()],
                 releases=[rel(released_on="2026-10-18", head_count=released_heads,
                               fines_paid=str(600 * released_heads), charges_paid=str(3600 * released_heads))], **S15),
            dict(rule_id="REL-UNAUTHORISED", fires=fires, kind="release", subject="R1", on="2026-10-18",
                 says=("R1", "18-10-2026", "2 head", "2 impounded", "1 sold"),
                 also=["DQ-HEADS-MISMATCH"] if fires else []))
      for released_heads, fires in ((1, False), (2, True))),
    *(Given(name, dict(impoundments=[case(head_count=2)],
                       sales=[sale(path="s17_refusal", sale_on=sale_on, bid_amount="4000", balance_paid=balance)],
                       releases=[rel(released_on="2026-10-05", basis="s17_remainder", fines_paid="", charges_paid="")]),
            dict(rule_id="REL-UNAUTHORISED", fires=fires, kind="release", subject="R1", on="2026-10-05",
                 says=("R1", "05-10-2026", "s.17 remainder", "no s.17 sale")))
      for name, sale_on, balance, fires in (
          # same day: the s.17 sale (1 of 2 head, Rs 4000) pays 2 x 600 + 2 x 200 x 5 = 3200; balance 800
          ("sale-on-the-release-day", "2026-10-05", "800", False),
          # a day later: the remainder left before it; 600 + 200 x 6 = 1800; balance 2200
          ("sale-a-day-after-the-release", "2026-10-06", "2200", True))),
]


@pytest.mark.parametrize("given", REL_OVERCHARGED_NOT + REL_UNSIGNED + REL_NO_DECLARATION + REL_NO_SECURITY
                         + REL_NO_SECURITY_AT_THE_RATE_OF_THE_RELEASE_DAY + REL_PROTEST_SHORT + REL_UNAUTHORISED,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_release_rules(given, findings):
    expect(findings(given), **given.expected)


REL_UNAUTHORISED_BEFORE_IMPOUNDING = [
    Given(name, dict(impoundments=[case()], releases=[rel(released_on=released_on, charges_paid="200")]),
          dict(rule_id="REL-UNAUTHORISED", fires=fires, kind="release", subject="R1", on=released_on,
               says=("R1", "30-09-2026", "before the impounding on 01-10-2026")))
    for name, released_on, fires in (("released-on-the-impounding-day", "2026-10-01", False),
                                     ("released-a-day-before", "2026-09-30", True))
]


@pytest.mark.parametrize("given", REL_UNAUTHORISED_BEFORE_IMPOUNDING, ids=str)
def test_rel_unauthorised_release_before_impounding(given, findings):
    fs = findings(given)
    expect(fs, **given.expected)
    # filed under the release's month (2026-09), not the impounding's
    assert all(f["month"] == "2026-09" for f in fs if f["rule_id"] == "REL-UNAUTHORISED")


# ==============================================================================================
# SALE-OFFICIAL-BUYER (s.19(1))

# R8 of the second reading: "any" official of s.19(1), of any district; high on a person id, medium on
# the name alone, saying so
SALE_OFFICIAL_BUYER = [
    *(Given(name, dict(impoundments=[case()], sales=[sale(buyer_name=buyer_name, buyer_person_id=buyer_id)], **S15),
            dict(rule_id="SALE-OFFICIAL-BUYER", fires=fires, kind="sale", subject="S1", on="2026-10-18", severity=grade,
                 says=("S1", "C1", "18-10-2026", "Rs 5,000.00") + who))
      for name, buyer_name, buyer_id, fires, grade, who in (
          ("ordinary-buyer", "Farmer B", "", False, None, ()),
          ("name-of-the-pound-keeper", "Ramesh Gowda", "", True, "medium", ("Ramesh Gowda", "PK1", "name only")),
          ("name-case-and-spaces", " ramesh  GOWDA ", "", True, "medium", ("Ramesh Gowda", "PK1", "name only")),
          ("a-different-name", "Ramesh Gowdar", "", False, None, ()),
          ("name-of-an-official-of-another-district", "Anand Rao", "", True, "medium",
           ("Anand Rao", "PK9", "name only")),
          ("person-id-any-district", "", "PK9", True, "high", ("Anand Rao", "PK9")),
          ("person-id-other-name", "M K", "SO1", True, "high", ("Manjunath K", "SO1")))),
    Given("rejected-bid-is-no-sale",
          dict(impoundments=[case()], **S15, sales=[rejected(buyer_name="Ramesh Gowda", disposal_note="re-auctioned"),
                                                    sale("S2", sale_on="2026-10-25")]),
          dict(rule_id="SALE-OFFICIAL-BUYER", fires=False)),
]


@pytest.mark.parametrize("given", SALE_OFFICIAL_BUYER, ids=str)
def test_sale_official_buyer(given, findings):
    fs = findings(given)
    expect(fs, **given.expected)
    if given.expected.get("severity") == "high":
        assert "name only" not in fs[0]["detail"]
