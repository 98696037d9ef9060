"""The closes of a bundle: BUNDLE/closes/<month>[_<district>]/close.json, written by `pound close`.

A close is part of the bundle, like its registers: every build reads every close of the
bundles bound to it (bundles_bound: the bundle it is given, else where the database finds the
bundles it was loaded from, relative to its folder when they were beside it) into the tables closes, closed_accounts,
closed_findings, closed_files, closed_parameters, closed_reconciliation and closed_page (load/schema.py), afresh, so that the model
marts/adjustments.sql can compare the current figures of each closed month with the
figures the District Magistrate signed off. Nothing here compares or computes a figure:
the file's figures are only copied into rows.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb

from pipeline.core.errors import PoundError
from pipeline.core.months import month_bounds
from pipeline.core.page_measures import by_measure
from pipeline.load.bundle import CLOSES
from pipeline.load.schema import CLOSE_TABLES

# The format pound close writes. A close of FORMAT_1 (before the figures id sealed the whole
# record) is read and verified as it always was: its figures id covers page 1 alone.
FORMAT = "pound-close/2"
FORMAT_1 = "pound-close/1"
FORMATS = (FORMAT_1, FORMAT)
CLOSE_FILE = "close.json"


def bundles_loaded(con: duckdb.DuckDBPyConnection, db: Path) -> list[tuple[Path, list[str]]]:
    """The bundles the database `db` was loaded from, the one loaded from last first: each where
    the database finds it now (loads.bundle_at, relative to db's folder when it was near:
    schema.bundle_place), with the files loaded from it."""
    home = Path(db).resolve().parent
    # a database an earlier version loaded and nothing since opened for writing has no bundle_at yet
    column = "bundle_at" if con.execute("SELECT count(*) FROM duckdb_columns() WHERE database_name = current_database() "
                                    "AND table_name = 'loads' AND column_name = 'bundle_at'").fetchone()[0] else "NULL"
    found: dict[tuple, list[str]] = {}
    for at, full, file in con.execute(f"SELECT {column}, bundle, file FROM loads WHERE coalesce({column}, bundle) "
                                      "IS NOT NULL ORDER BY load_id DESC").fetchall():
        found.setdefault((at, None if at else full), []).append(file)
    out: list[tuple[Path, list[str]]] = []
    for (at, full), files in found.items():
        place = (home / at).resolve() if at else _place_of_old(Path(full), files, home)
        for i, (seen, held) in enumerate(out):
            if seen == place:
                out[i] = (seen, held + files)
                break
        else:
            out.append((place, files))
    return out


def _place_of_old(bundle: Path, files: list[str], home: Path) -> Path:
    """Where a database loaded by a version that kept the bundle's full path alone (loads.bundle_at
    NULL) finds it: a folder of that name in the database's folder or beside it holding every file
    loaded from it (the office folder copied or moved with its database), else the path as kept."""
    for near in (home / bundle.name, home.parent / bundle.name):
        if holds(near, files):
            return near.resolve()
    return bundle


def holds(folder: Path, files: list[str]) -> bool:
    """Whether `folder` holds every one of `files` (labels of loads: a workbook's sheet is its file)."""
    folder = Path(folder)
    return bool(files) and folder.is_dir() and all((folder / f.split(" [", 1)[0]).is_file() for f in files)


def bundles_bound(con: duckdb.DuckDBPyConnection, db: Path, given: Path | None = None) -> list[Path]:
    """The bundles whose closes a build of `db` reads (and a close may go into): `given`, the bundle
    a command names, in place of each bundle loaded from that is the same folder or whose files it
    holds (the office folder copied with its database); each other bundle loaded from, where the
    database finds it (bundles_loaded). Never the path a row kept of a folder that was copied.
    PoundError when `given` stands for no bundle the database was loaded from."""
    loaded = bundles_loaded(con, db)
    if given is None:
        return [place for place, _ in loaded]
    given = Path(given).resolve()
    others = [place for place, files in loaded if place != given and not holds(given, files)]
    if loaded and len(others) == len(loaded):
        raise PoundError(f"{given} is not a bundle the database {db} was loaded from (it was loaded from "
                         + ", ".join(str(p) for p, _ in loaded) + "): give the bundle its files came from, or make "
                         f"a database of this one (pound run {given} --out FOLDER)")
    return [given, *others]


def close_folders(bundle: Path) -> list[Path]:
    """The close folders of a bundle (hidden folders, a close being written, are passed over)."""
    root = Path(bundle) / CLOSES
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def read_close(folder: Path) -> dict:
    """The close.json of a close folder, or PoundError saying why it cannot be read."""
    path = Path(folder) / CLOSE_FILE
    if not path.is_file():
        # refused, not passed over: a close whose close.json went missing would otherwise unseal its month
        raise PoundError(f"{folder} holds no {CLOSE_FILE}: every folder under {CLOSES}/ is a close written by "
                         f"pound close; restore its {CLOSE_FILE}, or move the folder out of {CLOSES}/")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise PoundError(f"{path} cannot be read as JSON ({exc.__class__.__name__}); it was not written by pound close "
                         "or has been altered") from None
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise PoundError(f"{path} is not a close written by pound close (no format "
                         + " or ".join(repr(f) for f in FORMATS) + ")")
    for key, parse in REQUIRED.items():
        value = data.get(key)
        try:
            ok = isinstance(value, str) and bool(value.strip()) and parse(value) is not None
        except (ValueError, PoundError):
            ok = False
        if not ok:
            raise PoundError(f"{path}: key {key!r} is {'missing' if value is None else repr(value)}; expected "
                             f"{EXPECTED[key]}. It was not written by pound close or has been altered")
    return data


# the keys every reader of a close relies on, how each is read, and what is expected of it
REQUIRED = {"month": month_bounds, "closed_by": str.strip, "closed_at": dt.datetime.fromisoformat,
            "as_of": dt.date.fromisoformat}
EXPECTED = {"month": "a month, YYYY-MM", "closed_by": "who closed the month",
            "closed_at": "the time of the close, YYYY-MM-DD HH:MM:SS", "as_of": "the as-of date, YYYY-MM-DD"}


def every_close(bundles: list[Path]) -> list[tuple[Path, dict]]:
    return [(folder, read_close(folder)) for bundle in bundles for folder in close_folders(bundle)]


def closes_of(bundle: Path, month: str, district: str | None = None) -> list[tuple[Path, dict]]:
    """The closes of a month (of one district, or of all: district None) in a bundle, oldest first."""
    mine = [(f, c) for f, c in every_close([Path(bundle)])
            if c["month"] == month and (c.get("district") or None) == (district or None)]
    return sorted(mine, key=lambda fc: fc[1]["closed_at"])


def in_force(bundle: Path, month: str, district: str | None = None) -> tuple[Path, dict] | None:
    """The close in force of a month (folder, close.json), or None when it was not closed: the one
    closed last, as stg_closes.in_force says (a month closed again keeps both closes)."""
    mine = closes_of(bundle, month, district)
    return mine[-1] if mine else None


def load_closes(con: duckdb.DuckDBPyConnection, bundles: list[Path]) -> int:
    """Replace the close tables with the closes of `bundles` (bundles_bound); returns how many."""
    found = every_close(bundles)
    # A close is the office's: known by its month, district, time and folder within the bundle, not
    # by where the bundle stands. The same close seen in two places (the office folder copied or
    # moved, and both paths loaded from) is one close, counted once.
    seen: set[tuple] = set()
    unique = []
    for folder, c in found:
        key = (c["month"], c.get("district"), c["closed_at"], folder.name)
        if key not in seen:
            seen.add(key)
            unique.append((folder, c))
    for table in CLOSE_TABLES:
        con.execute(f"DELETE FROM {table}")
    for close_id, (folder, c) in enumerate(unique, 1):
        insert_close(con, close_id, folder, c)
    return len(unique)


def insert_close(con: duckdb.DuckDBPyConnection, close_id: int, folder: Path, c: dict) -> None:
    figures = c.get("figures", {})
    con.execute("INSERT INTO closes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [close_id, f"{CLOSES}/{Path(folder).name}", c["month"], c.get("district"), c["closed_by"],
                 dt.datetime.fromisoformat(c["closed_at"]), c.get("note"), c.get("reopen"),
                 dt.date.fromisoformat(c["as_of"])])
    # every whole-number figure of a monthly_accounts row is one measure
    accounts = [(close_id, row["pound_id"], name, value) for row in figures.get("accounts", [])
                for name, value in row.items() if isinstance(value, int) and not isinstance(value, bool)]
    if accounts:
        con.executemany("INSERT INTO closed_accounts VALUES (?, ?, ?, ?)", accounts)
    findings = [(close_id, f["rule_id"], f["subject_id"], f.get("pound_id"), f.get("review_status"))
                for f in figures.get("findings", [])]
    if findings:
        con.executemany("INSERT INTO closed_findings VALUES (?, ?, ?, ?, ?)", findings)
    files = [(close_id, f["file"], f["sha256"], f["rows"]) for f in c.get("inputs", [])]
    if files:
        con.executemany("INSERT INTO closed_files VALUES (?, ?, ?, ?)", files)
    recon = [(close_id, r["ledger"], r.get("local_authority_id"), r["reference"], r["head"], r.get("difference"),
              r.get("district")) for r in figures.get("reconciliation", [])]
    if recon:
        con.executemany("INSERT INTO closed_reconciliation VALUES (?, ?, ?, ?, ?, ?, ?)", recon)
    # by measure id; a close sealed before page 1's figures carried ids is read by its labels (page_measures)
    page = [(close_id, m, f["value"]) for m, f in by_measure(c.get("signed", [])).items()
            if isinstance(f.get("value"), int)]
    if page:
        con.executemany("INSERT INTO closed_page VALUES (?, ?, ?)", page)
    params = [(close_id, name, value) for name, value in c.get("parameters", {}).items()]
    if params:
        con.executemany("INSERT INTO closed_parameters VALUES (?, ?, ?)", params)
