"""The generator's working state, and the array helpers every step of it uses.

A bundle is made as typed frames, one per register, held in `Generator.t`: days as
integers counted from 1970-01-01, money as integer paise, NONE for a blank date, amount
or count, '' for a blank text. Columns whose names start with '_' are the generator's own
and are never written. Each step of write_bundle (reference.py, cases.py, accounts.py,
plants/, ledgers.py) reads the frames and the facts earlier steps left on the Generator,
and adds its own. Everything random comes from the one generator `rng`, in a fixed order, so a
seed always gives the same bundle.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pipeline.core.errors import PoundError
from pipeline.core.params import PARAMS, Parameters
from pipeline.synth.config import TIMELINE_READINGS, SynthConfig

EPOCH = dt.date(1970, 1, 1)
NONE = -1                        # a blank date, amount or count in the typed frames


def day(d: dt.date) -> int:
    return (d - EPOCH).days


def add_months(days: np.ndarray, n: int) -> np.ndarray:
    """Day numbers plus n calendar months, clamped to the month's end (as DuckDB does)."""
    d = days.astype("datetime64[D]")
    months = d.astype("datetime64[M]")
    dom = (d - months).astype(np.int64)
    target = months + n
    length = ((target + 1).astype("datetime64[D]") - target.astype("datetime64[D]")).astype(np.int64)
    return (target.astype("datetime64[D]").astype(np.int64) + np.minimum(dom, length - 1)).astype(np.int64)


def ids(prefix: str, n: int, start: int = 1) -> np.ndarray:
    return np.char.add(prefix, np.char.zfill(np.arange(start, start + n).astype(str), 7)).astype(object)


@dataclass
class Dues:
    """What the first build found due on the clean registers (accounts.dues)."""

    releases: pd.DataFrame       # by release_id: fine (s.10(1)) and feeding (s.12(1)) due on the release day
    deposits: pd.Series          # by deposit_id: the s.13(1) security due on the deposit day
    sales: pd.Series             # by case_id: what an s.17 sale of every head had to raise (expenses, feeding, fines)
    # by case_id: the security of one head returned on the sale day (s.13(1), where notified): each head
    # kept back and returned adds it to what the sale must raise (R1 of the second reading)
    sale_security: pd.Series | None = None


class Generator:
    """The bundle being made: its configuration, its random stream, its frames and what the steps found out."""

    def __init__(self, cfg: SynthConfig, params: Parameters | None = None):
        if not 0 <= cfg.violation_rate <= 0.5:
            raise PoundError("--violation-rate must be between 0 and 0.5")
        self.cfg = cfg
        self.rng = np.random.default_rng(cfg.seed)
        self.first, self.end_date = cfg.months_span()
        self.start, self.end = day(self.first), day(self.end_date)
        # the readings the accounts are built with (accounts.py), as of the last day
        self.params = Parameters(dict(params.values) if params else None, as_of=self.end_date,
                                 source=params.source if params else "defaults")
        self.params_differ = {p.name: self.params[p.name] for p in PARAMS if self.params[p.name] != p.default}
        fixed = [name for name in TIMELINE_READINGS if name in self.params_differ]
        if fixed:
            free = ", ".join(p.name for p in PARAMS if p.name not in TIMELINE_READINGS)
            raise PoundError(f"pound synth draws its dates, windows and limits with the default {', '.join(fixed)}; "
                             f"it can follow other readings only of {free}")
        self.t: dict[str, pd.DataFrame] = {}              # register name -> typed frame
        self.planted: list[tuple[str, str]] = []          # (rule_id, subject_id) of every planted violation
        # reference.py: the district's make-up, per taluk and per pound
        self.districts: list[str]
        self.taluks: np.ndarray                            # taluk names
        self.s13: np.ndarray                               # per taluk: s.13 notified
        self.s14: np.ndarray                               # per taluk: s.14 notified
        self.taluk_rate: np.ndarray                        # per taluk: its own cattle rate
        self.pound_district: np.ndarray
        self.pound_taluk: np.ndarray
        self.pound_ids: np.ndarray
        self.la_ids: np.ndarray                            # the local authority of each pound
        self.unclaimed_share: np.ndarray
        self.keeper_name: np.ndarray
        self.sale_officer: np.ndarray                      # per district
        self.revision: int                                 # the day the feeding charges were revised
        # cases.py: one row per case (c), its delivery under protest (protest), auction attempts so far
        self.c: pd.DataFrame
        self.protest: pd.DataFrame
        self.sale_parts: list[pd.DataFrame]
        self.sale_dues: pd.Series                          # by case_id: what an s.17 sale had to raise
        # plants/: cases, deposits and orders already given a violation, sales whose balance is to be
        # misrecorded, and ledger entries to be dated after the last day
        self.case_info: pd.DataFrame
        self.touched = np.zeros(0, dtype=object)
        self.touched_deposits = np.zeros(0, dtype=object)
        self.touched_orders = np.zeros(0, dtype=object)
        self.balance_off = np.zeros(0, dtype=object)
        self.future = 0
        self.overdue_quota: dict[str, int] = {}          # LF-/DM- rules: how many credits the ledgers leave out

    def next_case(self, owners: np.ndarray, after: np.ndarray) -> np.ndarray:
        """For each (owner, day): the first impounding day of that owner strictly after it, else NONE."""
        imp = self.t["impoundments"]
        known = (imp.owner_id != "").to_numpy()
        o = imp.owner_id.to_numpy(object)[known]
        cat = pd.Categorical(np.concatenate([o, owners]))
        codes = cat.codes.astype(np.int64)
        scale = 10**6
        key = np.sort(codes[: len(o)] * scale + imp.impounded_on.to_numpy(np.int64)[known])
        q = codes[len(o):] * scale + after
        pos = np.searchsorted(key, q, side="right")
        inside = pos < len(key)
        pos = np.minimum(pos, max(len(key) - 1, 0))
        same = inside & (owners != "") & (key[pos] // scale == codes[len(o):]) if len(key) else np.zeros(len(q), bool)
        return np.where(same, key[pos] % scale if len(key) else NONE, NONE)
