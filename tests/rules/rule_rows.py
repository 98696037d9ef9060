"""Row builders and the one assertion of the rule tests (tests/rules/test_*.py).

Rows are strings as a clerk would type them; a missing column is blank. `expect` checks that a
rule fires exactly once (or not at all) and that the other findings are exactly the ones named.
"""

from __future__ import annotations

import datetime as dt
import re

from pipeline.core.months import day_text

ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def page_day(d) -> str:
    """A day (2026-10-19, as the rows give it) as a finding's text writes it: 19-10-2026 (a blank
    day, of a twin that finds nothing, as it is)."""
    if not d:
        return d
    return day_text(dt.date.fromisoformat(d) if isinstance(d, str) else d)

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
    "S15-SALE-LATE": ("15(3)", "high"),
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
    "S14-NOT-NOTIFIED": ("14(1)", "high"),
    "RATE-MISSING": ("10(1), 12", "low"),
    "DQ-SEIZED-AFTER-IMPOUNDED": ("—", "low"),
    "DQ-FUTURE-DATE": ("—", "low"),
    "DQ-HEADS-MISMATCH": ("—", "low"),
    "S15-SALE-UNPROCLAIMED": ("15(2)", "high"),
    "S15-DISPOSAL-WITHOUT-REJECTED-BID": ("15(3)", "high"),
    "S16-RESEIZURE-UNFOUNDED": ("16(2)", "high"),
    "LF-CREDIT-OVERDUE": ("18(2), 18(5)", "high"),
    "DM-RECEIPT-OVERDUE": ("18(5)", "high"),
    "S15-NOTICE-BEFORE-REPORT": ("15(2)", "high"),
    "REL-OVERCHARGED": ("12(1)", "high"),
    "DM-SURPLUS-CREDITED-EARLY": ("18(5)", "high"),
    "S17-PATH-UNFOUNDED": ("17(1)", "high"),
    "DM-CLAIM-OUT-OF-TIME": ("18(5)", "high"),
    "HEADS-LEFT-IN-POUND": ("15(3)", "high"),
}
# rules whose finding's section is one of those its header lists (the header lists them all)
SECTIONS = {"LF-CREDIT-OVERDUE": ("18(2)", "18(5)")}
# rules whose finding is graver in some cases than others (the header names the gravest)
GRADED = {"S14-NOT-NOTIFIED": ("high", "medium"), "SALE-OFFICIAL-BUYER": ("high", "medium"),
          "LF-CREDIT-OVERDUE": ("high", "medium"), "DM-RECEIPT-OVERDUE": ("high", "medium"),
          "REL-OVERCHARGED": ("high", "medium"), "S15-SALE-LATE": ("high", "medium"),
          "HEADS-LEFT-IN-POUND": ("high", "medium")}


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
           says=(), also=(), severity=None) -> None:
    """`rule_id` fires exactly once (or not at all), and the other findings are exactly `also`;
    `severity`, when given, is the finding's (a GRADED rule's grade)."""
    for f in fs:
        assert f["rule_id"] in SPEC, f
        assert f["section"] in SECTIONS.get(f["rule_id"], (SPEC[f["rule_id"]][0],)), f
        assert f["severity"] in GRADED.get(f["rule_id"], (SPEC[f["rule_id"]][1],)), f
    others = sorted(f["rule_id"] for f in fs if f["rule_id"] != rule_id)
    assert others == sorted(also), [(f["rule_id"], f["detail"]) for f in fs]
    mine = [f for f in fs if f["rule_id"] == rule_id]
    if not fires:
        assert mine == [], mine
        return
    assert len(mine) == 1, mine
    f = mine[0]
    assert (f["subject_kind"], f["subject_id"], f["event_on"]) == (kind, subject, day(on)), f
    if severity is not None:
        assert f["severity"] == severity, f
    assert f["case_id"] == case_id, f
    if case_id is not None:     # the case's pound and the pound's local authority
        assert (f["pound_id"], f["local_authority_id"]) in {("P1", "LA1"), ("P2", "LA2")}, f
    else:
        assert (f["pound_id"], f["local_authority_id"]) == (None, None), f
    for s in says:
        assert s in f["detail"], f"{s!r} not in {f['detail']!r}"
    # a date in a finding's text is written as the pages write dates (19-10-2026), in every rule
    assert not ISO_DAY.search(f["detail"]), f["detail"]
