"""The reference tables of a synthetic district: local authorities, pounds, officials, rates, notifications.

Districts are drawn from config.DISTRICTS, about one for every six pounds (or the one district
asked for), each with taluks of two pounds, named apart ("Mysuru Taluk 2 pound 1"). About 30 % of taluks notify s.13 (security) and s.14 (removal
orders), at least one does and, with more than one taluk, one does not; about 15 %
notify their own cattle rate. The feeding charges are revised half-way through the
period (a rate row ends the day before the new one starts).
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd

from pipeline.synth.config import CLASSES, DISTRICTS, FEED_NEW, FEED_OLD, FINE, FIRST, LAST, MULE, SECURITY, TALUK_CATTLE
from pipeline.synth.state import NONE, Generator, add_months, day, ids


def reference(g: Generator) -> None:
    rng, n = g.rng, g.cfg.pounds
    names = list(DISTRICTS)
    nd = 1 if g.cfg.district else max(1, min(len(names), round(n / 6), n))
    g.districts = [names[i] for i in sorted(rng.permutation(len(names))[:nd])]
    if g.cfg.district:
        g.districts = [g.cfg.district]
    district = np.sort(np.concatenate([np.arange(nd), rng.integers(0, nd, n - nd)]))
    taluk_of_pound = np.zeros(n, np.int64)
    pound_name = np.empty(n, dtype=object)
    taluks, taluk_district = [], []
    for d in range(nd):
        members = np.flatnonzero(district == d)
        k = max(1, int(np.ceil(len(members) / 2)))
        base = len(taluks)
        taluks += [f"{g.districts[d]} Taluk {j + 1}" for j in range(k)]
        taluk_district += [d] * k
        taluk_of_pound[members] = base + np.arange(len(members)) % k
        # a taluk's pounds are numbered within it: no two pounds of a bundle share a name
        pound_name[members] = [f"{taluks[base + i % k]} pound {i // k + 1}" for i in range(len(members))]
    nt = len(taluks)
    g.taluks = np.array(taluks, dtype=object)
    g.s13 = rng.random(nt) < 0.3
    g.s14 = rng.random(nt) < 0.3
    g.s13[0] = g.s14[0] = True                 # every bundle has both kinds of taluk
    if nt > 1:
        g.s13[-1] = g.s14[-1] = False
    g.taluk_rate = (rng.random(nt) < 0.15) & (np.arange(nt) != nt - 1)
    g.pound_district, g.pound_taluk = district, taluk_of_pound
    g.pound_ids = ids("P", n)
    g.la_ids = ids("LA", n)
    g.unclaimed_share = rng.uniform(0.05, 0.30, n)
    g.keeper_name = np.array(names_of(n), dtype=object)
    g.sale_officer = ids("SO", nd)
    g.revision = int(add_months(np.array([g.start]), g.cfg.months // 2)[0])
    kinds = np.array(["corporation", "municipality", "town_panchayat", "gram_panchayat"], dtype=object)
    dn = np.array(g.districts, dtype=object)
    g.t["local_authorities"] = pd.DataFrame({
        "local_authority_id": g.la_ids, "name": np.char.add("Local authority of pound ", g.pound_ids.astype(str)),
        "kind": kinds[rng.choice(4, n, p=[0.1, 0.3, 0.2, 0.4])], "district": dn[district]})
    g.t["pounds"] = pd.DataFrame({
        "pound_id": g.pound_ids, "name": pound_name,
        "local_authority_id": g.la_ids, "taluk": g.taluks[taluk_of_pound], "district": dn[district],
        "pound_keeper_id": ids("PK", n)})
    officials = [pd.DataFrame({"person_id": ids("PK", n), "name": g.keeper_name, "role": "pound_keeper",
                               "district": dn[district]}),
                 pd.DataFrame({"person_id": g.sale_officer, "name": names_of(nd, 100), "role": "sale_officer",
                               "district": dn}),
                 pd.DataFrame({"person_id": ids("DM", nd), "name": np.char.add("District Magistrate ", dn.astype(str)),
                               "role": "magistrate", "district": dn}),
                 pd.DataFrame({"person_id": ids("TH", nt), "name": np.char.add("Tahsildar ", g.taluks.astype(str)),
                               "role": "tahsildar", "district": dn[np.array(taluk_district)]})]
    g.t["officials"] = pd.concat(officials, ignore_index=True)
    since, rev = day(dt.date(2014, 5, 1)), g.revision
    rows = []
    for c in range(len(CLASSES)):
        if c == MULE:
            continue
        rows.append((CLASSES[c], "*", since, rev - 1, FINE[c], FEED_OLD[c], SECURITY[c]))
        rows.append((CLASSES[c], "*", rev, NONE, FINE[c], FEED_NEW[c], SECURITY[c]))
    for tk in np.flatnonzero(g.taluk_rate):
        rows.append(("cattle", g.taluks[tk], since, NONE, *TALUK_CATTLE))
    g.t["rates"] = pd.DataFrame(rows, columns=["animal_class", "taluk", "effective_from", "effective_to",
                                               "fine_per_head", "feeding_per_head_per_day", "security_per_head"])
    notes = [("13", g.taluks[i], day(dt.date(2012, 4, 1)), NONE, f"Notification 13/{i}") for i in np.flatnonzero(g.s13)]
    notes += [("14", g.taluks[i], day(dt.date(2012, 4, 1)), NONE, f"Notification 14/{i}") for i in np.flatnonzero(g.s14)]
    g.t["notifications"] = pd.DataFrame(notes, columns=["section", "taluk", "effective_from", "effective_to",
                                                        "gazette_ref"])


def names_of(n: int, offset: int = 0) -> list[str]:
    return [f"{FIRST[(i * 7 + 3) % len(FIRST)]} {LAST[(i * 11 + i // len(FIRST)) % len(LAST)]} "
            f"{chr(65 + i % 26)}{i // 26 or ''}" for i in range(offset, offset + n)]

