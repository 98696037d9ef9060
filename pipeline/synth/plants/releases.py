"""Planted violations of the release rules (REL-*): s.12(1), s.12(2), s.13(1), s.16(1), s.19(2)."""

from __future__ import annotations

import numpy as np

from pipeline.synth.plants.registry import pick, plants, releases_of


@plants("REL-UNPAID", subject="release", how="a release on payment whose feeding charges were paid Rs 100 short")
def rel_unpaid(g, k):
    r, m = releases_of(g, "s12_payment")
    x = pick(g, r, m & (r.charges_paid > 0).to_numpy(), k)
    r.loc[x.index, "charges_paid"] = np.maximum(0, x.charges_paid - 10000)
    return x.release_id


@plants("REL-OVERCHARGED", subject="release", how="a release on payment whose feeding charges were paid Rs 100 over "
        "the due")
def rel_overcharged(g, k):
    r, m = releases_of(g, "s12_payment")
    x = pick(g, r, m, k)
    r.loc[x.index, "charges_paid"] = x.charges_paid + 10000
    return x.release_id


@plants("REL-UNSIGNED", subject="release", how="a release on payment whose receipt is not signed")
def rel_unsigned(g, k):
    r, m = releases_of(g, "s12_payment")
    x = pick(g, r, m, k)
    r.loc[x.index, "receipt_signed"] = False
    return x.release_id


@plants("REL-NO-DECLARATION", subject="release", how="a release on payment in an s.13 taluk with no declaration")
def rel_no_declaration(g, k):
    r, m = releases_of(g, "s12_payment", s13=True)
    x = pick(g, r, m, k)
    r.loc[x.index, "declaration_made"] = False
    return x.release_id


@plants("REL-NO-SECURITY", subject="release", how="a release on payment in an s.13 taluk whose security deposit is "
        "struck out of the register, with the release no longer naming it")
def rel_no_security(g, k):
    r, m = releases_of(g, "s12_payment", s13=True)
    x = pick(g, r, m, k)
    d = g.t["security_deposits"]
    g.t["security_deposits"] = d[~d.deposit_id.isin(x.security_deposit_id)].reset_index(drop=True)
    r.loc[x.index, "security_deposit_id"] = ""
    return x.release_id


@plants("REL-PROTEST-SHORT", subject="release", how="a delivery under protest whose deposit is Rs 100 short of the dues")
def rel_protest_short(g, k):
    r, m = releases_of(g, "s16_protest")
    x = pick(g, r, m, k)
    r.loc[x.index, "protest_deposit"] = x.protest_deposit - 10000
    return x.release_id


@plants("REL-UNAUTHORISED", subject="release", how="a release by court order that names no order")
def rel_unauthorised(g, k):
    r, m = releases_of(g, "court_order")
    x = pick(g, r, m, k)
    r.loc[x.index, "court_order_ref"] = ""
    return x.release_id
