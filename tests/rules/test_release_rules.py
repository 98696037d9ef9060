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


@pytest.mark.parametrize("basis, more", [
    pytest.param("court_order", {"court_order_ref": "OS 12/2026"}, id="court-order"),
    pytest.param("s16_protest", {"protest_deposit": "1200"}, id="under-protest"),
])
def test_rel_overcharged_judges_releases_on_payment_only(run, basis, more):
    fs = run(impoundments=[case()], releases=[rel(basis=basis, fines_paid="700", charges_paid="700", **more)])
    expect(fs, "REL-OVERCHARGED", False)


def test_rel_overcharged_not_without_a_rate(run):
    # impounded before the reference set's rates begin (01-05-2014): the dues are unknown (RATE-MISSING)
    fs = run(impoundments=[case(impounded_on="2014-04-30")],
             releases=[rel(released_on="2014-04-30", fines_paid="9000", charges_paid="9000")])
    expect(fs, "REL-OVERCHARGED", False, also=["RATE-MISSING"])


# ==============================================================================================
# REL-UNSIGNED: every release except a court's needs the owner's receipt

@pytest.mark.parametrize("basis, signed, more, fires", [
    pytest.param("s12_payment", "yes", {}, False, id="s12-signed"),
    pytest.param("s12_payment", "no", {}, True, id="s12-no"),
    pytest.param("s12_payment", "", {}, True, id="s12-blank-counts-as-no"),
    pytest.param("s16_protest", "no", {"protest_deposit": "1200"}, True, id="s16-no"),
    pytest.param("court_order", "", {"court_order_ref": "OS 12/2026"}, False, id="court-order-needs-none"),
])
def test_rel_unsigned(run, basis, signed, more, fires):
    if basis != "s12_payment":
        more = {"fines_paid": "", "charges_paid": "", **more}
    fs = run(impoundments=[case()], releases=[rel(basis=basis, receipt_signed=signed, **more)])
    expect(fs, "REL-UNSIGNED", fires, kind="release", subject="R1", on="2026-10-03",
           says=("R1", "C1", basis, "03-10-2026", "receipt"))


# ==============================================================================================
# REL-NO-DECLARATION: s12 release where s.13 is notified on the release day, no declaration

S13_UNTIL_OCT3 = [notif("13", effective_to="2026-10-03"), notif("14")]


@pytest.mark.parametrize("pound, released_on, charges, declared, notifications, fires", [
    pytest.param("P2", "2026-10-03", "600", "yes", None, False, id="notified-declared"),
    pytest.param("P2", "2026-10-03", "600", "no", None, True, id="notified-undeclared"),
    pytest.param("P1", "2026-10-03", "600", "no", None, False, id="not-notified"),
    pytest.param("P2", "2026-10-03", "600", "no", S13_UNTIL_OCT3, True, id="last-day-of-notification"),
    pytest.param("P2", "2026-10-04", "800", "no", S13_UNTIL_OCT3, False, id="day-after-notification-ends"),
])
def test_rel_no_declaration(run, pound, released_on, charges, declared, notifications, fires):
    tables = {"impoundments": [case(pound_id=pound)]}
    r = rel(released_on=released_on, charges_paid=charges, declaration_made=declared)
    if pound == "P2":          # s.13 security, so that only the declaration is missing
        tables["security_deposits"] = [dep()]
        r["security_deposit_id"] = "D1"
    tables["releases"] = [r]
    if notifications:
        tables["notifications"] = notifications
    fs = run(**tables)
    expect(fs, "REL-NO-DECLARATION", fires, kind="release", subject="R1", on=released_on,
           says=("R1", "C1", "03-10-2026", "Notified", "declaration"))


# R28 of the fourth reading: every release in a notified taluk owes the declaration (s.13(1) "before
# releasing any impounded cattle"), the s.17 remainder too; not a court's order, nor a delivery under
# protest (s.16(2) defers it). C1: 2 head at P2 (s.13 notified until 10-05), the owner refused and 1
# head was sold for 6000 on 10-04 (dues 2 x 200 x 4 + 2 x 600 = 2800; security on the head returned
# 1000; balance 2200); the other head is returned on 10-04, 10-05 or 10-06.

S13_UNTIL_OCT5 = [notif("13", effective_to="2026-10-05"), notif("14")]


@pytest.mark.parametrize("released_on, declared, fires", [
    pytest.param("2026-10-04", "no", True, id="remainder-a-day-before-the-notification-ends"),
    pytest.param("2026-10-05", "no", True, id="remainder-on-the-last-day-of-the-notification"),
    pytest.param("2026-10-06", "no", False, id="remainder-the-day-after-it-ends"),
    pytest.param("2026-10-05", "yes", False, id="remainder-declared"),
])
def test_rel_no_declaration_covers_the_s17_remainder(run, released_on, declared, fires):
    fs = run(impoundments=[case(pound_id="P2", head_count=2)], notifications=S13_UNTIL_OCT5,
             sales=[sale(path="s17_refusal", sale_on="2026-10-04", bid_amount="6000", balance_paid="2200")],
             releases=[rel(released_on=released_on, basis="s17_remainder", fines_paid="", charges_paid="",
                           declaration_made=declared)])
    found = [f for f in fs if f["rule_id"] == "REL-NO-DECLARATION"]
    assert len(found) == int(fires), [(f["rule_id"], f["detail"]) for f in fs]
    if fires:
        assert found[0]["subject_id"] == "R1" and found[0]["event_on"] == day(released_on)
        assert all(w in found[0]["detail"] for w in ("R1", "C1", page_day(released_on), "declaration"))


@pytest.mark.parametrize("basis, more", [
    pytest.param("court_order", {"court_order_ref": "OS 12/2026"}, id="court-order"),
    pytest.param("s16_protest", {"protest_deposit": "1200"}, id="delivery-under-protest"),
])
def test_rel_no_declaration_not_for_a_court_order_or_a_protest(run, basis, more):
    fs = run(impoundments=[case(pound_id="P2")],
             releases=[rel(basis=basis, fines_paid="", charges_paid="", declaration_made="no", **more)])
    assert "REL-NO-DECLARATION" not in [f["rule_id"] for f in fs]


# ==============================================================================================
# REL-NO-SECURITY: s12 release in a s.13 area without a fresh deposit of h x security

OTHER_CASE = case("C2", pound_id="P2", impounded_on="2026-09-01", owner_id="O2")
OTHER_RELEASE = rel("R2", "C2", released_on="2026-09-03", declaration_made="yes", security_deposit_id="D1")


@pytest.mark.parametrize("heads, deposits, named, fires, says", [
    pytest.param(1, [dep()], "D1", False, (), id="deposit-equal-to-due"),
    pytest.param(1, [dep(amount="999.99")], "D1", True,
                 ("Rs 1,000.00", "D1", "Rs 999.99"),
                 id="deposit-1-paisa-short"),
    pytest.param(2, [dep(amount="2000")], "D1", False, (), id="2-head-deposit-equal"),
    pytest.param(2, [dep(amount="1999.99")], "D1", True,
                 ("Rs 2,000.00", "D1", "Rs 1,999.99"), id="2-head-deposit-short"),
    pytest.param(1, [dep(deposited_on="2026-10-04")], "D1", True,
                 ("Rs 1,000.00", "D1", "04-10-2026"), id="deposit-a-day-after-release"),
    pytest.param(1, [], "", True, ("Rs 1,000.00", "no deposit"), id="no-deposit"),
    pytest.param(1, [dep(case_id="C2", owner_id="O2", deposited_on="2026-09-03")], "D1", True,
                 ("Rs 1,000.00", "D1", "C2"), id="deposit-of-another-case"),
])
def test_rel_no_security(run, heads, deposits, named, fires, says):
    imps = [case(pound_id="P2", head_count=heads)]
    rels = [rel(head_count=heads, fines_paid=str(600 * heads), charges_paid=str(600 * heads),
                declaration_made="yes", security_deposit_id=named)]
    if deposits and deposits[0]["case_id"] == "C2":
        imps.append(OTHER_CASE)
        rels.append(OTHER_RELEASE)
    tables = {"impoundments": imps, "releases": rels}
    if deposits:
        tables["security_deposits"] = deposits
    fs = run(**tables)
    expect(fs, "REL-NO-SECURITY", fires, kind="release", subject="R1", on="2026-10-03",
           says=("R1", "C1", "03-10-2026") + says)


def _rates_security_rises_on(day_from: str) -> list[dict]:
    out = [r for r in REFERENCE["rates"] if r["animal_class"] != "cattle"]
    before = (day(day_from) - dt.timedelta(days=1)).isoformat()
    base = {"animal_class": "cattle", "taluk": "*", "fine_per_head": "600", "feeding_per_head_per_day": "200"}
    out.append({**base, "effective_from": "2014-05-01", "effective_to": before, "security_per_head": "1000"})
    out.append({**base, "effective_from": day_from, "effective_to": "", "security_per_head": "1200"})
    return out


@pytest.mark.parametrize("released_on, charges, fires", [
    pytest.param("2026-10-02", "400", False, id="released-before-the-new-rate"),
    pytest.param("2026-10-03", "600", True, id="released-on-the-first-day-of-the-new-rate"),
])
def test_rel_no_security_uses_the_security_rate_of_the_release_day(run, released_on, charges, fires):
    # security per head rises from Rs 1000 to Rs 1200 on 2026-10-03; D (2026-10-01) is under the old row
    fs = run(rates=_rates_security_rises_on("2026-10-03"), impoundments=[case(pound_id="P2")],
             security_deposits=[dep(deposited_on="2026-10-02")],
             releases=[rel(released_on=released_on, charges_paid=charges, declaration_made="yes",
                           security_deposit_id="D1")])
    expect(fs, "REL-NO-SECURITY", fires, kind="release", subject="R1", on=released_on,
           says=("R1", page_day(released_on), "Rs 1,200.00", "D1", "Rs 1,000.00"))


# ==============================================================================================
# REL-PROTEST-SHORT: s16 deposit below fines + feeding due on the delivery day

@pytest.mark.parametrize("released_on, deposit, fires, says", [
    pytest.param("2026-10-03", "1200", False, (), id="deposit-equal"),
    pytest.param("2026-10-03", "1199.99", True,
                 ("Rs 1,199.99", "Rs 1,200.00", "Rs 0.01"),
                 id="deposit-1-paisa-short"),
    pytest.param("2026-10-04", "1200", True, ("Rs 1,200.00", "Rs 1,400.00", "Rs 200.00"), id="a-day-later"),
])
def test_rel_protest_short(run, released_on, deposit, fires, says):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, basis="s16_protest", fines_paid="",
                                                   charges_paid="", protest_deposit=deposit)])
    expect(fs, "REL-PROTEST-SHORT", fires, kind="release", subject="R1", on=released_on,
           says=("R1", "C1", page_day(released_on)) + says)


# ==============================================================================================
# REL-UNAUTHORISED (s.19(2))

@pytest.mark.parametrize("ref, fires", [("OS 12/2026", False), ("", True)])
def test_rel_unauthorised_court_order_without_reference(run, ref, fires):
    fs = run(impoundments=[case()], releases=[rel(basis="court_order", fines_paid="", charges_paid="",
                                                   receipt_signed="", court_order_ref=ref)])
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on="2026-10-03",
           says=("R1", "C1", "03-10-2026", "court", "no order"))


@pytest.mark.parametrize("released_on, fires", [("2026-10-01", False), ("2026-09-30", True)])
def test_rel_unauthorised_release_before_impounding(run, released_on, fires):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, charges_paid="200")])
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on=released_on,
           says=("R1", "30-09-2026", "before the impounding on 01-10-2026"))
    # filed under the release's month (2026-09), not the impounding's
    assert all(f["month"] == "2026-09" for f in fs if f["rule_id"] == "REL-UNAUTHORISED")


@pytest.mark.parametrize("second_heads, fires", [(1, False), (2, True)])
def test_rel_unauthorised_more_heads_released_than_impounded(run, second_heads, fires):
    fs = run(impoundments=[case(head_count=2)],
             releases=[rel(), rel("R2", released_on="2026-10-04", head_count=second_heads,
                               fines_paid=str(600 * second_heads), charges_paid=str(800 * second_heads))])
    # each head released pays its own dues (Rs 600 fine, four days' feeding): none paid over (REL-OVERCHARGED)
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R2", on="2026-10-04",
           says=("R2", "04-10-2026", "3 head", "2 impounded"),
           also=["DQ-HEADS-MISMATCH"] if fires else [])


@pytest.mark.parametrize("released_heads, fires", [(1, False), (2, True)])
def test_rel_unauthorised_release_of_heads_already_sold(run, released_heads, fires):
    # 2 head; 1 sold at the s.15 auction on 2026-10-18, and a release the same day
    fs = run(impoundments=[case(head_count=2)], sales=[sale()],
             releases=[rel(released_on="2026-10-18", head_count=released_heads, fines_paid=str(600 * released_heads),
                           charges_paid=str(3600 * released_heads))], **S15)
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on="2026-10-18",
           says=("R1", "18-10-2026", "2 head", "2 impounded", "1 sold"),
           also=["DQ-HEADS-MISMATCH"] if fires else [])


@pytest.mark.parametrize("sale_on, balance, fires", [
    # same day: the s.17 sale (1 of 2 head, Rs 4000) pays 2 x 600 + 2 x 200 x 5 = 3200; balance 800
    pytest.param("2026-10-05", "800", False, id="sale-on-the-release-day"),
    # a day later: the remainder left before it; 600 + 200 x 6 = 1800; balance 2200
    pytest.param("2026-10-06", "2200", True, id="sale-a-day-after-the-release"),
])
def test_rel_unauthorised_s17_remainder_before_the_sale(run, sale_on, balance, fires):
    fs = run(impoundments=[case(head_count=2)],
             sales=[sale(path="s17_refusal", sale_on=sale_on, bid_amount="4000", balance_paid=balance)],
             releases=[rel(released_on="2026-10-05", basis="s17_remainder", fines_paid="", charges_paid="")])
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on="2026-10-05",
           says=("R1", "05-10-2026", "s.17 remainder", "no s.17 sale"))


# ==============================================================================================
# SALE-OFFICIAL-BUYER (s.19(1))

# R8 of the second reading: "any" official of s.19(1), of any district; high on a person id, medium on
# the name alone, saying so
@pytest.mark.parametrize("buyer_name, buyer_id, fires, grade, who", [
    pytest.param("Farmer B", "", False, None, (), id="ordinary-buyer"),
    pytest.param("Ramesh Gowda", "", True, "medium", ("Ramesh Gowda", "PK1", "name only"), id="name-of-the-pound-keeper"),
    pytest.param(" ramesh  GOWDA ", "", True, "medium", ("Ramesh Gowda", "PK1", "name only"), id="name-case-and-spaces"),
    pytest.param("Ramesh Gowdar", "", False, None, (), id="a-different-name"),
    pytest.param("Anand Rao", "", True, "medium", ("Anand Rao", "PK9", "name only"),
                 id="name-of-an-official-of-another-district"),
    pytest.param("", "PK9", True, "high", ("Anand Rao", "PK9"), id="person-id-any-district"),
    pytest.param("M K", "SO1", True, "high", ("Manjunath K", "SO1"), id="person-id-other-name"),
])
def test_sale_official_buyer(run, buyer_name, buyer_id, fires, grade, who):
    fs = run(impoundments=[case()], sales=[sale(buyer_name=buyer_name, buyer_person_id=buyer_id)], **S15)
    expect(fs, "SALE-OFFICIAL-BUYER", fires, kind="sale", subject="S1", on="2026-10-18", severity=grade,
           says=("S1", "C1", "18-10-2026", "Rs 5,000.00") + who)
    if grade == "high":
        assert "name only" not in fs[0]["detail"]


def test_sale_official_buyer_rejected_bid_is_no_sale(run):
    fs = run(impoundments=[case()], **S15,
             sales=[rejected(buyer_name="Ramesh Gowda", disposal_note="re-auctioned"),
                    sale("S2", sale_on="2026-10-25")])
    expect(fs, "SALE-OFFICIAL-BUYER", False)
