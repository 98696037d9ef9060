"""Several small bundles of one test module built in one database, each test reading its own rows.

A small build costs about half a second whatever its rows, and a parametrized model test whose
cases differ only in their rows built each case whole. Here the cases' rows are inserted into one
database (a copy of the session's reference set, helpers.database), each case's own ids marked
as its own (Q003~C1 for case C1 of the fourth case: every id column of the registers but the
reference set's, as tests/rules/scenarios.py marks them), and built once. Each case is then
handed a connection that sees, under the names of the tables asked for, only its own rows with
its mark taken off: the test's queries run on it as they ran on a database of the case alone.

A row of those tables that carries no case's mark, or two cases' marks, means the cases met in
the database: `Together` refuses it (ValueError), and test modules that use this check that a
case built alone gives what it gives together (`alone`).
"""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd
from helpers import AS_OF, database, insert_text, text_frame

from pipeline.build import build
from pipeline.core.params import Parameters
from pipeline.core.registers import BY_NAME, ID, REGISTERS

SHARED_IDS = frozenset({"pound_id", "local_authority_id", "pound_keeper_id", "person_id", "buyer_person_id",
                        "conducted_by"})
LEDGERS = frozenset({"local_fund", "dm_deposit"})
MARK = re.compile(r"Q(\d{3})~", re.IGNORECASE)     # a model may write an id lower-cased


def tag(i: int) -> str:
    return f"Q{i:03d}~"


def marked(i: int, register: str, rows: list[dict]) -> list[dict]:
    """The rows with each of the case's own ids marked (trimmed first, as the loader trims an id)."""
    reg = BY_NAME[register]
    ids = {c.name for c in reg.columns if c.kind == ID and c.name not in SHARED_IDS}
    if register in LEDGERS:
        ids.add("reference")

    def mark(v):
        text = "" if v is None else str(v).strip()
        return tag(i) + text if text else text

    return [{k: (mark(v) if k in ids else v) for k, v in r.items()} for r in rows]


class Together:
    """cases: name -> {register: rows}. Built once, at `as_of` and `params` (with `upto`, only those
    tables and the models they read: pipeline.build.build); `of(name)` is a connection that sees only
    that case's rows of `tables`, unmarked."""

    def __init__(self, cases: dict[str, dict[str, list[dict]]], tables: tuple[str, ...],
                 as_of: dt.date = AS_OF, params: dict | None = None, upto: tuple[str, ...] | None = None) -> None:
        self.names = list(cases)
        self.cases = cases
        self.tables = tables
        self.as_of, self.params, self.upto = as_of, params or {}, upto
        # the reference set (a copy of the session's), then each register's rows of every case, marked,
        # in one file label, each case's rows numbered from spreadsheet row 2 as they would be alone
        self.con = database()
        for reg in REGISTERS:
            frames = [text_frame(reg.name, rows) for i, name in enumerate(self.names)
                      if (rows := marked(i, reg.name, cases[name].get(reg.name) or []))]
            if frames:
                insert_text(self.con, reg.name, pd.concat(frames, ignore_index=True), f"{reg.folder}/{reg.name}.csv")
        build(self.con, Parameters(self.params, as_of=as_of), upto=upto)
        for table in tables:
            self._check(table)
        for i in range(len(self.names)):
            self._split(i)

    def _text_columns(self, table: str) -> list[str]:
        return [c for (c, t) in self.con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = ?",
            [table]).fetchall() if t == "VARCHAR"]

    def _check(self, table: str) -> None:
        """Every row of the table carries the mark of exactly one case."""
        cols = self._text_columns(table)
        joined = " || '|' || ".join(f'coalesce("{c}", \'\')' for c in cols) or "''"
        for (text,) in self.con.execute(f'SELECT {joined} FROM main."{table}"').fetchall():
            found = set(MARK.findall(text))
            if len(found) != 1:
                raise ValueError(f"a row of {table} of {'no case' if not found else 'two cases'}: {text}")

    def _split(self, i: int) -> None:
        t = tag(i)
        self.con.execute(f"CREATE SCHEMA case{i}")
        for table in self.tables:
            cols = self._text_columns(table)
            mine = " OR ".join(f"\"{c}\" ILIKE '%{t}%'" for c in cols) or "false"
            clean = ", ".join(f"regexp_replace(\"{c}\", '{t}', '', 'gi') AS \"{c}\"" for c in cols)
            self.con.execute(f'CREATE TABLE case{i}."{table}" AS SELECT * {f"REPLACE ({clean})" if clean else ""} '
                             f'FROM main."{table}" WHERE {mine}')

    def of(self, name: str):
        """A connection to the shared database that finds `tables` among the case's own rows only."""
        cur = self.con.cursor()
        cur.execute(f"SET search_path = 'case{self.names.index(name)}'")
        return cur

    def alone(self, name: str):
        """The case built in a database of its own (helpers.database, as helpers.built_rows builds), up to
        the same tables as the cases together."""
        con = database(**self.cases[name])
        build(con, Parameters(self.params, as_of=self.as_of), upto=self.upto)
        return con

    def close(self) -> None:
        self.con.close()


def contents(con, tables) -> dict[str, list[tuple]]:
    """Every row of the tables, sorted: for setting a case's rows together against its rows alone."""
    return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}
