"""write_bundle: run the steps in order and write the frames as the CSV files of a bundle."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.core.errors import PoundError
from pipeline.core.params import Parameters
from pipeline.core.progress import QUIET, Progress
from pipeline.core.registers import BY_NAME, COUNT, DATE, FLAG, MONEY
from pipeline.synth import accounts, cases
from pipeline.synth.config import SynthConfig
from pipeline.synth.ledgers import ledgers
from pipeline.synth.plants import plant
from pipeline.synth.reference import reference
from pipeline.synth.state import NONE, Generator


def iso(days: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    out = np.asarray(days, dtype=np.int64).astype("datetime64[D]").astype(str).astype(object)
    if valid is not None:
        out[~valid] = ""
    return out


def rupees(paise: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    p = np.asarray(paise, dtype=np.int64)
    whole = (p // 100).astype(str)
    frac = np.char.zfill((p % 100).astype(str), 2)
    out = np.char.add(np.char.add(whole, "."), frac).astype(object)
    if valid is not None:
        out[~valid] = ""
    return out


def to_text(frame: pd.DataFrame, register: str) -> pd.DataFrame:
    """Typed frame -> the text a clerk's CSV holds (dates ISO, rupees with two decimals, yes/no)."""
    reg = BY_NAME[register]
    out = {}
    for col in reg.columns:
        if col.name not in frame:
            out[col.name] = np.full(len(frame), "", dtype=object)
            continue
        v = frame[col.name].to_numpy()
        if col.kind == DATE:
            out[col.name] = iso(v.astype(np.int64), v != NONE)
        elif col.kind == MONEY:
            out[col.name] = rupees(v.astype(np.int64), v != NONE)
        elif col.kind == COUNT:
            out[col.name] = np.where(v.astype(np.int64) == NONE, "", v.astype(np.int64).astype(str)).astype(object)
        elif col.kind == FLAG:
            out[col.name] = np.where(v.astype(bool), "yes", "no").astype(object)
        else:
            out[col.name] = v
    return pd.DataFrame(out)


def write_bundle(out: Path, cfg: SynthConfig, progress: Progress = QUIET, params: Parameters | None = None) -> str:
    """Synthesise a bundle into the empty folder out; params: the readings its accounts follow (default: the defaults)."""
    if out.exists() and any(out.iterdir()):
        raise PoundError(f"{out} exists and is not empty; give a new folder for the synthetic bundle")
    g = Generator(cfg, params)
    held = {}

    def settle(g):
        held["books"] = accounts.settle(g)

    steps = [("reference tables", reference), ("cases", cases.impoundments), ("releases and deposits", cases.releases),
             ("unclaimed cattle", cases.unclaimed), ("s.17 sales", cases.refusals),
             ("the dues (first build)", lambda g: cases.settle_dues(g, accounts.dues(g))),
             ("security outcomes", cases.deposit_outcomes), ("removal orders", cases.removal_orders),
             ("planted violations", plant), ("the accounts (second build)", settle),
             ("ledgers", lambda g: ledgers(g, *accounts.credits(held["books"])))]
    for i, (what, step) in enumerate(steps, 1):
        progress.step(f"[{i}/{len(steps) + 1}] {what}")
        step(g)
    progress.step(f"[{len(steps) + 1}/{len(steps) + 1}] writing CSV files")
    out.mkdir(parents=True, exist_ok=True)
    rows = 0
    for name, frame in g.t.items():
        reg = BY_NAME[name]
        text = to_text(frame, name)
        if name in ("impoundments", "releases") and len(text):
            year = text[reg.names[3] if name == "impoundments" else "released_on"].str[:4]
            for y in sorted(year.unique()):
                _write(out / reg.folder / f"{name}_{y}.csv", text[year == y])
        else:
            _write(out / reg.folder / f"{name}.csv", text)
        rows += len(text)
    planted = pd.DataFrame(sorted(g.planted), columns=["rule_id", "subject_id"])
    planted.to_csv(out / "planted.csv", index=False, lineterminator="\n")
    (out / "README.txt").write_text(
        f"Synthetic pound registers (pound synth, seed {cfg.seed}): {cfg.pounds} pounds, {cfg.months} months from "
        f"{g.first:%Y-%m}, about {cfg.cases_per_month} cases per pound per month.\n"
        f"The registers run to {g.end_date}; run them as of that day:\n"
        f"  pound run THIS_FOLDER --out OUT --as-of {g.end_date}\n"
        f"planted.csv lists the {len(planted)} violations planted on purpose; every other row is clean.\n",
        encoding="utf-8")
    progress.done(f"wrote {rows:,} rows to {out}")
    kinds = len(set(planted.rule_id))
    return (f"wrote {out}: {len(g.c):,} cases, {rows:,} rows in all; {len(planted)} planted violations of {kinds} rules "
            f"(planted.csv); registers run to {g.end_date}: use --as-of {g.end_date}")


def _write(path: Path, frame: pd.DataFrame) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
