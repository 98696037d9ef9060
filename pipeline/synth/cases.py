"""The clean course of every case: impounding, release or sale, security and its outcome, removal orders.

Nothing here breaks a rule: a case is released on payment of what was due, delivered
under protest with a deposit of it, released by a court, sold because its owner refused
to pay (s.17), or left unclaimed and sold after the report, notice and proclamation
(s.15). Security is taken in s.13 taluks and forfeited or refunded as s.13(2) says.
Violations are planted later (plants/), on these clean rows.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pipeline.synth.config import (
    BUYER,
    CLASSES,
    COURT,
    DISTRICTS,
    ELEPHANT,
    PRICE_HIGH,
    PRICE_LOW,
    S12,
    S15,
    S16,
    S17,
    SHORT,
)
from pipeline.synth.state import NONE, Dues, Generator, add_months, ids


def impoundments(g: Generator) -> None:
    rng, cfg, end = g.rng, g.cfg, g.end
    starts = np.array([add_months(np.array([g.start]), i)[0] for i in range(cfg.months)])
    ends = np.append(starts[1:], end + 1)
    moy = (g.first.month - 1 + np.arange(cfg.months)) % 12 + 1
    season = 1 + 0.3 * np.cos(2 * np.pi * (moy - 8) / 12)        # monsoon peak in August
    counts = rng.poisson(cfg.cases_per_month * season[None, :], (cfg.pounds, cfg.months))
    pound = np.repeat(np.repeat(np.arange(cfg.pounds), cfg.months), counts.ravel())
    month = np.repeat(np.tile(np.arange(cfg.months), cfg.pounds), counts.ravel())
    n = len(pound)
    D = starts[month] + (rng.random(n) * (ends[month] - starts[month])).astype(np.int64)
    order = np.lexsort((D, pound))
    pound, D = pound[order], D[order]
    mix = np.array([DISTRICTS[d] for d in g.districts], float)
    cum = np.cumsum(mix / mix.sum(axis=1, keepdims=True), axis=1)[g.pound_district[pound]]
    cls = np.minimum((rng.random(n)[:, None] > cum).sum(axis=1), ELEPHANT)
    heads = rng.choice([1, 2, 3, 4, 5, 6], n, p=[0.55, 0.25, 0.1, 0.05, 0.03, 0.02])
    big = rng.random(n) < 0.015
    heads[big] = rng.integers(8, 26, big.sum())
    w = np.where(SHORT[cls], 3, 7)
    taluk = g.pound_taluk[pound]
    kind = rng.choice([S12, S16, S17, COURT], n, p=[0.88, 0.05, 0.05, 0.02])
    kind[rng.random(n) < g.unclaimed_share[pound]] = S15
    # a process that takes weeks is only started where it can run its course in the period
    kind[(kind == S17) & (D + w + 20 > end)] = S12
    kind[(kind == S16) & (D + 90 > end)] = S12
    cid = ids("C", n)
    pool = np.maximum(3, (counts.sum(axis=1) * 0.6).astype(np.int64))
    owner_no = (rng.random(n) * pool[pound]).astype(np.int64)
    owner = np.char.add(np.char.add("O", g.pound_ids[pound].astype(str)), np.char.add("-", owner_no.astype(str))).astype(object)
    unique = np.isin(kind, [S16, S17, COURT])
    owner[unique] = np.char.add("U", cid[unique].astype(str))
    owner[(kind == S15) & (rng.random(n) < 0.7)] = ""
    g.c = pd.DataFrame({"i": np.arange(n), "case_id": cid, "pound": pound, "taluk": taluk, "D": D, "cls": cls,
                        "heads": heads, "w": w, "kind": kind, "owner": owner,
                        "s13": g.s13[taluk], "price": rng.integers(PRICE_LOW[cls], PRICE_HIGH[cls] + 1) // 100 * 100})
    g.t["impoundments"] = pd.DataFrame({
        "case_id": cid, "pound_id": g.pound_ids[pound], "seized_on": D - (rng.random(n) < 0.2),
        "impounded_on": D,
        "impounded_time": np.char.add(np.char.zfill(rng.integers(6, 20, n).astype(str), 2), ":30").astype(object),
        "place_of_seizure": "", "seized_by": "", "animal_class": np.array(CLASSES, dtype=object)[cls],
        "head_count": heads, "description": "", "owner_id": owner,
        "owner_name": np.where(owner == "", "", np.char.add("Owner ", owner.astype(str))).astype(object),
        "owner_village": "", "reseizure_of": ""})


def releases(g: Generator) -> None:
    """Releases on payment, under protest and by court order, with their security and complaints.

    What each release pays, and each security deposit holds, is left blank here: settle_dues
    fills in what the accounts say was due (the first build, accounts.dues).
    """
    rng, c, end = g.rng, g.c, g.end
    n = len(c)
    r = np.minimum(rng.choice(8, n, p=[0.15, 0.35, 0.2, 0.1, 0.08, 0.06, 0.04, 0.02]), c.w.to_numpy())
    R = c.D.to_numpy() + r
    k = c.kind.to_numpy()
    m = np.isin(k, [S12, S16, COURT]) & (R <= end)           # a release after the end has not happened yet
    x = c[m].copy()
    x["R"] = R[m]
    h = x.heads.to_numpy()
    kk = x.kind.to_numpy()
    is12, is16, isc = kk == S12, kk == S16, kk == COURT
    dep = is12 & x.s13.to_numpy()
    rid = ids("R", len(x))
    did = np.where(dep, np.char.add("D", rid.astype(str)), "").astype(object)
    g.t["releases"] = pd.DataFrame({
        "release_id": rid, "case_id": x.case_id.to_numpy(), "released_on": x.R.to_numpy(), "head_count": h,
        "basis": np.array(["s12_payment", "s16_protest", "", "court_order"], dtype=object)[kk],
        "released_to": "owner", "fines_paid": NONE, "charges_paid": NONE, "protest_deposit": NONE,
        "declaration_made": dep, "security_deposit_id": did, "receipt_signed": True,
        "court_order_ref": np.where(isc, np.char.add("OS ", np.char.add(rid.astype(str), " of the JMFC court")), "").astype(object),
        "_i": x.i.to_numpy(), "_kind": kk})
    deposits = pd.DataFrame({"deposit_id": did[dep], "case_id": x.case_id.to_numpy()[dep],
                             "owner_id": x.owner.to_numpy()[dep], "deposited_on": x.R.to_numpy()[dep],
                             "amount": NONE, "_release": rid[dep]})
    # complaints after a delivery under protest (s.16, s.20)
    p = x[is16]
    pr = p.R.to_numpy()
    ck = rng.choice(4, len(p), p=[0.4, 0.3, 0.2, 0.1])            # none, lawful, illegal, withdrawn
    filed = pr + rng.integers(1, 21, len(p))
    decided = filed + rng.integers(10, 41, len(p))
    has = (ck > 0) & (filed <= end)
    outcome = np.array(["", "lawful", "illegal", "withdrawn"], dtype=object)[ck]
    pending = has & (decided > end)
    outcome[pending] = "pending"
    g.t["complaints"] = pd.DataFrame({"case_id": p.case_id.to_numpy()[has], "filed_on": filed[has],
                                      "decided_on": np.where(pending, NONE, decided)[has], "outcome": outcome[has]})
    # s.16(2): after a lawful finding, or no complaint within four weeks, a declaration and
    # security are taken in s.13 taluks within the follow-up grace
    trig = np.where(has & (outcome == "lawful"), decided, pr + 28)
    needs = p.s13.to_numpy() & ((has & (outcome == "lawful")) | ~has)
    on = trig + rng.integers(1, 11, len(p))
    ok = needs & (on <= end)
    follow = pd.DataFrame({"deposit_id": np.char.add("F", p.case_id.to_numpy()[ok].astype(str)).astype(object),
                           "case_id": p.case_id.to_numpy()[ok], "owner_id": p.owner.to_numpy()[ok],
                           "deposited_on": on[ok], "amount": NONE, "_release": rid[is16][ok]})
    g.protest = pd.DataFrame({"release_id": rid[is16], "trigger": trig, "has_trigger": needs,
                              "outcome": np.where(has, outcome, "")})
    g.t["security_deposits"] = pd.concat([deposits, follow], ignore_index=True)


def unclaimed(g: Generator) -> None:
    """s.15: report on D+w+1, notice within two days, proclamation by then (in the village and at the market
    place, the same day), auction from the day after the owner's w days, counted from the later of the
    notice and the proclamation (R25)."""
    rng, end = g.rng, g.end
    u = g.c[g.c.kind == S15]
    D, w, h = u.D.to_numpy(), u.w.to_numpy(), u.heads.to_numpy()
    k = len(u)
    report = D + w + 1
    notice = report + rng.integers(0, 3, k)
    procl = np.minimum(notice + rng.integers(0, 2, k), report + 2)
    has = report <= end
    g.t["police_reports"] = pd.DataFrame({
        "case_id": u.case_id.to_numpy()[has], "reported_on": report[has], "reported_to": "Police station",
        "notice_on": np.where(notice <= end, notice, NONE)[has],
        "proclamation_on": np.where(procl <= end, procl, NONE)[has],
        "market_proclamation_on": np.where(procl <= end, procl, NONE)[has]})
    first = np.maximum(notice, procl) + w + 1 + rng.integers(0, 11, k)
    rejected = rng.random(k) < 0.15
    second = first + rng.integers(3, 11, k)
    accepted_on = np.where(rejected, second, first)
    district = g.pound_district[u.pound.to_numpy()]
    price = u.price.to_numpy()
    rej = rejected & (first <= end)
    acc = accepted_on <= end
    buyers = np.array(BUYER, dtype=object)[rng.integers(0, len(BUYER), k)]
    g.sale_parts = [
        pd.DataFrame({"case_id": u.case_id.to_numpy()[rej], "path": "s15_unclaimed", "sale_on": first[rej],
                      "head_offered": h[rej], "head_sold": 0, "bid_amount": (price * h * 6 // 10 // 100 * 100)[rej],
                      "accepted": False, "buyer_name": "", "conducted_by": g.sale_officer[district[rej]],
                      "sale_expenses": rng.integers(1, 4, k)[rej] * 10000,
                      "disposal_note": "Bid below a fair price; the auction is to be held again"}),
        pd.DataFrame({"case_id": u.case_id.to_numpy()[acc], "path": "s15_unclaimed", "sale_on": accepted_on[acc],
                      "head_offered": h[acc], "head_sold": h[acc], "bid_amount": (price * h)[acc], "accepted": True,
                      "buyer_name": buyers[acc], "conducted_by": g.sale_officer[district[acc]],
                      "sale_expenses": rng.integers(2, 9, k)[acc] * 10000, "disposal_note": ""}),
    ]


def refusals(g: Generator) -> None:
    """s.17: the owner appears and refuses to pay; the sale is drafted selling every head.

    settle_dues then sells only as many heads as the dues need (s.17(1)); the rest are
    delivered back to the owner on the sale day (remainders).
    """
    rng = g.rng
    s = g.c[g.c.kind == S17]
    k = len(s)
    D, h = s.D.to_numpy(), s.heads.to_numpy()
    S = D + rng.integers(1, s.w.to_numpy() + 1) + rng.integers(3, 11, k)
    expenses = rng.integers(2, 9, k) * 10000
    district = g.pound_district[s.pound.to_numpy()]
    g.sale_parts.append(pd.DataFrame({
        "case_id": s.case_id.to_numpy(), "path": "s17_refusal", "sale_on": S, "head_offered": h, "head_sold": h,
        "bid_amount": s.price.to_numpy() * h, "accepted": True,
        "buyer_name": np.array(BUYER, dtype=object)[rng.integers(0, len(BUYER), k)],
        "conducted_by": g.sale_officer[district], "sale_expenses": expenses, "disposal_note": ""}))
    sales = pd.concat(g.sale_parts, ignore_index=True)
    sales = sales.sort_values(["case_id", "sale_on"], kind="stable").reset_index(drop=True)
    sales.insert(0, "sale_id", ids("S", len(sales)))
    sales["buyer_person_id"] = ""
    sales["balance_paid"] = NONE
    g.t["sales"] = sales


def settle_dues(g: Generator, dues: Dues) -> None:
    """Pay what the accounts say was due (dues: accounts.Dues, from the first build).

    A release on payment pays its fines and feeding, a court release the feeding, a delivery
    under protest deposits both (s.16(1)); a security deposit holds the security due on its
    day (s.13(1)); an s.17 sale sells as many heads as necessary, at least one, to raise its
    dues (s.17(1)), and the rest go back to the owner.
    """
    g.sale_dues = dues.sales
    r = g.t["releases"]
    kk = r._kind.to_numpy()
    is12, is16, isc = kk == S12, kk == S16, kk == COURT
    fine = r.release_id.map(dues.releases.fine).to_numpy(np.int64)
    feed = r.release_id.map(dues.releases.feeding).to_numpy(np.int64)
    r["fines_paid"] = np.where(is12, fine, NONE)
    r["charges_paid"] = np.where(is12 | isc, feed, NONE)
    r["protest_deposit"] = np.where(is16, fine + feed, NONE)
    d = g.t["security_deposits"]
    d["amount"] = d.deposit_id.map(dues.deposits).to_numpy(np.int64)
    s = g.t["sales"]
    m = (s.path == "s17_refusal").to_numpy()
    price = s.case_id[m].map(g.c.set_index("case_id").price).to_numpy()
    # n heads sold must raise the dues and the security of the heads - n returned (s.17(2), s.13(1)):
    # price x n >= dues + (heads - n) x security, so n = ceil((dues + heads x security) / (price + security))
    sec = s.case_id[m].map(dues.sale_security).to_numpy(np.int64)
    offered = s.head_offered[m].to_numpy()
    due = s.case_id[m].map(dues.sales).to_numpy(np.int64) + offered * sec
    need = np.minimum(np.maximum(1, -(-due // (price + sec))), offered)
    s.loc[m, "head_sold"] = need
    s.loc[m, "bid_amount"] = price * need
    remainders(g)


def remainders(g: Generator) -> None:
    """Deliver the unsold heads of every s.17 sale on the sale day."""
    rel = g.t["releases"]
    rel = rel[rel.basis != "s17_remainder"]
    sales = g.t["sales"]
    s17 = sales[(sales.path == "s17_refusal") & sales.accepted]
    cases = g.c.set_index("case_id").loc[s17.case_id]
    left = cases.heads.to_numpy() - s17.head_sold.to_numpy()
    m = left > 0
    extra = pd.DataFrame({
        "release_id": np.char.add("RR", s17.sale_id.to_numpy()[m].astype(str)).astype(object),
        "case_id": s17.case_id.to_numpy()[m], "released_on": s17.sale_on.to_numpy()[m], "head_count": left[m],
        "basis": "s17_remainder", "released_to": "owner", "fines_paid": NONE, "charges_paid": NONE,
        # s.13(1) asks the declaration before any release where s.13 is notified, the remainder's too (R28)
        "protest_deposit": NONE, "declaration_made": cases.s13.to_numpy()[m].astype(bool), "security_deposit_id": "",
        "receipt_signed": True, "court_order_ref": "", "_i": cases.i.to_numpy()[m], "_kind": S17})
    g.t["releases"] = pd.concat([rel, extra], ignore_index=True)


def deposit_outcomes(g: Generator) -> None:
    """Forfeit on re-impoundment within six months (s.13(2)); refund on application after them."""
    d = g.t["security_deposits"]
    t = d.deposited_on.to_numpy(np.int64)
    window = add_months(t, 6)
    nxt = g.next_case(d.owner_id.to_numpy(object), t)
    forfeit = (nxt != NONE) & (nxt <= window) & (nxt <= g.end)
    applied = window + 1 + g.rng.integers(0, 20, len(d))
    refunded = applied + g.rng.integers(0, 10, len(d))
    refund = ~forfeit & (refunded <= g.end)
    amount = d.amount.to_numpy()
    d["refund_applied_on"] = np.where(refund, applied, NONE)
    d["refunded_on"] = np.where(refund, refunded, NONE)
    d["refunded_amount"] = np.where(refund, amount, NONE)
    d["forfeited_on"] = np.where(forfeit, nxt, NONE)     # forfeited on the day of the re-impounding
    d["forfeited_amount"] = np.where(forfeit, amount, NONE)
    d["_forfeitable"] = forfeit
    d["_window"] = window


def removal_orders(g: Generator) -> None:
    rng, end = g.rng, g.end
    s14 = np.flatnonzero(g.s14)
    k = max(4, int(g.cfg.pounds * g.cfg.months / 5))
    taluk = s14[rng.integers(0, len(s14), k)]
    issued = rng.integers(g.start, max(g.start + 1, end - 40), k)
    clause = np.where(rng.random(k) < 0.6, "ii", "i").astype(object)
    owner_heads = np.where(clause == "ii", rng.integers(21, 80, k), rng.integers(2, 30, k))
    comply_by = issued + 30
    police = rng.random(k) < 0.25
    complied = np.where(police, NONE, issued + rng.integers(5, 30, k))
    police_on = np.where(police, comply_by + rng.integers(1, 6, k), NONE)
    fine = np.where(rng.random(k) < 0.3, rng.integers(2, 11, k) * 10000, NONE)
    paid = np.where(fine != NONE, issued + rng.integers(10, 40, k), NONE)
    late = paid > end
    fine[late], paid[late] = NONE, NONE
    g.t["removal_orders"] = pd.DataFrame({
        "order_id": ids("RO", k), "taluk": g.taluks[taluk],
        "owner_id": np.char.add("H", np.arange(k).astype(str)).astype(object), "owner_name": "Herd owner",
        "clause": clause, "owner_head_count": owner_heads, "head_count": np.minimum(owner_heads, 20),
        "issued_on": issued, "comply_by": comply_by, "complied_on": complied, "police_removal_on": police_on,
        "fine_imposed": fine, "fine_paid_on": paid})
