"""S16-FOLLOW-UP-MISSING and the rules of the s.13 security deposits.

A firing bundle and its near miss each; the reference set, the readings and the assertion are
described in test_rules.py and rule_rows.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import REFERENCE, case
from rule_rows import day, dep, expect, notif, page_day, rel, sale
from scenarios import Given

# ==============================================================================================
# S16-FOLLOW-UP-MISSING: protest release on R = 2026-10-03 in a s.13 area

PROTEST = rel(basis="s16_protest", fines_paid="", charges_paid="", protest_deposit="1200")


def _follow_up(name, pound, complaint, deposit_on, as_of, params, fires, u, says) -> Given:
    rows = {"impoundments": [case(pound_id=pound)], "releases": [PROTEST]}
    if complaint:
        rows["complaints"] = [{"case_id": "C1", "filed_on": complaint[0], "decided_on": complaint[1],
                               "outcome": complaint[2]}]
    if deposit_on:
        rows["security_deposits"] = [dep(deposited_on=deposit_on)]
    return Given(name, rows, dict(rule_id="S16-FOLLOW-UP-MISSING", fires=fires, kind="release", subject="R1",
                                  on=day(u) + dt.timedelta(days=14) if u else None,
                                  says=("C1", "protest on 03-10-2026", says)),
                 as_of=as_of, params=params)


S16_FOLLOW_UP_MISSING = [_follow_up(*c) for c in (
    ("no-complaint-grace-last-day", "P2", None, None, "2026-11-14", {}, False, "", ""),
    ("no-complaint-a-day-after", "P2", None, None, "2026-11-15", {}, True, "2026-10-31",
     "no complaint was filed by 31-10-2026"),
    ("s13-not-notified", "P1", None, None, "2026-11-15", {}, False, "", ""),
    ("security-deposited-after-R", "P2", None, "2026-10-04", "2026-11-15", {}, False, "", ""),
    ("deposit-on-R-is-not-after-R", "P2", None, "2026-10-03", "2026-11-15", {}, True, "2026-10-31",
     "no complaint was filed by"),
    ("lawful-grace-last-day", "P2", ("2026-10-20", "2026-11-01", "lawful"), None, "2026-11-15", {}, False, "", ""),
    ("lawful-a-day-after", "P2", ("2026-10-20", "2026-11-01", "lawful"), None, "2026-11-16", {}, True, "2026-11-01",
     "the seizure was declared lawful on 01-11-2026"),
    ("withdrawn-is-no-trigger", "P2", ("2026-10-20", "2026-10-25", "withdrawn"), None, "2026-11-30", {}, False, "", ""),
    ("complaint-on-the-last-day-of-the-window", "P2", ("2026-10-31", "", "pending"), None, "2026-11-30", {}, False,
     "", ""),
    ("complaint-a-day-too-late", "P2", ("2026-11-01", "", "pending"), None, "2026-11-15", {}, True, "2026-10-31",
     "no complaint was filed by 31-10-2026"),
    ("window-35-last-day", "P2", None, None, "2026-11-21", {"complaint_window": 35}, False, "", ""),
    ("window-35-a-day-after", "P2", None, None, "2026-11-22", {"complaint_window": 35}, True, "2026-11-07",
     "no complaint was filed by 07-11-2026"),
)]


# ==============================================================================================
# S13 deposits. D1: Rs 1000 deposited 2026-08-31 at the s.12 release of C1 (P2, D 2026-08-25);
# six months end on 2027-02-28 (clamped). C2: the owner's cattle impounded again at P1.

def s13_tables(reimpounded_on=None, complaint=None, **deposit) -> dict:
    imps = [case(pound_id="P2", impounded_on="2026-08-25")]
    rels = [rel(released_on="2026-08-31", charges_paid="1400", declaration_made="yes", security_deposit_id="D1")]
    tables = {"impoundments": imps, "releases": rels,
              "security_deposits": [dep(deposited_on="2026-08-31", **deposit)]}
    if reimpounded_on:
        out = (day(reimpounded_on) + dt.timedelta(days=1)).isoformat()
        imps.append(case("C2", impounded_on=reimpounded_on))
        rels.append(rel("R2", "C2", released_on=out, charges_paid="400"))
    if complaint:
        tables["complaints"] = [{"case_id": "C2", "filed_on": "2027-03-05", "decided_on": "2027-03-10",
                                 "outcome": complaint}]
    return tables


S13_AS_OF = "2027-03-15"
FORFEITED = {"forfeited_on": "2027-03-05", "forfeited_amount": "1000"}
REFUNDED = {"refund_applied_on": "2027-03-01", "refunded_on": "2027-03-02", "refunded_amount": "1000"}


def _s13(name, rule_id, fires, on, says, reimpounded_on=None, complaint=None, params=None, **deposit):
    """The s.13 deposit D1 (s13_tables) as of 15-03-2027, and what `rule_id` is expected to find."""
    return Given(name, s13_tables(reimpounded_on, complaint, **deposit),
                 dict(rule_id=rule_id, fires=fires, kind="deposit", subject="D1", on=on,
                      says=("D1", "Rs 1,000.00", "31-08-2026") + says),
                 as_of=S13_AS_OF, params=params)


S13_FORFEIT_MISSED = [
    _s13(name, "S13-FORFEIT-MISSED", fires, reimpounded_on,
         ("O1", "forfeited", "again on 28-02-2027", "C2", shown), reimpounded_on, complaint, params, **deposit)
    for name, reimpounded_on, complaint, deposit, params, fires, shown in (
        ("on-the-six-month-anniversary", "2027-02-28", None, {}, {}, True, "still held"),
        ("a-day-after-the-six-months", "2027-03-01", None, {}, {}, False, ""),
        ("window-5-months-parameter", "2027-02-28", None, {}, {"security_window_months": 5}, False, ""),
        ("forfeited", "2027-02-28", None, FORFEITED, {}, False, ""),
        ("refunded-instead", "2027-02-28", None, REFUNDED, {}, True, "refunded on 02-03-2027"),
        ("seizure-adjudged-illegal", "2027-02-28", "illegal", {}, {}, False, ""),
        ("seizure-held-lawful", "2027-02-28", "lawful", {}, {}, True, "still held"))
]
S13_FORFEIT_UNLAWFUL = [
    _s13(name, "S13-FORFEIT-UNLAWFUL", fires, "2027-03-05", ("O1", "forfeited on 05-03-2027", "28-02-2027"),
         reimpounded_on, complaint, **FORFEITED)
    for name, reimpounded_on, complaint, fires in (
        ("reimpounded-on-the-anniversary", "2027-02-28", None, False),
        ("reimpounded-a-day-after", "2027-03-01", None, True),
        ("never-reimpounded", None, None, True),
        ("reimpounding-adjudged-illegal", "2027-02-28", "illegal", True))
]
S13_REFUND_EARLY = [
    _s13(name, "S13-REFUND-EARLY", fires, refunded_on, (f"refunded on {page_day(refunded_on)}", how, "28-02-2027"),
         refund_applied_on=applied_on, refunded_on=refunded_on, refunded_amount="1000")
    for name, applied_on, refunded_on, fires, how in (
        ("both-after-the-six-months", "2027-03-01", "2027-03-01", False, ""),
        ("applied-on-the-last-day", "2027-02-28", "2027-03-01", True, "28-02-2027"),
        ("refunded-on-the-last-day", "2027-03-01", "2027-02-28", True, "01-03-2027"),
        ("no-application", "", "2027-03-01", True, "no application"))
]


@pytest.mark.parametrize("given", S13_FORFEIT_MISSED + S13_FORFEIT_UNLAWFUL + S13_REFUND_EARLY,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s13_deposits(given, findings):
    expect(findings(given), **given.expected)


S13_FROM_OCT3 = [notif("13", effective_from="2026-10-03"), notif("14")]


def _unauthorised(name, pound, deposited_on, notifications, fires, taluk) -> Given:
    rows = {"impoundments": [case(pound_id=pound)], "security_deposits": [dep(deposited_on=deposited_on)],
            "releases": [rel(declaration_made="yes", security_deposit_id="D1")]}
    if notifications:
        rows["notifications"] = notifications
    return Given(name, rows, dict(rule_id="S13-SECURITY-UNAUTHORISED", fires=fires, kind="deposit", subject="D1",
                                  on=deposited_on,
                                  says=("D1", "Rs 1,000.00", f"on {page_day(deposited_on)}", pound, f"{taluk} taluk",
                                        "not notified")))


S13_SECURITY_UNAUTHORISED = [_unauthorised(*c) for c in (
    ("notified-taluk", "P2", "2026-10-03", None, False, ""),
    ("plain-taluk", "P1", "2026-10-03", None, True, "Plain"),
    ("first-day-of-notification", "P2", "2026-10-03", S13_FROM_OCT3, False, ""),
    ("a-day-before-notification", "P2", "2026-10-02", S13_FROM_OCT3, True, "Notified"),
)]


# ==============================================================================================
# R1 of the second reading: the security an s.17 sale deducted is a s.13 deposit, 's17:S1'. C1: 2 cattle
# at P2 (s.13 notified), impounded 10-01; the owner refused, 1 head sold for 6000 on 10-05 and 1 returned
# (s17_remainder) that day. Dues: feeding 2 x 200 x 5 = 2000, fines 2 x 600 = 1200, security on the 1
# head returned 1 x 1000 = 1000 (not on the head sold) -> balance 6000 - 4200 = 1800. Its six months
# run to 2027-04-05; C2 of the same owner is impounded at P1 on that day or the day after.

S17_SECURITY_FORFEITED = [
    Given(f"s17-security-{name}",
          dict(impoundments=[case(pound_id="P2", head_count=2), case("C2", impounded_on=reimpounded_on)],
               sales=[sale(path="s17_refusal", sale_on="2026-10-05", bid_amount="6000", balance_paid="1800")],
               releases=[rel(released_on="2026-10-05", basis="s17_remainder", fines_paid="", charges_paid="",
                             declaration_made="yes"),
                         rel("R2", "C2", released_on=(day(reimpounded_on) + dt.timedelta(days=1)).isoformat(),
                             charges_paid="400")]),
          dict(rule_id="S13-FORFEIT-MISSED", fires=fires, kind="deposit", subject="s17:S1", on=reimpounded_on,
               says=("s17:S1", "Rs 1,000.00", "05-10-2026", "C2", "still held")),
          as_of="2027-04-30")
    for name, reimpounded_on, fires in (("reimpounded-on-the-last-day", "2027-04-05", True),
                                        ("reimpounded-a-day-after", "2027-04-06", False))
]


# ==============================================================================================
# R4 of the second reading: re-seizure under s.16(2). C1 (P2, s.13 notified) delivered under protest
# on R = 10-03 (PROTEST); with no complaint the trigger day u is R + 28 = 10-31. C2 seizes it again.

def _reseizure(name, seized_on, heads, complaint, release, fires, says) -> Given:
    rows = {"impoundments": [case(pound_id="P2"), case("C2", pound_id="P2", impounded_on=seized_on, head_count=heads,
                                                       reseizure_of="C1")],
            "releases": [release]}
    if complaint:
        rows["complaints"] = [{"case_id": "C1", "filed_on": complaint[0], "decided_on": complaint[1],
                               "outcome": complaint[2]}]
    # the re-seizure is the follow-up S16-FOLLOW-UP-MISSING looks for, and being a s.17 matter no S15 rule
    # touches C2; a s.12 release of C1 in a s.13 area needs a declaration and security of its own
    also = ["REL-NO-DECLARATION", "REL-NO-SECURITY"] if release["basis"] == "s12_payment" else []
    return Given(name, rows, dict(rule_id="S16-RESEIZURE-UNFOUNDED", fires=fires, kind="case", subject="C2",
                                  on=seized_on, case_id="C2", also=also, says=("C2", "C1", page_day(seized_on), says)),
                 as_of="2026-11-30")


S16_RESEIZURE_UNFOUNDED = [_reseizure(*c) for c in (
    ("the-day-after-u", "2026-11-01", 1, None, PROTEST, False, ""),
    ("on-u", "2026-10-31", 1, None, PROTEST, True, "until 31-10-2026"),
    ("more-heads-than-delivered", "2026-11-01", 2, None, PROTEST, True, "only 1 head were delivered"),
    ("seizure-held-illegal", "2026-11-20", 1, ("2026-10-20", "2026-11-10", "illegal"), PROTEST, True, "held illegal"),
    ("complaint-pending", "2026-11-20", 1, ("2026-10-20", "", "pending"), PROTEST, True, "still pending"),
    ("after-a-lawful-finding", "2026-11-20", 1, ("2026-10-20", "2026-11-10", "lawful"), PROTEST, False, ""),
    ("no-delivery-under-protest", "2026-11-01", 1, None, rel(), True, "no delivery under protest"),
)]

# R10 of the third reading: where s.13 is not notified for the pound's taluk on the trigger day u
# (10-31, as above), nothing could be required of the owner, so the re-seizure of 11-01 is unfounded.
# s.13 notified for taluk Notified from (or to) the day given: on u and a day either side.
S16_RESEIZURE_WHERE_S13_IS_NOT_NOTIFIED_ON_U = [
    Given(f"s13-{name}",
          dict(notifications=[notif("13", effective_from=effective_from, effective_to=effective_to)],
               impoundments=[case(pound_id="P2"), case("C2", pound_id="P2", impounded_on="2026-11-01",
                                                       reseizure_of="C1")],
               releases=[PROTEST]),
          dict(rule_id="S16-RESEIZURE-UNFOUNDED", fires=fires, kind="case", subject="C2", on="2026-11-01", case_id="C2",
               says=("s.13 was not notified for Notified taluk on 31-10-2026",
                     "no declaration or security could be required of the owner")),
          as_of="2026-11-30")
    for name, effective_from, effective_to, fires in (
        ("notified-from-the-day-before-u", "2026-10-30", "", False),
        ("notified-from-u", "2026-10-31", "", False),
        ("notified-only-from-the-day-after-u", "2026-11-01", "", True),
        ("notified-to-u", "2025-01-01", "2026-10-31", False),
        ("notified-to-the-day-before-u", "2025-01-01", "2026-10-30", True))
]

# R15 of the third reading: the deposit S16-FOLLOW-UP-MISSING looks for must be the s.13 security of the
# heads delivered under protest (1 head of cattle: Rs 1,000.00 at the reference rate) at the rate on its day.
# As of 15-11-2026 (the day after u + followup_grace, 31-10 + 14 = 14-11), a deposit of 04-10-2026:
S16_FOLLOW_UP_NEEDS_THE_WHOLE_SECURITY = [
    Given(f"the-whole-security-deposit-{amount}",
          dict(impoundments=[case(pound_id="P2")], releases=[PROTEST],
               security_deposits=[dep(deposited_on="2026-10-04", amount=amount)]),
          dict(rule_id="S16-FOLLOW-UP-MISSING", fires=fires, kind="release", subject="R1", on="2026-11-14",
               says=("deposit D1 of Rs 999.99 on 04-10-2026 is less than the Rs 1,000.00 of security required by s.13",
                     "short by Rs 0.01")),
          as_of="2026-11-15")
    for amount, fires in (("1000", False), ("999.99", True), ("1000.01", False))
]


# ... at the rate in force on the deposit's day: the cattle security rises to Rs 1,500 from 11-10-2026 (the
# fine and feeding rows unchanged), so Rs 1,000 deposited on 10-10 is the security, and on 11-10 it is Rs 500 short
def _rates_security_rises_on_oct_11() -> list[dict]:
    cattle = next(r for r in REFERENCE["rates"] if r["animal_class"] == "cattle")
    return [r for r in REFERENCE["rates"] if r is not cattle] + [
        dict(cattle, effective_to="2026-10-10"), dict(cattle, effective_from="2026-10-11", security_per_head="1500")]


S16_FOLLOW_UP_AT_THE_RATE_ON_THE_DEPOSITS_DAY = [
    Given(f"security-at-the-rate-of-{deposited_on}",
          dict(rates=_rates_security_rises_on_oct_11(), impoundments=[case(pound_id="P2")], releases=[PROTEST],
               security_deposits=[dep(deposited_on=deposited_on)]),
          dict(rule_id="S16-FOLLOW-UP-MISSING", fires=fires, kind="release", subject="R1", on="2026-11-14",
               says=("is less than the Rs 1,500.00 of security required by s.13", "short by Rs 500.00")),
          as_of="2026-11-15")
    for deposited_on, fires in (("2026-10-10", False), ("2026-10-11", True))
]


@pytest.mark.parametrize("given", S16_FOLLOW_UP_MISSING + S16_FOLLOW_UP_NEEDS_THE_WHOLE_SECURITY
                         + S16_FOLLOW_UP_AT_THE_RATE_ON_THE_DEPOSITS_DAY + S13_SECURITY_UNAUTHORISED
                         + S17_SECURITY_FORFEITED + S16_RESEIZURE_UNFOUNDED + S16_RESEIZURE_WHERE_S13_IS_NOT_NOTIFIED_ON_U,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_s16_follow_up_and_the_s13_deposits(given, findings):
    expect(findings(given), **given.expected)
