"""R16 and R17 of the third reading: LF-CREDIT-OVERDUE and DM-RECEIPT-OVERDUE, on the day of
ledger_grace and a day either side of it, and on either side of the Rs 5,000 severity line.

These tests give ledger_grace (30 days, the default) themselves: the harness gives the other rule
tests, which keep no ledgers, a grace longer than any test (scenarios.Scenario.of).

Case C1 (tests/helpers.py): 1 head of cattle impounded at P1 (local authority LA1, "Town Council")
on 01-10-2026; fine Rs 600, feeding Rs 200 a day.
- Released R1 on 03-10-2026 with Rs 600 fines paid: Rs 600.00 is due to LA1's local fund on
  03-10-2026 (s.18(2)); with 30 days' grace it is overdue on 03-10 + 30 = 02-11-2026, so the first
  as-of date it is a finding on is 03-11-2026.
- Sold unclaimed (S15) on 18-10-2026 for Rs 5,000: feeding 18 days x Rs 200 = Rs 3,600, fine Rs 600,
  surplus 5,000 - 3,600 - 600 = Rs 800.00, due to the DM on 18-10-2026 (s.18(5)); overdue on
  18-10 + 30 = 17-11-2026. The sale's fine, Rs 600.00, is due to the local fund the same day.
"""

from __future__ import annotations

import pytest
from helpers import case
from rule_rows import S15, expect, page_day, rel, sale
from scenarios import Given

GRACE = {"ledger_grace": 30}


def lf(amount, reference="C1", head="fines", entry_on="2026-10-05", entry_id="E1", la="LA1") -> dict:
    return {"entry_id": entry_id, "local_authority_id": la, "entry_on": entry_on, "amount": amount,
            "reference": reference, "head": head}


def dm(amount, entry_on="2026-10-20", entry_id="DM1", kind="receipt", reference="C1") -> dict:
    return {"entry_id": entry_id, "entry_on": entry_on, "kind": kind, "amount": amount, "reference": reference,
            "local_authority_id": "LA1"}


RELEASED = {"impoundments": [case()], "releases": [rel()]}
# the sale's fines are credited: only the DM's receipt is in question
SOLD_CREDITED = {"impoundments": [case()], "sales": [sale()], "local_fund": [lf("600", entry_on="2026-10-20")], **S15}

LF_CREDIT_OVERDUE = [
    # due 03-10-2026 + 30 days = 02-11-2026: overdue from 03-11-2026; on that day 31 days have passed
    *(Given(f"the-day-after-due-plus-grace-{as_of}", RELEASED,
            dict(rule_id="LF-CREDIT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:fines", on="2026-11-02",
                 severity="medium", section="18(2)",
                 says=("fines of case C1", "Rs 600.00 due to the local fund of Town Council on 03-10-2026",
                       "are not credited within the 30 days allowed", "s.18(2)")),
            as_of=as_of, params=GRACE)
      for as_of, fires in (("2026-11-01", False), ("2026-11-02", False), ("2026-11-03", True))),
    # as of 30-11-2026, 58 days after 03-10-2026; an entry over the amount owes nothing
    *(Given(f"credited-{credited}", {**RELEASED, "local_fund": [lf(credited)]},
            dict(rule_id="LF-CREDIT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:fines", on="2026-11-02",
                 severity="medium", says=("are credited only Rs 599.99 (Rs 0.01 short) within the 30 days allowed",)),
            params=GRACE)
      for credited, fires in (("600", False), ("599.99", True), ("600.01", False))),
    # 9 head: fines 9 x 600 = Rs 5,400.00; credited Rs 400.00 leaves Rs 5,000.00 (high), Rs 400.01 leaves
    # Rs 4,999.99 (medium). Charges: 9 x 200 x 3 days = Rs 5,400.
    *(Given(f"high-from-rs-5000-not-credited-{credited}",
            dict(impoundments=[case(head_count=9)], releases=[rel(head_count=9, fines_paid="5400", charges_paid="5400")],
                 local_fund=[lf(credited)]),
            dict(rule_id="LF-CREDIT-OVERDUE", fires=True, kind="expected_credit", subject="C1:fines", on="2026-11-02",
                 severity=severity, says=(f"({short} short)", "Rs 5,400.00 due")),
            params=GRACE)
      for credited, severity, short in (("400", "high", "Rs 5,000.00"), ("400.01", "medium", "Rs 4,999.99"))),
    # an entry in another local authority's fund is not a credit to LA1's
    Given("names-the-local-authority-of-the-ledger-the-fund-is-kept-in", {**RELEASED, "local_fund": [lf("600", la="LA2")]},
          dict(rule_id="LF-CREDIT-OVERDUE", fires=True, kind="expected_credit", subject="C1:fines", on="2026-11-02",
               says=("are not credited",)),
          params=GRACE),
    # The DM received the Rs 800.00 on 20-10-2026 and credited nothing: his six months end on 20-04-2027,
    # the credit is due on 21-04-2027 (s.18(5), R2), and overdue on 21-04-2027 + 30 = 21-05-2027.
    *(Given(f"a-surplus-after-the-dms-six-months-{as_of}", {**SOLD_CREDITED, "dm_deposit": [dm("800")]},
            dict(rule_id="LF-CREDIT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:surplus", on="2027-05-21",
                 section="18(5)",
                 says=("The unclaimed surplus of case C1, Rs 800.00 due to the local fund of Town Council on 21-04-2027",
                       "s.18(5)")),
            as_of=as_of, params=GRACE)
      for as_of, fires in (("2027-05-20", False), ("2027-05-21", False), ("2027-05-22", True))),
]

DM_RECEIPT_OVERDUE = [
    *(Given(f"the-day-after-the-sale-plus-grace-{as_of}", SOLD_CREDITED,
            dict(rule_id="DM-RECEIPT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:surplus",
                 on="2026-11-17", severity="medium",
                 says=("unclaimed surplus of Rs 800.00 from the sale in case C1 on 18-10-2026", "Town Council",
                       "is not received by the District Magistrate within the 30 days allowed", "s.18(5)")),
            as_of=as_of, params=GRACE)
      for as_of, fires in (("2026-11-16", False), ("2026-11-17", False), ("2026-11-18", True))),
    *(Given(f"received-{received}", {**SOLD_CREDITED, "dm_deposit": [dm(received)]},
            dict(rule_id="DM-RECEIPT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:surplus",
                 on="2026-11-17", says=("received by the District Magistrate only Rs 799.99 (Rs 0.01 short)",)),
            params=GRACE)
      for received, fires in (("800", False), ("799.99", True))),
    # surplus = bid - 3,600 - 600: Rs 5,000.00 from Rs 9,200 (high), Rs 4,999.99 from Rs 9,199.99 (medium)
    *(Given(f"high-from-rs-5000-bid-{bid}", {**SOLD_CREDITED, "sales": [sale(bid_amount=bid)]},
            dict(rule_id="DM-RECEIPT-OVERDUE", fires=True, kind="expected_credit", subject="C1:surplus",
                 on="2026-11-17", severity=severity),
            params=GRACE)
      for bid, severity in (("9200", "high"), ("9199.99", "medium"))),
    # no receipt: the six months have not begun and the local fund's credit has no due day (R2); only the
    # DM's receipt is overdue
    Given("a-surplus-the-dm-has-not-received-is-never-overdue-at-the-local-fund", SOLD_CREDITED,
          dict(rule_id="DM-RECEIPT-OVERDUE", fires=True, kind="expected_credit", subject="C1:surplus", on="2026-11-17"),
          as_of="2027-12-31", params=GRACE),
]


@pytest.mark.parametrize("given", LF_CREDIT_OVERDUE + DM_RECEIPT_OVERDUE,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_ledger_credits_overdue(given, findings):
    """`section`, where given, is that of the one finding (LF-CREDIT-OVERDUE's is 18(2) or 18(5))."""
    fs = findings(given)
    expected = dict(given.expected)
    section = expected.pop("section", None)
    expect(fs, **expected)
    if expected["fires"] and section:
        assert [f["section"] for f in fs] == [section], fs


# ==============================================================================================
# DM-SURPLUS-CREDITED-EARLY (R21): C1 sold unclaimed on 18-10-2026, surplus Rs 800.00; the DM receives it on
# 20-10-2026 and holds it six months, to 20-04-2027 (the last day, R12): a credit to the local fund on or
# before that day is early, one on 21-04-2027 (its due day) is not. As of 30-06-2027, no ledger grace.

LATER = "2027-06-30"
SOLD = {"impoundments": [case()], "sales": [sale()], **S15}
AROUND_THE_LAST_DAY = (("a-day-before-the-last-day", "2027-04-19", True),
                       ("on-the-last-day-of-the-six-months", "2027-04-20", True),
                       ("the-day-after-the-six-months", "2027-04-21", False))


def _early(name, fires, on, says, **rows) -> Given:
    return Given(name, {**SOLD, **rows},
                 dict(rule_id="DM-SURPLUS-CREDITED-EARLY", fires=fires, kind="expected_credit", subject="C1:surplus",
                      on=on, says=says),
                 as_of=LATER)


DM_SURPLUS_CREDITED_EARLY = [
    *(_early(f"by-the-dm-{name}", fires, credit_on,
             ("unclaimed surplus of case C1", f"the DM's credit DM2 of Rs 800.00 on {page_day(credit_on)}",
              "drawing on his receipt DM1, whose six months end on 20-04-2027", "s.18(5)"),
             dm_deposit=[dm("800"), dm("800", entry_on=credit_on, entry_id="DM2", kind="credit_to_local_fund")])
      for name, credit_on, fires in AROUND_THE_LAST_DAY),
    *(_early(f"in-the-local-fund-{name}", fires, entry_on,
             (f"the local fund's entry E2 of Rs 800.00 on {page_day(entry_on)}", "whose six months end on 20-04-2027"),
             dm_deposit=[dm("800")],
             local_fund=[lf("600", entry_on="2026-10-20"), lf("800", head="surplus", entry_on=entry_on, entry_id="E2")])
      for name, entry_on, fires in AROUND_THE_LAST_DAY),
    *(_early(f"before-any-receipt-{name}", True, "2026-11-01", (says,),
             dm_deposit=[dm(a, entry_on=on, entry_id=f"DM{i}") for i, (a, on) in enumerate(dm_entries, 1)],
             local_fund=[lf("800", head="surplus", entry_on="2026-11-01", entry_id="E2")])
      for name, dm_entries, says in (
          ("no-receipt-at-all", [], "with no receipt by the DM recorded"),
          ("before-the-receipt", [("800", "2026-11-02")], "before his first receipt of 02-11-2026"))),
    *(_early(f"from-each-receipt-{name}", fires, on, (says,),
             dm_deposit=[dm("400", entry_on="2026-10-20", entry_id="DM1"),
                         dm("400", entry_on="2026-11-20", entry_id="DM2")]
             + [dm(a, entry_on=d, entry_id=f"DM{i}", kind="credit_to_local_fund") for i, (a, d) in enumerate(credits, 3)])
      for name, credits, fires, on, says in (
          # received Rs 400 on 20-10-2026 and Rs 400 on 20-11-2026 (six months to 20-04 and 20-05-2027): a credit
          # of the whole Rs 800 on 25-04-2027 draws on both, and the second's six months have not run out
          ("the-whole-before-the-second-receipts-six-months", [("800", "2027-04-25")], True, "2027-04-25",
           "drawing on his receipts DM1 DM2, whose six months end on 20-05-2027"),
          # the first Rs 400 then, and the second after its own six months: neither is early
          ("each-part-after-its-own", [("400", "2027-04-25"), ("400", "2027-05-21")], False, None, ""),
          # the second part on the last day of its six months is
          ("second-part-on-its-last-day", [("400", "2027-04-25"), ("400", "2027-05-20")], True, "2027-05-20",
           "the DM's credit DM4 of Rs 400.00 on 20-05-2027, drawing on his receipt DM2,"))),
]

# R19: C1 sold under s.17 on 05-10-2026 for Rs 5,000 (feeding 5 x 200, fine 600): a balance of Rs 3,400 the
# owner never takes. It is due to the DM on 05-10 + 7 = 12-10-2026, so overdue on 12-10 + 30 = 11-11-2026,
# a finding from the next day. (The register records nothing paid: S17-BALANCE-MISMATCH says so too.)
# Taken on its last day the balance is the owner's; taken a day later it was due to the DM.
S17_BALANCE_TO_THE_DM = [
    *(Given(f"a-balance-the-owner-never-took-{as_of}",
            dict(impoundments=[case()], sales=[sale(path="s17_refusal", sale_on="2026-10-05")],
                 local_fund=[lf("600", entry_on="2026-10-20")]),
            dict(rule_id="DM-RECEIPT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:surplus",
                 on="2026-11-11", severity="medium", also=["S17-BALANCE-MISMATCH"],
                 says=("unclaimed surplus of Rs 3,400.00 from the sale in case C1 on 05-10-2026, due to the District "
                       "Magistrate on 12-10-2026",
                       "is not received by the District Magistrate within the 30 days allowed")),
            as_of=as_of, params=GRACE)
      for as_of, fires in (("2026-11-10", False), ("2026-11-11", False), ("2026-11-12", True))),
    *(Given(f"a-balance-taken-{name}",
            dict(impoundments=[case()],
                 sales=[sale(path="s17_refusal", sale_on="2026-10-05", balance_paid="3400", balance_paid_on=paid_on,
                             balance_receipt_signed="yes")],
                 local_fund=[lf("600", entry_on="2026-10-20")]),
            dict(rule_id="DM-RECEIPT-OVERDUE", fires=fires, kind="expected_credit", subject="C1:surplus",
                 on="2026-11-11", says=("Rs 3,400.00",)),
            as_of="2026-11-30", params=GRACE)
      for name, paid_on, fires in (("on-its-last-day", "2026-10-12", False), ("a-day-after", "2026-10-13", True))),
]


# ==============================================================================================
# DM-CLAIM-OUT-OF-TIME (R23): C1 sold unclaimed on 18-10-2026, surplus Rs 800.00, received by the DM on
# 20-10-2026 (DM1); his six months end on 20-04-2027. He refunds Rs 800.00 to a claimant on 10-05-2027 (DM2):
# only a claim preferred by 20-04-2027 and established by 10-05-2027 lets him. As of 30-06-2027.

def claim(preferred_on, established_on="2027-05-01", claim_id="K1", amount="800") -> dict:
    return {"claim_id": claim_id, "case_id": "C1", "claimant": "Mahadevappa", "preferred_on": preferred_on,
            "established_on": established_on, "amount": amount}


REFUND = [dm("800"), dm("800", entry_on="2027-05-10", entry_id="DM2", kind="refund_to_claimant")]


def _claims(claims) -> dict:
    rows = {"surplus_claims": claims} if claims is not None else {}
    if claims and claims[0]["case_id"] == "C2":
        rows["impoundments"] = [case(), case("C2", owner_id="O2")]
        rows["releases"] = [rel(release_id="R2", case_id="C2")]
    return {**SOLD, "dm_deposit": REFUND, **rows}


DM_CLAIM_OUT_OF_TIME = [
    *(Given(f"on-the-six-months-{name}", {**SOLD, "dm_deposit": REFUND, "surplus_claims": [claim(preferred_on)]},
            dict(rule_id="DM-CLAIM-OUT-OF-TIME", fires=fires, kind="expected_credit", subject="C1:surplus",
                 on="2027-05-10",
                 says=("refunded the unclaimed surplus of case C1", "refund DM2 of Rs 800.00 on 10-05-2027",
                       "every claim preferred after the six months of his receipt DM1 ended on 20-04-2027",
                       f"K1 of Mahadevappa, preferred on {page_day(preferred_on)}", "credit stays due", "s.18(5)")),
            as_of=LATER)
      for name, preferred_on, fires in (("a-day-before-the-last-day", "2027-04-19", False),
                                        ("on-the-last-day-of-the-six-months", "2027-04-20", False),
                                        ("the-day-after-the-six-months", "2027-04-21", True))),
    *(Given(f"without-a-claim-established-{name}", _claims(claims),
            dict(rule_id="DM-CLAIM-OUT-OF-TIME", fires=fires, kind="expected_credit", subject="C1:surplus",
                 on="2027-05-10", says=(says,) if fires else ()),
            as_of=LATER)
      for name, claims, fires, says in (
          # no surplus_claims at all: no claim recorded, so the refund is out of time
          ("no-claims-file", None, True, "with no claim recorded for the case"),
          # a claim of another case is not this case's
          ("a-claim-of-another-case", [{**claim("2027-01-10"), "case_id": "C2"}], True,
           "with no claim recorded for the case"),
          # preferred in time, established the day after the refund: not yet established when he paid
          ("established-after-the-refund", [claim("2027-01-10", established_on="2027-05-11")], True,
           "the claim preferred in time not established by that day"),
          # the twin: established on the refund's day
          ("established-on-the-refund-day", [claim("2027-01-10", established_on="2027-05-10")], False, ""))),
]


@pytest.mark.parametrize("given", DM_SURPLUS_CREDITED_EARLY + S17_BALANCE_TO_THE_DM + DM_CLAIM_OUT_OF_TIME,
                         ids=lambda g: f"{g.expected['rule_id']}-{g.name}")
def test_the_dms_surplus(given, findings):
    expect(findings(given), **given.expected)
