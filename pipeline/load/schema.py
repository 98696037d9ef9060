"""The database's tables: the register tables, `loads`, `builds`, the closes' tables and
`register_columns`, made where they are missing; and the one definition of a register's current
version of each key.

Register tables are named after their register (impoundments, releases, ...)
and hold the typed columns of registers.py plus where each row came from:
`_file` and `_row` (the spreadsheet row), `_load_id` (a row of `loads`),
`_extra` (any columns the file had beyond the declared ones, kept as text) and
`_version`: a register or ledger row sent again with different values and a
correction note is kept as a new version of its key (1, 2, ...); nothing is ever
overwritten, and the computations read the latest version of each key (see
_current(): the loader's current_rows() and the models' current_<table>() macros).
The connection's settings are in connection.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from pipeline.core.columns import SQL_TYPE, Register
from pipeline.core.registers import REGISTERS

LOADS_DDL = """
CREATE TABLE IF NOT EXISTS loads (
    load_id   INTEGER PRIMARY KEY,
    file      VARCHAR NOT NULL,   -- as messages name it: folder/name.csv or book.xlsx [sheet x]
    register  VARCHAR NOT NULL,
    sha256    VARCHAR NOT NULL,   -- of the file's bytes; of the sheet's cells written as CSV
    rows      BIGINT NOT NULL,    -- data rows in the file (blank rows not counted)
    new_rows  BIGINT NOT NULL,    -- rows added; identical rows already held are not added again
    loaded_at TIMESTAMP NOT NULL,
    status    VARCHAR NOT NULL,   -- loaded | no_new_rows
    bundle    VARCHAR,            -- the bundle's full path when it was loaded (for messages)
    bundle_as_of DATE,            -- the as_of of the bundle's bundle.toml, when it gives one
    bundle_at VARCHAR,            -- the bundle as a build finds it (bundle_place): NULL in older rows
    digest    VARCHAR             -- of the rows the file added, as loaded (load/digests.py): NULL in older rows
)
"""


LOADS_COLUMNS = "load_id, file, register, sha256, rows, new_rows, loaded_at, status, bundle, bundle_as_of, bundle_at, digest"


# One row a build (pipeline/build/record.py): when it was made, as of which day, and the last
# load it reflects; a load with a higher load_id came after the figures.
BUILDS_DDL = """
CREATE TABLE IF NOT EXISTS builds (
    build_id     INTEGER PRIMARY KEY,
    built_at     TIMESTAMP NOT NULL,
    as_of        DATE NOT NULL,
    last_load_id INTEGER NOT NULL,
    files        INTEGER NOT NULL
)
"""
# What a review printed for a month (pipeline/reports/stamp.py), so that a close can say what moved since.
PRINTED_DDL = """
CREATE TABLE IF NOT EXISTS printed_reviews (
    month      VARCHAR NOT NULL,
    district   VARCHAR,
    figures_id VARCHAR NOT NULL,
    figures    VARCHAR NOT NULL,  -- JSON: glance.sealed()
    build_id   INTEGER,
    last_load_id INTEGER,
    printed_at TIMESTAMP NOT NULL,
    pages      VARCHAR            -- JSON: each page printed and its sha256 (a close copies only those)
)
"""


def bundle_text(bundle) -> str:
    """The bundle a file was loaded from, as loads.bundle holds it: its full path."""
    return str(Path(bundle).resolve())


def bundle_place(bundle, home) -> str:
    """The bundle as loads.bundle_at holds it, for a database in the folder `home`: relative to
    that folder when the bundle lies in it or beside it (within home's parent), so that the office
    folder copied or moved with its database finds its own bundle; else its full path (a bundle
    elsewhere is not copied with the database). `home` None: the full path."""
    full = Path(bundle).resolve()
    if home is None:
        return str(full)
    home = Path(home).resolve()
    if full.is_relative_to(home.parent):
        return Path(os.path.relpath(full, home)).as_posix()
    return str(full)


def table_ddl(reg: Register) -> str:
    cols = [f'"{c.name}" {SQL_TYPE[c.kind]}' for c in reg.columns]
    cols += ["_extra MAP(VARCHAR, VARCHAR)", "_file VARCHAR NOT NULL", "_row BIGINT NOT NULL",
             "_load_id INTEGER NOT NULL", "_version INTEGER NOT NULL DEFAULT 1"]
    return f"CREATE TABLE IF NOT EXISTS {reg.table} (\n    " + ",\n    ".join(cols) + "\n)"


def _register_columns() -> list[tuple[str, str, str, int]]:
    return [(reg.name, c.name, c.kind, i) for reg in REGISTERS for i, c in enumerate(reg.columns)]


def has_table(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether the database `con` has open holds the table `table` of its own (a table: a view is not counted)."""
    return bool(con.execute("SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() "
                            "AND schema_name = 'main' AND table_name = ?", [table]).fetchone()[0])


def catalogue(con: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[str, str]]]:
    """Every table and view of the database (neither DuckDB's own nor temporary ones), by name,
    with its columns and their types in order: one look at the catalogue."""
    out: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in con.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' "
            "AND database_name = current_database() ORDER BY table_name, column_index").fetchall():
        out.setdefault(table, []).append((column, kind))
    return out


def _schema_is_current(con: duckdb.DuckDBPyConnection, have: dict[str, set[str]]) -> bool:
    """Whether every table ensure_schema makes is there with every column (`have`: the catalogue's
    tables and their columns), and register_columns holds this version's contract."""
    want = {"loads": {"bundle_as_of", "bundle_at", "digest"}} | {reg.table: set(reg.names) | {"_version"} for reg in REGISTERS}
    want |= {table: set() for table in CLOSE_TABLES} | {"closed_page": {"measure"}, "register_columns": set(), "builds": set(),
                                                         "printed_reviews": {"pages"}}
    if any(t not in have or not cols <= have[t] for t, cols in want.items()):
        return False
    held = con.execute("SELECT register, column_name, kind, position FROM register_columns "
                       "ORDER BY register, position").fetchall()
    return held == sorted(_register_columns(), key=lambda r: (r[0], r[3]))


def _ddl_table(ddl: str) -> str:
    return ddl.split("EXISTS ", 1)[1].split(" ", 1)[0]


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Make the register tables, `loads`, the closes' tables and register_columns where they are
    missing (a database made by an earlier version gains what it lacks)."""
    have = {table: {c for c, _ in columns} for table, columns in catalogue(con).items()}
    if _schema_is_current(con, have):
        return
    con.execute("BEGIN TRANSACTION")           # all of it or none, and one write to the file
    try:
        con.execute(LOADS_DDL)
        if "loads" in have:                    # a database made before it
            for column in ("bundle_as_of DATE", "bundle_at VARCHAR", "digest VARCHAR"):
                con.execute(f"ALTER TABLE loads ADD COLUMN IF NOT EXISTS {column}")
        if "closed_page" in have and "measure" not in have["closed_page"]:
            con.execute("DROP TABLE closed_page")          # made by labels: filled again on the next load
        for ddl in (*CLOSES_DDL, BUILDS_DDL, PRINTED_DDL):
            con.execute(ddl)
        if "printed_reviews" in have:          # a database made before the pages were recorded with it
            con.execute("ALTER TABLE printed_reviews ADD COLUMN IF NOT EXISTS pages VARCHAR")
        for reg in REGISTERS:
            con.execute(table_ddl(reg))
            # a column the register gained since the database was made (a table made now has them all)
            for c in (c for c in reg.columns if reg.table in have and c.name not in have[reg.table]):
                con.execute(f'ALTER TABLE {reg.table} ADD COLUMN IF NOT EXISTS "{c.name}" {SQL_TYPE[c.kind]}')
                # rows loaded from files without it read as such a file does (Column.absent_as); the
                # column comes last, outside the digests their loads took
                if c.absent_as:
                    con.execute(f'UPDATE {reg.table} SET "{c.name}" = "{c.absent_as}"')
        # The contract's columns and their kinds, as data the models can read (the corrections
        # write a corrected amount as rupees and a corrected flag as yes/no).
        con.execute("CREATE OR REPLACE TABLE register_columns (register VARCHAR, column_name VARCHAR, kind VARCHAR, "
                    "position INTEGER)")
        rows = _register_columns()
        con.execute("INSERT INTO register_columns SELECT unnest(?), unnest(?), unnest(?), unnest(?)",
                    [list(col) for col in zip(*rows, strict=True)])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _current(reg: Register, table: str, keys_where: str | None = None) -> str:
    """The one definition of the current version of each key of a register: the row no later
    version of its key follows (struck-out rows included; a caller that wants the rows in force
    also asks NOT void). Most keys have one version, so the later ones are looked for among the
    few rows of version 2 and up."""
    match = " AND ".join(f'later."{k}" = _held."{k}"' for k in reg.key)
    where = f" AND ({keys_where})" if keys_where else ""
    return (f"SELECT * FROM {table} _held WHERE NOT EXISTS (SELECT 1 FROM {table} later "
            f"WHERE later._version > 1 AND {match} AND later._version > _held._version){where}")


def current_rows(reg: Register, table: str | None = None, keys_where: str | None = None) -> str:
    """SQL for the current version of each key of a register, for the load's checks.
    `keys_where`: a condition on the key columns of `_held` (the table) alone, for a caller that
    needs only some keys: every version of a key it keeps is kept, so each is still current."""
    return f"({_current(reg, table or reg.table, keys_where)})"


def current_macros() -> str:
    """The models' way to the same rows: a table macro current_<table>() for every register
    (`FROM current_releases() releases WHERE NOT void ...` in sql/staging), and for every register or
    ledger a macro own_day_<table>(row) giving a row's own date as REGISTERS declares it (event_date:
    `WHERE own_day_releases(releases) <= as_of()`); made by the build before the models and kept in
    the database, where the staging view stg_dated_rows reads them."""
    current = [f"CREATE OR REPLACE MACRO current_{reg.table}() AS TABLE {_current(reg, reg.table)};"
               for reg in REGISTERS]
    own_day = [f"CREATE OR REPLACE MACRO own_day_{reg.table}(r) AS {reg.own_day('r')};"
               for reg in REGISTERS if reg.event_date]
    return "\n".join(current + own_day)


# The closes of the bundle's months (BUNDLE/closes/*/close.json), read afresh at every build
# (closes.py): what the District Magistrate signed off, to compare the current figures with.
CLOSES_DDL = (
    "CREATE TABLE IF NOT EXISTS closes (close_id INTEGER, folder VARCHAR, month VARCHAR, district VARCHAR, "
    "closed_by VARCHAR, closed_at TIMESTAMP, note VARCHAR, reopen VARCHAR, as_of DATE)",
    "CREATE TABLE IF NOT EXISTS closed_accounts (close_id INTEGER, pound_id VARCHAR, measure VARCHAR, value BIGINT)",
    "CREATE TABLE IF NOT EXISTS closed_findings (close_id INTEGER, rule_id VARCHAR, subject_id VARCHAR, "
    "pound_id VARCHAR, review_status VARCHAR)",
    "CREATE TABLE IF NOT EXISTS closed_files (close_id INTEGER, file VARCHAR, sha256 VARCHAR, rows BIGINT)",
    "CREATE TABLE IF NOT EXISTS closed_parameters (close_id INTEGER, name VARCHAR, value VARCHAR)",
    "CREATE TABLE IF NOT EXISTS closed_reconciliation (close_id INTEGER, ledger VARCHAR, local_authority_id VARCHAR, "
    "reference VARCHAR, head VARCHAR, difference BIGINT, district VARCHAR)",
    # page 1's figures by measure id (core/page_measures.py); a database made when it held labels has
    # it made again: the close tables hold nothing but what load_closes reads again from closes/
    "CREATE TABLE IF NOT EXISTS closed_page (close_id INTEGER, measure VARCHAR, value BIGINT)",
)
CLOSE_TABLES = tuple(_ddl_table(ddl) for ddl in CLOSES_DDL)
