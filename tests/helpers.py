"""Small bundles for tests: register rows as CSV files, or inserted straight into a database.

A bundle starts from a minimal, valid reference set (one local authority,
two pounds in two taluks, rates for every class, s.13 and s.14 notified in
one taluk, a few officials); a test adds or replaces the tables it cares about.

Model and rule tests start from typed rows inserted into the register tables
(`built`, `built_rows`): the rows are typed by the loader's own parser
(pipeline.load.values) and inserted by pipeline.load.typed, without the GX suite and
the key checks, which the loading tests cover. `load` goes through the whole load.
"""

from __future__ import annotations

import csv
import datetime as dt
import shutil
from pathlib import Path

import duckdb
import pandas as pd

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import BY_NAME, REGISTERS
from pipeline.load import connection
from pipeline.load.bundle import find_sources, read_source
from pipeline.load.ingest import ingest
from pipeline.load.typed import insert_typed
from pipeline.load.values import parse_problems, typed_select

AS_OF = dt.date(2026, 11, 30)
SAMPLE_BUNDLE = Path(__file__).resolve().parents[1] / "data" / "sample"
SYNTH_MONTH = "2026-08"      # the month of the synthetic district the report tests render (reports/conftest.py)

REFERENCE = {
    "local_authorities": [
        {"local_authority_id": "LA1", "name": "Town Council", "kind": "municipality", "district": "Mysuru"},
        {"local_authority_id": "LA2", "name": "Village Panchayat", "kind": "gram_panchayat", "district": "Mysuru"},
    ],
    "officials": [
        {"person_id": "PK1", "name": "Ramesh Gowda", "role": "pound_keeper", "district": "Mysuru"},
        {"person_id": "PK2", "name": "Savitha N", "role": "pound_keeper", "district": "Mysuru"},
        {"person_id": "SO1", "name": "Manjunath K", "role": "sale_officer", "district": "Mysuru"},
        {"person_id": "PK9", "name": "Anand Rao", "role": "pound_keeper", "district": "Mandya"},
    ],
    "pounds": [
        # P1: taluk Plain, where neither s.13 nor s.14 is notified.
        {"pound_id": "P1", "name": "Plain Pound", "local_authority_id": "LA1", "taluk": "Plain",
         "district": "Mysuru", "pound_keeper_id": "PK1"},
        # P2: taluk Notified, where s.13 and s.14 are notified from 2025-01-01.
        {"pound_id": "P2", "name": "Notified Pound", "local_authority_id": "LA2", "taluk": "Notified",
         "district": "Mysuru", "pound_keeper_id": "PK2"},
    ],
    "rates": [
        {"animal_class": c, "taluk": "*", "effective_from": "2014-05-01", "effective_to": "",
         "fine_per_head": f, "feeding_per_head_per_day": d, "security_per_head": s}
        for c, f, d, s in [("cattle", "600", "200", "1000"), ("calf", "300", "100", "500"),
                           ("buffalo", "600", "200", "1000"), ("horse", "600", "200", "1000"),
                           ("mule", "600", "200", "1000"), ("ass", "300", "100", "500"),
                           ("pig", "300", "100", "500"), ("sheep", "150", "50", "250"),
                           ("goat", "150", "50", "250"), ("camel", "800", "300", "1500"),
                           ("elephant", "2000", "1000", "5000")]
    ],
    "notifications": [
        {"section": "13", "taluk": "Notified", "effective_from": "2025-01-01", "effective_to": "", "gazette_ref": "G13"},
        {"section": "14", "taluk": "Notified", "effective_from": "2025-01-01", "effective_to": "", "gazette_ref": "G14"},
    ],
}


_IN_MEMORY: list = []


def empty_cursor() -> duckdb.DuckDBPyConnection:
    """A connection of its own (its own temporary tables and views, and the frames registered on it) to
    one in-memory database made once for the test process, for a property test's many examples: DuckDB
    takes about 17 ms of CPU to make a database, a fraction of a millisecond to connect to one. The
    database itself holds nothing, as a new one would not: checked each time."""
    if not _IN_MEMORY:
        _IN_MEMORY.append(duckdb.connect())
    con = _IN_MEMORY[0].cursor()
    held = con.execute("SELECT (SELECT count(*) FROM duckdb_tables()) + (SELECT count(*) FROM duckdb_views() "
                       "WHERE NOT internal)").fetchall()[0][0]      # fetched whole: the connection left free
    assert held == 0, f"the shared in-memory database holds {held} table(s) or view(s)"
    return con


def file_columns(register: str, rows: list[dict]) -> list[str]:
    """The columns a test's file of these rows has: every column of the register but one that stands in
    for another when left out (Column.absent_as, R25's market_proclamation_on) and no row names: the
    file is then one made before the column, as a clerk's old file is."""
    return [c.name for c in BY_NAME[register].columns if not c.absent_as or any(c.name in r for r in rows)]


def write_csv(path: Path, rows: list[dict], columns: list[str] | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if columns is None:
        columns = list(rows[0].keys()) if rows else []
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=columns, extrasaction="raise")
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in columns})
    return path


def make_bundle(root: Path, reference: bool = True, **tables: list[dict]) -> Path:
    """Write a bundle under root. tables: register name -> rows (dicts; missing columns blank)."""
    if reference:
        for name, rows in REFERENCE.items():
            if name not in tables:
                write_csv(root / "reference" / f"{name}.csv", rows, BY_NAME[name].names)
    for name, rows in tables.items():
        reg = BY_NAME[name]
        write_csv(root / reg.folder / f"{name}.csv", rows, file_columns(name, rows))
    return root


def case(case_id="C1", pound_id="P1", impounded_on="2026-10-01", animal_class="cattle", head_count=1,
         owner_id="O1", **more) -> dict:
    row = {"case_id": case_id, "pound_id": pound_id, "impounded_on": impounded_on, "seized_on": impounded_on,
           "animal_class": animal_class, "head_count": head_count, "owner_id": owner_id,
           "owner_name": f"Owner {owner_id}" if owner_id else ""}
    row.update(more)
    return row


def insert_text(con, register: str, frame: pd.DataFrame, label: str) -> None:
    """Type a frame of text cells (with `_row`) with the loader's parser and insert it; a cell
    that does not parse fails the test."""
    reg = BY_NAME[register]
    con.register("_text_rows", frame)
    try:
        typed = con.execute(typed_select(reg, "_text_rows", [], unparsed=True)).df()      # as the loader types a file
        if typed["_unparsed"].any():
            problems, _ = parse_problems(con, reg, "_text_rows", label, 20)
            raise AssertionError([p.render() for p in problems] or "a cell did not parse")
    finally:
        con.unregister("_text_rows")
    insert_typed(con, register, typed.drop(columns=["_extra", "_unparsed"]), label)


def text_frame(register: str, rows: list[dict]) -> pd.DataFrame:
    """Rows written as a clerk writes them (text; missing columns blank), as the cells of a file:
    every column of the register, and `_row` from spreadsheet row 2."""
    reg = BY_NAME[register]
    # a column left out of the file (file_columns) takes the cells of the one it stands in for
    named = set(file_columns(register, rows))
    cell = {c.name: c.name if c.name in named else c.absent_as for c in reg.columns}
    frame = pd.DataFrame([{c: "" if r.get(cell[c]) is None else str(r.get(cell[c])) for c in reg.names} for r in rows],
                         columns=reg.names, dtype=str)
    frame.insert(0, "_row", range(2, len(frame) + 2))
    return frame


def insert_rows(con, register: str, rows: list[dict], label: str | None = None) -> None:
    """Insert rows written as a clerk writes them (text; missing columns blank) into a register table."""
    reg = BY_NAME[register]
    insert_text(con, register, text_frame(register, rows), label or f"{reg.folder}/{register}.csv")


def database(reference: bool = True, path: Path | str = ":memory:", **tables: list[dict]):
    """A database holding the reference set (unless replaced) and the given register rows.

    The reference set, when no table of it is replaced, is inserted once per session
    (tests/shared.py): the database is a copy of that one, with the given rows inserted after it,
    in the same order as they would otherwise be."""
    import shared

    if reference and path == ":memory:" and not set(tables) & set(REFERENCE) and shared.SESSION is not None:
        copy = shared.SESSION.scratch("db") / "pound.duckdb"
        shutil.copyfile(shared.SESSION.reference_file(), copy)
        con = connection.connect(copy)
    else:
        con = connection.connect(path)
        if reference:
            tables = {**{k: v for k, v in REFERENCE.items() if k not in tables}, **tables}
    for reg in REGISTERS:
        if reg.name in tables and tables[reg.name]:
            insert_rows(con, reg.name, tables[reg.name])
    return con


def built_rows(as_of: dt.date = AS_OF, params: dict | None = None, upto: tuple[str, ...] | None = None,
               **tables: list[dict]):
    """The reference set and the given rows, inserted typed and built (with `upto`, only those tables
    and what they read: pipeline.build.build). Returns the connection."""
    con = database(**tables)
    build(con, Parameters(params or {}, as_of=as_of), upto=upto)
    return con


def snapshot(con) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order: for checking that nothing changed."""
    out = {}
    for (name,) in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
            "AND table_type = 'BASE TABLE' ORDER BY 1").fetchall():
        out[name] = con.execute(f'SELECT * FROM "{name}" ORDER BY ALL').fetchall()
    return out


def load(bundle: Path, path: Path | str = ":memory:"):
    """Ingest a bundle into a database through the whole load; returns (connection, result)."""
    con = connection.connect(path)
    return con, ingest(con, bundle)


def built(bundle: Path, as_of: dt.date = AS_OF, params: dict | None = None, upto: tuple[str, ...] | None = None):
    """Every file of a bundle folder, typed and inserted (no suite, no key checks), then built (with
    `upto`, only those tables and what they read: pipeline.build.build).

    The repository's own bundles (data/sample, tests/golden/bundle) are built whole once per session
    for each as_of and parameters (tests/shared.py), and each call gets a copy of that database."""
    import shared

    if shared.SESSION is not None and Path(bundle).resolve() in shared.SHARED_BUNDLES:
        assert upto is None, "a shared bundle is built whole, once a session"
        copy = shared.SESSION.scratch("built") / "built.duckdb"
        shutil.copyfile(shared.SESSION.built_file(bundle, as_of, params), copy)
        return connection.connect(copy)
    return built_into(":memory:", bundle, as_of, params, upto)


def inserted_into(path: Path | str, bundle: Path):
    """Every file of a bundle folder, typed and inserted (no suite, no key checks), in the
    database at path; nothing built."""
    con = connection.connect(path)
    sources, _, broken = find_sources(bundle)
    assert not broken, [p.render() for p in broken]
    for src in sources:
        read = read_source(src, in_python=True)    # the cells as a frame (a CSV file is read in Python)
        assert not read.problems, [p.render() for p in read.problems]
        insert_text(con, src.register.name, read.frame[["_row", *src.register.names]], src.label)
    return con


def built_into(path: Path | str, bundle: Path, as_of: dt.date = AS_OF, params: dict | None = None,
               upto: tuple[str, ...] | None = None):
    """What `built` makes, in the database at path (of a shared bundle: a copy of the session's
    database of its rows, built)."""
    import shared

    if shared.SESSION is not None and Path(bundle).resolve() in shared.SHARED_BUNDLES and path != ":memory:":
        shutil.copyfile(shared.SESSION.inserted_file(bundle), path)
        con = connection.connect(path)
    else:
        con = inserted_into(path, bundle)
    build(con, Parameters(params or {}, as_of=as_of), upto=upto)
    return con


def rows(con, sql: str, *args) -> list[tuple]:
    return con.execute(sql, list(args)).fetchall()


def read_notebook(path: Path):
    """A jupytext notebook file, read. jupytext is imported here, when a test reads one, not when
    the test modules are collected: it imports nbformat and with it jsonschema's format grammars,
    about 1.5 s that every test process paid before running anything."""
    import jupytext

    return jupytext.read(path)


def pound_process(*args, kill_at: str | None = None):
    """`python -m pipeline ARGS` as its own process (quiet), killed at the fault point `kill_at`
    (pipeline/core/faults.py) when given: the completed process, its output captured."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, POUND_QUIET="1")
    env.pop("POUND_KILL_AT", None)
    if kill_at:
        env["POUND_KILL_AT"] = kill_at
    return subprocess.run([sys.executable, "-m", "pipeline", *map(str, args)], env=env, capture_output=True,
                          text=True)


def fake_reports(db, month, district, out, sealing=None, sealed_id=None, kept=None):
    """Three small pages in place of the rendered reports (render_reports and seal's)."""
    from pipeline.close import seal
    from pipeline.reports.render import Pages

    paths = []
    page_one = ""
    if sealing:                          # a sealed copy shows page 1's figures, as the real page does
        from pipeline.read.database import connect
        from pipeline.reports import glance

        con = connect(db)
        try:
            page_one = "".join(f"<tr><th>{f['label']}</th><td>{f['text']}</td></tr>"
                               for f in glance.sealed(con, month, district))
        finally:
            con.close()
    for name in ("monthly_review", "reconciliation", "trends"):
        p = Path(out) / f"{name}_{month}{seal.report_suffix(district)}.html"
        # what the real page says of the close, and the close's figures id it prints
        said = f" closed: {sealing}" + (f" figures id {sealed_id}" if sealed_id else "") + \
            (f"<table>{page_one}</table>" if page_one else "") if name == "monthly_review" else ""
        p.write_text(f"<html><body>{name} {month}{said}</body></html>", encoding="utf-8")
        paths.append(p)
    return Pages(paths)


def rebound(db: Path, bundle: Path) -> None:
    """A copied office's database told where its bundle now is (loads.bundle, as a load from there
    writes it; loads.bundle_at, relative, holds for a copy of the whole office)."""
    import duckdb

    con = duckdb.connect(str(db))
    try:
        for table in ("loads", "stg_loads"):
            con.execute(f"UPDATE {table} SET bundle = ?", [str(Path(bundle).resolve())])
    finally:
        con.close()


def _fake_month_reports(monkeypatch) -> None:
    from pipeline.close import seal
    from pipeline.reports import render

    monkeypatch.setattr(render, "render_reports", lambda db, month, district, out, *a, **k:
                        fake_reports(db, month, district, out))
    monkeypatch.setattr(seal, "render_reports", fake_reports)
    monkeypatch.setenv("POUND_LOAD_TIME", "2026-12-04T10:00:00")


def office_copy(shared, root: Path, monkeypatch, closed: bool = False) -> str:
    """An office: data/sample as ROOT/mysuru with November's month run there (`pound month`, the
    database ROOT/pound.duckdb, the review in ROOT/r11; `closed`: and November closed by "DM"), made
    once a session (tests/shared.py) and copied into ROOT, the test's working folder from then on,
    with the reports drawn by fake_reports: what `pound month` said."""
    import pytest
    from shared import quietly

    from pipeline.cli import main

    def make(folder: Path) -> None:
        with pytest.MonkeyPatch.context() as mp:
            _fake_month_reports(mp)
            mp.chdir(folder)
            shutil.copytree(SAMPLE_BUNDLE, folder / "mysuru")
            code, said = quietly(main, ["month", "mysuru", "--db", "pound.duckdb", "--month", "2026-11", "--out", "r11"])
            assert code == 0, said
            (folder / "said.txt").write_text(said, encoding="utf-8")
            if closed:
                code, out = quietly(main, ["close", "--db", "pound.duckdb", "--month", "2026-11", "--by", "DM",
                                           "--bundle", "mysuru"])
                assert code == 0, out

    made = shared.once(f"month-office-{'closed' if closed else 'open'}", make)
    shutil.copytree(made, root, dirs_exist_ok=True)
    rebound(root / "pound.duckdb", root / "mysuru")
    _fake_month_reports(monkeypatch)
    monkeypatch.chdir(root)
    return (root / "said.txt").read_text(encoding="utf-8")
