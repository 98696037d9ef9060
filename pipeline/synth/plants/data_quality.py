"""Planted violations of the checks on the registers themselves: RATE-MISSING and DQ-*.

DQ-HEADS-MISMATCH is not planted: more heads leaving than came in cannot be written
without also releasing heads no register authorises (REL-UNAUTHORISED).
"""

from __future__ import annotations

import pandas as pd

from pipeline.synth.plants.registry import pick, plants, releases_of


@plants("RATE-MISSING", subject="case", how="a case paid and released in a taluk without s.13 whose animals "
        "are mules, a class no rate row covers")
def rate_missing(g, k):
    r, m = releases_of(g, "s12_payment", s13=False)
    x = pick(g, r, m, k)
    imp = g.t["impoundments"]
    imp.loc[imp.case_id.isin(x.case_id), "animal_class"] = "mule"          # no mule rate is published
    return x.case_id


@plants("DQ-SEIZED-AFTER-IMPOUNDED", subject="case", how="a case seized the day after it was impounded")
def dq_seized_after_impounded(g, k):
    imp = g.t["impoundments"]
    x = pick(g, imp, (imp.impounded_on + 1 <= g.end).to_numpy(), k)
    imp.loc[x.index, "seized_on"] = x.impounded_on + 1
    return x.case_id


@plants("DQ-FUTURE-DATE", subject="the row", how="a local fund entry dated three days after the last day, "
        "the bundle's own date in bundle.toml (written with the ledgers)")
def dq_future_date(g, k):
    g.future = k            # the entries are made with the ledgers (future_entries)
    return _future_ids(k)


def _future_ids(k: int) -> list[str]:
    return [f"LFX{i + 1:05d}" for i in range(k)]


def future_entries(g, end: int) -> pd.DataFrame:
    """The second half of DQ-FUTURE-DATE, as ledgers.py writes the local fund's ledger: the entries
    picked above, dated three days after the last day (bundle.toml's as_of)."""
    future = pd.DataFrame({"local_authority_id": g.la_ids[0], "entry_on": end + 3, "amount": 10000,
                           "reference": "Advance booking", "head": "other"}, index=range(g.future))
    future.insert(0, "entry_id", _future_ids(len(future)))
    return future
