"""Planted violations of s.15 (unclaimed cattle: report, notice, auction) and of s.19(1) at those auctions."""

from __future__ import annotations

import numpy as np

from pipeline.synth.plants.registry import drop_sales, pick, plants
from pipeline.synth.state import NONE


@plants("SALE-OFFICIAL-BUYER", subject="sale", how="an unclaimed sale whose buyer is the pound-keeper, "
        "his name written in capitals")
def sale_official_buyer(g, k):
    s = g.t["sales"]
    x = pick(g, s, ((s.path == "s15_unclaimed") & s.accepted).to_numpy(), k)
    pound = x.case_id.map(g.case_info.pound).to_numpy(np.int64)
    # the pound-keeper's own name, in other case and spacing: still an official (s.19(1))
    s.loc[x.index, "buyer_name"] = np.char.upper(g.keeper_name[pound].astype(str)).astype(object)
    return x.sale_id


@plants("S15-REPORT-MISSING", subject="case", how="an unclaimed case whose police report is struck out, "
        "with its auctions")
def s15_report_missing(g, k):
    p = g.t["police_reports"]
    x = pick(g, p, (p.reported_on < g.end).to_numpy(), k)
    g.t["police_reports"] = p.drop(index=x.index)
    drop_sales(g, x.case_id)
    return x.case_id


@plants("S15-REPORT-LATE", subject="case", how="an unclaimed case whose report, notice, proclamation and "
        "auctions all come two days later")
def s15_report_late(g, k):
    p, s = g.t["police_reports"], g.t["sales"]
    last = p.case_id.map(s.groupby("case_id").sale_on.max()).fillna(NONE).astype(np.int64).to_numpy()
    latest = np.maximum(np.maximum(p.notice_on.to_numpy(), p.proclamation_on.to_numpy()), last)
    ok = (latest + 2 <= g.end) & (p.notice_on != NONE).to_numpy() & (p.proclamation_on != NONE).to_numpy()
    x = pick(g, p, ok, k)
    p.loc[x.index, ["reported_on", "notice_on", "proclamation_on", "market_proclamation_on"]] += 2
    s.loc[s.case_id.isin(x.case_id), "sale_on"] += 2
    return x.case_id


@plants("S15-REPORT-EARLY", subject="case", how="an unclaimed case reported to the police a day before the "
        "claim window closed")
def s15_report_early(g, k):
    p = g.t["police_reports"]
    x = pick(g, p, np.ones(len(p), bool), k)
    p.loc[x.index, "reported_on"] -= 1
    return x.case_id


@plants("S15-NOTICE-MISSING", subject="case", how="an unclaimed case whose proclamation is blank")
def s15_notice_missing(g, k):
    p = g.t["police_reports"]
    x = pick(g, p, ((p.reported_on + 3 < g.end) & (p.proclamation_on != NONE)).to_numpy(), k)
    p.loc[x.index, ["proclamation_on", "market_proclamation_on"]] = NONE
    # an auction of such a case sold cattle never proclaimed: that sale is a finding of its own (R7)
    _unproclaimed_sales(g, x.case_id)
    return x.case_id


@plants("S15-NOTICE-BEFORE-REPORT", subject="case", how="an unclaimed case whose notice is dated the day before "
        "its report to the police")
def s15_notice_before_report(g, k):
    p = g.t["police_reports"]
    x = pick(g, p, ((p.reported_on != NONE) & (p.notice_on != NONE) & (p.reported_on < g.end)).to_numpy(), k)
    # the owner's days still run from the report (R24): the auctions planned from it stay lawful
    p.loc[x.index, "notice_on"] = x.reported_on - 1
    return x.case_id


@plants("S15-SALE-UNPROCLAIMED", subject="sale", how="an unclaimed case auctioned once, its proclamation by beat "
        "of drum dated the day after the sale (S15-NOTICE-MISSING, on the case, and S15-SALE-EARLY, the owner's "
        "days then running from it, come with it); or, every other one, with no proclamation at the market "
        "place recorded (R25)")
def s15_sale_unproclaimed(g, k):
    s = g.t["sales"]
    p = g.t["police_reports"].set_index("case_id")
    attempts = s.groupby("case_id").sale_id.transform("count").to_numpy()
    procl = s.case_id.map(p.proclamation_on).fillna(NONE).astype(np.int64).to_numpy()
    m = ((s.path == "s15_unclaimed") & s.accepted).to_numpy() & (attempts == 1) & (procl != NONE) \
        & (s.sale_on.to_numpy() + 1 <= g.end)
    x = pick(g, s, m, k)
    late, market = x.iloc[::2], x.iloc[1::2]
    reports = g.t["police_reports"]
    at = reports.case_id.isin(late.case_id).to_numpy()
    if at.any():                            # pandas refuses an empty block assigned to no rows
        reports.loc[at, ["proclamation_on", "market_proclamation_on"]] = np.repeat(
            reports.case_id[at].map(late.set_index("case_id").sale_on).to_numpy()[:, None] + 1, 2, axis=1)
    # a proclamation after the first auction is also the officer's duty missed (s.15(2)), and the owner's
    # w days run from it (R25): the sale was early too
    g.planted += [("S15-NOTICE-MISSING", str(c)) for c in late.case_id]
    g.planted += [("S15-SALE-EARLY", str(c)) for c in late.sale_id]
    # the proclamation made in the village only: none at the market place (R25)
    reports.loc[reports.case_id.isin(market.case_id).to_numpy(), "market_proclamation_on"] = NONE
    return x.sale_id


@plants("S15-DISPOSAL-WITHOUT-REJECTED-BID", subject="sale", how="an unclaimed case's only auction recorded "
        "instead as a disposal to a gaushala (s15_disposal), with no bid rejected before it")
def s15_disposal_without_rejected_bid(g, k):
    s = g.t["sales"]
    attempts = s.groupby("case_id").sale_id.transform("count").to_numpy()
    x = pick(g, s, ((s.path == "s15_unclaimed") & s.accepted).to_numpy() & (attempts == 1), k)
    s.loc[x.index, "path"] = "s15_disposal"
    s.loc[x.index, "disposal_note"] = "handed to the taluk gaushala"
    return x.sale_id


def _unproclaimed_sales(g, cases) -> None:
    s = g.t["sales"]
    sold = s[s.case_id.isin(cases) & (s.path == "s15_unclaimed") & s.accepted]
    g.planted += [("S15-SALE-UNPROCLAIMED", str(x)) for x in sold.sale_id]


@plants("S15-SALE-EARLY", subject="sale", how="an unclaimed case sold on the last day of the notice window")
def s15_sale_early(g, k):
    s = g.t["sales"]
    p = g.t["police_reports"].set_index("case_id")
    attempts = s.groupby("case_id").sale_id.transform("count").to_numpy()
    notice = s.case_id.map(p.notice_on).fillna(NONE).astype(np.int64).to_numpy()
    m = ((s.path == "s15_unclaimed") & s.accepted).to_numpy() & (attempts == 1) & (notice != NONE)
    x = pick(g, s, m, k)
    s.loc[x.index, "sale_on"] = x.case_id.map(p.notice_on).to_numpy() + x.case_id.map(g.case_info.w).to_numpy()
    return x.sale_id


@plants("S15-SALE-OVERDUE", subject="case", how="an unclaimed case never auctioned although its notice "
        "window closed more than 30 days before the last day")
def s15_sale_overdue(g, k):
    p = g.t["police_reports"]
    w = p.case_id.map(g.case_info.w).to_numpy()
    # the owner's days run from the later of the notice and the proclamations (R25)
    last = np.maximum(p.notice_on.to_numpy(), np.maximum(p.proclamation_on.to_numpy(), p.market_proclamation_on.to_numpy()))
    x = pick(g, p, (p.notice_on != NONE).to_numpy() & (last + w + 31 < g.end), k)
    drop_sales(g, x.case_id)
    return x.case_id


@plants("S15-SALE-LATE", subject="case", how="an unclaimed case auctioned 1 to 6 days after the sale fell due "
        "(notice + w + 1 + 30 days)")
def s15_sale_late(g, k):
    s = g.t["sales"]
    p = g.t["police_reports"].set_index("case_id")
    notice = s.case_id.map(p.notice_on).fillna(NONE).astype(np.int64).to_numpy()
    due = notice + s.case_id.map(g.case_info.w).to_numpy() + 1 + 30
    late = due + 1 + g.rng.integers(0, 6, len(s))
    # the case's last accepted attempt, held late: every attempt before it stays where it was
    last = ~s.case_id.duplicated(keep="last").to_numpy()
    m = ((s.path == "s15_unclaimed") & s.accepted).to_numpy() & last & (notice != NONE) & (late <= g.end)
    x = pick(g, s, m, k)
    s.loc[x.index, "sale_on"] = late[s.index.get_indexer(x.index)]
    return x.case_id


@plants("S15-BID-REJECTED-UNRESOLVED", subject="sale", how="an unclaimed case whose first bid was rejected "
        "and never auctioned again")
def s15_bid_rejected_unresolved(g, k):
    s = g.t["sales"]
    first = ~s.case_id.duplicated().to_numpy()
    x = pick(g, s, (s.path == "s15_unclaimed").to_numpy() & first, k)
    s.loc[x.index, ["accepted", "head_sold", "disposal_note", "buyer_name"]] = [False, 0, "", ""]
    g.t["sales"] = s[~(s.case_id.isin(x.case_id) & ~s.index.isin(x.index))]
    # its heads stay in the pound: once the sale's 30 days of grace have run, they are left there (R26)
    late = x.case_id.to_numpy()[_sale_allowed(g, x.case_id) + 30 < g.end]
    g.planted += [("HEADS-LEFT-IN-POUND", str(c)) for c in late]
    return x.sale_id


def _sale_allowed(g, cases) -> np.ndarray:
    """The first day of sale of each case: the day after the owner's w days from the latest of the
    notice and the proclamations (R25); NONE where the notice is blank."""
    p = g.t["police_reports"].set_index("case_id")
    cols = [cases.map(p[c]).fillna(NONE).astype(np.int64).to_numpy()
            for c in ("notice_on", "proclamation_on", "market_proclamation_on")]
    last = np.maximum(cols[0], np.maximum(cols[1], cols[2]))
    return np.where(cols[0] == NONE, NONE, last + cases.map(g.case_info.w).to_numpy() + 1)


@plants("HEADS-LEFT-IN-POUND", subject="case", how="an unclaimed case of two or more heads whose one auction sold "
        "all but one, more than 30 days before the last day after the sale was allowed: the last head is left")
def heads_left_in_pound(g, k):
    s = g.t["sales"]
    attempts = s.groupby("case_id").sale_id.transform("count").to_numpy()
    heads = s.case_id.map(g.case_info.heads).to_numpy()
    allowed = _sale_allowed(g, s.case_id)
    m = ((s.path == "s15_unclaimed") & s.accepted).to_numpy() & (attempts == 1) & (heads >= 2) \
        & (s.head_sold.to_numpy() == heads) & (allowed != NONE) & (allowed + 30 < g.end)
    x = pick(g, s, m, k)
    s.loc[x.index, "head_sold"] = x.head_sold - 1
    return x.case_id
