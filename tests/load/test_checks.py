"""The loader evaluates the expectation suites as SQL (pipeline/load/checks.py); GX is the
reference. These tests run GX itself and the compiled SQL over the same typed rows, good and bad,
for every expectation type the suites use, and require the same verdict row for row."""

from __future__ import annotations

import datetime as dt
import json

import duckdb
import pandas as pd
import pytest
from examples import examples
from helpers import empty_cursor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.columns import DATE, ENUM, FLAG, MONEY, SQL_TYPE
from pipeline.core.registers import BY_NAME, REGISTERS
from pipeline.load import checks
from pipeline.load.expectations import known_flag, problems_of, suite, validator

pytestmark = [pytest.mark.xdist_group("gx")]


def _columns(reg):
    """The columns of the table the loader checks: _row, the register's columns, the known flags."""
    cols = [("_row", "BIGINT")] + [(c.name, SQL_TYPE[c.kind]) for c in reg.columns]
    cols += [(known_flag(c.name), "BOOLEAN") for c in reg.columns if c.refers_to]
    return cols


def _table(con, reg, rows: list[dict]) -> pd.DataFrame:
    """Create `_checked` holding the rows (typed as the loader types them) and return it as GX sees it."""
    cols = _columns(reg)
    con.execute("CREATE OR REPLACE TEMP TABLE _checked (" + ", ".join(f'"{n}" {t}' for n, t in cols) + ")")
    if rows:
        con.executemany(f"INSERT INTO _checked VALUES ({', '.join('?' for _ in cols)})",
                        [[r.get(n) for n, _ in cols] for r in rows])
    return con.execute("SELECT * FROM _checked ORDER BY _row").df()


def _plain(value):
    """GX hands numbers back as floats (min_value 1 becomes 1.0): compare them as numbers."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _verdicts(found) -> dict:
    return {(e["type"], json.dumps(_plain(e["kwargs"]), sort_keys=True)): [int(h["_row"]) for h in hits]
            for e, hits in found}


def _agree(con, reg, rows):
    frame = _table(con, reg, rows)
    by_gx = validator().unexpected(reg, frame)
    by_sql = checks.unexpected(con, suite(reg), "_checked")
    assert _verdicts(by_sql) == _verdicts(by_gx)
    label = f"registers/{reg.name}.csv"
    as_problems = sorted(repr(p) for e, hits in by_gx for p in problems_of(reg, e, hits, label))
    assert sorted(map(repr, checks.problems(con, reg, suite(reg), "_checked", label))) == as_problems
    # as the loader runs it: the flags in a table of their own (make_checked(narrow=True)), the
    # other expectations on the typed rows
    refers = [c.name for c in reg.columns if c.refers_to]
    flags = ", ".join(f'"{n}"' for n in ["_row", *refers, *(known_flag(r) for r in refers)])
    con.execute(f"CREATE OR REPLACE TEMP TABLE _flags AS SELECT {flags} FROM _checked")
    con.execute("CREATE OR REPLACE TEMP TABLE _rows AS SELECT " + ", ".join(f'"{n}"' for n in ["_row", *reg.names]) + " FROM _checked")
    assert _verdicts(checks.unexpected(con, suite(reg), "_flags", rows="_rows")) == _verdicts(by_gx)
    return by_sql


def _value(col, draw):
    """A value of a column's kind, often missing, from a small domain so that duplicates occur."""
    if draw(st.integers(0, 4)) == 0:
        return None
    if col.kind == MONEY or col.kind == "count":
        return draw(st.sampled_from([-100, 0, 1, 2, 50_000]))
    if col.kind == DATE:
        return draw(st.sampled_from([dt.date(2026, 10, 1), dt.date(2026, 10, 2)]))
    if col.kind == FLAG:
        return draw(st.booleans())
    if col.kind == ENUM:
        return draw(st.sampled_from(list(col.values[:2]) + ["not-a-value"]))
    return draw(st.sampled_from(["A", "B", "C"]))


@st.composite
def _rows(draw, reg):
    n = draw(st.integers(0, 8))
    rows = []
    for i in range(n):
        row = {"_row": i + 2}
        for col in reg.columns:
            row[col.name] = _value(col, draw)
            if col.refers_to:
                row[known_flag(col.name)] = None if row[col.name] is None else draw(st.booleans())
        rows.append(row)
    return rows


USED_TYPES = sorted({e["type"] for reg in REGISTERS for e in suite(reg)["expectations"]})


def test_every_expectation_type_the_suites_use_is_compiled():
    for reg in REGISTERS:
        for exp in suite(reg)["expectations"]:
            checks.compile_expectation(exp, "_checked")      # raises for a type it does not know
    assert set(USED_TYPES) == {
        "expect_column_values_to_not_be_null", "expect_column_values_to_be_null",
        "expect_column_values_to_be_unique", "expect_compound_columns_to_be_unique",
        "expect_column_values_to_be_in_set", "expect_column_values_to_be_between"}


# one register per shape: a single key with enums, counts, money and references (impoundments,
# releases with the void condition), a compound key over a date (rates), a reference table
# (pounds), and a ledger
CORPUS = ["impoundments", "releases", "rates", "pounds", "local_fund", "dm_deposit", "finding_reviews"]


@pytest.mark.parametrize("name", CORPUS)
@settings(max_examples=examples(12), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_gx_and_the_compiled_sql_agree_row_for_row(name, data):
    reg = BY_NAME[name]
    rows = data.draw(_rows(reg))
    con = empty_cursor()
    _agree(con, reg, rows)


def _good_release(row, **over):
    base = {"_row": row, "release_id": f"R{row}", "case_id": "C1", "released_on": dt.date(2026, 10, 3),
            "head_count": 1, "basis": "s12_payment", "released_to": "owner", "fines_paid": 60000,
            "charges_paid": 0, "declaration_made": False, "receipt_signed": True,
            known_flag("case_id"): True}
    base.update(over)
    return base


@pytest.mark.parametrize("bad, expected", [
    ({}, []),
    ({"release_id": None}, ["expect_column_values_to_not_be_null"]),
    ({"release_id": "R2"}, ["expect_column_values_to_be_unique"]),
    ({"basis": "bribe"}, ["expect_column_values_to_be_in_set"]),
    ({"head_count": -1}, ["expect_column_values_to_be_between"]),
    ({"fines_paid": -1}, ["expect_column_values_to_be_between"]),
    ({known_flag("case_id"): False}, ["expect_column_values_to_be_null"]),
    ({"void": True}, ["expect_column_values_to_not_be_null"]),
    ({"void": True, "correction_note": "entered twice"}, []),
    ({"void": False}, []),
])
def test_each_expectation_fires_on_its_bad_row_and_not_on_its_twin(bad, expected):
    """Hand-made: one good row and one row with a single fault; both judges name that fault only."""
    reg = BY_NAME["releases"]
    con = empty_cursor()
    found = _agree(con, reg, [_good_release(2), _good_release(3, **bad)])
    assert sorted(e["type"] for e, _ in found) == sorted(expected)
    for _, hits in found:
        assert 3 in [int(h["_row"]) for h in hits]


def test_pound_validate_runs_gx_over_the_registers_held(tmp_path, golden_bundle, run_cli, shared):
    """The documented way to run GX itself over a loaded database: silent on the golden bundle,
    and naming file and row once a register row held no longer meets its suite."""
    out = shared.run(golden_bundle, "2026-11-30", tmp_path / "out")
    code, stdout, _ = run_cli("validate", "--db", out / "pound.duckdb", "--register", "releases")
    assert code == 0 and "releases:" in stdout and "every expectation met" in stdout
    con = duckdb.connect(str(out / "pound.duckdb"))
    file, row = con.execute("SELECT _file, _row FROM releases ORDER BY _row LIMIT 1").fetchone()
    con.execute("UPDATE releases SET head_count = -2 WHERE _file = ? AND _row = ?", [file, row])
    con.close()
    for judge in ([], ["--sql"]):
        code, stdout, _ = run_cli("validate", "--db", out / "pound.duckdb", "--register", "releases", *judge)
        assert code == 2, stdout
        assert f"{file}, row {row}" in stdout and "head_count" in stdout, stdout
    code, _, err = run_cli("validate", "--db", out / "pound.duckdb", "--register", "relases")
    assert code == 1 and "no register called relases" in err
