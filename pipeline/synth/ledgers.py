"""What the local funds and the District Magistrate recorded: mostly right, with realistic lags.

What should have been credited, how much and from when, is what the accounts say
(expected_credits, read by accounts.credits): fines paid at release or taken from a
protest deposit or a sale (s.18(2)), and the surplus of unclaimed sales, received by the
DM and credited to the local fund after his six months (s.18(5)). Here the clerks record
it: most entries a few days late, some a month or two (but by the last day, once more than
ledger_grace days are past), a few Rs 100 over; with a few unrelated entries (lease rent) besides. A
credit not made in full in time is a finding (LF-CREDIT-OVERDUE, DM-RECEIPT-OVERDUE): only the planted
ones are left out, the planted early ones dated on the last day of the DM's six months, and the
planted refunds paid on a claim preferred the day after them (surplus_claims; plants/ledgers.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.synth.plants import data_quality
from pipeline.synth.plants.ledgers import early_credits, late_claims, overdue_credits
from pipeline.synth.state import Generator, ids


def ledgers(g: Generator, local: pd.DataFrame, surplus: pd.DataFrame) -> None:
    """local: (ref, head, local_authority_id, amount, due) per expected credit of a local fund;
    surplus: (case_id, local_authority_id, amount, received_due, credit_due) per unclaimed surplus."""
    rng, end = g.rng, g.end
    # the DM receives each surplus a few days after the sale; his six months run from that day
    # (s.18(5)), so the surplus is due to the local fund on his receipt + surplus_hold_months + 1 day
    rec_on = surplus.received_due.to_numpy() + rng.integers(1, 11, len(surplus))
    # DM-RECEIPT-OVERDUE: surplus the DM never receives (and so never holds nor credits)
    never = overdue_credits(g, "DM-RECEIPT-OVERDUE", surplus.case_id, surplus.received_due.to_numpy())
    rec_on = np.where(never, g.end + 1, rec_on)
    credit_due = _months_after(rec_on, g.params["surplus_hold_months"]) + 1
    surplus = surplus.assign(credit_due=np.where(rec_on <= end, credit_due, -1))
    is_surplus = (local["head"] == "surplus").to_numpy()
    local = local.assign(due=np.where(is_surplus, local.ref.map(dict(zip(surplus.case_id, surplus.credit_due,
                                                                             strict=True))).fillna(-1),
                                      local.due.fillna(-1)).astype("int64"))
    local = local[local.due >= 0]
    surplus = surplus[surplus.credit_due >= 0]
    rec_on = rec_on[rec_on <= end]
    # DM-SURPLUS-CREDITED-EARLY: the DM credits the surplus, and the local fund enters it, on the last day
    # of his six months (the day before it falls due), not after them
    early = early_credits(g, surplus.case_id, surplus.credit_due.to_numpy() - 1)
    early_on = dict(zip(surplus.case_id[early], surplus.credit_due.to_numpy()[early] - 1, strict=True))
    # LF-CREDIT-OVERDUE: fines the local fund never enters
    never = overdue_credits(g, "LF-CREDIT-OVERDUE", local.ref,
                            np.where((local["head"] == "fines").to_numpy(), local.due.to_numpy(), -1))
    k = len(local)
    roll = rng.random(k)
    lag = np.where(roll < 0.05, rng.integers(35, 75, k), rng.integers(1, 26, k))
    amount = np.where((roll > 0.97) & (local.amount > 20000), local.amount + 10000, local.amount)
    on = local.due.to_numpy() + lag
    planted_early = (local["head"] == "surplus").to_numpy() & local.ref.isin(list(early_on)).to_numpy()
    on = np.where(planted_early, local.ref.map(early_on).fillna(-1).to_numpy(np.int64), on)
    # a late entry still comes by the last day once the credit is more than ledger_grace days past due
    on = np.where((on > end) & (local.due.to_numpy() + g.params["ledger_grace"] < end), end, on)
    keep = (on <= end) & ~never
    lf = pd.DataFrame({"local_authority_id": local.local_authority_id.to_numpy()[keep], "entry_on": on[keep],
                       "amount": amount[keep], "reference": local.ref.to_numpy()[keep],
                       "head": local["head"].to_numpy()[keep]})
    n_other = max(1, g.cfg.pounds // 3)
    other = pd.DataFrame({"local_authority_id": g.la_ids[rng.integers(0, len(g.la_ids), n_other)],
                          "entry_on": rng.integers(g.start, end + 1, n_other), "amount": rng.integers(5, 50, n_other) * 10000,
                          "reference": "Pound land lease rent", "head": "other"})
    future = data_quality.future_entries(g, end)         # DQ-FUTURE-DATE
    lf = pd.concat([lf, other], ignore_index=True).sort_values(["entry_on", "local_authority_id"], kind="stable")
    lf.insert(0, "entry_id", ids("LF", len(lf)))
    if len(future):
        lf = pd.concat([lf, future], ignore_index=True)
    g.t["local_fund"] = lf
    # the DM's deposit account: receipts of surplus (s.18(5)) and its credits to the local fund after six months
    k = len(surplus)
    credit_on = surplus.credit_due.to_numpy() + rng.integers(0, 10, k)
    credit_on = np.where(early, surplus.credit_due.to_numpy() - 1, credit_on)
    common = {"amount": surplus.amount.to_numpy(), "reference": surplus.case_id.to_numpy(),
              "local_authority_id": surplus.local_authority_id.to_numpy()}
    # DM-CLAIM-OUT-OF-TIME: a claim preferred the day after his six months end, established two days later,
    # and half the surplus refunded on it three days after that: the local fund's credit stays due
    holding_ends = surplus.credit_due.to_numpy() - 1
    late = late_claims(g, surplus.case_id, holding_ends)
    claims = pd.DataFrame({"claim_id": ids("CL", int(late.sum())) if late.any() else np.zeros(0, object), "case_id": surplus.case_id.to_numpy()[late],
                           "claimant": ("Claimant of " + surplus.case_id[late].astype(str)).to_numpy(),
                           "preferred_on": holding_ends[late] + 1, "established_on": holding_ends[late] + 3,
                           "amount": surplus.amount.to_numpy()[late] // 2})
    refunds = pd.DataFrame({"entry_on": holding_ends[late] + 5, "kind": "refund_to_claimant",
                            "amount": surplus.amount.to_numpy()[late] // 2, "reference": surplus.case_id.to_numpy()[late],
                            "local_authority_id": surplus.local_authority_id.to_numpy()[late]})
    dm = pd.concat([
        pd.DataFrame({"entry_on": rec_on, "kind": "receipt", **common})[rec_on <= end],
        pd.DataFrame({"entry_on": credit_on, "kind": "credit_to_local_fund", **common})[credit_on <= end],
        refunds[refunds.amount > 0],
    ], ignore_index=True).sort_values("entry_on", kind="stable")
    dm.insert(0, "entry_id", ids("DM", len(dm)))
    g.t["dm_deposit"] = dm
    g.t["surplus_claims"] = claims


def _months_after(days: np.ndarray, months: int) -> np.ndarray:
    """Day numbers `months` calendar months after `days`, clamped to the month's end (as the
    models' add_months: 31 Aug + 6 months = 28 Feb)."""
    on = pd.to_datetime(pd.Series(days, dtype="int64"), unit="D") + pd.DateOffset(months=months)
    return ((on - pd.Timestamp("1970-01-01")).dt.days).to_numpy(dtype="int64")
