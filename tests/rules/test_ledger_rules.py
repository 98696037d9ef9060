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

GRACE = {"ledger_grace": 30}


def lf(amount, reference="C1", head="fines", entry_on="2026-10-05", entry_id="E1", la="LA1") -> dict:
    return {"entry_id": entry_id, "local_authority_id": la, "entry_on": entry_on, "amount": amount,
            "reference": reference, "head": head}


def dm(amount, entry_on="2026-10-20", entry_id="DM1", kind="receipt", reference="C1") -> dict:
    return {"entry_id": entry_id, "entry_on": entry_on, "kind": kind, "amount": amount, "reference": reference,
            "local_authority_id": "LA1"}


@pytest.mark.parametrize("as_of, fires", [("2026-11-01", False), ("2026-11-02", False), ("2026-11-03", True)])
def test_lf_credit_overdue_fires_the_day_after_due_plus_ledger_grace(run, as_of, fires):
    fs = run(impoundments=[case()], releases=[rel()], as_of=as_of, params=GRACE)
    # due 03-10-2026 + 30 days = 02-11-2026: overdue from 03-11-2026; on that day 31 days have passed
    expect(fs, "LF-CREDIT-OVERDUE", fires, kind="expected_credit", subject="C1:fines", on="2026-11-02",
           severity="medium",
           says=("fines of case C1", "Rs 600.00 due to the local fund of Town Council on 03-10-2026",
                 "are not credited within the 30 days allowed", "s.18(2)"))
    if fires:
        assert fs[0]["section"] == "18(2)"


@pytest.mark.parametrize("credited, fires", [("600", False), ("599.99", True), ("600.01", False)])
def test_lf_credit_overdue_a_credit_short_by_a_paisa(run, credited, fires):
    fs = run(impoundments=[case()], releases=[rel()], local_fund=[lf(credited)], params=GRACE)
    # as of 30-11-2026, 58 days after 03-10-2026; an entry over the amount owes nothing
    expect(fs, "LF-CREDIT-OVERDUE", fires, kind="expected_credit", subject="C1:fines", on="2026-11-02",
           severity="medium", says=("are credited only Rs 599.99 (Rs 0.01 short) within the 30 days allowed",))


@pytest.mark.parametrize("credited, severity", [("400", "high"), ("400.01", "medium")])
def test_lf_credit_overdue_is_high_from_rs_5000_not_credited(run, credited, severity):
    # 9 head: fines 9 x 600 = Rs 5,400.00; credited Rs 400.00 leaves Rs 5,000.00 (high), Rs 400.01 leaves
    # Rs 4,999.99 (medium). Charges: 9 x 200 x 3 days = Rs 5,400.
    fs = run(impoundments=[case(head_count=9)], releases=[rel(head_count=9, fines_paid="5400", charges_paid="5400")],
             local_fund=[lf(credited)], params=GRACE)
    short = "Rs 5,000.00" if severity == "high" else "Rs 4,999.99"
    expect(fs, "LF-CREDIT-OVERDUE", True, kind="expected_credit", subject="C1:fines", on="2026-11-02",
           severity=severity, says=(f"({short} short)", "Rs 5,400.00 due"))


def test_lf_credit_overdue_names_the_local_authority_of_the_ledger_the_fund_is_kept_in(run):
    # an entry in another local authority's fund is not a credit to LA1's
    fs = run(impoundments=[case()], releases=[rel()], local_fund=[lf("600", la="LA2")], params=GRACE)
    expect(fs, "LF-CREDIT-OVERDUE", True, kind="expected_credit", subject="C1:fines", on="2026-11-02",
           says=("are not credited",))


@pytest.mark.parametrize("as_of, fires", [("2026-11-16", False), ("2026-11-17", False), ("2026-11-18", True)])
def test_dm_receipt_overdue_fires_the_day_after_the_sale_plus_ledger_grace(run, as_of, fires):
    # the sale's fines are credited: only the DM's receipt is in question
    fs = run(impoundments=[case()], sales=[sale()], local_fund=[lf("600", entry_on="2026-10-20")], as_of=as_of,
             params=GRACE, **S15)
    expect(fs, "DM-RECEIPT-OVERDUE", fires, kind="expected_credit", subject="C1:surplus", on="2026-11-17",
           severity="medium",
           says=("unclaimed surplus of Rs 800.00 from the sale in case C1 on 18-10-2026", "Town Council",
                 "is not received by the District Magistrate within the 30 days allowed", "s.18(5)"))


@pytest.mark.parametrize("received, fires", [("800", False), ("799.99", True)])
def test_dm_receipt_overdue_a_receipt_short_by_a_paisa(run, received, fires):
    fs = run(impoundments=[case()], sales=[sale()], local_fund=[lf("600", entry_on="2026-10-20")],
             dm_deposit=[dm(received)], params=GRACE, **S15)
    expect(fs, "DM-RECEIPT-OVERDUE", fires, kind="expected_credit", subject="C1:surplus", on="2026-11-17",
           says=("received by the District Magistrate only Rs 799.99 (Rs 0.01 short)",))


@pytest.mark.parametrize("bid, severity", [("9200", "high"), ("9199.99", "medium")])
def test_dm_receipt_overdue_is_high_from_rs_5000(run, bid, severity):
    # surplus = bid - 3,600 - 600: Rs 5,000.00 from Rs 9,200 (high), Rs 4,999.99 from Rs 9,199.99 (medium)
    fs = run(impoundments=[case()], sales=[sale(bid_amount=bid)], local_fund=[lf("600", entry_on="2026-10-20")],
             params=GRACE, **S15)
    expect(fs, "DM-RECEIPT-OVERDUE", True, kind="expected_credit", subject="C1:surplus", on="2026-11-17",
           severity=severity)


@pytest.mark.parametrize("as_of, fires", [("2027-05-20", False), ("2027-05-21", False), ("2027-05-22", True)])
def test_lf_credit_overdue_of_a_surplus_after_the_dms_six_months(run, as_of, fires):
    # The DM received the Rs 800.00 on 20-10-2026 and credited nothing: his six months end on 20-04-2027,
    # the credit is due on 21-04-2027 (s.18(5), R2), and overdue on 21-04-2027 + 30 = 21-05-2027.
    fs = run(impoundments=[case()], sales=[sale()], local_fund=[lf("600", entry_on="2026-10-20")],
             dm_deposit=[dm("800")], as_of=as_of, params=GRACE, **S15)
    expect(fs, "LF-CREDIT-OVERDUE", fires, kind="expected_credit", subject="C1:surplus", on="2027-05-21",
           says=("The unclaimed surplus of case C1, Rs 800.00 due to the local fund of Town Council on 21-04-2027",
                 "s.18(5)"))
    if fires:
        assert [f["section"] for f in fs] == ["18(5)"]


def test_a_surplus_the_dm_has_not_received_is_never_overdue_at_the_local_fund(run):
    # no receipt: the six months have not begun and the local fund's credit has no due day (R2); only the
    # DM's receipt is overdue
    fs = run(impoundments=[case()], sales=[sale()], local_fund=[lf("600", entry_on="2026-10-20")],
             as_of="2027-12-31", params=GRACE, **S15)
    expect(fs, "DM-RECEIPT-OVERDUE", True, kind="expected_credit", subject="C1:surplus", on="2026-11-17")


# ==============================================================================================
# DM-SURPLUS-CREDITED-EARLY (R21): C1 sold unclaimed on 18-10-2026, surplus Rs 800.00; the DM receives it on
# 20-10-2026 and holds it six months, to 20-04-2027 (the last day, R12): a credit to the local fund on or
# before that day is early, one on 21-04-2027 (its due day) is not. As of 30-06-2027, no ledger grace.

LATER = "2027-06-30"
SOLD = {"impoundments": [case()], "sales": [sale()], **S15}


@pytest.mark.parametrize("credit_on, fires", [
    pytest.param("2027-04-19", True, id="a-day-before-the-last-day"),
    pytest.param("2027-04-20", True, id="on-the-last-day-of-the-six-months"),
    pytest.param("2027-04-21", False, id="the-day-after-the-six-months"),
])
def test_dm_surplus_credited_early_by_the_dm(run, credit_on, fires):
    fs = run(dm_deposit=[dm("800"), dm("800", entry_on=credit_on, entry_id="DM2", kind="credit_to_local_fund")],
             as_of=LATER, **SOLD)
    expect(fs, "DM-SURPLUS-CREDITED-EARLY", fires, kind="expected_credit", subject="C1:surplus", on=credit_on,
           says=("unclaimed surplus of case C1", f"the DM's credit DM2 of Rs 800.00 on {page_day(credit_on)}",
                 "drawing on his receipt DM1, whose six months end on 20-04-2027", "s.18(5)"))


@pytest.mark.parametrize("entry_on, fires", [
    pytest.param("2027-04-19", True, id="a-day-before-the-last-day"),
    pytest.param("2027-04-20", True, id="on-the-last-day-of-the-six-months"),
    pytest.param("2027-04-21", False, id="the-day-after-the-six-months"),
])
def test_dm_surplus_credited_early_in_the_local_fund(run, entry_on, fires):
    fs = run(dm_deposit=[dm("800")], local_fund=[lf("600", entry_on="2026-10-20"),
                                                  lf("800", head="surplus", entry_on=entry_on, entry_id="E2")],
             as_of=LATER, **SOLD)
    expect(fs, "DM-SURPLUS-CREDITED-EARLY", fires, kind="expected_credit", subject="C1:surplus", on=entry_on,
           says=(f"the local fund's entry E2 of Rs 800.00 on {page_day(entry_on)}", "whose six months end on 20-04-2027"))


@pytest.mark.parametrize("dm_entries, fires, says", [
    pytest.param([], True, "with no receipt by the DM recorded", id="no-receipt-at-all"),
    pytest.param([("800", "2026-11-02")], True, "before his first receipt of 02-11-2026", id="before-the-receipt"),
])
def test_dm_surplus_credited_before_any_receipt(run, dm_entries, fires, says):
    fs = run(dm_deposit=[dm(a, entry_on=on, entry_id=f"DM{i}") for i, (a, on) in enumerate(dm_entries, 1)],
             local_fund=[lf("800", head="surplus", entry_on="2026-11-01", entry_id="E2")], as_of=LATER, **SOLD)
    expect(fs, "DM-SURPLUS-CREDITED-EARLY", fires, kind="expected_credit", subject="C1:surplus", on="2026-11-01",
           says=(says,))


@pytest.mark.parametrize("credits, fires, on, says", [
    # received Rs 400 on 20-10-2026 and Rs 400 on 20-11-2026 (six months to 20-04 and 20-05-2027): a credit
    # of the whole Rs 800 on 25-04-2027 draws on both, and the second's six months have not run out
    pytest.param([("800", "2027-04-25")], True, "2027-04-25", "drawing on his receipts DM1 DM2, whose six months "
                 "end on 20-05-2027", id="the-whole-before-the-second-receipts-six-months"),
    # the first Rs 400 then, and the second after its own six months: neither is early
    pytest.param([("400", "2027-04-25"), ("400", "2027-05-21")], False, None, "", id="each-part-after-its-own"),
    # the second part on the last day of its six months is
    pytest.param([("400", "2027-04-25"), ("400", "2027-05-20")], True, "2027-05-20",
                 "the DM's credit DM4 of Rs 400.00 on 20-05-2027, drawing on his receipt DM2,", id="second-part-on-its-last-day"),
])
def test_dm_surplus_credited_early_from_each_receipt(run, credits, fires, on, says):
    entries = [dm("400", entry_on="2026-10-20", entry_id="DM1"), dm("400", entry_on="2026-11-20", entry_id="DM2")]
    entries += [dm(a, entry_on=d, entry_id=f"DM{i}", kind="credit_to_local_fund") for i, (a, d) in enumerate(credits, 3)]
    fs = run(dm_deposit=entries, as_of=LATER, **SOLD)
    expect(fs, "DM-SURPLUS-CREDITED-EARLY", fires, kind="expected_credit", subject="C1:surplus", on=on, says=(says,))


# R19: C1 sold under s.17 on 05-10-2026 for Rs 5,000 (feeding 5 x 200, fine 600): a balance of Rs 3,400 the
# owner never takes. It is due to the DM on 05-10 + 7 = 12-10-2026, so overdue on 12-10 + 30 = 11-11-2026,
# a finding from the next day. (The register records nothing paid: S17-BALANCE-MISMATCH says so too.)
@pytest.mark.parametrize("as_of, fires", [("2026-11-10", False), ("2026-11-11", False), ("2026-11-12", True)])
def test_dm_receipt_overdue_of_a_balance_the_owner_never_took(run, as_of, fires):
    fs = run(impoundments=[case()], sales=[sale(path="s17_refusal", sale_on="2026-10-05")],
             local_fund=[lf("600", entry_on="2026-10-20")], as_of=as_of, params=GRACE)
    expect(fs, "DM-RECEIPT-OVERDUE", fires, kind="expected_credit", subject="C1:surplus", on="2026-11-11",
           severity="medium", also=["S17-BALANCE-MISMATCH"],
           says=("unclaimed surplus of Rs 3,400.00 from the sale in case C1 on 05-10-2026, due to the District "
                 "Magistrate on 12-10-2026", "is not received by the District Magistrate within the 30 days allowed"))


@pytest.mark.parametrize("paid_on, fires", [("2026-10-12", False), ("2026-10-13", True)])
def test_dm_receipt_overdue_of_a_balance_taken_after_its_day(run, paid_on, fires):
    # taken on its last day the balance is the owner's; taken a day later it was due to the DM
    fs = run(impoundments=[case()],
             sales=[sale(path="s17_refusal", sale_on="2026-10-05", balance_paid="3400", balance_paid_on=paid_on,
                         balance_receipt_signed="yes")],
             local_fund=[lf("600", entry_on="2026-10-20")], as_of="2026-11-30", params=GRACE)
    expect(fs, "DM-RECEIPT-OVERDUE", fires, kind="expected_credit", subject="C1:surplus", on="2026-11-11",
           says=("Rs 3,400.00",))


# ==============================================================================================
# DM-CLAIM-OUT-OF-TIME (R23): C1 sold unclaimed on 18-10-2026, surplus Rs 800.00, received by the DM on
# 20-10-2026 (DM1); his six months end on 20-04-2027. He refunds Rs 800.00 to a claimant on 10-05-2027 (DM2):
# only a claim preferred by 20-04-2027 and established by 10-05-2027 lets him. As of 30-06-2027.

def claim(preferred_on, established_on="2027-05-01", claim_id="K1", amount="800") -> dict:
    return {"claim_id": claim_id, "case_id": "C1", "claimant": "Mahadevappa", "preferred_on": preferred_on,
            "established_on": established_on, "amount": amount}


REFUND = [dm("800"), dm("800", entry_on="2027-05-10", entry_id="DM2", kind="refund_to_claimant")]


@pytest.mark.parametrize("preferred_on, fires", [
    pytest.param("2027-04-19", False, id="a-day-before-the-last-day"),
    pytest.param("2027-04-20", False, id="on-the-last-day-of-the-six-months"),
    pytest.param("2027-04-21", True, id="the-day-after-the-six-months"),
])
def test_dm_claim_out_of_time_on_the_six_months(run, preferred_on, fires):
    fs = run(dm_deposit=REFUND, surplus_claims=[claim(preferred_on)], as_of=LATER, **SOLD)
    expect(fs, "DM-CLAIM-OUT-OF-TIME", fires, kind="expected_credit", subject="C1:surplus", on="2027-05-10",
           says=("refunded the unclaimed surplus of case C1", "refund DM2 of Rs 800.00 on 10-05-2027",
                 "every claim preferred after the six months of his receipt DM1 ended on 20-04-2027",
                 f"K1 of Mahadevappa, preferred on {page_day(preferred_on)}", "credit stays due", "s.18(5)"))


@pytest.mark.parametrize("claims, fires, says", [
    # no surplus_claims at all: no claim recorded, so the refund is out of time
    pytest.param(None, True, "with no claim recorded for the case", id="no-claims-file"),
    # a claim of another case is not this case's
    pytest.param([{**claim("2027-01-10"), "case_id": "C2"}], True, "with no claim recorded for the case",
                 id="a-claim-of-another-case"),
    # preferred in time, established the day after the refund: not yet established when he paid
    pytest.param([claim("2027-01-10", established_on="2027-05-11")], True,
                 "the claim preferred in time not established by that day", id="established-after-the-refund"),
    # the twin: established on the refund's day
    pytest.param([claim("2027-01-10", established_on="2027-05-10")], False, "", id="established-on-the-refund-day"),
])
def test_dm_claim_out_of_time_without_a_claim_established(run, claims, fires, says):
    tables = {"surplus_claims": claims} if claims is not None else {}
    if claims and claims[0]["case_id"] == "C2":
        tables["impoundments"] = [case(), case("C2", owner_id="O2")]
        tables["releases"] = [rel(release_id="R2", case_id="C2")]
    fs = run(dm_deposit=REFUND, as_of=LATER, **{**SOLD, **tables})
    expect(fs, "DM-CLAIM-OUT-OF-TIME", fires, kind="expected_credit", subject="C1:surplus", on="2027-05-10",
           says=(says,) if fires else ())
