"""What the local funds and the District Magistrate recorded: mostly right, with realistic lags."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.synth.cases import waterfall
from pipeline.synth.state import Generator, add_months, ids


def ledgers(g: Generator) -> None:
    rng, end = g.rng, g.end
    la = g.la_ids[g.c.set_index("case_id").pound]
    la = pd.Series(la, index=g.c.case_id)
    rel = g.t["releases"]
    parts = []
    m = (rel.fines_paid > 0).to_numpy()
    parts.append(pd.DataFrame({"ref": rel.case_id[m], "head": "fines", "amount": rel.fines_paid[m],
                               "due": rel.released_on[m]}))
    pr = rel[rel.basis == "s16_protest"].merge(g.protest, on="release_id")
    lawful = (pr.outcome == "lawful").to_numpy()
    silent = (pr.outcome == "").to_numpy() & (pr.released_on + 28 < end).to_numpy()
    due = np.where(lawful, pr.trigger, pr.released_on + 29)
    ok = lawful | silent
    parts.append(pd.DataFrame({"ref": pr.case_id[ok], "head": "fines",
                               "amount": np.minimum(pr.protest_deposit, pr._fine_r)[ok], "due": due[ok]}))
    wf = waterfall(g)
    f = wf.fines_take > 0
    parts.append(pd.DataFrame({"ref": wf.case_id[f], "head": "fines", "amount": wf.fines_take[f], "due": wf.S[f]}))
    sur = wf[wf.surplus > 0]
    credit_due = add_months(sur.S.to_numpy(), 6) + 1
    parts.append(pd.DataFrame({"ref": sur.case_id, "head": "surplus", "amount": sur.surplus, "due": credit_due}))
    x = pd.concat(parts, ignore_index=True)
    x = x.groupby(["ref", "head"], as_index=False).agg(amount=("amount", "sum"), due=("due", "max"))
    k = len(x)
    roll = rng.random(k)
    lag = np.where(roll < 0.05, rng.integers(35, 75, k), rng.integers(1, 26, k))
    amount = np.where((roll > 0.97) & (x.amount > 20000), x.amount - 10000, x.amount)
    on = x.due.to_numpy() + lag
    keep = (on <= end) & (roll < 0.99)
    lf = pd.DataFrame({"local_authority_id": x.ref.map(la).to_numpy()[keep], "entry_on": on[keep],
                       "amount": amount[keep], "reference": x.ref.to_numpy()[keep], "head": x["head"].to_numpy()[keep]})
    n_other = max(1, g.cfg.pounds // 3)
    other = pd.DataFrame({"local_authority_id": g.la_ids[rng.integers(0, len(g.la_ids), n_other)],
                          "entry_on": rng.integers(g.start, end + 1, n_other), "amount": rng.integers(5, 50, n_other) * 10000,
                          "reference": "Pound land lease rent", "head": "other"})
    future = pd.DataFrame({"local_authority_id": g.la_ids[0], "entry_on": end + 3, "amount": 10000,
                           "reference": "Advance booking", "head": "other"}, index=range(g.future))
    lf = pd.concat([lf, other], ignore_index=True).sort_values(["entry_on", "local_authority_id"], kind="stable")
    lf.insert(0, "entry_id", ids("LF", len(lf)))
    if len(future):
        future.insert(0, "entry_id", [f"LFX{i + 1:05d}" for i in range(len(future))])
        lf = pd.concat([lf, future], ignore_index=True)
    g.t["local_fund"] = lf
    # the DM's deposit account: receipts of surplus (s.18(5)) and credits to the local fund after six months
    k = len(sur)
    rec_on = sur.S.to_numpy() + rng.integers(1, 11, k)
    credit_on = credit_due + rng.integers(0, 10, k)
    dm = pd.concat([
        pd.DataFrame({"entry_on": rec_on, "kind": "receipt", "amount": sur.surplus.to_numpy(), "reference": sur.case_id.to_numpy(),
                      "local_authority_id": sur.case_id.map(la).to_numpy()})[rec_on <= end],
        pd.DataFrame({"entry_on": credit_on, "kind": "credit_to_local_fund", "amount": sur.surplus.to_numpy(),
                      "reference": sur.case_id.to_numpy(), "local_authority_id": sur.case_id.map(la).to_numpy()})[credit_on <= end],
    ], ignore_index=True).sort_values("entry_on", kind="stable")
    dm.insert(0, "entry_id", ids("DM", len(dm)))
    g.t["dm_deposit"] = dm
