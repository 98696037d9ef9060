"""Planted violations of s.13 (security): forfeiture missed or unlawful, refund early, security unauthorised."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.synth.config import SECURITY
from pipeline.synth.plants.registry import pick, plants, releases_of
from pipeline.synth.state import NONE, add_months


def _deposits(g, mask, k):
    d = g.t["security_deposits"]
    return d, pick(g, d, mask(d), k, key="deposit_id")


@plants("S13-FORFEIT-MISSED", subject="deposit", how="a deposit made forfeitable by a re-impounding, "
        "recorded as neither forfeited nor refunded")
def s13_forfeit_missed(g, k):
    d, x = _deposits(g, lambda d: d._forfeitable.to_numpy(bool), k)
    d.loc[x.index, ["forfeited_on", "forfeited_amount"]] = NONE
    return x.deposit_id


@plants("S13-FORFEIT-UNLAWFUL", subject="deposit", how="a deposit with no re-impounding, recorded as forfeited "
        "five days after it was made")
def s13_forfeit_unlawful(g, k):
    d, x = _deposits(g, lambda d: ~d._forfeitable.to_numpy(bool) & (d.deposited_on + 5 <= g.end).to_numpy(), k)
    d.loc[x.index, "forfeited_on"] = x.deposited_on + 5
    d.loc[x.index, "forfeited_amount"] = x.amount
    d.loc[x.index, ["refund_applied_on", "refunded_on", "refunded_amount"]] = NONE
    return x.deposit_id


@plants("S13-REFUND-EARLY", subject="deposit", how="a deposit refunded twelve days after it was made, "
        "inside its six months")
def s13_refund_early(g, k):
    d, x = _deposits(g, lambda d: ~d._forfeitable.to_numpy(bool) & (d.deposited_on + 12 <= g.end).to_numpy(), k)
    d.loc[x.index, "refund_applied_on"] = x.deposited_on + 10
    d.loc[x.index, "refunded_on"] = x.deposited_on + 12
    d.loc[x.index, "refunded_amount"] = x.amount
    return x.deposit_id


@plants("S13-SECURITY-UNAUTHORISED", subject="deposit", how="security taken at a release on payment in a taluk "
        "where s.13 is not notified (from an owner not impounded again within six months)")
def s13_security_unauthorised(g, k):
    r, m = releases_of(g, "s12_payment", s13=False)
    owners = r.case_id.map(g.case_info.owner).to_numpy(object)
    on = r.released_on.to_numpy(np.int64)
    nxt = g.next_case(owners, on)
    free = (nxt == NONE) | (nxt > add_months(on, 6))          # no re-impounding would make it forfeitable
    x = pick(g, r, m & free, k)
    dep = np.char.add("X", x.release_id.to_numpy().astype(str)).astype(object)
    info = g.case_info.loc[x.case_id]
    taken = info.heads.to_numpy() * SECURITY[info.cls.to_numpy()]         # at the general rate; nothing is due
    extra = pd.DataFrame({"deposit_id": dep, "case_id": x.case_id.to_numpy(),
                          "owner_id": x.case_id.map(g.case_info.owner).to_numpy(), "deposited_on": x.released_on.to_numpy(),
                          "amount": taken, "refund_applied_on": NONE, "refunded_on": NONE,
                          "refunded_amount": NONE, "forfeited_on": NONE, "forfeited_amount": NONE,
                          "_release": x.release_id.to_numpy(), "_forfeitable": False})
    g.t["security_deposits"] = pd.concat([g.t["security_deposits"], extra], ignore_index=True)
    return dep
