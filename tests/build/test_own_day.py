"""A register row's own date is declared once (REGISTERS, event_date) and generated into the macros
own_day_<table>() the SQL reads: stg_dated_rows (the day a row is filed in a month by) and
stg_register_versions (the month a correction touches) give a row the same day. A police report's is
the first of its report, notice and proclamation, in both. No build: the two views' SQL run on an
empty database holding one corrected police report."""

from __future__ import annotations

import datetime as dt
import re

import duckdb
import pytest

from pipeline.core.paths import SQL_DIR
from pipeline.core.registers import REGISTERS
from pipeline.load.schema import current_macros, ensure_schema


@pytest.fixture
def con():
    c = duckdb.connect()
    ensure_schema(c)
    c.execute((SQL_DIR / "macros.sql").read_text(encoding="utf-8"))
    c.execute(current_macros())
    yield c
    c.close()


def _view(con, name: str) -> str:
    return (SQL_DIR / "staging" / f"{name}.sql").read_text(encoding="utf-8")


def test_a_police_report_has_one_own_date_in_both_views(con):
    for version, reported in ((1, None), (2, None)):
        con.execute("INSERT INTO police_reports BY NAME SELECT 'C-1' AS case_id, ? AS reported_on, "
                    "DATE '2026-10-04' AS notice_on, DATE '2026-10-09' AS proclamation_on, ? AS _version, "
                    "false AS void, 'f.csv' AS _file, 1 AS _row, 1 AS _load_id", [reported, version])
    dated = con.execute(f"SELECT day FROM ({_view(con, 'stg_dated_rows')}) WHERE kind = 'police_report'").fetchall()
    versions = con.execute(f"SELECT DISTINCT event_on FROM ({_view(con, 'stg_register_versions')}) "
                           "WHERE register = 'police_reports'").fetchall()
    assert dated == versions == [(dt.date(2026, 10, 4),)]


@pytest.mark.parametrize("reg", [r for r in REGISTERS if r.event_date], ids=lambda r: r.table)
def test_each_dated_register_has_its_macro_and_no_model_restates_it(reg):
    assert f"MACRO own_day_{reg.table}(r) AS {reg.own_day('r')};" in current_macros()
    # the staging models stop at as_of by the macro, never by the column named again
    for path in (SQL_DIR / "staging").glob("stg_*.sql"):
        text = path.read_text(encoding="utf-8")
        for c in reg.event_date:
            assert not re.search(rf"WHERE NOT void AND {c} <= as_of\(\)", text), path.name
