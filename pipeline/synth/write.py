"""write_bundle: run the steps in order, then write the registers as the CSV files of a bundle.

The files are written by DuckDB from the register tables of the second build (accounts.settle),
which hold exactly the frames as planted and settled: dates ISO, money through the SQL macro
rupees() that the exports use, counts as digits, flags yes/no, blanks empty. What `pound run`
reads back is therefore what the accounts were built from."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd

from pipeline.core.errors import PoundError
from pipeline.core.params import Parameters
from pipeline.core.progress import QUIET, Progress
from pipeline.core.registers import COUNT, DATE, FLAG, MONEY, REGISTERS, Register
from pipeline.load.bundle_toml import NAME, BundleInfo, bundle_toml
from pipeline.synth import accounts, cases
from pipeline.synth.config import SynthConfig
from pipeline.synth.ledgers import ledgers
from pipeline.synth.plants import plant
from pipeline.synth.reference import reference
from pipeline.synth.state import Generator


def _text(reg: Register) -> str:
    """The SELECT list that writes a register table's typed columns as a clerk's CSV holds them:
    dates ISO, money as rupees with two decimals (the SQL macro rupees()), counts as digits, flags yes/no."""
    out = []
    for col in reg.columns:
        x = '"' + col.name + '"'
        if col.kind == DATE:
            x = f"strftime({x}, '%Y-%m-%d')"
        elif col.kind == MONEY:
            x = f"rupees({x})"
        elif col.kind == COUNT:
            x = f"CAST({x} AS VARCHAR)"
        elif col.kind == FLAG:
            x = f"CASE WHEN {x} THEN 'yes' ELSE 'no' END"
        out.append(f'{x} AS "{col.name}"')
    return ", ".join(out)


def _copy(con: duckdb.DuckDBPyConnection, reg: Register, where: str, path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    target = str(path).replace("'", "''")
    con.execute(f"COPY (SELECT {_text(reg)} FROM {reg.table} WHERE {where} ORDER BY _row) TO '{target}' (FORMAT csv, HEADER)")
    return con.execute(f"SELECT count(*) FROM {reg.table} WHERE {where}").fetchone()[0]


def write_files(books: accounts.Books, out: Path) -> int:
    """Every register table of the books as the bundle's CSV files; impoundments and releases one file a year.
    Returns the number of rows written."""
    rows = 0
    for reg in REGISTERS:
        by = {"impoundments": "impounded_on", "releases": "released_on"}.get(reg.name)
        years = books.con.execute(f"SELECT DISTINCT year({by}) FROM {reg.table} ORDER BY 1").fetchall() if by else []
        if years:
            for (y,) in years:
                rows += _copy(books.con, reg, f"year({by}) = {y}", out / reg.folder / f"{reg.name}_{y}.csv")
        else:
            rows += _copy(books.con, reg, "true", out / reg.folder / f"{reg.name}.csv")
    return rows


STEPS = ("reference tables", "cases", "releases and deposits", "unclaimed cattle", "s.17 sales",
         "the dues (first build)", "security outcomes", "removal orders", "planted violations",
         "the accounts (second build)", "ledgers", "writing CSV files")


def write_bundle(out: Path, cfg: SynthConfig, progress: Progress = QUIET, params: Parameters | None = None) -> str:
    """Synthesise a bundle into the empty folder out, its accounts following params (default: the defaults)."""
    if out.exists() and any(out.iterdir()):
        raise PoundError(f"{out} exists and is not empty; give a new folder for the synthetic bundle")
    g = Generator(cfg, params)
    step = iter(enumerate(STEPS, 1))

    def next_step() -> None:
        i, what = next(step)
        progress.step(f"[{i}/{len(STEPS)}] {what}")

    for make in (reference, cases.impoundments, cases.releases, cases.unclaimed, cases.refusals):
        next_step()
        make(g)
    next_step()
    cases.settle_dues(g, accounts.dues(g))
    for make in (cases.deposit_outcomes, cases.removal_orders, plant):
        next_step()
        make(g)
    next_step()
    books = accounts.settle(g)
    next_step()
    ledgers(g, *accounts.credits(books))
    next_step()
    books.load({name: g.t[name] for name in ("sales", "local_fund", "dm_deposit", "surplus_claims")})      # as settled and recorded
    out.mkdir(parents=True, exist_ok=True)
    rows = write_files(books, out)
    books.con.close()
    planted = pd.DataFrame(sorted(g.planted), columns=["rule_id", "subject_id"])
    planted.to_csv(out / "planted.csv", index=False, lineterminator="\n")
    (out / "README.txt").write_text(_readme(g, len(planted)), encoding="utf-8")
    info = BundleInfo(as_of=g.end_date, district=g.districts[0] if len(g.districts) == 1 else None,
                      prepared_by=f"pound synth, seed {cfg.seed}")
    (out / NAME).write_text(bundle_toml(info), encoding="utf-8")
    progress.done(f"wrote {rows:,} rows to {out}")
    kinds = len(set(planted.rule_id))
    return (f"wrote {out}: {len(g.c):,} cases, {rows:,} rows in all; {len(planted)} planted violations of {kinds} rules "
            f"(planted.csv); registers run to {g.end_date}: use --as-of {g.end_date}"
            + (f" --params {g.params.source}" if g.params_differ else ""))


def _readme(g: Generator, planted: int) -> str:
    cfg = g.cfg
    text = (f"Synthetic pound registers (pound synth, seed {cfg.seed}): {cfg.pounds} pounds, {cfg.months} months from "
            f"{g.first:%Y-%m}, about {cfg.cases_per_month} cases per pound per month.\n"
            f"The registers run to {g.end_date}; run them as of that day:\n"
            f"  pound run THIS_FOLDER --out OUT --as-of {g.end_date}\n")
    if g.params_differ:
        text += (f"Their accounts follow these readings, not the defaults (from {g.params.source}); give pound run the same:\n"
                 + "".join(f"  {name} = {json.dumps(value)}\n" for name, value in g.params_differ.items()))
    return text + f"planted.csv lists the {planted} violations planted on purpose; every other row is clean.\n"
