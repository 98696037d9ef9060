"""The declaration every planter carries, the registry of them, and the helpers planters share.

A planter is a function (g, k) -> subject ids that gives up to k clean rows one violation
of one rule each, and returns the ids a finding of that rule names (planted.csv). It is
declared with the rule it plants, the kind of subject the rule reports (as the rule
file's `subject:` header says) and, in plain words, what it does to a clean row:

    @plants("REL-UNPAID", subject="release", how="feeding charges paid Rs 100 short of the due")
    def rel_unpaid(g, k): ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.synth.state import Generator


@dataclass(frozen=True)
class Planter:
    rule_id: str
    subject: str                                         # what the subject ids are: release, case, sale, ...
    how: str                                             # what is done to a clean row
    plant: Callable[[Generator, int], Iterable]          # (generator, k) -> the subject ids planted
    module: str                                          # where it is written


REGISTRY: dict[str, Planter] = {}


def plants(rule_id: str, *, subject: str, how: str):
    """Declare the decorated function as the planter of rule_id."""
    def declare(fn):
        if rule_id in REGISTRY:
            raise RuntimeError(f"{rule_id} has two planters: {REGISTRY[rule_id].module} and {fn.__module__}")
        REGISTRY[rule_id] = Planter(rule_id, subject, how, fn, fn.__module__)
        return fn
    return declare


def pick(g: Generator, frame: pd.DataFrame, mask: np.ndarray, k: int, key: str = "case_id") -> pd.DataFrame:
    """Up to k random eligible rows, one per case (or key), of cases (or keys) not touched yet; marks them."""
    seen = {"case_id": "touched", "deposit_id": "touched_deposits", "order_id": "touched_orders"}[key]
    cand = frame[np.asarray(mask, bool) & ~frame[key].isin(getattr(g, seen)).to_numpy()]
    cand = cand[~cand[key].duplicated()]
    if cand.empty:
        return cand
    take = g.rng.choice(len(cand), min(k, len(cand)), replace=False)
    chosen = cand.iloc[np.sort(take)]
    setattr(g, seen, np.concatenate([getattr(g, seen), chosen[key].to_numpy(object)]))
    if key != "case_id" and "case_id" in chosen:
        g.touched = np.concatenate([g.touched, chosen.case_id.to_numpy(object)])
    return chosen


def releases_of(g: Generator, basis: str, s13: bool | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """The releases frame and a mask of its rows of one basis (and, if given, in s.13 taluks or not)."""
    r = g.t["releases"]
    m = (r.basis == basis).to_numpy().copy()
    if s13 is not None:
        m &= g.c.s13.to_numpy()[r._i.to_numpy()] == s13
    return r, m


def drop_sales(g: Generator, cases) -> None:
    s = g.t["sales"]
    g.t["sales"] = s[~s.case_id.isin(cases)]
