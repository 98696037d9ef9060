"""Planted violations of s.14 (removal orders for cattle on grazing land)."""

from __future__ import annotations

import numpy as np

from pipeline.synth.plants.registry import pick, plants
from pipeline.synth.state import NONE


def _orders(g, mask, k):
    o = g.t["removal_orders"]
    return o, pick(g, o, mask(o), k, key="order_id")


@plants("S14-FINE-EXCESS", subject="order", how="an order whose s.14(3) fine is Rs 1,500, above the Rs 1,000 cap")
def s14_fine_excess(g, k):
    o, x = _orders(g, lambda o: (o.issued_on + 10 <= g.end).to_numpy(), k)
    o.loc[x.index, "fine_imposed"] = 150000
    o.loc[x.index, "fine_paid_on"] = x.issued_on + 10
    return x.order_id


@plants("S14-NOT-ENFORCED", subject="order", how="an order past its date with neither compliance nor removal by "
        "the police recorded")
def s14_not_enforced(g, k):
    o, x = _orders(g, lambda o: (o.comply_by < g.end).to_numpy(), k)
    o.loc[x.index, ["complied_on", "police_removal_on"]] = NONE
    return x.order_id


@plants("S14-CLAUSE-II-SMALL-HERD", subject="order", how="a clause (ii) order against an owner of 15 head")
def s14_clause_ii_small_herd(g, k):
    o, x = _orders(g, lambda o: (o.clause == "ii").to_numpy(), k)
    o.loc[x.index, ["owner_head_count", "head_count"]] = 15
    return x.order_id


@plants("S14-NOT-NOTIFIED", subject="order", how="an order made in a taluk where s.14 is not notified")
def s14_not_notified(g, k):
    plain = np.flatnonzero(~g.s14)
    if len(plain) == 0:
        return []
    o, x = _orders(g, lambda o: np.ones(len(o), bool), k)
    o.loc[x.index, "taluk"] = g.taluks[plain[0]]
    return x.order_id
