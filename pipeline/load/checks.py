"""The expectation suites of expectations/, evaluated as DuckDB SQL on the loading path.

great_expectations defines what valid data is: the suites are GX suites and a GX verdict is
the reference. Running GX costs seconds before the first row is read (importing it, making a
context) and a copy of every file into pandas, so the loader compiles each expectation of a
suite into one SQL query over the typed rows, which are already in DuckDB. Each compiled query
returns the rows GX would call unexpected, with the same columns GX would list for them.

`tests/load/test_checks.py` runs GX itself and this compiler over a corpus of good and bad
frames for every expectation type the suites use and proves the two agree row for row; an
expectation type not compiled here stops the loader rather than being skipped.
`pound validate` runs GX over the registers of a database (see pipeline/load/expectations.py).
"""

from __future__ import annotations

import duckdb

from pipeline.core.errors import Problem
from pipeline.core.registers import BY_NAME, Register
from pipeline.load import expectations
from pipeline.load.bundle import ROW
from pipeline.load.expectations import known_flag
from pipeline.load.schema import current_rows

OPERATORS = {"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(value) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


def _condition(kwargs: dict) -> str:
    """The row condition of an expectation (GX's `row_condition`), or TRUE."""
    cond = kwargs.get("row_condition")
    if not cond:
        return "TRUE"
    if not isinstance(cond, dict) or cond.get("type") != "comparison" or cond.get("operator") not in OPERATORS:
        raise NotImplementedError(f"row_condition {cond!r} is not compiled to SQL")
    # GX filters the frame with the condition first: a row whose column is missing is left out.
    return f"{_q(cond['column']['name'])} {OPERATORS[cond['operator']]} {_literal(cond['parameter'])}"


UNIQUE = ("expect_column_values_to_be_unique", "expect_compound_columns_to_be_unique")


def _row_test(kind: str, kw: dict) -> str:
    """SQL true of a row that an expectation on single rows calls unexpected (within its row
    condition)."""
    if kind not in ("expect_column_values_to_not_be_null", "expect_column_values_to_be_null",
                    "expect_column_values_to_be_in_set", "expect_column_values_to_be_between"):
        raise NotImplementedError(f"expectation {kind} is not compiled to SQL")
    col = _q(kw["column"])
    if kind == "expect_column_values_to_not_be_null":
        return f"{col} IS NULL"
    if kind == "expect_column_values_to_be_null":
        return f"{col} IS NOT NULL"
    if kind == "expect_column_values_to_be_in_set":
        values = ", ".join(_literal(v) for v in kw["value_set"])
        return f"{col} IS NOT NULL AND {col} NOT IN ({values})"
    tests = []                      # expect_column_values_to_be_between
    if kw.get("min_value") is not None:
        tests.append(f"{col} {'<=' if kw.get('strict_min') else '<'} {_literal(kw['min_value'])}")
    if kw.get("max_value") is not None:
        tests.append(f"{col} {'>=' if kw.get('strict_max') else '>'} {_literal(kw['max_value'])}")
    return f"{col} IS NOT NULL AND ({' OR '.join(tests) or 'FALSE'})"


def _key(kw: dict) -> tuple[list[str], str]:
    """The columns of a uniqueness expectation's key, and SQL true of a row it looks at: a single
    column ignores missing values; a compound key ignores rows missing every part."""
    cols = kw.get("column_list") or [kw["column"]]
    present = (" AND ".join(f"{_q(c)} IS NOT NULL" for c in cols) if len(cols) == 1 and "column" in kw
               else "NOT (" + " AND ".join(f"{_q(c)} IS NULL" for c in cols) + ")")
    return cols, present


def compile_expectation(exp: dict, table: str) -> tuple[str, list[str]]:
    """(SQL returning _row and the listed columns of every unexpected row, those columns)."""
    kind, kw = exp["type"], exp["kwargs"]
    where = _condition(kw)
    if kind in UNIQUE:
        cols, present = _key(kw)
        listed = ", ".join(_q(c) for c in cols)
        return (f"SELECT {ROW}, {listed} FROM (SELECT *, count(*) OVER (PARTITION BY {listed}) AS _n "
                f"FROM {table} WHERE ({where}) AND {present}) WHERE _n > 1"), cols
    return f"SELECT {ROW}, {_q(kw['column'])} FROM {table} WHERE ({where}) AND {_row_test(kind, kw)}", [kw["column"]]


def fails_sql(exp: dict) -> str:
    """SQL aggregate over the table an expectation reads: whether any row of it is unexpected
    (the rows compile_expectation returns, counted in one pass with the suite's other aggregates)."""
    kind, kw = exp["type"], exp["kwargs"]
    where = _condition(kw)
    if kind in UNIQUE:
        cols, present = _key(kw)
        # a key held twice (missing parts compared as equal, as the window of compile_expectation does)
        key = _q(cols[0]) if len(cols) == 1 else "[" + ", ".join(f"CAST({_q(c)} AS VARCHAR)" for c in cols) + "]"
        return (f"count(*) FILTER (WHERE ({where}) AND {present}) "
                f"> count(DISTINCT {key}) FILTER (WHERE ({where}) AND {present})")
    return f"coalesce(bool_or(({where}) AND {_row_test(kind, kw)}), false)"


def make_checked(con: duckdb.DuckDBPyConnection, reg: Register, source: str, into: str = "_checked",
                 narrow: bool = False) -> None:
    """The table the suite is run on: the typed rows of `source` with, for each column that names
    a row of another register, a flag saying whether the database holds that row (in force).
    `narrow`: only `_row`, those columns and their flags, what the expectations on the flags read
    (judge runs the others on `source` itself)."""
    kept = [c.name for c in reg.columns if c.refers_to] if narrow else reg.names
    cols = [f't."{c}"' for c in [ROW] + kept]
    joins = []
    for i, col in enumerate(c for c in reg.columns if c.refers_to):
        table, tcol = col.refers_to.split(".")
        target = BY_NAME[table]
        if not target.correctable:
            in_force = f'SELECT DISTINCT "{tcol}" AS id FROM {table}'
        elif list(target.key) == [tcol]:
            # only the ids the file names are looked up; an id is in force when a row of its
            # latest version is not struck out
            in_force = (f'SELECT "{tcol}" AS id FROM {table} WHERE "{tcol}" IN (SELECT {_q(col.name)} FROM {source}) '
                        f'GROUP BY "{tcol}" HAVING max(CASE WHEN NOT void THEN _version END) = max(_version)')
        else:
            in_force = f'SELECT DISTINCT "{tcol}" AS id FROM {current_rows(target)} WHERE NOT void'
        if table == reg.table:
            # a row may name another row of its own file (impoundments.reseizure_of)
            in_force += f' UNION SELECT "{tcol}" FROM {source} WHERE NOT coalesce(void, false)'
        joins.append(f'LEFT JOIN ({in_force}) k{i} ON k{i}.id = t."{col.name}"')
        cols.append(f'CASE WHEN t."{col.name}" IS NULL THEN NULL ELSE k{i}.id IS NOT NULL END AS "{known_flag(col.name)}"')
    con.execute(f"CREATE OR REPLACE TEMP TABLE {into} AS SELECT {', '.join(cols)} FROM {source} t {' '.join(joins)}")


def judge(con: duckdb.DuckDBPyConnection, reg: Register, label: str, with_gx: bool = False,
          table: str = "_checked", rows: str | None = None) -> list[Problem]:
    """The problems the register's suite finds in `table`: by the compiled SQL, or by GX itself.
    `rows`: the typed rows themselves, on which the compiled expectations that read no flag are
    run (`table` then need hold only the flags: make_checked(narrow=True))."""
    if with_gx:
        frame = con.execute(f"SELECT * FROM {table} ORDER BY {ROW}").df()
        return expectations.validator().validate(reg, frame, label)
    return problems(con, reg, expectations.suite(reg), table, label, rows)


def reads_flag(exp: dict) -> bool:
    """Whether an expectation's row condition is on a flag make_checked adds."""
    cond = exp["kwargs"].get("row_condition")
    return isinstance(cond, dict) and str((cond.get("column") or {}).get("name", "")).endswith(known_flag(""))


def unexpected(con: duckdb.DuckDBPyConnection, suite: dict, table: str,
               rows: str | None = None) -> list[tuple[dict, list[dict]]]:
    """For each expectation of the suite that fails on the table: (expectation, unexpected rows
    in _row order, each a dict of _row and the listed columns); `rows` as for judge."""
    sources = [table if rows is None or reads_flag(exp) else rows for exp in suite["expectations"]]
    compiled = [(exp, *compile_expectation(exp, src)) for exp, src in zip(suite["expectations"], sources, strict=True)]
    if not compiled:
        return []
    # which expectations fail: one aggregate per table read, in one statement (cheaper to plan
    # than a query per expectation); the failing ones are then read whole
    order = [i for src in dict.fromkeys(sources) for i, s in enumerate(sources) if s == src]
    parts = [f"(SELECT {', '.join(fails_sql(compiled[i][0]) for i, s in enumerate(sources) if s == src)} FROM {src})"
             for src in dict.fromkeys(sources)]
    flags = con.execute("SELECT * FROM " + ", ".join(parts)).fetchone()
    failing = {i for i, failed in zip(order, flags, strict=True) if failed}
    out = []
    for i, (exp, sql, cols) in enumerate(compiled):
        if i in failing:
            found = con.execute(f"SELECT * FROM ({sql}) ORDER BY {ROW}").fetchall()
            out.append((exp, [dict(zip([ROW, *cols], r, strict=True)) for r in found]))
    return out


def problems(con: duckdb.DuckDBPyConnection, reg: Register, suite: dict, table: str, label: str,
             rows: str | None = None) -> list[Problem]:
    """The problems GX would report for the suite on the typed rows in `table` (`rows` as for judge)."""
    return [p for exp, hits in unexpected(con, suite, table, rows) for p in expectations.problems_of(reg, exp, hits, label)]


def validate_loaded(con: duckdb.DuckDBPyConnection, reg: Register, with_gx: bool = True) -> tuple[int, list[Problem]]:
    """Run a register's suite over the rows of it the database holds now (the current version of
    each key), file by file as they were loaded: (rows judged, problems, each naming file and row)."""
    files = [f for (f,) in con.execute(f"SELECT DISTINCT _file FROM {current_rows(reg)} ORDER BY 1").fetchall()]
    found: list[Problem] = []
    rows = 0
    for file in files:
        make_checked(con, reg, f"(SELECT * FROM {current_rows(reg)} WHERE _file = {_literal(file)})", "_loaded")
        try:
            rows += con.execute("SELECT count(*) FROM _loaded").fetchone()[0]
            found += judge(con, reg, file, with_gx=with_gx, table="_loaded")
        finally:
            con.execute("DROP TABLE IF EXISTS _loaded")
    return rows, found
