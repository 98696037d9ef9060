"""Planted violations of s.16(2) (follow-up after a delivery under protest) and s.17 (sale on refusal)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.synth.plants.registry import pick, plants
from pipeline.synth.state import NONE


@plants("S16-FOLLOW-UP-MISSING", subject="release", how="a delivery under protest in an s.13 taluk whose follow-up "
        "declaration and security are struck out")
def s16_follow_up_missing(g, k):
    d = g.t["security_deposits"]
    trig = d._release.map(g.protest.set_index("release_id").trigger).fillna(NONE).astype(np.int64).to_numpy()
    x = pick(g, d, d.deposit_id.str.startswith("F").to_numpy() & (trig != NONE) & (trig + 14 < g.end), k)
    g.t["security_deposits"] = d.drop(index=x.index)
    return x._release


@plants("S16-RESEIZURE-UNFOUNDED", subject="case", how="the cattle of a delivery under protest seized again "
        "(a new case naming it in reseizure_of) the day after, while the owner could still complain")
def s16_reseizure_unfounded(g, k):
    r = g.t["releases"]
    outcome = r.release_id.map(g.protest.set_index("release_id").outcome).fillna("").to_numpy()
    # a withdrawn complaint sets no trigger day to be early against (s.16(2) names none)
    x = pick(g, r, (r.basis == "s16_protest").to_numpy() & (outcome != "withdrawn")
             & (r.released_on.to_numpy() + 1 <= g.end), k)
    imp = g.t["impoundments"]
    again = imp[imp.case_id.isin(x.case_id)].copy()
    delivered = x.set_index("case_id")
    again["reseizure_of"] = again.case_id
    again["impounded_on"] = again.seized_on = again.case_id.map(delivered.released_on).to_numpy() + 1
    again["head_count"] = again.case_id.map(delivered.head_count).to_numpy()
    again["case_id"] = ("RS-" + again.case_id.astype(str)).astype(object)
    g.t["impoundments"] = pd.concat([imp, again], ignore_index=True)
    return again.case_id


def _s17(g, min_heads: int, unsold_left: bool) -> tuple[pd.DataFrame, np.ndarray]:
    s = g.t["sales"]
    heads = s.case_id.map(g.case_info.heads).to_numpy()
    m = (s.path == "s17_refusal").to_numpy() & (heads >= min_heads)
    if unsold_left:
        m &= s.head_sold.to_numpy() < heads
    return s, m


@plants("S17-OVERSALE", subject="case", how="an s.17 sale of one head more than the dues needed")
def s17_oversale(g, k):
    s, m = _s17(g, 2, unsold_left=True)
    x = pick(g, s, m, k)
    s.loc[x.index, "head_sold"] = x.head_sold + 1
    s.loc[x.index, "bid_amount"] = x.case_id.map(g.case_info.price).to_numpy() * (x.head_sold.to_numpy() + 1)
    return x.case_id


@plants("S17-SHORTFALL-RETURNED", subject="case", how="an s.17 sale of one head for Rs 100 less than the dues, "
        "the other heads delivered back to the owner")
def s17_shortfall_returned(g, k):
    s, m = _s17(g, 2, unsold_left=False)
    x = pick(g, s, m, k)
    due = x.case_id.map(g.sale_dues).to_numpy(np.int64)                  # as the first build found them
    s.loc[x.index, "head_sold"] = 1
    s.loc[x.index, "bid_amount"] = np.maximum(100, (due - 10000) // 100 * 100)     # one head, short of the dues
    return x.case_id


@plants("S17-PATH-UNFOUNDED", subject="sale", how="an s.17 sale of every head of a case that was also reported "
        "to the police as unclaimed, with its notice and proclamation, and no appearance of the owner recorded "
        "after the report")
def s17_path_unfounded(g, k):
    # read as unclaimed (R18), the case must be a clean s.15 case: reported on D + w + 1 with its notice
    # and proclamation that day, the sale no earlier than the day after the owner's w days, no heads
    # returned (a remainder release would rest on an s.17 sale the case no longer has)
    s, m = _s17(g, 1, unsold_left=False)
    heads = s.case_id.map(g.case_info.heads).to_numpy()
    D, w = s.case_id.map(g.case_info.D).to_numpy(), s.case_id.map(g.case_info.w).to_numpy()
    report = D + w + 1
    on = np.maximum(s.sale_on.to_numpy(), report + w + 1)
    x = pick(g, s, m & s.accepted.to_numpy(bool) & (s.head_sold.to_numpy() == heads) & (on <= g.end), k)
    s.loc[x.index, "sale_on"] = on[s.index.get_indexer(x.index)]
    day = report[s.index.get_indexer(x.index)]
    g.t["police_reports"] = pd.concat([g.t["police_reports"], pd.DataFrame({
        "case_id": x.case_id.to_numpy(), "reported_on": day, "reported_to": "Police station", "notice_on": day,
        "proclamation_on": day, "market_proclamation_on": day})], ignore_index=True)
    return x.sale_id


@plants("S17-BALANCE-MISMATCH", subject="sale", how="an s.17 sale whose balance paid to the owner is recorded "
        "Rs 100 more than the waterfall leaves")
def s17_balance_mismatch(g, k):
    s, m = _s17(g, 1, unsold_left=False)
    x = pick(g, s, m, k)
    g.balance_off = np.concatenate([g.balance_off, x.sale_id.to_numpy(object)])
    return x.sale_id


def balance_mismatch_recorded(g) -> None:
    """The second half of S17-BALANCE-MISMATCH, once the accounts have given each s.17 sale its
    balance (accounts.settle): the sales picked above record Rs 100 more paid to the owner."""
    s = g.t["sales"]
    s.loc[s.sale_id.isin(g.balance_off), "balance_paid"] += 10000
