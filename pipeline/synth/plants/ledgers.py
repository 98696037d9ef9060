"""Planted violations of s.18(2) and s.18(5): credits that never reach the local fund, surplus
the District Magistrate never receives, surplus credited before his six months end, and surplus
refunded to a claimant on a claim preferred after them.

What is due to the ledgers is known only once the accounts are built on the planted registers
(accounts.settle), so these planters only say how many to plant; ledgers.py picks the credits when it
writes the two ledgers (overdue_credits) and leaves their entries out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.synth.plants.registry import plants


@plants("LF-CREDIT-OVERDUE", subject="expected_credit", how="the fines of a case due to the local fund more "
        "than ledger_grace days before the last day, never entered in its ledger (written with the ledgers)")
def lf_credit_overdue(g, k):
    g.overdue_quota["LF-CREDIT-OVERDUE"] = k
    return []


@plants("DM-RECEIPT-OVERDUE", subject="expected_credit", how="the surplus of an unclaimed sale held more than "
        "ledger_grace days before the last day, never received by the DM (written with the ledgers)")
def dm_receipt_overdue(g, k):
    g.overdue_quota["DM-RECEIPT-OVERDUE"] = k
    return []


@plants("DM-SURPLUS-CREDITED-EARLY", subject="expected_credit", how="the surplus of an unclaimed sale credited "
        "by the DM, and entered by the local fund, on the last day of his six months (written with the ledgers)")
def dm_surplus_credited_early(g, k):
    g.overdue_quota["DM-SURPLUS-CREDITED-EARLY"] = k
    return []


def early_credits(g, refs: pd.Series, holding_ends: np.ndarray) -> np.ndarray:
    """The second half of the planter above: of the surplus credits (case ids refs, the DM's six months
    ending on holding_ends), up to the quota picked at random among those whose six months end by the last
    day, of cases no other planted violation touched; listed in planted.csv. Returns a mask of them."""
    k = g.overdue_quota.get("DM-SURPLUS-CREDITED-EARLY", 0)
    cand = np.flatnonzero((holding_ends <= g.end) & ~refs.isin(g.touched).to_numpy())
    take = np.sort(g.rng.choice(cand, min(k, len(cand)), replace=False)) if k and len(cand) else np.zeros(0, int)
    mask = np.zeros(len(refs), bool)
    mask[take] = True
    picked = refs.to_numpy(object)[take]
    g.touched = np.concatenate([g.touched, picked])
    g.planted += [("DM-SURPLUS-CREDITED-EARLY", f"{ref}:surplus") for ref in picked]
    return mask


@plants("DM-CLAIM-OUT-OF-TIME", subject="expected_credit", how="part of the surplus of an unclaimed sale refunded "
        "by the DM on a claim preferred the day after his six months ended (written with the ledgers)")
def dm_claim_out_of_time(g, k):
    g.overdue_quota["DM-CLAIM-OUT-OF-TIME"] = k
    return []


def late_claims(g, refs: pd.Series, holding_ends: np.ndarray) -> np.ndarray:
    """The second half of the planter above: of the surplus the DM holds (case ids refs, his six months ending
    on holding_ends), up to the quota picked at random among those whose refund (five days after the six
    months end) falls by the last day, of cases no other planted violation touched; listed in planted.csv.
    Returns a mask of them."""
    k = g.overdue_quota.get("DM-CLAIM-OUT-OF-TIME", 0)
    cand = np.flatnonzero((holding_ends + 5 <= g.end) & ~refs.isin(g.touched).to_numpy())
    take = np.sort(g.rng.choice(cand, min(k, len(cand)), replace=False)) if k and len(cand) else np.zeros(0, int)
    mask = np.zeros(len(refs), bool)
    mask[take] = True
    picked = refs.to_numpy(object)[take]
    g.touched = np.concatenate([g.touched, picked])
    g.planted += [("DM-CLAIM-OUT-OF-TIME", f"{ref}:surplus") for ref in picked]
    return mask


def overdue_credits(g, rule: str, refs: pd.Series, due: np.ndarray) -> np.ndarray:
    """The second half of the two planters above: of the credits (case ids refs, due on days due), up to
    the rule's quota picked at random among those more than ledger_grace days overdue on the last day, of
    cases no other planted violation touched; listed in planted.csv. Returns a mask of the picked ones."""
    k = g.overdue_quota.get(rule, 0)
    ok = (due >= 0) & (due + g.params["ledger_grace"] < g.end) & ~refs.isin(g.touched).to_numpy()
    cand = np.flatnonzero(ok)
    take = np.sort(g.rng.choice(cand, min(k, len(cand)), replace=False)) if k and len(cand) else np.zeros(0, int)
    mask = np.zeros(len(refs), bool)
    mask[take] = True
    picked = refs.to_numpy(object)[take]
    g.touched = np.concatenate([g.touched, picked])
    head = "fines" if rule == "LF-CREDIT-OVERDUE" else "surplus"
    g.planted += [(rule, f"{ref}:{head}") for ref in picked]
    return mask
