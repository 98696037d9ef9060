"""The 30 rules of rules.md, one firing bundle and one near miss (at least) each.

Every bundle starts from the reference set of tests/helpers.py: pound P1 in taluk Plain (nothing
notified), pound P2 in taluk Notified (s.13 and s.14 from 2025-01-01); cattle: fine Rs 600,
feeding Rs 200 a day, security Rs 1000 per head; ass: 300 / 100 / 500; sheep 150 / 50 / 250.
D = impounded_on (2026-10-01 unless said), w = 7 (3 for ass and sheep); AS_OF = 2026-11-30.

A firing twin and its near miss differ in as few values as possible, most often one date one
day apart or one amount one paisa apart, so that the pair pins the boundary. Each test asserts
the whole set of findings of its bundle, so that no other rule fires unnoticed.
"""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import REFERENCE, case

from pipeline.build import load_rules

# rules.md: rule_id -> (section, severity)
SPEC = {
    "REL-UNPAID": ("12(1)", "high"),
    "REL-UNSIGNED": ("12(2), 17(4)", "high"),
    "REL-NO-DECLARATION": ("13(1)", "high"),
    "REL-NO-SECURITY": ("13(1), 13(3)", "high"),
    "REL-PROTEST-SHORT": ("16(1)", "high"),
    "REL-UNAUTHORISED": ("19(2)", "high"),
    "SALE-OFFICIAL-BUYER": ("19(1)", "high"),
    "S15-REPORT-MISSING": ("15(1)", "medium"),
    "S15-REPORT-LATE": ("15(1)", "medium"),
    "S15-REPORT-EARLY": ("15(1)", "medium"),
    "S15-NOTICE-MISSING": ("15(2)", "medium"),
    "S15-SALE-EARLY": ("15(3)", "medium"),
    "S15-SALE-OVERDUE": ("15(3)", "medium"),
    "S15-BID-REJECTED-UNRESOLVED": ("15(3)", "medium"),
    "S16-FOLLOW-UP-MISSING": ("16(2)", "medium"),
    "S13-FORFEIT-MISSED": ("13(2)", "high"),
    "S13-FORFEIT-UNLAWFUL": ("13(2)", "high"),
    "S13-REFUND-EARLY": ("13(2)", "high"),
    "S13-SECURITY-UNAUTHORISED": ("13(1)", "high"),
    "S17-OVERSALE": ("17(1)", "high"),
    "S17-SHORTFALL-RETURNED": ("17(1)", "high"),
    "S17-BALANCE-MISMATCH": ("17(3)", "high"),
    "S14-FINE-EXCESS": ("14(3)", "high"),
    "S14-NOT-ENFORCED": ("14(2)", "medium"),
    "S14-CLAUSE-II-SMALL-HERD": ("14(1)(ii)", "medium"),
    "S14-NOT-NOTIFIED": ("14(1)", "medium"),
    "RATE-MISSING": ("10(1), 12", "low"),
    "DQ-SEIZED-AFTER-IMPOUNDED": ("—", "low"),
    "DQ-FUTURE-DATE": ("—", "low"),
    "DQ-HEADS-MISMATCH": ("—", "low"),
}


# ----------------------------------------------------------------------------------------------
# row builders (strings as a clerk would type them; missing columns are blank)

def rel(release_id="R1", case_id="C1", released_on="2026-10-03", head_count=1, basis="s12_payment",
        fines_paid="600", charges_paid="600", receipt_signed="yes", **more) -> dict:
    row = {"release_id": release_id, "case_id": case_id, "released_on": released_on, "head_count": head_count,
           "basis": basis, "fines_paid": fines_paid, "charges_paid": charges_paid, "receipt_signed": receipt_signed}
    row.update(more)
    return row


def dep(deposit_id="D1", case_id="C1", owner_id="O1", deposited_on="2026-10-03", amount="1000", **more) -> dict:
    row = {"deposit_id": deposit_id, "case_id": case_id, "owner_id": owner_id, "deposited_on": deposited_on,
           "amount": amount}
    row.update(more)
    return row


def sale(sale_id="S1", case_id="C1", path="s15_unclaimed", sale_on="2026-10-18", head_sold=1, bid_amount="5000",
         accepted="yes", **more) -> dict:
    row = {"sale_id": sale_id, "case_id": case_id, "path": path, "sale_on": sale_on,
           "head_offered": max(head_sold, 1), "head_sold": head_sold, "bid_amount": bid_amount,
           "accepted": accepted, "buyer_name": "Farmer B", "conducted_by": "SO1"}
    row.update(more)
    return row


def rejected(sale_id="S1", case_id="C1", path="s15_unclaimed", sale_on="2026-10-18", bid_amount="100", **more) -> dict:
    return sale(sale_id, case_id, path, sale_on, head_sold=0, bid_amount=bid_amount, accepted="no",
                **{"buyer_name": "", **more})


def report(case_id="C1", reported_on="2026-10-09", notice_on="2026-10-10", proclamation_on="2026-10-10") -> dict:
    return {"case_id": case_id, "reported_on": reported_on, "reported_to": "SHO Town",
            "notice_on": notice_on, "proclamation_on": proclamation_on}


def order(order_id="T1", taluk="Notified", clause="i", owner_head_count=5, issued_on="2026-06-01",
          comply_by="2026-07-01", complied_on="2026-06-30", fine_imposed="", **more) -> dict:
    row = {"order_id": order_id, "taluk": taluk, "owner_id": "O9", "owner_name": "Owner O9", "clause": clause,
           "owner_head_count": owner_head_count, "head_count": owner_head_count, "issued_on": issued_on,
           "comply_by": comply_by, "complied_on": complied_on, "fine_imposed": fine_imposed}
    row.update(more)
    return row


def notif(section, effective_from="2025-01-01", effective_to="", taluk="Notified") -> dict:
    return {"section": section, "taluk": taluk, "effective_from": effective_from, "effective_to": effective_to,
            "gazette_ref": f"G{section}"}


def day(d) -> dt.date:
    return dt.date.fromisoformat(d) if isinstance(d, str) else d


# the clean s.15 path of case C1 (cattle, D = 2026-10-01): report on D+w+1, notice and
# proclamation the next day, auction on the earliest lawful day notice + w + 1
S15 = {"police_reports": [report()]}


# ----------------------------------------------------------------------------------------------
# the assertion every test makes

def expect(fs: list[dict], rule_id: str, fires: bool, *, kind=None, subject=None, on=None, case_id="C1",
           says=(), also=()) -> None:
    """`rule_id` fires exactly once (or not at all), and the other findings are exactly `also`."""
    for f in fs:
        assert f["rule_id"] in SPEC, f
        assert (f["section"], f["severity"]) == SPEC[f["rule_id"]], f
    others = sorted(f["rule_id"] for f in fs if f["rule_id"] != rule_id)
    assert others == sorted(also), [(f["rule_id"], f["detail"]) for f in fs]
    mine = [f for f in fs if f["rule_id"] == rule_id]
    if not fires:
        assert mine == [], mine
        return
    assert len(mine) == 1, mine
    f = mine[0]
    assert (f["subject_kind"], f["subject_id"], f["event_on"]) == (kind, subject, day(on)), f
    assert f["case_id"] == case_id, f
    if case_id is not None:     # the case's pound and the pound's local authority
        assert (f["pound_id"], f["local_authority_id"]) in {("P1", "LA1"), ("P2", "LA2")}, f
    else:
        assert (f["pound_id"], f["local_authority_id"]) == (None, None), f
    for s in says:
        assert s in f["detail"], f"{s!r} not in {f['detail']!r}"


def test_rule_files_are_the_30_of_the_spec_with_its_sections_and_severities():
    rules = load_rules()
    assert sorted(r.rule_id for r in rules) == sorted(SPEC)
    assert len(rules) == 30
    for r in rules:
        assert (r.section, r.severity) == SPEC[r.rule_id], r.rule_id
        assert r.subject and r.checks and r.reading, r.rule_id


def test_a_clean_release_and_a_clean_s15_sale_raise_nothing(run):
    assert run(impoundments=[case()], releases=[rel()]) == []
    assert run(impoundments=[case()], sales=[sale()], **S15) == []


# ==============================================================================================
# REL-UNPAID: s12 release with fines or charges short of h x fine, h x feeding x (R - D + 1)

@pytest.mark.parametrize("released_on, fines, charges, fires, says", [
    pytest.param("2026-10-03", "600", "600", False, (), id="paid-in-full"),
    pytest.param("2026-10-03", "600", "599.99", True,
                 ("Rs 599.99 of Rs 600.00", "Rs 0.01"), id="charges-1-paisa-short"),
    pytest.param("2026-10-03", "599.99", "600", True,
                 ("Rs 599.99 of Rs 600.00", "Rs 0.01"), id="fine-1-paisa-short"),
    pytest.param("2026-10-04", "600", "600", True,
                 ("Rs 600.00 of Rs 800.00", "Rs 200.00"),
                 id="released-a-day-later-4-days-due"),
])
def test_rel_unpaid(run, released_on, fines, charges, fires, says):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, fines_paid=fines, charges_paid=charges)])
    expect(fs, "REL-UNPAID", fires, kind="release", subject="R1", on=released_on,
           says=("R1", "C1", released_on) + says)


@pytest.mark.parametrize("params, fires", [
    pytest.param({}, True, id="days-or-part-3-days-due"),
    pytest.param({"feeding_days": "nights"}, False, id="nights-2-nights-due"),
])
def test_rel_unpaid_feeding_days_parameter(run, params, fires):
    # released on D+2 having paid 2 days of feeding
    fs = run(impoundments=[case()], releases=[rel(charges_paid="400")], params=params)
    expect(fs, "REL-UNPAID", fires, kind="release", subject="R1", on="2026-10-03",
           says=("2026-10-03", "Rs 400.00 of Rs 600.00", "Rs 200.00"))


@pytest.mark.parametrize("fines, charges, fires", [("600", "600", False), ("600", "599.99", True)])
def test_rel_unpaid_dues_are_for_the_heads_released_not_the_case(run, fines, charges, fires):
    # 1 of 2 head released on D+2: dues are 1 x 600 and 1 x 200 x 3; as_of before the report is due
    fs = run(impoundments=[case(head_count=2)], releases=[rel(fines_paid=fines, charges_paid=charges)],
             as_of="2026-10-05")
    expect(fs, "REL-UNPAID", fires, kind="release", subject="R1", on="2026-10-03",
           says=("2026-10-03", "Rs 599.99 of Rs 600.00", "Rs 0.01"))


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
           says=("R1", "C1", basis, "2026-10-03", "receipt"))


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
           says=("R1", "C1", "2026-10-03", "Notified", "declaration"))


# ==============================================================================================
# REL-NO-SECURITY: s12 release in a s.13 area without a fresh deposit of h x security

OTHER_CASE = case("C2", pound_id="P2", impounded_on="2026-09-01", owner_id="O2")
OTHER_RELEASE = rel("R2", "C2", released_on="2026-09-03", declaration_made="yes", security_deposit_id="D1")


@pytest.mark.parametrize("heads, deposits, named, fires, says", [
    pytest.param(1, [dep()], "D1", False, (), id="deposit-equal-to-due"),
    pytest.param(1, [dep(amount="999.99")], "D1", True,
                 ("Rs 1000.00", "D1", "Rs 999.99"),
                 id="deposit-1-paisa-short"),
    pytest.param(2, [dep(amount="2000")], "D1", False, (), id="2-head-deposit-equal"),
    pytest.param(2, [dep(amount="1999.99")], "D1", True,
                 ("Rs 2000.00", "D1", "Rs 1999.99"), id="2-head-deposit-short"),
    pytest.param(1, [dep(deposited_on="2026-10-04")], "D1", True,
                 ("Rs 1000.00", "D1", "2026-10-04"), id="deposit-a-day-after-release"),
    pytest.param(1, [], "", True, ("Rs 1000.00", "no deposit"), id="no-deposit"),
    pytest.param(1, [dep(case_id="C2", owner_id="O2", deposited_on="2026-09-03")], "D1", True,
                 ("Rs 1000.00", "D1", "C2"), id="deposit-of-another-case"),
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
           says=("R1", "C1", "2026-10-03") + says)


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
           says=("R1", released_on, "Rs 1200.00", "D1", "Rs 1000.00"))


# ==============================================================================================
# REL-PROTEST-SHORT: s16 deposit below fines + feeding due on the delivery day

@pytest.mark.parametrize("released_on, deposit, fires, says", [
    pytest.param("2026-10-03", "1200", False, (), id="deposit-equal"),
    pytest.param("2026-10-03", "1199.99", True,
                 ("Rs 1199.99", "Rs 1200.00", "Rs 0.01"),
                 id="deposit-1-paisa-short"),
    pytest.param("2026-10-04", "1200", True, ("Rs 1200.00", "Rs 1400.00", "Rs 200.00"), id="a-day-later"),
])
def test_rel_protest_short(run, released_on, deposit, fires, says):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, basis="s16_protest", fines_paid="",
                                                   charges_paid="", protest_deposit=deposit)])
    expect(fs, "REL-PROTEST-SHORT", fires, kind="release", subject="R1", on=released_on,
           says=("R1", "C1", released_on) + says)


# ==============================================================================================
# REL-UNAUTHORISED (s.19(2))

@pytest.mark.parametrize("ref, fires", [("OS 12/2026", False), ("", True)])
def test_rel_unauthorised_court_order_without_reference(run, ref, fires):
    fs = run(impoundments=[case()], releases=[rel(basis="court_order", fines_paid="", charges_paid="",
                                                   receipt_signed="", court_order_ref=ref)])
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on="2026-10-03",
           says=("R1", "C1", "2026-10-03", "court", "no order"))


@pytest.mark.parametrize("released_on, fires", [("2026-10-01", False), ("2026-09-30", True)])
def test_rel_unauthorised_release_before_impounding(run, released_on, fires):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, charges_paid="200")])
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on=released_on,
           says=("R1", "2026-09-30", "before the impounding on 2026-10-01"))
    # filed under the release's month (2026-09), not the impounding's
    assert all(f["month"] == "2026-09" for f in fs if f["rule_id"] == "REL-UNAUTHORISED")


@pytest.mark.parametrize("second_heads, fires", [(1, False), (2, True)])
def test_rel_unauthorised_more_heads_released_than_impounded(run, second_heads, fires):
    fs = run(impoundments=[case(head_count=2)],
             releases=[rel(), rel("R2", released_on="2026-10-04", head_count=second_heads,
                               fines_paid="1200", charges_paid="1600")])
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R2", on="2026-10-04",
           says=("R2", "2026-10-04", "3 head", "2 impounded"),
           also=["DQ-HEADS-MISMATCH"] if fires else [])


@pytest.mark.parametrize("released_heads, fires", [(1, False), (2, True)])
def test_rel_unauthorised_release_of_heads_already_sold(run, released_heads, fires):
    # 2 head; 1 sold at the s.15 auction on 2026-10-18, and a release the same day
    fs = run(impoundments=[case(head_count=2)], sales=[sale()],
             releases=[rel(released_on="2026-10-18", head_count=released_heads, fines_paid="1200",
                           charges_paid="7200")], **S15)
    expect(fs, "REL-UNAUTHORISED", fires, kind="release", subject="R1", on="2026-10-18",
           says=("R1", "2026-10-18", "2 head", "2 impounded", "1 sold"),
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
           says=("R1", "2026-10-05", "s.17 remainder", "no s.17 sale"))


# ==============================================================================================
# SALE-OFFICIAL-BUYER (s.19(1))

@pytest.mark.parametrize("buyer_name, buyer_id, fires, who", [
    pytest.param("Farmer B", "", False, (), id="ordinary-buyer"),
    pytest.param("Ramesh Gowda", "", True, ("Ramesh Gowda", "PK1"), id="name-of-the-pound-keeper"),
    pytest.param(" ramesh  GOWDA ", "", True, ("Ramesh Gowda", "PK1"), id="name-case-and-spaces"),
    pytest.param("Ramesh Gowdar", "", False, (), id="a-different-name"),
    pytest.param("Anand Rao", "", False, (), id="name-of-an-official-of-another-district"),
    pytest.param("", "PK9", True, ("Anand Rao", "PK9"), id="person-id-any-district"),
    pytest.param("M K", "SO1", True, ("Manjunath K", "SO1"), id="person-id-other-name"),
])
def test_sale_official_buyer(run, buyer_name, buyer_id, fires, who):
    fs = run(impoundments=[case()], sales=[sale(buyer_name=buyer_name, buyer_person_id=buyer_id)], **S15)
    expect(fs, "SALE-OFFICIAL-BUYER", fires, kind="sale", subject="S1", on="2026-10-18",
           says=("S1", "C1", "2026-10-18", "Rs 5000.00") + who)


def test_sale_official_buyer_rejected_bid_is_no_sale(run):
    fs = run(impoundments=[case()], **S15,
             sales=[rejected(buyer_name="Ramesh Gowda", disposal_note="re-auctioned"),
                    sale("S2", sale_on="2026-10-25")])
    expect(fs, "SALE-OFFICIAL-BUYER", False)


# ==============================================================================================
# S15-REPORT-MISSING: unclaimed, never reported, still in the pound after D+w+1+report_grace

@pytest.mark.parametrize("cls, as_of, params, fires, due, w", [
    pytest.param("cattle", "2026-10-09", {}, False, "2026-10-09", 7, id="cattle-on-the-due-day"),
    pytest.param("cattle", "2026-10-10", {}, True, "2026-10-09", 7, id="cattle-a-day-after"),
    pytest.param("ass", "2026-10-05", {}, False, "2026-10-05", 3, id="ass-on-the-due-day"),
    pytest.param("ass", "2026-10-06", {}, True, "2026-10-05", 3, id="ass-a-day-after"),
    pytest.param("sheep", "2026-10-06", {}, True, "2026-10-05", 3, id="sheep-a-day-after"),
    pytest.param("goat", "2026-10-06", {}, False, "2026-10-09", 7, id="goat-is-a-7-day-class"),
    pytest.param("goat", "2026-10-06", {"short_classes": ["ass", "sheep", "goat"]}, True, "2026-10-05", 3,
                 id="goat-made-a-3-day-class-by-parameter"),
    pytest.param("cattle", "2026-10-11", {"report_grace": 2}, False, "2026-10-09", 7, id="grace-2-last-day"),
    pytest.param("cattle", "2026-10-12", {"report_grace": 2}, True, "2026-10-09", 7, id="grace-2-a-day-after"),
])
def test_s15_report_missing_as_of(run, cls, as_of, params, fires, due, w):
    fs = run(impoundments=[case(animal_class=cls)], as_of=as_of, params=params)
    grace = params.get("report_grace", 0)
    expect(fs, "S15-REPORT-MISSING", fires, kind="case", subject="C1", on=day(due) + dt.timedelta(days=grace),
           says=("C1", cls, "2026-10-01", f"{w} days", f"due on {due}", f"in the pound on {as_of}"))


@pytest.mark.parametrize("released_on, charges, fires", [
    pytest.param("2026-10-09", "1800", False, id="released-on-the-report-day"),
    pytest.param("2026-10-10", "2000", True, id="released-a-day-after"),
])
def test_s15_report_missing_release_after_the_due_day(run, released_on, charges, fires):
    fs = run(impoundments=[case()], releases=[rel(released_on=released_on, charges_paid=charges)])
    expect(fs, "S15-REPORT-MISSING", fires, kind="case", subject="C1", on="2026-10-09",
           says=("C1", "due on 2026-10-09", f"until {released_on}"))


def test_s15_report_missing_not_when_the_owner_appeared_and_refused(run):
    fs = run(impoundments=[case()], sales=[rejected(path="s17_refusal", sale_on="2026-10-20")])
    expect(fs, "S15-REPORT-MISSING", False)


# ==============================================================================================
# S15-REPORT-LATE: reported_on > D+w+1+report_grace

@pytest.mark.parametrize("cls, reported_on, params, fires, due, late", [
    pytest.param("cattle", "2026-10-09", {}, False, "2026-10-09", 0, id="cattle-on-the-due-day"),
    pytest.param("cattle", "2026-10-10", {}, True, "2026-10-09", 1, id="cattle-a-day-late"),
    pytest.param("ass", "2026-10-05", {}, False, "2026-10-05", 0, id="ass-on-the-due-day"),
    pytest.param("ass", "2026-10-06", {}, True, "2026-10-05", 1, id="ass-a-day-late"),
    pytest.param("cattle", "2026-10-11", {"report_grace": 2}, False, "2026-10-09", 2, id="grace-2-last-day"),
    pytest.param("cattle", "2026-10-12", {"report_grace": 2}, True, "2026-10-09", 3, id="grace-2-a-day-after"),
])
def test_s15_report_late(run, cls, reported_on, params, fires, due, late):
    fs = run(impoundments=[case(animal_class=cls)], police_reports=[report(reported_on=reported_on,
             notice_on=reported_on, proclamation_on=reported_on)], as_of="2026-10-20", params=params)
    expect(fs, "S15-REPORT-LATE", fires, kind="case", subject="C1", on=reported_on,
           says=("C1", cls, "2026-10-01", f"on {reported_on}", f"{late} day(s)", f"due on {due}"))


# ==============================================================================================
# S15-REPORT-EARLY: reported_on <= D+w

@pytest.mark.parametrize("cls, reported_on, params, fires, until", [
    pytest.param("cattle", "2026-10-08", {}, True, "2026-10-08", id="cattle-on-the-last-claim-day"),
    pytest.param("cattle", "2026-10-09", {}, False, "", id="cattle-on-the-due-day"),
    pytest.param("sheep", "2026-10-04", {}, True, "2026-10-04", id="sheep-on-the-last-claim-day"),
    pytest.param("sheep", "2026-10-05", {}, False, "", id="sheep-on-the-due-day"),
    pytest.param("cattle", "2026-10-07", {"count_first_day": True}, True, "2026-10-07", id="count-first-day-fires"),
    pytest.param("cattle", "2026-10-08", {"count_first_day": True}, False, "", id="count-first-day-moves-it"),
])
def test_s15_report_early(run, cls, reported_on, params, fires, until):
    fs = run(impoundments=[case(animal_class=cls)], police_reports=[report(reported_on=reported_on,
             notice_on=reported_on, proclamation_on=reported_on)], as_of="2026-10-20", params=params)
    expect(fs, "S15-REPORT-EARLY", fires, kind="case", subject="C1", on=reported_on,
           says=("C1", cls, "2026-10-01", f"on {reported_on}", f"until {until}"))


# ==============================================================================================
# S15-NOTICE-MISSING

@pytest.mark.parametrize("notice_on, proclamation_on, as_of, params, fires, what, due", [
    pytest.param("2026-10-10", "", "2026-10-11", {}, False, "", "", id="within-grace"),
    pytest.param("2026-10-10", "", "2026-10-12", {}, True, "the proclamation by beat of drum is", "2026-10-11",
                 id="proclamation-missing-after-grace"),
    pytest.param("", "2026-10-10", "2026-10-12", {}, True, "the notice is", "2026-10-11",
                 id="notice-missing-after-grace"),
    pytest.param("", "", "2026-10-12", {}, True, "neither the notice nor the proclamation by beat of drum is",
                 "2026-10-11", id="both-missing"),
    pytest.param("2026-10-10", "", "2026-10-14", {"notice_grace": 5}, False, "", "", id="grace-5-last-day"),
    pytest.param("2026-10-10", "", "2026-10-15", {"notice_grace": 5}, True, "the proclamation by beat of drum is",
                 "2026-10-14", id="grace-5-a-day-after"),
])
def test_s15_notice_missing(run, notice_on, proclamation_on, as_of, params, fires, what, due):
    fs = run(impoundments=[case()], police_reports=[report(notice_on=notice_on, proclamation_on=proclamation_on)],
             as_of=as_of, params=params)
    expect(fs, "S15-NOTICE-MISSING", fires, kind="case", subject="C1", on=due,
           says=("C1", "2026-10-09", what, f"due by {due}"))


@pytest.mark.parametrize("proclamation_on, fires", [("2026-10-18", False), ("2026-10-19", True)])
def test_s15_notice_missing_proclamation_after_the_first_auction(run, proclamation_on, fires):
    fs = run(impoundments=[case()], police_reports=[report(proclamation_on=proclamation_on)], sales=[sale()])
    expect(fs, "S15-NOTICE-MISSING", fires, kind="case", subject="C1", on=proclamation_on,
           says=("C1", "proclamation", "2026-10-19", "auction", "2026-10-18"))


def test_s15_notice_missing_proclamation_after_the_auction_without_a_report(run):
    # no report recorded (S15-REPORT-MISSING too), but a proclamation after the auction is still a finding
    fs = run(impoundments=[case()], police_reports=[report(reported_on="", proclamation_on="2026-10-19")],
             sales=[sale()])
    got = sorted((f["rule_id"], f["subject_id"], str(f["event_on"])) for f in fs)
    assert ("S15-NOTICE-MISSING", "C1", "2026-10-19") in got
    assert {g[0] for g in got} == {"S15-NOTICE-MISSING", "S15-REPORT-MISSING"}, got


# ==============================================================================================
# S15-SALE-EARLY: an s15 attempt before notice + w + 1

@pytest.mark.parametrize("cls, reported_on, notice_on, sale_on, fires, earliest, w", [
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-10-17", True, "2026-10-18", 7, id="cattle-a-day-early"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-10-18", False, "", 7, id="cattle-earliest-day"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-10-09", True, "2026-10-10", 3, id="ass-a-day-early"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-10-10", False, "", 3, id="ass-earliest-day"),
])
def test_s15_sale_early(run, cls, reported_on, notice_on, sale_on, fires, earliest, w):
    fs = run(impoundments=[case(animal_class=cls)],
             police_reports=[report(reported_on=reported_on, notice_on=notice_on, proclamation_on=notice_on)],
             sales=[sale(sale_on=sale_on)])
    expect(fs, "S15-SALE-EARLY", fires, kind="sale", subject="S1", on=sale_on,
           says=("S1", "C1", f"on {sale_on}", f"earliest lawful day {earliest}", f"notice on {notice_on}",
                 f"{w} days"))


@pytest.mark.parametrize("first_on, fires", [("2026-10-18", False), ("2026-10-17", True)])
def test_s15_sale_early_rejected_attempts_count(run, first_on, fires):
    fs = run(impoundments=[case()], **S15,
             sales=[rejected(sale_on=first_on, disposal_note="re-auctioned"), sale("S2", sale_on="2026-10-25")])
    expect(fs, "S15-SALE-EARLY", fires, kind="sale", subject="S1", on=first_on,
           says=("S1", "2026-10-17", "2026-10-18"))


def test_s15_sale_early_without_notice(run):
    fs = run(impoundments=[case()], police_reports=[report(notice_on="")], sales=[sale()])
    expect(fs, "S15-SALE-EARLY", True, kind="sale", subject="S1", on="2026-10-18",
           says=("S1", "C1", "2026-10-18", "no notice"),
           also=["S15-NOTICE-MISSING"])


# ==============================================================================================
# S15-SALE-OVERDUE: no attempt by notice + w + 1 + sale_grace

@pytest.mark.parametrize("cls, reported_on, notice_on, as_of, params, fires, first, due", [
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-17", {}, False, "", "", id="cattle-last-day"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-18", {}, True, "2026-10-18", "2026-11-17",
                 id="cattle-a-day-after"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-11-09", {}, False, "", "", id="ass-last-day"),
    pytest.param("ass", "2026-10-05", "2026-10-06", "2026-11-10", {}, True, "2026-10-10", "2026-11-09",
                 id="ass-a-day-after"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-27", {"sale_grace": 40}, False, "", "",
                 id="grace-40-last-day"),
    pytest.param("cattle", "2026-10-09", "2026-10-10", "2026-11-28", {"sale_grace": 40}, True, "2026-10-18",
                 "2026-11-27", id="grace-40-a-day-after"),
])
def test_s15_sale_overdue(run, cls, reported_on, notice_on, as_of, params, fires, first, due):
    fs = run(impoundments=[case(animal_class=cls)], as_of=as_of, params=params,
             police_reports=[report(reported_on=reported_on, notice_on=notice_on, proclamation_on=notice_on)])
    expect(fs, "S15-SALE-OVERDUE", fires, kind="case", subject="C1", on=due,
           says=("C1", cls, f"from {first}", f"by {as_of}"))


def test_s15_sale_overdue_not_once_an_auction_was_attempted(run):
    fs = run(impoundments=[case()], sales=[rejected(disposal_note="to be re-auctioned")], **S15)
    expect(fs, "S15-SALE-OVERDUE", False)


# ==============================================================================================
# S15-BID-REJECTED-UNRESOLVED

@pytest.mark.parametrize("note, later_sale, release, fires", [
    pytest.param("", None, None, True, id="nothing-after"),
    pytest.param("handed to goshala", None, None, False, id="disposal-noted"),
    pytest.param("", "2026-10-25", None, False, id="later-auction"),
    pytest.param("", "2026-10-18", None, False, id="later-auction-same-day"),
    pytest.param("", None, "2026-10-18", False, id="release-same-day"),
])
def test_s15_bid_rejected_unresolved(run, note, later_sale, release, fires):
    tables = {"impoundments": [case()], "sales": [rejected(disposal_note=note)], **S15}
    if later_sale:
        tables["sales"].append(sale("S2", sale_on=later_sale))
    if release:
        tables["releases"] = [rel(released_on=release, charges_paid="3600")]
    fs = run(**tables)
    expect(fs, "S15-BID-REJECTED-UNRESOLVED", fires, kind="sale", subject="S1", on="2026-10-18",
           says=("Rs 100.00", "S1", "C1", "2026-10-18", "rejected"))


@pytest.mark.parametrize("owner_appeared", [False, True])
def test_s15_rules_never_apply_once_the_owner_appeared_and_refused(run, owner_appeared):
    # reported on D+4 (early), no notice (missing), an s.15 auction on D+5 (early) with its bid
    # rejected and nothing after (unresolved); with an s.17 attempt on D+2 the owner appeared
    sales = [rejected(sale_on="2026-10-06")]
    if owner_appeared:
        sales.insert(0, rejected("S0", path="s17_refusal", sale_on="2026-10-03"))
    fs = run(impoundments=[case()], sales=sales,
             police_reports=[report(reported_on="2026-10-05", notice_on="", proclamation_on="")])
    for f in fs:
        assert (f["section"], f["severity"]) == SPEC[f["rule_id"]], f
    got = sorted((f["rule_id"], f["subject_id"]) for f in fs)
    if owner_appeared:
        assert got == [], got
    else:
        assert got == [("S15-BID-REJECTED-UNRESOLVED", "S1"), ("S15-NOTICE-MISSING", "C1"),
                       ("S15-REPORT-EARLY", "C1"), ("S15-SALE-EARLY", "S1")], got


# ==============================================================================================
# S16-FOLLOW-UP-MISSING: protest release on R = 2026-10-03 in a s.13 area

PROTEST = rel(basis="s16_protest", fines_paid="", charges_paid="", protest_deposit="1200")


@pytest.mark.parametrize("pound, complaint, deposit_on, as_of, params, fires, u, says", [
    pytest.param("P2", None, None, "2026-11-14", {}, False, "", "", id="no-complaint-grace-last-day"),
    pytest.param("P2", None, None, "2026-11-15", {}, True, "2026-10-31", "no complaint was filed by 2026-10-31",
                 id="no-complaint-a-day-after"),
    pytest.param("P1", None, None, "2026-11-15", {}, False, "", "", id="s13-not-notified"),
    pytest.param("P2", None, "2026-10-04", "2026-11-15", {}, False, "", "", id="security-deposited-after-R"),
    pytest.param("P2", None, "2026-10-03", "2026-11-15", {}, True, "2026-10-31", "no complaint was filed by",
                 id="deposit-on-R-is-not-after-R"),
    pytest.param("P2", ("2026-10-20", "2026-11-01", "lawful"), None, "2026-11-15", {}, False, "", "",
                 id="lawful-grace-last-day"),
    pytest.param("P2", ("2026-10-20", "2026-11-01", "lawful"), None, "2026-11-16", {}, True, "2026-11-01",
                 "the seizure was declared lawful on 2026-11-01", id="lawful-a-day-after"),
    pytest.param("P2", ("2026-10-20", "2026-10-25", "withdrawn"), None, "2026-11-30", {}, False, "", "",
                 id="withdrawn-is-no-trigger"),
    pytest.param("P2", ("2026-10-31", "", "pending"), None, "2026-11-30", {}, False, "", "",
                 id="complaint-on-the-last-day-of-the-window"),
    pytest.param("P2", ("2026-11-01", "", "pending"), None, "2026-11-15", {}, True, "2026-10-31",
                 "no complaint was filed by 2026-10-31", id="complaint-a-day-too-late"),
    pytest.param("P2", None, None, "2026-11-21", {"complaint_window": 35}, False, "", "", id="window-35-last-day"),
    pytest.param("P2", None, None, "2026-11-22", {"complaint_window": 35}, True, "2026-11-07",
                 "no complaint was filed by 2026-11-07", id="window-35-a-day-after"),
])
def test_s16_follow_up_missing(run, pound, complaint, deposit_on, as_of, params, fires, u, says):
    tables = {"impoundments": [case(pound_id=pound)], "releases": [PROTEST]}
    if complaint:
        tables["complaints"] = [{"case_id": "C1", "filed_on": complaint[0], "decided_on": complaint[1],
                                 "outcome": complaint[2]}]
    if deposit_on:
        tables["security_deposits"] = [dep(deposited_on=deposit_on)]
    fs = run(as_of=as_of, params=params, **tables)
    expect(fs, "S16-FOLLOW-UP-MISSING", fires, kind="release", subject="R1",
           on=day(u) + dt.timedelta(days=14) if u else None,
           says=("C1", "protest on 2026-10-03", says))


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


@pytest.mark.parametrize("reimpounded_on, complaint, deposit, params, fires, shown", [
    pytest.param("2027-02-28", None, {}, {}, True, "still held", id="on-the-six-month-anniversary"),
    pytest.param("2027-03-01", None, {}, {}, False, "", id="a-day-after-the-six-months"),
    pytest.param("2027-02-28", None, {}, {"security_window_months": 5}, False, "", id="window-5-months-parameter"),
    pytest.param("2027-02-28", None, FORFEITED, {}, False, "", id="forfeited"),
    pytest.param("2027-02-28", None, REFUNDED, {}, True, "refunded on 2027-03-02", id="refunded-instead"),
    pytest.param("2027-02-28", "illegal", {}, {}, False, "", id="seizure-adjudged-illegal"),
    pytest.param("2027-02-28", "lawful", {}, {}, True, "still held", id="seizure-held-lawful"),
])
def test_s13_forfeit_missed(run, reimpounded_on, complaint, deposit, params, fires, shown):
    fs = run(as_of=S13_AS_OF, params=params, **s13_tables(reimpounded_on, complaint, **deposit))
    expect(fs, "S13-FORFEIT-MISSED", fires, kind="deposit", subject="D1", on=reimpounded_on,
           says=("D1", "Rs 1000.00", "2026-08-31", "O1", "forfeited", "again on 2027-02-28", "C2", shown))


@pytest.mark.parametrize("reimpounded_on, complaint, fires", [
    pytest.param("2027-02-28", None, False, id="reimpounded-on-the-anniversary"),
    pytest.param("2027-03-01", None, True, id="reimpounded-a-day-after"),
    pytest.param(None, None, True, id="never-reimpounded"),
    pytest.param("2027-02-28", "illegal", True, id="reimpounding-adjudged-illegal"),
])
def test_s13_forfeit_unlawful(run, reimpounded_on, complaint, fires):
    fs = run(as_of=S13_AS_OF, **s13_tables(reimpounded_on, complaint, **FORFEITED))
    expect(fs, "S13-FORFEIT-UNLAWFUL", fires, kind="deposit", subject="D1", on="2027-03-05",
           says=("D1", "Rs 1000.00", "2026-08-31", "O1", "forfeited on 2027-03-05", "2027-02-28"))


@pytest.mark.parametrize("applied_on, refunded_on, fires, how", [
    pytest.param("2027-03-01", "2027-03-01", False, "", id="both-after-the-six-months"),
    pytest.param("2027-02-28", "2027-03-01", True, "2027-02-28", id="applied-on-the-last-day"),
    pytest.param("2027-03-01", "2027-02-28", True, "2027-03-01", id="refunded-on-the-last-day"),
    pytest.param("", "2027-03-01", True, "no application", id="no-application"),
])
def test_s13_refund_early(run, applied_on, refunded_on, fires, how):
    fs = run(as_of=S13_AS_OF, **s13_tables(refund_applied_on=applied_on, refunded_on=refunded_on,
                                            refunded_amount="1000"))
    expect(fs, "S13-REFUND-EARLY", fires, kind="deposit", subject="D1", on=refunded_on,
           says=("D1", "Rs 1000.00", "2026-08-31", f"refunded on {refunded_on}", how, "2027-02-28"))


S13_FROM_OCT3 = [notif("13", effective_from="2026-10-03"), notif("14")]


@pytest.mark.parametrize("pound, deposited_on, notifications, fires, taluk", [
    pytest.param("P2", "2026-10-03", None, False, "", id="notified-taluk"),
    pytest.param("P1", "2026-10-03", None, True, "Plain", id="plain-taluk"),
    pytest.param("P2", "2026-10-03", S13_FROM_OCT3, False, "", id="first-day-of-notification"),
    pytest.param("P2", "2026-10-02", S13_FROM_OCT3, True, "Notified", id="a-day-before-notification"),
])
def test_s13_security_unauthorised(run, pound, deposited_on, notifications, fires, taluk):
    tables = {"impoundments": [case(pound_id=pound)], "security_deposits": [dep(deposited_on=deposited_on)],
              "releases": [rel(declaration_made="yes", security_deposit_id="D1")]}
    if notifications:
        tables["notifications"] = notifications
    fs = run(**tables)
    expect(fs, "S13-SECURITY-UNAUTHORISED", fires, kind="deposit", subject="D1", on=deposited_on,
           says=("D1", "Rs 1000.00", f"on {deposited_on}", pound, f"{taluk} taluk", "not notified"))


# ==============================================================================================
# S17: the owner appeared and refused; 2 head of cattle sold on 2026-10-05 (D + 4).
# Dues at P1: feeding 2 x 200 x 5 = 2000, fines 2 x 600 = 1200 -> 3200; at P2 also security 2000.

@pytest.mark.parametrize("pound, bid, fires, dues", [
    pytest.param("P1", "6400", True, "3200.00", id="proceeds-less-a-head-cover-the-dues"),
    pytest.param("P1", "6399.99", False, "", id="a-paisa-less"),
    pytest.param("P2", "10400", True, "5200.00", id="with-security-covered"),
    pytest.param("P2", "10399.99", False, "", id="with-security-a-paisa-less"),
])
def test_s17_oversale(run, pound, bid, fires, dues):
    due = 320000 + (200000 if pound == "P2" else 0)
    paise = round(float(bid) * 100) - due
    balance = f"{paise // 100}.{paise % 100:02d}"
    fs = run(impoundments=[case(pound_id=pound, head_count=2)],
             sales=[sale(path="s17_refusal", sale_on="2026-10-05", head_sold=2, bid_amount=bid, balance_paid=balance)])
    expect(fs, "S17-OVERSALE", fires, kind="case", subject="C1", on="2026-10-05",
           says=("C1", "2 of 2 cattle", "2026-10-05", f"Rs {bid}.00", f"Rs {dues}"))


@pytest.mark.parametrize("bid, remainder, fires", [
    pytest.param("3200", True, False, id="dues-met-remainder-returned"),
    pytest.param("3199.99", True, True, id="a-paisa-short-remainder-returned"),
    pytest.param("3199.99", False, False, id="a-paisa-short-remainder-kept"),
])
def test_s17_shortfall_returned(run, bid, remainder, fires):
    tables = {"impoundments": [case(head_count=2)],
              "sales": [sale(path="s17_refusal", sale_on="2026-10-05", bid_amount=bid)]}
    if remainder:
        tables["releases"] = [rel(released_on="2026-10-05", basis="s17_remainder", fines_paid="", charges_paid="")]
    fs = run(**tables)
    expect(fs, "S17-SHORTFALL-RETURNED", fires, kind="case", subject="C1", on="2026-10-05",
           says=("C1", "2026-10-05", "Rs 0.01", "1 head"))


# with Rs 100 of expenses: 4000 - 100 - 2000 - 1200 = 700 due to the owner
@pytest.mark.parametrize("paid, fires", [
    pytest.param("700", False, id="balance-paid"),
    pytest.param("699.99", True, id="a-paisa-less"),
    pytest.param("700.01", True, id="a-paisa-more"),
    pytest.param("", True, id="blank-is-nothing-paid"),
])
def test_s17_balance_mismatch(run, paid, fires):
    fs = run(impoundments=[case(head_count=2)],
             sales=[sale(path="s17_refusal", sale_on="2026-10-05", head_sold=2, bid_amount="4000",
                         sale_expenses="100", balance_paid=paid)])
    shown = f"Rs {float(paid or 0):.2f}"
    expect(fs, "S17-BALANCE-MISMATCH", fires, kind="sale", subject="S1", on="2026-10-05",
           says=("S1", "C1", "2026-10-05", f"records {shown}", "balance of Rs 700.00", "proceeds Rs 4000.00",
                 "expenses Rs 100.00", "feeding Rs 2000.00", "fines Rs 1200.00", "security Rs 0.00"))


@pytest.mark.parametrize("first_paid, last_paid, fires", [
    pytest.param("", "300", False, id="balance-on-the-last-attempt"),
    pytest.param("300", "", True, id="balance-on-the-first-attempt"),
])
def test_s17_balance_mismatch_reads_the_last_accepted_attempt(run, first_paid, last_paid, fires):
    # 1 head for 2000 on 10-05 (expenses 100) and 1 for 2000 on 10-06: 4000 - 100 - 2 x 200 x 6 - 1200 = 300
    fs = run(impoundments=[case(head_count=2)],
             sales=[sale(path="s17_refusal", sale_on="2026-10-05", bid_amount="2000", sale_expenses="100",
                         balance_paid=first_paid),
                    sale("S2", path="s17_refusal", sale_on="2026-10-06", bid_amount="2000", balance_paid=last_paid)])
    expect(fs, "S17-BALANCE-MISMATCH", fires, kind="sale", subject="S2", on="2026-10-06",
           says=("S2", "2026-10-06", "records Rs 0.00", "balance of Rs 300.00", "feeding Rs 2400.00"))


# ==============================================================================================
# S14 removal orders (default: Notified taluk, clause i, issued 2026-06-01, comply by 2026-07-01,
# complied 2026-06-30)

@pytest.mark.parametrize("fine, params, fires", [
    pytest.param("1000", {}, False, id="at-the-cap"),
    pytest.param("1000.01", {}, True, id="a-paisa-over"),
    pytest.param("1200", {"s14_fine_cap": 1500}, False, id="cap-1500-parameter"),
])
def test_s14_fine_excess(run, fine, params, fires):
    fs = run(removal_orders=[order(fine_imposed=fine, fine_paid_on="2026-07-15")], params=params)
    expect(fs, "S14-FINE-EXCESS", fires, kind="order", subject="T1", on="2026-06-01", case_id=None,
           says=("T1", "Notified", "Owner O9", "Rs 1000.01", "1000"))


@pytest.mark.parametrize("complied_on, police_on, as_of, fires, what", [
    pytest.param("", "", "2026-07-01", False, "", id="on-the-comply-by-day"),
    pytest.param("", "", "2026-07-02", True, "no compliance", id="a-day-after"),
    pytest.param("2026-07-01", "", "2026-11-30", False, "", id="complied-on-the-day"),
    pytest.param("2026-07-02", "", "2026-11-30", True, "compliance only on 2026-07-02", id="complied-a-day-late"),
    pytest.param("", "2026-07-10", "2026-11-30", False, "", id="police-removal"),
])
def test_s14_not_enforced(run, complied_on, police_on, as_of, fires, what):
    fs = run(removal_orders=[order(complied_on=complied_on, police_removal_on=police_on)], as_of=as_of)
    expect(fs, "S14-NOT-ENFORCED", fires, kind="order", subject="T1", on="2026-07-01", case_id=None,
           says=("T1", "Notified", "2026-07-01", what, "police"))


@pytest.mark.parametrize("clause, herd, params, fires", [
    pytest.param("ii", 20, {}, True, id="exactly-20-head"),
    pytest.param("ii", 21, {}, False, id="21-head"),
    pytest.param("i", 20, {}, False, id="clause-i"),
    pytest.param("ii", "", {}, False, id="herd-not-recorded"),
    pytest.param("ii", 21, {"s14_herd_threshold": 25}, True, id="threshold-25-parameter"),
])
def test_s14_clause_ii_small_herd(run, clause, herd, params, fires):
    fs = run(removal_orders=[order(clause=clause, owner_head_count=herd)], params=params)
    limit = params.get("s14_herd_threshold", 20)
    expect(fs, "S14-CLAUSE-II-SMALL-HERD", fires, kind="order", subject="T1", on="2026-06-01", case_id=None,
           says=("T1", "2026-06-01", "clause (ii)", "Owner O9", f"owns {herd} head", f"more than {limit}"))


@pytest.mark.parametrize("taluk, issued_on, fires", [
    pytest.param("Notified", "2026-06-01", False, id="notified"),
    pytest.param("Plain", "2026-06-01", True, id="plain"),
    pytest.param("NOTIFIED", "2026-06-01", False, id="taluk-case-insensitive"),
    pytest.param("Notified", "2025-01-01", False, id="first-day-of-notification"),
    pytest.param("Notified", "2024-12-31", True, id="a-day-before-notification"),
])
def test_s14_not_notified(run, taluk, issued_on, fires):
    fs = run(removal_orders=[order(taluk=taluk, issued_on=issued_on)])
    expect(fs, "S14-NOT-NOTIFIED", fires, kind="order", subject="T1", on=issued_on, case_id=None,
           says=("T1", f"issued on {issued_on}", f"{taluk} taluk", "not notified"))


# ==============================================================================================
# RATE-MISSING and the data-quality rules

@pytest.mark.parametrize("impounded_on, fires", [("2014-05-01", False), ("2014-04-30", True)])
def test_rate_missing(run, impounded_on, fires):
    fs = run(impoundments=[case(impounded_on=impounded_on)],
             releases=[rel(released_on=impounded_on, charges_paid="200")])
    expect(fs, "RATE-MISSING", fires, kind="case", subject="C1", on=impounded_on,
           says=("C1", "cattle", "Plain", "2014-04-30"))


@pytest.mark.parametrize("seized_on, fires", [("2026-10-01", False), ("", False), ("2026-10-02", True)])
def test_dq_seized_after_impounded(run, seized_on, fires):
    fs = run(impoundments=[case(seized_on=seized_on)], releases=[rel()])
    # filed under the impounding day: the finding is about the impoundment row
    expect(fs, "DQ-SEIZED-AFTER-IMPOUNDED", fires, kind="case", subject="C1", on="2026-10-01",
           says=("C1", "seizure on 2026-10-02", "impounding on 2026-10-01"))


@pytest.mark.parametrize("loaded_on, fires", [("2026-11-30", True), ("2026-12-01", False)])
def test_dq_future_date_release_after_its_load_day(run, loaded_on, fires):
    fs = run(impoundments=[case(impounded_on="2026-11-25")],
             releases=[rel(released_on="2026-12-01", charges_paid="1400")], as_of="2026-12-01", loaded_on=loaded_on)
    expect(fs, "DQ-FUTURE-DATE", fires, kind="release", subject="R1", on="2026-12-01",
           says=("R1", "the day its file was loaded, 2026-11-30", "released_on 2026-12-01"))


@pytest.mark.parametrize("bundle_as_of, fires", [("2026-11-30", True), ("2026-12-01", False)])
def test_dq_future_date_after_the_bundles_own_date(run, bundle_as_of, fires):
    fs = run(impoundments=[case(impounded_on="2026-11-25")],
             releases=[rel(released_on="2026-12-01", charges_paid="1400")], as_of="2026-12-01",
             loaded_on="2026-12-05", bundle_as_of=bundle_as_of)
    expect(fs, "DQ-FUTURE-DATE", fires, kind="release", subject="R1", on="2026-12-01",
           says=("R1", "the bundle's own date (bundle.toml) 2026-11-30", "released_on 2026-12-01"))


@pytest.mark.parametrize("as_of", ["2026-11-30", "2026-12-02"])
def test_dq_future_date_is_not_about_the_chosen_as_of(run, as_of):
    # rows after the as-of date are left out of the accounts, not reported as findings
    fs = run(impoundments=[case(seized_on="2026-12-01", impounded_on="2026-12-02")], as_of=as_of,
             loaded_on="2026-12-02")
    expect(fs, "DQ-FUTURE-DATE", False)


@pytest.mark.parametrize("loaded_on, fires", [("2026-11-30", True), ("2026-12-02", False)])
def test_dq_future_date_names_every_future_column(run, loaded_on, fires):
    fs = run(impoundments=[case(seized_on="2026-12-01", impounded_on="2026-12-02")], as_of="2026-12-02",
             loaded_on=loaded_on)
    expect(fs, "DQ-FUTURE-DATE", fires, kind="impoundment", subject="C1", on="2026-12-02",
           says=("C1", "2026-11-30", "seized_on 2026-12-01", "impounded_on 2026-12-02"))


@pytest.mark.parametrize("entry_on, fires", [("2026-11-30", False), ("2026-12-01", True)])
def test_dq_future_date_ledger_entry(run, entry_on, fires):
    fs = run(impoundments=[case()], releases=[rel()], loaded_on="2026-11-30",
             local_fund=[{"entry_id": "E1", "local_authority_id": "LA1", "entry_on": entry_on, "amount": "600",
                          "reference": "C1", "head": "fines"}])
    expect(fs, "DQ-FUTURE-DATE", fires, kind="local_fund_entry", subject="E1", on=entry_on, case_id=None,
           says=("E1", "2026-11-30", "entry_on 2026-12-01"))


def test_dq_future_date_ignores_a_comply_by_deadline_ahead(run):
    fs = run(removal_orders=[order(issued_on="2026-11-01", comply_by="2026-12-15", complied_on="")],
             loaded_on="2026-11-30")
    expect(fs, "DQ-FUTURE-DATE", False)


@pytest.mark.parametrize("head_sold, fires", [(1, False), (2, True)])
def test_dq_heads_mismatch(run, head_sold, fires):
    fs = run(impoundments=[case()], sales=[sale(head_sold=head_sold)], **S15)
    expect(fs, "DQ-HEADS-MISMATCH", fires, kind="case", subject="C1", on="2026-10-18",
           says=("C1", "1 cattle", "2 head", "0 released", "2 sold"))
